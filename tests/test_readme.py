"""The READMEs document what the code offers, in the layout the docs promise.

The root README is the front door (the two commands first, a catalogue linking every suite README, under 600 lines);
each suite's README (`lgmt_tasks/<suite>/README.md`) has the same eight sections, documents every parameter of every
registered task with its default, and writes its deviations from the paper as bullets whose bold lead sentence is what
the evaluation reports print.

Convention for the parameter tables (`| parameter | default | meaning |`): one row per parameter of the task function,
in signature order; the default cell is the default in backticks exactly as `str()` gives it (`None`, `False`,
`zero_shot_cot`, `1.0`).
"""

from __future__ import annotations

import importlib
import inspect
import re
from pathlib import Path

import pytest
from inspect_ai._util.registry import registry_info

import lgmt_tasks._registry as registry
from lgmt_tasks.report.deviations import DEVIATIONS, deviations, deviations_markdown, parse_deviations
from lgmt_tasks.suites import SUITE_NAMES, SUITES, Suite

ROOT = Path(__file__).resolve().parents[1]
README = (ROOT / "README.md").read_text(encoding="utf-8")

SUITE_SECTIONS = (
    "What it measures",
    "Tasks and parameters",
    "Metrics",
    "Building the dataset",
    "lm-evaluation-harness",
    "Deviations from the paper",
    "Paper tables",
    "Evaluation report",
)
"""The H2 sections of every suite README, in this order."""

OTHER_DOCS = (
    "lgmt_tasks/hub/README.md",
    "lgmt_tasks/report/README.md",
    "lgmt_tasks/verify/README.md",
    "lgmt_tasks/metrics/README.md",
    "benchmarks/README.md",
    "docs/README.md",
)
"""Shared documentation the root README points to for details (`docs/`: the example card it shows)."""


def suite_readme_path(name: str) -> Path:
    return ROOT / "lgmt_tasks" / name / "README.md"


def suite_readme(name: str) -> str:
    return suite_readme_path(name).read_text(encoding="utf-8")


def prose_lines(text: str) -> list[str]:
    """The lines of a Markdown text outside fenced code blocks (a `## ...` inside a fence is no heading)."""
    lines, fenced = [], False
    for line in text.splitlines():
        if line.startswith("```"):
            fenced = not fenced
            continue
        if not fenced:
            lines.append(line)
    return lines


def h2_sections(text: str) -> list[str]:
    return [line[3:].strip() for line in prose_lines(text) if line.startswith("## ")]


def section(text: str, title: str) -> list[str]:
    """The prose lines of one H2 section."""
    lines, inside = [], False
    for line in prose_lines(text):
        if line.startswith("## ") or line.startswith("# "):
            inside = line[3:].strip() == title
            continue
        if inside:
            lines.append(line)
    return lines


def parameter_tables(text: str) -> list[list[tuple[str, str]]]:
    """The `| parameter | default | meaning |` tables of the "Tasks and parameters" section: (name, default) rows."""
    tables: list[list[tuple[str, str]]] = []
    rows: list[tuple[str, str]] | None = None
    for line in section(text, "Tasks and parameters"):
        if re.fullmatch(r"\| parameter \| default \| meaning \|", line.strip()):
            rows = []
            tables.append(rows)
        elif rows is not None and line.startswith("|"):
            if set(line.replace("|", "").strip()) <= {"-", ":"}:
                continue
            match = re.match(r"\| `(\w+)` \| ([^|]*?) \| ", line)
            assert match, f"a parameter row names one parameter in backticks: {line!r}"
            rows.append((match.group(1), match.group(2).strip()))
        else:
            rows = None
    return tables


def documented_default(default: object) -> str:
    return "required" if default is inspect.Parameter.empty else f"`{default}`"


# ------------------------------------------------------------------------------------------------ root README


def test_readme_opens_with_the_two_commands():
    head = README.split("## Contents")[0]
    assert "make demo" in head and "make test" in head
    assert head.index("make demo") < head.index("make test")
    ci = (ROOT / ".ci" / "run").read_text(encoding="utf-8")
    assert "make test" in ci


def test_root_readme_is_a_front_door_that_links_every_suite_readme():
    assert README.count("\n") < 600
    for entry in SUITES:
        assert f"](lgmt_tasks/{entry.name}/README.md)" in README, entry.name
    assert "lgmt suites" in README
    for doc in OTHER_DOCS:
        assert f"]({doc})" in README, doc


# ------------------------------------------------------------------------------------------------ suite READMEs


@pytest.mark.parametrize("entry", SUITES, ids=SUITE_NAMES)
def test_suite_readme_has_the_eight_sections_in_order(entry: Suite):
    text = suite_readme(entry.name)
    assert text.startswith("# "), "a suite README opens with `# <Suite title>`"
    intro = text.split("\n## ", 1)[0]
    assert "](../../README.md)" in intro, "the intro links back to the root README"
    assert tuple(h2_sections(text)) == SUITE_SECTIONS


def test_every_registered_task_belongs_to_a_suite():
    assert sorted(registry.__all__) == sorted(t for s in SUITES for t in s.tasks)


@pytest.mark.parametrize("entry", SUITES, ids=SUITE_NAMES)
def test_every_task_and_parameter_is_documented_with_its_default(entry: Suite):
    text = suite_readme(entry.name)
    signatures: list[inspect.Signature] = []
    for task in entry.tasks:
        assert f"lgmt_tasks/{task}" in text, f"no example runs lgmt_tasks/{task}"
        function = getattr(registry, task)
        signature = inspect.signature(function)
        # Inspect's registry records the task's -T parameters: they are the signature's
        assert registry_info(function).metadata["params"] == list(signature.parameters)
        if signature not in signatures:
            signatures.append(signature)
    tables = parameter_tables(text)
    assert len(tables) == len(signatures), "one parameter table per distinct task signature"
    for signature, table in zip(signatures, tables, strict=True):
        expected = [(name, documented_default(p.default)) for name, p in signature.parameters.items()]
        assert table == expected


@pytest.mark.parametrize("entry", SUITES, ids=SUITE_NAMES)
def test_every_deviation_bullet_has_a_bold_lead(entry: Suite):
    lines = section(suite_readme(entry.name), "Deviations from the paper")
    bullets = 0
    for line in lines:
        if not line.strip():
            continue
        if line.startswith("- "):
            bullets += 1
            match = re.match(r"- \*\*([^*]+)\*\*(.*)$", line)
            assert match, f"no bold lead: {line!r}"
            lead = match.group(1)
            assert lead.endswith("."), f"the lead is a sentence ending with a period: {lead!r}"
            assert not re.search(r"\. [A-Z]", re.sub(r"`[^`]*`", "", lead[:-1])), f"one sentence only: {lead!r}"
            assert len(lead) <= 160, f"the lead is short: {lead!r}"
        else:
            assert line.startswith("  "), f"the section is a bullet list (continuation lines indented): {line!r}"
    assert bullets >= 1
    # every bullet gives its reasons after the lead
    items = "\n".join(lines).split("\n- ")
    assert all(re.sub(r"^-? ?\*\*[^*]+\*\*", "", item).strip() for item in items if item.strip())


@pytest.mark.parametrize("entry", SUITES, ids=SUITE_NAMES)
def test_the_evaluation_report_example_shows_the_deviations_the_report_prints(entry: Suite):
    report = "\n".join(section(suite_readme(entry.name), "Evaluation report"))
    assert "**Deviations from the paper:**\n\n" + deviations_markdown(entry.name) + "\n\n" in report


def test_deviations_are_read_from_the_suite_readmes():
    assert list(DEVIATIONS) == list(SUITE_NAMES)
    for name in SUITE_NAMES:
        items = deviations(name)
        assert len(items) >= 1 and DEVIATIONS[name] == items
        assert deviations_markdown(name).splitlines() == [f"- {item}" for item in items]
    with pytest.raises(ValueError, match="unknown suite 'nope'; expected one of lgmt, "):
        deviations_markdown("nope")
    with pytest.raises(ValueError, match="bold sentence"):
        parse_deviations("# T\n\n## Deviations from the paper\n\n- plain bullet\n")
    with pytest.raises(ValueError, match="no bullets"):
        parse_deviations("# T\n\n## Deviations from the paper\n\n```\n- **In a fence.** no\n```\n")


# ------------------------------------------------------------------------------------------------ links


def slug(heading: str) -> str:
    """GitHub's anchor for a heading."""
    return re.sub(r"[^\w\- ]", "", heading.strip().lower()).replace(" ", "-")


def anchors(path: Path) -> set[str]:
    return {slug(line.lstrip("#")) for line in prose_lines(path.read_text(encoding="utf-8")) if line.startswith("#")}


DOCS = ["README.md", *(f"lgmt_tasks/{name}/README.md" for name in SUITE_NAMES), *OTHER_DOCS]


@pytest.mark.parametrize("doc", DOCS)
def test_relative_links_and_anchors_resolve(doc: str):
    path = ROOT / doc
    broken = []
    for target in re.findall(r"\]\(([^)\s]+)\)", "\n".join(prose_lines(path.read_text(encoding="utf-8")))):
        if re.match(r"[a-z]+://", target):
            continue
        file, _, anchor = target.partition("#")
        linked = (path.parent / file).resolve() if file else path
        if not linked.exists():
            broken.append(target)
        elif anchor and linked.suffix == ".md" and anchor not in anchors(linked):
            broken.append(target)
    assert broken == []


@pytest.mark.parametrize("doc", DOCS)
def test_repository_paths_named_in_the_docs_exist(doc: str):
    """Backticked paths such as `lgmt_tasks/qmfol/report.py` exist (catches paths left over from a move)."""
    text = (ROOT / doc).read_text(encoding="utf-8")
    tasks = {f"lgmt_tasks/{t}" for s in SUITES for t in s.tasks}
    missing = []
    for path in re.findall(r"`((?:lgmt_tasks|tests|benchmarks|scorers|solvers|task_configs)/[\w./<>*{},-]*)", text):
        path = path.split("::")[0].rstrip(".")
        if path in tasks or any(c in path for c in "<>*{"):
            continue
        if not (ROOT / path).exists():
            missing.append(path)
    assert missing == []


REMOVED_NAMES = {"lgmt_tasks.relations", "lgmt_tasks.tasks"}
"""Old module names the docs mention only to say where they moved (the "Moved, and removed in 0.3.0" note)."""


@pytest.mark.parametrize("doc", DOCS)
def test_python_names_in_the_docs_resolve(doc: str):
    """Backticked dotted names such as `lgmt_tasks.qmfol.report.qmfol_samples` import (catches names left over from a
    move)."""
    text = (ROOT / doc).read_text(encoding="utf-8")
    broken = []
    for name in sorted(set(re.findall(r"`(lgmt_tasks(?:\.\w+)+)(?![\w-])", text)) - REMOVED_NAMES):
        parts = name.split(".")
        for i in range(len(parts), 0, -1):
            try:
                obj = importlib.import_module(".".join(parts[:i]))
            except ImportError:
                continue
            try:
                for attr in parts[i:]:
                    obj = getattr(obj, attr)
            except AttributeError:
                broken.append(name)
            break
    assert broken == []

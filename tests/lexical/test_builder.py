"""The lexical builder: the same source cases as LGMT, determinism, proven labels, pending and transformed LLM rows."""

from __future__ import annotations

import json
from typing import Any

import pandas as pd
import pytest
from inspect_ai.model import ChatMessage, ModelAPI, ModelOutput, ModelUsage, get_model, modelapi

from lgmt_tasks.builders.schema import reproduce_command
from lgmt_tasks.builders.stats import BuildStats
from lgmt_tasks.hub.repo import data_file, load_dataset_repo
from lgmt_tasks.lexical.build import FEATURES, LexicalConfig, build_lexical
from lgmt_tasks.lexical.card import write_lexical_repo
from lgmt_tasks.lexical.catalogue import FUNCTION_BASED, LEXICAL_RELATIONS
from lgmt_tasks.lexical.drift import DRIFT_NOTE, drift_frame, drift_note, drift_table
from lgmt_tasks.lgmt.build import build_lgmt
from lgmt_tasks.lgmt.config import LgmtConfig
from lgmt_tasks.logic.parse import parse
from lgmt_tasks.logic.prover import entailment
from lgmt_tasks.sources.pipeline import load_source_cases, prove_sources

CASES = 12
CONFIG = LexicalConfig(mrs=tuple(LEXICAL_RELATIONS), per_mr=2, generated_cases=CASES, seed=3)


@pytest.fixture(scope="module")
def built():
    return build_lexical(CONFIG)


@pytest.fixture(scope="module")
def rows(built) -> list[dict[str, Any]]:
    return [dict(r) for r in built.dataset]


def test_same_seed_gives_identical_rows_and_bytes(built, rows, tmp_path):
    again = build_lexical(CONFIG)
    assert [dict(r) for r in again.dataset] == rows
    write_lexical_repo(built, tmp_path / "a")
    write_lexical_repo(again, tmp_path / "b")
    for name in (data_file("default", "test"), "README.md", "build_stats.json"):  # cards do not name the folder
        assert (tmp_path / "a" / name).read_bytes() == (tmp_path / "b" / name).read_bytes()


def test_another_seed_gives_other_groups(rows):
    other = build_lexical(LexicalConfig(mrs=("MR-1",), parts=("premises",), per_mr=2, generated_cases=CASES, seed=4))
    assert {r["id"] for r in other.dataset}.isdisjoint({r["id"] for r in rows})


def test_the_source_cases_are_lgmts(rows):
    """Group for group comparability: the same proven source cases, ids and labels as LGMT's pipeline gives."""
    stats = BuildStats()
    source_config = LgmtConfig(generated_cases=CASES, seed=3)
    proven = prove_sources(load_source_cases(source_config.source_config(), stats), stats, source_config.timeout_ms)
    lgmt_sources = {(c.source_dataset, c.source_id): c.label for c in proven}
    lexical_sources = {(r["source_dataset"], r["source_id"]): r["label"] for r in rows}
    assert lexical_sources.items() <= lgmt_sources.items()
    lgmt = build_lgmt(LgmtConfig(mrs=("MR-E1.2",), per_mr=CASES, generated_cases=CASES, seed=3))
    overlap = {(r["source_dataset"], r["source_id"]) for r in lgmt.dataset} & set(lexical_sources)
    assert overlap and all(lexical_sources[k] == lgmt_sources[k] for k in overlap)


def test_every_label_is_reproven(rows):
    seen = set()
    for row in rows:
        key = row["source_id"]
        if key in seen:
            continue
        seen.add(key)
        label = entailment([parse(p) for p in row["premises_fol"]], parse(row["conclusion_fol"]))
        assert getattr(label, "value", label) == row["label"], row["source_id"]


def test_variants_and_counts(built, rows):
    by_variant: dict[tuple[str, str], int] = {}
    for row in rows:
        by_variant[(row["mr"], row["part"])] = by_variant.get((row["mr"], row["part"]), 0) + 1
    assert by_variant[("MR-49", "none")] == 2
    assert not any(mr == "MR-49" and part != "none" for mr, part in by_variant)
    # each relation is built on exactly the parts LLMorph transforms for NLI (MR-19 and MR-84: the premises)
    assert set(by_variant) == {(mr, part) for mr, r in LEXICAL_RELATIONS.items() for part in r.parts}
    assert all(n == 2 for n in by_variant.values()), by_variant
    assert list(built.dataset.features) == list(FEATURES)
    assert [r["id"] for r in rows] == sorted(r["id"] for r in rows)
    assert len({r["id"] for r in rows}) == len(rows)


def test_function_rows_change_their_part_and_llm_rows_are_planned(rows):
    for row in rows:
        relation = LEXICAL_RELATIONS[row["mr"]]
        assert (row["name"], row["kind"], row["expected"]) == (relation.name, relation.kind, relation.expected)
        if relation.kind == "llm":
            assert row["pending"] and row["transformer"] == ""
            assert row["followup_premises"] == row["premises"] and row["followup_conclusion"] == row["conclusion"]
            assert bool(row["changed_premises"]) == (row["part"] != "conclusion")
            assert row["changed_conclusion"] == (row["part"] != "premises")
            if row["mr"] == "MR-152" and row["part"] != "conclusion":
                assert len(row["changed_premises"]) == 1
        elif row["mr"] == "MR-49":
            assert row["followup_premises"] == row["premises"] and row["followup_conclusion"] == row["conclusion"]
        else:
            assert not row["pending"] and row["transformer"] == "function"
            assert (row["followup_premises"] != row["premises"]) == (row["part"] != "conclusion")
            assert (row["followup_conclusion"] != row["conclusion"]) == (row["part"] != "premises")


def test_card_and_round_trip(built, rows, tmp_path):
    out = write_lexical_repo(built, tmp_path / "repo")
    assert [dict(r) for r in load_dataset_repo(out)] == rows
    card = (out / "README.md").read_text()
    assert "lgmt build lexical --source generated --mr MR-1" in card
    assert "MR-152 | add negation | llm | difference" in card and "`followup_label`" in card
    assert (
        reproduce_command("lexical", LexicalConfig(), "x") == "lgmt build lexical --source generated --seed 0 --out x"
    )


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"mrs": ("MR-999",)}, "expected one or more of MR-1"),
        ({"mrs": ()}, "expected one or more of MR-1"),
        ({"parts": ("context",)}, "parts="),
        ({"per_mr": 0}, "per_mr=0"),
        ({"source": "folio"}, "needs source_path"),
        ({"source": "snli"}, "source='snli'"),
    ],
)
def test_config_is_validated(kwargs, message):
    with pytest.raises(ValueError, match=message):
        LexicalConfig(**kwargs)


def test_default_config_is_the_function_based_relations():
    assert LexicalConfig().mrs == FUNCTION_BASED


# --------------------------------------------------------------------------- LLM follow-ups made at build time


def scripted_transformer(fail_every: int) -> Any:
    """Paraphrases by swapping 'is' for 'happens to be'; every `fail_every`-th conclusion comes back empty."""
    seen: list[str] = []

    def answer(messages: list[ChatMessage], *_: Any) -> ModelOutput:
        text = messages[-1].text.split('"')[1]
        seen.append(text)
        content = "" if len(seen) % fail_every == 0 else text.replace(" is ", " happens to be ", 1) + " "
        out = ModelOutput.from_content(model="mockllm/model", content=content)
        out.usage = ModelUsage(input_tokens=1, output_tokens=1, total_tokens=2)
        return out

    return get_model("mockllm/model", custom_outputs=answer)


def test_build_with_a_transformer_fills_in_and_refills():
    config = LexicalConfig(mrs=("MR-51",), parts=("conclusion",), per_mr=4, generated_cases=CASES, seed=3)
    build = build_lexical(config, transformer=scripted_transformer(fail_every=3))
    rows = [dict(r) for r in build.dataset]
    assert len(rows) == 4  # failed transformations were replaced by the next source cases
    stats: BuildStats = build.stats
    assert stats.counts["MR-51/conclusion"]["built"] == 4
    assert stats.counts["MR-51/conclusion"]["tried"] == 4 + stats.total_dropped("MR-51/conclusion")
    assert stats.dropped["MR-51/conclusion"]["empty transformer output"] >= 1
    for row in rows:
        assert not row["pending"] and row["transformer"] == "mockllm/model"
        assert row["followup_conclusion"] == row["conclusion"].replace(" is ", " happens to be ", 1)
        assert row["changed_conclusion"] and row["changed_premises"] == []
        assert row["followup_premises"] == row["premises"]


def test_an_empty_build_keeps_its_columns():
    build = build_lexical(LexicalConfig(mrs=("MR-19",), parts=("conclusion",), per_mr=2, generated_cases=CASES))
    assert len(build.dataset) == 0 and list(build.dataset.features) == list(FEATURES)
    assert build.stats.notes["groups"] == 0  # MR-19 reorders premises only: no conclusion variant
    # no row to measure: only the `all` row, with no share
    assert build.stats.notes[DRIFT_NOTE] == {
        "all": {
            "expectation": "",
            "rows": 0,
            "template": 0,
            "reading_drift": None,
            "keyword_sources": 0,
            "keyword_drift": None,
        }
    }


def test_build_stats_record_the_drift_of_the_built_rows(built, rows, tmp_path):
    """`notes.drift`: per relation, drift.py's shares on the built rows; pending LLM rows are not measured."""
    note = built.stats.notes[DRIFT_NOTE]
    assert note == drift_note(rows)
    measured = {r["mr"] for r in rows if not r["pending"]}
    assert set(note) == measured | {"assumed", "proven", "all"} and measured == set(FUNCTION_BASED)
    table = drift_table(rows).set_index("relation")
    for relation, figures in note.items():
        assert figures["rows"] == table.loc[relation, "rows"]
        for share in ("reading_drift", "keyword_drift"):
            assert isinstance(figures[share], float) and 0.0 <= figures[share] <= 1.0
            assert figures[share] == table.loc[relation, share]
    for relation in measured:
        assert note[relation]["rows"] == sum(1 for r in rows if r["mr"] == relation)
    assert note["all"]["rows"] == sum(1 for r in rows if not r["pending"])
    assert note["MR-49"]["reading_drift"] == 0.0 and note["MR-1"]["reading_drift"] == 1.0
    # the note survives `build_stats.json` (sorted keys) and reads back as the table, in its order
    out = write_lexical_repo(built, tmp_path / "repo")
    written = json.loads((out / "build_stats.json").read_text(encoding="utf-8"))["notes"][DRIFT_NOTE]
    assert written == note
    pd.testing.assert_frame_equal(drift_frame(written), drift_table(rows))


def test_sources_a_relation_is_not_tested_on_are_dropped_and_counted(rows, built):
    by_mr: dict[str, set[str]] = {}
    for row in rows:
        by_mr.setdefault(row["mr"], set()).add(row["label"])
    for mr in ("MR-10", "MR-25", "MR-34"):  # difference with no logical reading: LLMorph's non-neutral filter
        assert "Unknown" not in by_mr[mr]
        reasons = set(built.stats.dropped.get(f"{mr}/premises", {}))
        assert reasons <= {"source label not in False/True (the relation's expected change needs it)"}
    for mr in ("MR-77", "MR-78", "MR-79", "MR-80"):  # LLMorph tests them on entailment sources only
        assert by_mr[mr] == {"True"}


def test_expectations_are_stated_and_proven_where_the_relation_has_a_logical_reading(rows):
    for row in rows:
        relation = LEXICAL_RELATIONS[row["mr"]]
        if row["mr"] in ("MR-19", "MR-84", "MR-152"):
            assert row["expectation"] == "proven" and row["followup_label"]
            proven = entailment([parse(p) for p in row["followup_premises_fol"]], parse(row["followup_conclusion_fol"]))
            assert proven.value == row["followup_label"], row["id"]
            assert (row["followup_label"] != row["label"]) == (relation.expected == "difference")
        elif relation.expected == "equivalence":
            assert row["expectation"] == "assumed" and row["followup_label"] == row["label"]
        else:
            assert row["followup_label"] == "" and not row["followup_premises_fol"]
            assert row["expectation"] == ("unproven" if relation.expected == "difference" else "assumed")


def test_the_loader_refuses_an_empty_selection(built, tmp_path):
    from lgmt_tasks.lexical.dataset import load_lexical_rows

    out = write_lexical_repo(built, tmp_path / "repo")
    assert len(load_lexical_rows(("MR-1",), ("premises",), dataset=str(out))) == 2
    assert {r["part"] for r in load_lexical_rows(("MR-1", "MR-49"), ("both",), dataset=str(out))} == {"both", "none"}
    with pytest.raises(ValueError, match=r"no lexical groups for relations \['MR-19'\] and parts \['conclusion'\]"):
        load_lexical_rows(("MR-19",), ("conclusion",), dataset=str(out))


# ------------------------------------------------------------------------------------------------------ the CLI


def test_cli_builds_function_relations(tmp_path):
    from click.testing import CliRunner

    from lgmt_tasks.cli import main

    out = tmp_path / "lexical"
    args = ["build", "lexical", "--mr", "MR-126,MR-49", "--part", "premises", "--per-mr", "2"]
    result = CliRunner().invoke(main, [*args, "--generated-cases", str(CASES), "--out", str(out)])
    assert result.exit_code == 0, result.output
    assert "4 groups from" in result.output and "| MR-126/premises |" in result.output
    rows = load_dataset_repo(out)
    assert sorted({(r["mr"], r["part"]) for r in rows}) == [("MR-126", "premises"), ("MR-49", "none")]


def test_cli_refuses_an_unknown_relation_and_ignores_a_transformer_without_llm_relations(tmp_path):
    from click.testing import CliRunner

    from lgmt_tasks.cli import main

    out = tmp_path / "lexical"
    args = ["build", "lexical", "--part", "premises", "--per-mr", "1", "--generated-cases", str(CASES), "--out"]
    refused = CliRunner().invoke(main, [*args, str(out), "--mr", "MR-999"])
    assert refused.exit_code == 2 and "Invalid value for --mr" in refused.output and "MR-999" in refused.output
    result = CliRunner().invoke(main, [*args, str(out), "--mr", "MR-49", "--transformer-model", "lexicaltest/echo"])
    assert result.exit_code == 0, result.output
    card = (out / "README.md").read_text()
    assert "--transformer-model" not in card  # no LLM relation: no transformer
    assert "lgmt build lexical --source generated --mr MR-49 --part premises --per-mr 1" in card


@modelapi(name="lexicaltest")
def lexicaltest() -> type[ModelAPI]:
    """A provider the CLI can name (`lexicaltest/echo`): prefixes each sentence with "Reportedly, "."""

    class Echo(ModelAPI):
        async def generate(self, input: list[ChatMessage], tools: Any, tool_choice: Any, config: Any) -> ModelOutput:
            text = input[-1].text.split('"')[1]
            out = ModelOutput.from_content(model="echo", content=f"Reportedly, {text[0].lower()}{text[1:]}")
            out.usage = ModelUsage(input_tokens=1, output_tokens=1, total_tokens=2)
            return out

    return Echo


def test_cli_builds_llm_relations_with_a_transformer(tmp_path):
    from click.testing import CliRunner

    from lgmt_tasks.cli import main

    out = tmp_path / "llm"
    args = ["build", "lexical", "--mr", "MR-8", "--part", "conclusion", "--per-mr", "2", "--out", str(out)]
    refused = CliRunner().invoke(main, [*args, "--generated-cases", str(CASES)])
    assert refused.exit_code != 0 and "MR-8 are LLM-based: pass --transformer-model" in refused.output
    transformer = ["--transformer-model", "lexicaltest/echo"]
    result = CliRunner().invoke(main, [*args, "--generated-cases", str(CASES), *transformer])
    assert result.exit_code == 0, result.output
    rows = list(load_dataset_repo(out))
    assert len(rows) == 2 and {r["transformer"] for r in rows} == {"lexicaltest/echo"}
    for row in rows:
        assert not row["pending"] and row["followup_conclusion"].startswith("Reportedly, ")
    assert "--transformer-model lexicaltest/echo" in (out / "README.md").read_text()

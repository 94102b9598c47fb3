"""Model translation with a Z3-checked round trip, and the paper's translation audit, on scripted models.

The scripted translator (`mockllm/model` with a callable `custom_outputs`) answers the forward prompt by looking up
the transformed formula it was shown, and the back-translation prompt by looking up the English sentence; each
lookup holds one reply per attempt. So every outcome (accepted, drift, unparsable, accepted on retry) is produced on
purpose and the statistics can be asserted exactly.
"""

from __future__ import annotations

import re
import uuid
from collections import Counter
from pathlib import Path
from typing import Any

import anyio
import datasets
import pytest
from click.testing import CliRunner
from inspect_ai.model import ChatMessage, ModelOutput, ModelUsage, get_model

from lgmt_tasks.builders.schema import reproduce_command
from lgmt_tasks.builders.stats import BuildStats
from lgmt_tasks.cli import main
from lgmt_tasks.hub.repo import CardSpec, write_dataset_repo
from lgmt_tasks.lgmt.audit_translations import (
    AUDIT_SYSTEM_PROMPT,
    AUDIT_USER_TEMPLATE,
    audit_items,
    audit_translations,
    read_verdict,
)
from lgmt_tasks.lgmt.build import FEATURES, LgmtBuild
from lgmt_tasks.lgmt.card import card_body
from lgmt_tasks.lgmt.config import LgmtConfig
from lgmt_tasks.lgmt.translate import (
    BACK_SYSTEM_PROMPT,
    NO_ORIGINAL,
    TRANSLATION_SYSTEM_PROMPT,
    TRANSLATION_USER_TEMPLATE,
    json_string_field,
    paper_notation,
    targets,
    translate_build,
    with_translation,
)
from lgmt_tasks.logic.parse import parse


def make_row(
    id: str,
    followup_premises_fol: list[str],
    followup_conclusion_fol: str,
    realised_premises: list[int],
    realised_conclusion: bool,
    translator: str = "template",
) -> dict[str, Any]:
    premises_fol = ["Kind(judy)", "∀x (Kind(x) → Brave(x))"]
    return {
        "id": id,
        "mr": "MR-C3",
        "category": "MR-C",
        "direction": "forward",
        "variant": "paper",
        "law": "",
        "source_dataset": "scripted",
        "source_id": id,
        "premises": ["Judy is kind.", "For all x, if x is kind, then x is brave."],
        "premises_fol": premises_fol,
        "conclusion": "Judy is brave.",
        "conclusion_fol": "Brave(judy)",
        "label": "True",
        "followup_premises": [f"template premise {i}" for i in range(len(followup_premises_fol))],
        "followup_premises_fol": followup_premises_fol,
        "followup_conclusion": "template conclusion",
        "followup_conclusion_fol": followup_conclusion_fol,
        "changed": "conclusion",
        "site": "",
        "translator": translator,
        "realised_premises": realised_premises,
        "realised_conclusion": realised_conclusion,
        "spliced_premises": [],
        "spliced_conclusion": False,
        "extra_followups": [],
    }


PREMISES = ["Kind(judy)", "∀x (Kind(x) → Brave(x))"]
ROWS = [
    # accepted at the first attempt: the conclusion ¬¬Brave(judy)
    make_row("faithful", PREMISES, "¬¬Brave(judy)", [], True),
    # the model drops the outer negation's scope: back-translation not equivalent, twice
    make_row("drifting", ["¬(Kind(judy) ∧ Brave(judy))", PREMISES[1]], "Brave(judy)", [0], False),
    # the forward reply is prose, not the JSON object
    make_row("prose", PREMISES, "Brave(judy) ∨ ⊥", [], True),
    # the back-translation is JSON but not a formula
    make_row("broken-fol", PREMISES, "Brave(judy) ∧ ⊤", [], True),
    # nothing realised: passes through unchanged
    make_row("unchanged", list(reversed(PREMISES)), "Brave(judy)", [], False),
    # drift at the first attempt, accepted at the second; a new premise (index 2) with no source premise
    make_row("retried", [*PREMISES, "∃x (Brave(x))"], "Brave(judy)", [2], False),
]

# transformed formula as shown to the model -> one forward reply per attempt
FORWARD = {
    "--Brave(judy)": ['{"translation": "it is not the case that it is not the case that judy is brave."}'],
    "-(Kind(judy) & Brave(judy))": ['{"translation": "both it is not the case that judy is kind, and judy is brave."}']
    * 2,
    "Brave(judy) | 0": ["Sure! Either judy is brave or it is logically false."] * 2,
    "Brave(judy) & 1": ['```json\n{"translation": "both judy is brave, and it is logically true."}\n```'] * 2,
    "exists x. (Brave(x))": [
        '{"translation": "for all x, x is brave."}',
        '{"translation": "There exists at least one x, such that x is brave."}',
    ],
}
# English sentence -> back-translation reply
BACK = {
    "it is not the case that it is not the case that judy is brave.": '{"fol": "--Brave(judy)"}',
    "both it is not the case that judy is kind, and judy is brave.": '{"fol": "(-Kind(judy) & Brave(judy))"}',
    "both judy is brave, and it is logically true.": '{"fol": "Brave(judy) & & $true"}',
    "for all x, x is brave.": '{"fol": "forall x. (Brave(x))"}',
    "There exists at least one x, such that x is brave.": '{"fol": "exists x. (Brave(x))"}',
}


def _field(prompt: str, label: str) -> str:
    match = re.search(rf"^{re.escape(label)}: (.*)$", prompt, flags=re.MULTILINE)
    assert match, f"{label!r} not in prompt:\n{prompt}"
    return match.group(1)


class ScriptedTranslator:
    """Replies from FORWARD / BACK by prompt; records prompts and how many calls overlap."""

    def __init__(self) -> None:
        self.forward_calls: Counter[str] = Counter()
        self.prompts: list[tuple[str, str]] = []
        self.active = 0
        self.max_active = 0

    async def __call__(self, messages: list[ChatMessage], *_: Any) -> ModelOutput:
        system, user = messages
        self.prompts.append((system.text, user.text))
        self.active += 1
        self.max_active = max(self.max_active, self.active)
        await anyio.sleep(0.01)
        self.active -= 1
        if system.text == TRANSLATION_SYSTEM_PROMPT:
            target = _field(user.text, "Transformed Logic Formula (TARGET)")
            reply = FORWARD[target][self.forward_calls[target]]
            self.forward_calls[target] += 1
        else:
            assert system.text == BACK_SYSTEM_PROMPT
            reply = BACK[_field(user.text, "English sentence")]
        output = ModelOutput.from_content(model="mockllm/model", content=reply)
        output.usage = ModelUsage(input_tokens=10, output_tokens=5, total_tokens=15)  # no tokenizer download
        return output


@pytest.fixture(scope="module")
def translated() -> tuple[datasets.Dataset, BuildStats, ScriptedTranslator]:
    script = ScriptedTranslator()
    model = get_model("mockllm/model", custom_outputs=script, memoize=False)
    dataset = datasets.Dataset.from_list(ROWS, features=FEATURES)
    out, stats = translate_build(dataset, model, attempts=2, max_connections=3)
    return out, stats, script


def test_accepted_rejected_and_unchanged_groups(translated):
    out, _, _ = translated
    assert out.features == FEATURES
    rows = {r["id"]: r for r in out}
    assert list(rows) == ["faithful", "unchanged", "retried"]  # the dataset's order
    assert rows["faithful"]["translator"] == "model"
    assert rows["faithful"]["followup_conclusion"] == "it is not the case that it is not the case that judy is brave."
    assert rows["faithful"]["followup_premises"] == ["template premise 0", "template premise 1"]
    assert rows["retried"]["translator"] == "model"
    assert rows["retried"]["followup_premises"][2] == "There exists at least one x, such that x is brave."
    assert rows["retried"]["followup_conclusion"] == "template conclusion"
    assert rows["unchanged"] == ROWS[4]  # nothing to translate: untouched, still template


def test_statistics_count_groups_and_attempts_by_reason(translated):
    _, stats, _ = translated
    assert dict(stats.counts["translation"]) == {
        "candidates": 6,
        "tried": 5,
        "proven": 2,
        "unchanged": 1,
        "sentences": 5,
    }
    assert dict(stats.dropped["translation"]) == {
        "translation drift": 1,
        "translation unparsable": 1,
        "back-translation unparsable": 1,
    }
    # attempts: faithful 1, drifting 2, prose 2, broken-fol 2, retried 2
    assert dict(stats.counts["translation attempts"]) == {
        "candidates": 5,
        "tried": 9,
        "proven": 2,
        "translation drift": 3,
        "translation unparsable": 2,
        "back-translation unparsable": 2,
        "model calls": 16,  # 9 forward calls, and 7 back calls (none after the two prose replies)
    }
    assert "translation attempts" not in stats.dropped  # attempts are counted, only groups are dropped
    assert stats.notes["translation"] == {"translator": "model", "model": "mockllm/model", "attempts": 2}


def test_prompts_are_the_papers_and_the_back_translation_never_sees_the_formula(translated):
    _, _, script = translated
    forward = [u for s, u in script.prompts if s == TRANSLATION_SYSTEM_PROMPT]
    back = [u for s, u in script.prompts if s == BACK_SYSTEM_PROMPT]
    assert len(forward) == 9 and len(back) == 7
    # conclusion: the source conclusion is the context
    assert (
        TRANSLATION_USER_TEMPLATE.format(
            original_fol="Brave(judy)", original_nl="Judy is brave.", transformed_fol="--Brave(judy)"
        )
        in forward
    )
    # a rewritten premise: the source premise at its index
    assert (
        TRANSLATION_USER_TEMPLATE.format(
            original_fol="Kind(judy)", original_nl="Judy is kind.", transformed_fol="-(Kind(judy) & Brave(judy))"
        )
        in forward
    )
    # a new premise: no source premise at index 2
    assert (
        TRANSLATION_USER_TEMPLATE.format(
            original_fol=NO_ORIGINAL, original_nl=NO_ORIGINAL, transformed_fol="exists x. (Brave(x))"
        )
        in forward
    )
    faithful_back = next(u for u in back if "judy is brave." in u and "not the case" in u and "kind" not in u)
    assert _field(faithful_back, "Predicate symbols (name/arity)") == "Brave/1"
    assert _field(faithful_back, "Constant symbols") == "judy"
    assert "--Brave" not in faithful_back and "¬" not in faithful_back


def test_calls_are_concurrent_and_bounded(translated):
    _, _, script = translated
    assert 1 < script.max_active <= 3


def test_with_translation_merges_statistics_and_the_card_records_the_translator(translated):
    out, stats, _ = translated
    base = BuildStats()
    base.count("MR-C3", "proven", 6)
    base.notes.update(groups=6, candidate_pool=10)
    merged = with_translation(
        LgmtBuild(datasets.Dataset.from_list(ROWS, features=FEATURES), base, LgmtConfig()), out, stats
    )
    assert merged.stats.notes["groups"] == 3
    assert merged.stats.counts["MR-C3"]["proven"] == 6 and merged.stats.counts["translation"]["proven"] == 2
    card = card_body(merged, "datasets/lgmt-model")
    assert "--translator model --translator-model mockllm/model --translation-attempts 2" in card
    assert "translation drift: 3" in card and "| translation | 6 | 5 | 2 |" in card
    assert "--translator" not in reproduce_command("lgmt", LgmtConfig(), "out")  # a template build: no translation


@pytest.mark.parametrize(
    ("reply", "expected"),
    [
        ('{"translation": "x is red."}', "x is red."),
        ('  ```json\n{"translation": " x is red. "}\n```  ', "x is red."),
        ('{"translation": "x is red.", "note": "extra keys are fine"}', "x is red."),
        ('Here it is: {"translation": "x is red."}', None),
        ('{"translation": ""}', None),
        ('{"translation": ["x is red."]}', None),
        ('["x is red."]', None),
        ("x is red.", None),
    ],
)
def test_translation_json_is_read_strictly(reply, expected):
    assert json_string_field(reply, "translation") == expected


def test_paper_notation_spells_truth_constants_as_the_prompt_does():
    assert paper_notation(parse("(P(a) ∧ ⊤) ∨ ⊥")) == "(P(a) & 1) | 0"
    assert paper_notation(parse("∀x (P(x) ↔ ¬Q(x))")) == "forall x. (P(x) <-> -Q(x))"
    assert paper_notation(parse("P(1) ∧ ⊤")) == "P(1) & $true"  # a symbol named 1: keep the unambiguous form


def test_cli_validates_the_translator_options(tmp_path):
    runner = CliRunner()
    result = runner.invoke(main, ["build", "lgmt", "--translator", "model", "--out", str(tmp_path)])
    assert result.exit_code == 2 and "--translator-model" in result.output
    result = runner.invoke(main, ["build", "lgmt", "--translator-model", "m", "--out", str(tmp_path)])
    assert result.exit_code == 2 and "only used with --translator model" in result.output
    result = runner.invoke(
        main,
        [
            "build",
            "lgmt",
            "--translator",
            "model",
            "--translator-model",
            "m",
            "--translation-attempts",
            "0",
            "--out",
            str(tmp_path),
        ],
    )
    assert result.exit_code == 2


# --- the audit (Appendix C.3) ---------------------------------------------------------------------------------

AUDIT_ROWS = [
    make_row("m1", PREMISES, "¬¬Brave(judy)", [], True, translator="model"),
    make_row("m2", ["¬(Kind(judy) ∧ Brave(judy))", PREMISES[1]], "Brave(judy) ∨ ⊥", [0], True, translator="model"),
    make_row("m3", [*PREMISES, "∃x (Brave(x))"], "Brave(judy)", [2], False, translator="model"),
    make_row("t1", PREMISES, "Brave(judy) ∧ ⊤", [], True),
    make_row("m4", list(reversed(PREMISES)), "Brave(judy)", [], False, translator="model"),  # nothing realised
]
# formula shown to the auditor -> verdict
VERDICTS = {
    "--Brave(judy)": '{"label": "True"}',
    "-(Kind(judy) & Brave(judy))": '{ "label": "False" }',
    "Brave(judy) | 0": '```json\n{"label": "false"}\n```',
    "exists x. (Brave(x))": "The structure is preserved, so True.",  # prose: unparsed
    "Brave(judy) & 1": '{"label": "False"}',
}


class ScriptedAuditor:
    def __init__(self) -> None:
        self.prompts: list[str] = []

    def __call__(self, messages: list[ChatMessage], *_: Any) -> ModelOutput:
        system, user = messages
        assert system.text == AUDIT_SYSTEM_PROMPT
        self.prompts.append(user.text)
        output = ModelOutput.from_content(model="mockllm/model", content=VERDICTS[_field(user.text, "FOL Formula")])
        output.usage = ModelUsage(input_tokens=10, output_tokens=5, total_tokens=15)
        return output


def unique_name() -> str:
    """A folder name never loaded before: `load_dataset_repo` (Hugging Face `load_dataset` on a local folder) caches
    by folder name and config, not content, so a reused name can return another test's rows."""
    return f"built-{uuid.uuid4().hex}"


def auditor() -> tuple[ScriptedAuditor, Any]:
    script = ScriptedAuditor()
    return script, get_model("mockllm/model", custom_outputs=script, memoize=False)


def test_audit_reports_the_flagged_share_over_model_translated_sentences(tmp_path: Path):
    folder = write_dataset_repo(
        tmp_path / unique_name(),
        {"default": {"test": datasets.Dataset.from_list(AUDIT_ROWS, features=FEATURES)}},
        CardSpec(pretty_name="scripted", license="mit", body="scripted"),
    )
    script, model = auditor()
    result = audit_translations(folder, model)
    # m1 conclusion: True; m2 premise 0: False, m2 conclusion: False (fenced JSON, lower case); m3 premise 2: prose
    assert (result.asked, result.audited, result.unparsed, result.flagged) == (4, 3, 1, 2)
    assert result.flagged_share == 2 / 3
    assert result.flagged_groups() == ["m2"]
    summary = result.summary()
    assert summary["flagged_ids"] == ["m2"] and summary["groups"] == 3
    assert summary["flagged_group_share"] == 1 / 3 and summary["unparsed_share"] == 1 / 4
    assert [(s["id"], s["where"]) for s in summary["flagged_sentences"]] == [("m2", "premise 0"), ("m2", "conclusion")]
    assert AUDIT_USER_TEMPLATE.format(fol="--Brave(judy)", nl="template conclusion") in script.prompts


def test_audit_includes_template_rows_on_request_and_limits_groups():
    dataset = datasets.Dataset.from_list(AUDIT_ROWS, features=FEATURES)
    _, model = auditor()
    result = audit_translations(dataset, model, include_template=True)
    assert (result.asked, result.flagged) == (5, 3)
    assert result.flagged_groups() == ["m2", "t1"]
    assert [(i.id, i.where) for i in audit_items(AUDIT_ROWS, limit=2)] == [
        ("m1", "conclusion"),
        ("m2", "premise 0"),
        ("m2", "conclusion"),
    ]


@pytest.mark.parametrize(
    ("reply", "label"),
    [
        ('{"label": "True"}', "True"),
        ('{ "label": "False" }', "False"),
        ('{"label": "Unknown"}', None),
        ("False", None),
        ("The answer is False.", None),
    ],
)
def test_audit_verdicts_are_read_strictly(reply, label):
    assert read_verdict(reply) == label


def test_audit_cli_refuses_a_dataset_without_translated_sentences(tmp_path: Path):
    template_only = [r for r in AUDIT_ROWS if r["translator"] == "template"]
    folder = write_dataset_repo(
        tmp_path / unique_name(),
        {"default": {"test": datasets.Dataset.from_list(template_only, features=FEATURES)}},
        CardSpec(pretty_name="scripted", license="mit", body="scripted"),
    )
    result = CliRunner().invoke(main, ["audit-translations", str(folder), "--model", "mockllm/model"])
    assert result.exit_code == 1
    assert "no translated follow-up sentence" in result.output and "--include-template" in result.output


def test_a_sentence_that_keeps_source_wording_is_no_translation_target() -> None:
    """A spliced sentence keeps the source's wording for what did not change; translating it whole would lose it."""
    row = make_row("spliced", ["Kind(judy) ∧ ⊤", PREMISES[1]], "¬¬Brave(judy)", [0], True)
    assert [t.where for t in targets(row)] == ["premise 0", "conclusion"]
    spliced = {**row, "spliced_premises": [0], "spliced_conclusion": True}
    assert targets(spliced) == []
    assert [t.where for t in targets({**row, "spliced_premises": [0]})] == ["conclusion"]

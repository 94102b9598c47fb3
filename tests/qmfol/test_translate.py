"""The LLM translator path with a scripted `mockllm/model`: a faithful translation passes, a drifting one is
regenerated, then discarded; the statistics count attempts, passes and discards exactly."""

from __future__ import annotations

import re
from collections import Counter
from typing import Any

import pytest
from inspect_ai.model import ChatMessage, ModelOutput, ModelUsage, get_model

from lgmt_tasks.logic.parse import parse
from lgmt_tasks.logic.printer import show
from lgmt_tasks.logic.syntax import Formula, Not
from lgmt_tasks.qmfol.build import build_qmfol
from lgmt_tasks.qmfol.card import card_body
from lgmt_tasks.qmfol.config import QmfolConfig
from lgmt_tasks.qmfol.construction import make_logic_task
from lgmt_tasks.qmfol.english import QmfolLexicon, read, realise, task_lexicon
from lgmt_tasks.qmfol.translate import (
    TranslationFormatError,
    fol2nl_prompt,
    nl2fol_prompt,
    parse_fol2nl,
    parse_nl2fol,
)

CONFIG = QmfolConfig(
    depths=(2,),
    widths=(2,),
    distractors=(1,),
    topics=("Food",),
    seeds=1,
    translator="model",
    translator_model="mockllm/model",
    max_attempts=2,
)
LEXICON: QmfolLexicon = task_lexicon("Food", 12, 99)


def negate_first_literal(f: Formula) -> Formula:
    """A drifted reading: the conclusion's first literal loses (or gains) its negation."""
    from lgmt_tasks.logic.syntax import And, Exists, Forall, Implies, Or

    if isinstance(f, Forall | Exists):
        return type(f)(f.var, negate_first_literal(f.body))
    if isinstance(f, Implies):
        return Implies(negate_first_literal(f.left), f.right)
    if isinstance(f, And | Or):
        return type(f)((negate_first_literal(f.args[0]), *f.args[1:]))
    return f.body if isinstance(f, Not) else Not(f)


class ScriptedTranslator:
    """FOL2NL: the template realiser (faithful), a drifted conclusion, or garbage, by a per-task plan keyed by the
    conclusion's FOL; NL2FOL: our reader, faithfully."""

    def __init__(self, plans: dict[str, list[str]]) -> None:
        self.plans = plans
        self.calls: Counter[str] = Counter()

    def __call__(self, messages: list[ChatMessage], *_: Any) -> ModelOutput:
        prompt = messages[-1].text
        task_part = prompt.split("### Now Do The Task", 1)[1]
        if "FOLs:" in task_part:
            fols = [parse(m) for m in re.findall(r"^F\d+: (.+)$", task_part.split("FOLs:", 1)[1], re.MULTILINE)]
            key = show(fols[-1])
            behaviour = self.plans[key][self.calls[key]]
            self.calls[key] += 1
            if behaviour == "garbage":
                text = "Sorry, I can only describe food in general terms."
            else:
                if behaviour == "drift":
                    fols[-1] = negate_first_literal(fols[-1])
                mapping = "\n".join(f"{line}." for line in LEXICON.mapping())
                sentences = "\n".join(f"S{k}: {realise(f, LEXICON)}" for k, f in enumerate(fols, start=1))
                text = (
                    f"1) Domain: food items at a market.\n2) Mapping List:\n{mapping}\n"
                    f"3) Natural Language Restatement:\n{sentences}"
                )
        else:
            sentences = re.findall(r"^S\d+: (.+)$", task_part.split("Sentences:", 1)[1], re.MULTILINE)
            text = "\n".join(f"F{k}: {show(read(s, LEXICON))}" for k, s in enumerate(sentences, start=1))
        output = ModelOutput.from_content(model="mockllm/model", content=text)
        output.usage = ModelUsage(input_tokens=100, output_tokens=50, total_tokens=150)
        return output


def test_faithful_passes_drift_is_regenerated_then_discarded() -> None:
    conclusions = {label: show(make_logic_task(2, 2, 0, label, 1).conclusion) for label in ("True", "False", "Unknown")}
    plans = {
        conclusions["True"]: ["faithful"],
        conclusions["False"]: ["drift", "faithful"],
        conclusions["Unknown"]: ["garbage", "drift"],
    }
    model = ScriptedTranslator(plans)
    build = build_qmfol(CONFIG, model=get_model("mockllm/model", custom_outputs=model))
    rows = {r["label"]: r for r in build.dataset}
    assert set(rows) == {"True", "False"}  # the Unknown task was discarded
    assert (rows["True"]["attempts"], rows["False"]["attempts"]) == (1, 2)
    assert {r["translator"] for r in rows.values()} == {"model"}
    assert rows["True"]["entity"] == "food items at a market"
    assert rows["True"]["predicates"][:2] == [f"{line}" for line in LEXICON.mapping()[:2]]
    task = make_logic_task(2, 2, 0, "True", 1)
    assert rows["True"]["premises"] == [realise(f, LEXICON) for f in task.presented]
    assert rows["True"]["conclusion"] == realise(task.conclusion, LEXICON)
    counts, dropped = build.stats.counts["translation"], build.stats.dropped
    assert dict(counts) == {"tasks": 3, "attempts": 5, "passes": 2, "discards": 1}
    assert dict(dropped["translation attempts"]) == {"drift": 2, "format": 1}
    assert dict(dropped["d2_w2"]) == {"translation discarded": 1}
    assert model.calls == {conclusions["True"]: 1, conclusions["False"]: 2, conclusions["Unknown"]: 2}
    card = card_body(build, "out")
    assert "5 attempts, 2 passes, 1 tasks discarded after 2 attempts" in card
    assert "--translator model --translator-model mockllm/model --translation-attempts 2" in card


def test_prompts_follow_figure_3_and_replies_are_parsed() -> None:
    task = make_logic_task(2, 1, 0, "False", 0, form="ground")  # ground: the reply must name the object
    formulas = (*task.presented, task.conclusion)
    prompt = fol2nl_prompt("Animal", formulas)
    for part in ("### Task", "### Conversion Rules", "### Example", "### Now Do The Task", "Topic: Animal"):
        assert part in prompt
    assert prompt.endswith("\n".join(f"F{k}: {show(f)}" for k, f in enumerate(formulas, start=1)))
    lx = task_lexicon("Animal", 4, 0)
    reply = (
        "1) Domain: animals in a zoo.\n2) Mapping List:\n" + "\n".join(lx.mapping()) + "\n3) Natural Language "
        "Restatement:\n" + "\n".join(f"S{k}: {realise(f, lx)}" for k, f in enumerate(formulas, start=1))
    )
    forward = parse_fol2nl(reply, formulas)
    assert forward.domain == "animals in a zoo" and forward.names == {"a": lx.name("a")}
    back = nl2fol_prompt(forward)
    assert "Sentences:\nS1: " in back and "FOLs" not in back.split("### Now Do The Task")[1]
    assert parse_nl2fol("F1: P0(a)\nF2: ∀x (P1(x) → ¬P2(x))", 2) == [parse("P0(a)"), parse("∀x (P1(x) → ¬P2(x))")]
    with pytest.raises(TranslationFormatError, match="S3"):
        parse_fol2nl(reply.split("S3:")[0], formulas)
    with pytest.raises(TranslationFormatError, match="meaning for P1"):
        parse_fol2nl(reply.replace("P1(x):", "Q(x):"), formulas)
    with pytest.raises(TranslationFormatError, match="F2"):
        parse_nl2fol("F1: P0(a)", 2)


class BackTranslator:
    """FOL2NL: the template realiser (faithful). NL2FOL: our reader, then a per-task change keyed by the conclusion:
    `faithful`, `distractor` (the distractor comes back as an unrelated rule: wrong per sentence, same label) or
    `negated` (the conclusion comes back negated: the label changes)."""

    def __init__(self, plans: dict[str, str], distractors: dict[str, Formula]) -> None:
        self.plans = plans
        self.distractors = distractors

    def __call__(self, messages: list[ChatMessage], *_: Any) -> ModelOutput:
        task_part = messages[-1].text.split("### Now Do The Task", 1)[1]
        if "FOLs:" in task_part:
            fols = [parse(m) for m in re.findall(r"^F\d+: (.+)$", task_part.split("FOLs:", 1)[1], re.MULTILINE)]
            mapping = "\n".join(f"{line}." for line in LEXICON.mapping())
            sentences = "\n".join(f"S{k}: {realise(f, LEXICON)}" for k, f in enumerate(fols, start=1))
            text = f"1) Domain: food items.\n2) Mapping List:\n{mapping}\n3) Natural Language Restatement:\n{sentences}"
        else:
            sentences = re.findall(r"^S\d+: (.+)$", task_part.split("Sentences:", 1)[1], re.MULTILINE)
            back = [read(s, LEXICON) for s in sentences]
            key = show(back[-1])
            if self.plans[key] == "distractor":
                back = [parse("∀x (P40(x) → P41(x))") if f == self.distractors[key] else f for f in back]
            elif self.plans[key] == "negated":
                back[-1] = Not(back[-1])
            text = "\n".join(f"F{k}: {show(f)}" for k, f in enumerate(back, start=1))
        output = ModelOutput.from_content(model="mockllm/model", content=text)
        output.usage = ModelUsage(input_tokens=100, output_tokens=50, total_tokens=150)
        return output


@pytest.mark.parametrize(
    ("round_trip", "kept", "reasons"),
    [
        ("label", {"True", "Unknown"}, {"label changed": 1}),  # the paper's check lets the distractor drift pass
        ("sentence", {"Unknown"}, {"drift": 2}),
        ("both", {"Unknown"}, {"drift": 1, "label changed": 1}),
    ],
)
def test_label_level_round_trip(round_trip: str, kept: set[str], reasons: dict[str, int]) -> None:
    tasks = {label: make_logic_task(2, 2, 0, label, 1) for label in ("True", "False", "Unknown")}
    plan = {"True": "distractor", "False": "negated", "Unknown": "faithful"}
    plans = {show(t.conclusion): plan[label] for label, t in tasks.items()}
    distractors = {show(t.conclusion): t.distractors[0].formula() for t in tasks.values()}
    config = QmfolConfig(**{**CONFIG.key(), "max_attempts": 1, "round_trip": round_trip})
    model = get_model("mockllm/model", custom_outputs=BackTranslator(plans, distractors))
    build = build_qmfol(config, model=model)
    assert {r["label"] for r in build.dataset} == kept
    assert dict(build.stats.dropped["translation attempts"]) == reasons


def test_back_translated_label_uses_z3_then_e() -> None:
    from lgmt_tasks.qmfol.translate import back_translated_label, label_reason

    task = make_logic_task(2, 2, 0, "False", 1)
    labels = back_translated_label([*task.presented, task.conclusion])
    assert labels[0] == ("z3", "False") and all(label == "False" for _, label in labels)
    assert label_reason(labels, "False") is None
    assert label_reason([("z3", "True")], "False") == "label changed"
    assert label_reason([("z3", "undecided")], "False") == "undecided"


def test_round_trip_is_validated() -> None:
    with pytest.raises(ValueError, match="round_trip='vampire': expected one of sentence, label, both"):
        QmfolConfig(**{**CONFIG.key(), "round_trip": "vampire"})
    with pytest.raises(ValueError, match="only used with translator='model'"):
        QmfolConfig(round_trip="label")

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
from lgmt_tasks.qmfol.build import QmfolConfig, build_qmfol
from lgmt_tasks.qmfol.card import card_body
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
    from lgmt_tasks.logic.syntax import And, Implies, Or

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
    assert "--translator model --translator-model mockllm/model --max-attempts 2" in card


def test_prompts_follow_figure_3_and_replies_are_parsed() -> None:
    task = make_logic_task(2, 1, 0, "False", 0)
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

"""The paper's LLM-assisted translation audit (LGMT §5.1, Appendix C.3) over a built dataset.

The paper screened each sampled follow-up with a strong LLM asking whether the English faithfully preserves the
structure of its FOL formula, then checked the flagged cases by hand (54 of 360 flagged, 4 confirmed drift). Our
model translations are already round-trip checked at build time (`builders.translate`), so this audit is the
independent second opinion the paper used, run over every model-translated sentence of a dataset folder instead of
a sample: the sentences listed in a row's `realised_premises` / `realised_conclusion` (rows with
`translator == "model"`; template rows too with `include_template`, e.g. to measure the auditor's own false-flag
rate on sentences that are drift-free by construction).

Each verdict is read by THE answer parser (`scorers.answers.parse_answer`) with the closed set True/False, and only
its strict stage counts: the prompt demands a raw JSON `{"label": ...}`, and a verdict guessed from prose would
make the flagged share depend on the parser. Counting:

- `asked`: sentences sent to the auditor; `unparsed`: replies without a strict JSON verdict (reported separately,
  never counted as flagged);
- `audited = asked - unparsed`; `flagged`: verdicts `False` ("structure not preserved");
- `flagged_share = flagged / audited` (0 when nothing was audited), and per group: a group is flagged when any of
  its sentences is.
"""

from __future__ import annotations

import asyncio
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import datasets
from inspect_ai.model import ChatMessageSystem, ChatMessageUser, GenerateConfig, Model, get_model

from lgmt_tasks.lgmt.translate import DEFAULT_MAX_CONNECTIONS, prompt_formula
from lgmt_tasks.scorers.answers import AnswerFormat, parse_answer

AUDIT_SYSTEM_PROMPT = """\
You are a strict FOL-to-NL structure validator.

Your task is to judge whether the given Natural Language sentence faithfully preserves the logical structure of the \
given First-Order Logic formula.

Judge only structural fidelity.

Do NOT judge fluency, style, readability, or whether the sentence sounds natural.

Awkward, repetitive, or unnatural wording is acceptable if the structure is preserved.

Validation Rules

1. Preserve logical connectives and their scope exactly.
- AND (&), OR (|), implication (→), and biconditional (↔) must be preserved.
2. Preserve negation exactly.
- Pay close attention to negation scope.
- Do not treat ¬A, (¬A & B), and ¬(A & B) as equivalent.
3. Preserve quantifiers and their order exactly.
- Do not swap universal and existential quantifiers.
- Do not change left-to-right quantifier order.
4. Preserve predicate and relation structure exactly.
- Keep predicate/relation identity and argument order.
- Do not change a unary predicate into a binary relation, or vice versa.
5. Preserve symbols faithfully.
- Do not replace placeholder symbols such as Pre1 or Con1 with guessed original meanings.
6. Do not simplify the logic.
- Double negation must remain explicit.
- Redundant structures such as (A | A) must remain explicit.
- Logical constants such as & 1 and | 0 must remain explicit.

If any important logical structure is missing, altered, simplified, or mistranslated, return "False".

If the NL sentence faithfully preserves the FOL structure, return "True".

If unsure, return "False".

Output Format

You must output a single JSON object with exactly one key:
{ "label": "True" } or { "label": "False" }

Output raw JSON only. Do not wrap in markdown code blocks."""
"""The paper's audit system prompt (Appendix C.3), transcribed like the translation prompt (line-wrap marks joined,
LaTeX written as the Unicode it renders to); the words are the paper's."""

AUDIT_USER_TEMPLATE = """\
Input Data

FOL Formula: {fol}

Natural Language Sentence: {nl}

Task

Determine whether the Natural Language sentence faithfully preserves the structure of the FOL Formula under strict \
logic-to-language translation rules.

Output raw JSON only."""
"""The paper's audit user template; placeholders `{fol}` and `{nl}`."""

VERDICT_FORMAT = AnswerFormat(labels=("True", "False"), keys=("label",))
"""The auditor's closed answer set, read by the one answer parser."""


@dataclass(frozen=True)
class AuditItem:
    """One follow-up sentence and its formula.

    Attributes:
        id: The group id.
        where: `premise <i>` (0-based) or `conclusion`.
        fol: The formula in the paper's notation (as the translator saw it).
        sentence: The English under audit.
        translator: The row's translator (`model` or `template`).
    """

    id: str
    where: str
    fol: str
    sentence: str
    translator: str

    def prompt(self) -> str:
        """The paper's audit user prompt for this sentence."""
        return AUDIT_USER_TEMPLATE.format(fol=self.fol, nl=self.sentence)


@dataclass(frozen=True)
class Verdict:
    """The auditor's reply to one item: `label` is `True`, `False` or None (unparsed)."""

    item: AuditItem
    label: str | None
    reply: str

    @property
    def flagged(self) -> bool:
        """Whether the auditor said the structure is not preserved."""
        return self.label == "False"


def audit_items(
    rows: Iterable[Mapping[str, Any]], include_template: bool = False, limit: int | None = None
) -> list[AuditItem]:
    """The sentences to audit: realised sentences of model rows (and of template rows with `include_template`).

    Args:
        rows: LGMT rows.
        include_template: Audit template rows too.
        limit: At most this many groups (the first ones, in dataset order, among those selected).

    Returns:
        The items, group by group, premises in order then the conclusion.
    """
    wanted = {"model", "template"} if include_template else {"model"}
    items: list[AuditItem] = []
    groups = 0
    for row in rows:
        if row["translator"] not in wanted:
            continue
        mine = [
            AuditItem(
                str(row["id"]),
                f"premise {i}",
                prompt_formula(row["followup_premises_fol"][i]),
                row["followup_premises"][i],
                row["translator"],
            )
            for i in row["realised_premises"]
        ]
        if row["realised_conclusion"]:
            mine.append(
                AuditItem(
                    str(row["id"]),
                    "conclusion",
                    prompt_formula(row["followup_conclusion_fol"]),
                    row["followup_conclusion"],
                    row["translator"],
                )
            )
        if not mine:
            continue
        if limit is not None and groups >= limit:
            break
        groups += 1
        items.extend(mine)
    return items


def read_verdict(reply: str) -> str | None:
    """`True` / `False` from a strict JSON `label`, else None (prose verdicts are not accepted)."""
    parsed = parse_answer(reply, VERDICT_FORMAT)
    return parsed.label if parsed.how == "strict" else None


@dataclass(frozen=True)
class AuditResult:
    """All verdicts of one audit, with the shares the paper reports."""

    verdicts: tuple[Verdict, ...]

    @property
    def asked(self) -> int:
        """Sentences sent to the auditor."""
        return len(self.verdicts)

    @property
    def unparsed(self) -> int:
        """Replies without a strict JSON verdict."""
        return sum(v.label is None for v in self.verdicts)

    @property
    def audited(self) -> int:
        """Sentences with a verdict."""
        return self.asked - self.unparsed

    @property
    def flagged(self) -> int:
        """Sentences judged not to preserve the structure."""
        return sum(v.flagged for v in self.verdicts)

    @property
    def flagged_share(self) -> float:
        """Flagged / audited (0 when nothing was audited)."""
        return self.flagged / self.audited if self.audited else 0.0

    def group_ids(self) -> list[str]:
        """Audited group ids, in order."""
        return list(dict.fromkeys(v.item.id for v in self.verdicts))

    def flagged_groups(self) -> list[str]:
        """Ids of groups with at least one flagged sentence, in order."""
        return list(dict.fromkeys(v.item.id for v in self.verdicts if v.flagged))

    def summary(self) -> dict[str, Any]:
        """JSON-ready counts, shares and the flagged sentences."""
        groups = len(self.group_ids())
        flagged_groups = self.flagged_groups()
        return {
            "groups": groups,
            "asked": self.asked,
            "audited": self.audited,
            "unparsed": self.unparsed,
            "flagged": self.flagged,
            "flagged_share": self.flagged_share,
            "unparsed_share": self.unparsed / self.asked if self.asked else 0.0,
            "flagged_groups": len(flagged_groups),
            "flagged_group_share": len(flagged_groups) / groups if groups else 0.0,
            "flagged_ids": flagged_groups,
            "flagged_sentences": [
                {"id": v.item.id, "where": v.item.where, "fol": v.item.fol, "sentence": v.item.sentence}
                for v in self.verdicts
                if v.flagged
            ],
            "unparsed_sentences": [{"id": v.item.id, "where": v.item.where} for v in self.verdicts if v.label is None],
        }

    def to_text(self) -> str:
        """A short report for the terminal."""
        s = self.summary()
        lines = [
            f"groups audited: {s['groups']}; sentences asked: {s['asked']}, with a verdict: {s['audited']}, "
            f"unparsed: {s['unparsed']}",
            f"flagged sentences: {s['flagged']} / {s['audited']} = {s['flagged_share']:.2%}; flagged groups: "
            f"{s['flagged_groups']} / {s['groups']} = {s['flagged_group_share']:.2%}",
        ]
        for v in s["flagged_sentences"]:
            lines.append(f"  FLAGGED {v['id']} {v['where']}: {v['fol']}  <->  {v['sentence']}")
        for v in s["unparsed_sentences"]:
            lines.append(f"  unparsed {v['id']} {v['where']}")
        return "\n".join(lines)


async def audit_async(
    items: Sequence[AuditItem], model: str | Model, max_connections: int = DEFAULT_MAX_CONNECTIONS
) -> AuditResult:
    """Ask the auditor about every item concurrently (at most `max_connections` calls in flight)."""
    if max_connections < 1:
        raise ValueError(f"max_connections={max_connections}: must be at least 1")
    auditor = get_model(model)
    config = GenerateConfig(max_connections=max_connections)
    limit = asyncio.Semaphore(max_connections)

    async def one(item: AuditItem) -> Verdict:
        async with limit:
            output = await auditor.generate(
                [ChatMessageSystem(content=AUDIT_SYSTEM_PROMPT), ChatMessageUser(content=item.prompt())], config=config
            )
        return Verdict(item, read_verdict(output.completion), output.completion)

    return AuditResult(tuple(await asyncio.gather(*(one(item) for item in items))))


def audit_translations(
    data: str | Path | datasets.Dataset,
    model: str | Model,
    *,
    include_template: bool = False,
    limit: int | None = None,
    max_connections: int = DEFAULT_MAX_CONNECTIONS,
) -> AuditResult:
    """Run the paper's audit prompt over the translated follow-up sentences of a dataset.

    Args:
        data: A folder written by `lgmt build lgmt` (or a Hub id), or the dataset itself.
        model: The auditor: an Inspect model or its name.
        include_template: Audit template-realised rows too.
        limit: At most this many groups.
        max_connections: Model calls in flight at most.

    Returns:
        The verdicts and their shares.
    """
    if isinstance(data, datasets.Dataset):
        rows: Iterable[Mapping[str, Any]] = data
    else:
        from lgmt_tasks.hub.repo import load_dataset_repo

        rows = load_dataset_repo(data)
    items = audit_items(rows, include_template=include_template, limit=limit)
    return asyncio.run(audit_async(items, model, max_connections=max_connections))

"""What "assumed" hides: how far a lexical follow-up drifts from its source's logical content, measured from the rows.

Most lexical rows carry an `assumed` follow-up label (`expectations`): the follow-up's gold is taken to be the
source's, so a perfect model has MVR 0 on them by construction. Whether the follow-up still says what the source says
is measured here instead of assumed, per relation, in two ways:

- **reading** (exact, where the source is template English): the source's sentences read back to its FOL with the
  project's reader (`lgmt_tasks.logic.read.read`, under one `lexicon_for` lexicon of the problem, the lexicon the
  generated source was realised with); the follow-up *drifts* if its sentences no longer read back to the FOL it is
  expected to state (the source's, or for a proven row the follow-up's own FOL). A sentence whose FOL shares no
  symbol with the source (MR-84's irrelevant premise) is outside the template language by design and is skipped.
- **key words** (crude, any source): the follow-up *breaks* if a content word of its conclusion (a word that is not
  a template grammar word) appears in none of its premises while every content word of the source's conclusion did
  appear in the source's premises: the literal link a reader needs is broken.

`drift_table(rows)` gives one row per relation and an `all` row; `lexical_report` prints it from a log's sample
metadata, the lexical builder records it (`drift_note`) as `notes.drift` of its `build_stats.json`, `lgmt report --out`
writes it as the lexical suite's `drift` table, and `tests/lexical/test_drift.py` checks it on the shipped
`datasets/lexical`.
"""

from __future__ import annotations

import math
import re
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

import pandas as pd

from lgmt_tasks.lexical.log_samples import relation_order
from lgmt_tasks.logic.grammar_words import GRAMMAR_WORDS
from lgmt_tasks.logic.lexicon import Lexicon, lexicon_for
from lgmt_tasks.logic.parse import parse
from lgmt_tasks.logic.read import read
from lgmt_tasks.logic.syntax import Formula, signature

FUNCTION_WORDS: frozenset[str] = GRAMMAR_WORDS | frozenset(
    {"a", "an", "the", "is", "are", "x", "y", "z", "of", "to", "does", "do", "not", "holds", "true", "false"}
)
"""Words that carry no content: the template grammar's words, articles, the copula and the variables."""

_WORD = re.compile(r"[a-z]+")

DRIFT_COLUMNS: tuple[str, ...] = (
    "relation",
    "expectation",
    "rows",
    "template",
    "reading_drift",
    "keyword_sources",
    "keyword_drift",
)
"""The columns of `drift_table`, in order."""


def content_words(text: str) -> frozenset[str]:
    """The lower-cased words of `text` that are not `FUNCTION_WORDS`."""
    return frozenset(w for w in _WORD.findall(text.lower()) if w not in FUNCTION_WORDS)


def keywords_match(premises: Sequence[str], conclusion: str) -> bool:
    """Whether every content word of the conclusion occurs in some premise (the crude literal link)."""
    found: set[str] = set()
    for premise in premises:
        found |= content_words(premise)
    return content_words(conclusion) <= found


def reads_back(texts: Sequence[str], formulas: Sequence[Formula], lexicon: Lexicon, skip: Iterable[int] = ()) -> bool:
    """Whether each text reads (with `read`) to the formula at the same place; indices in `skip` are not checked."""
    if len(texts) != len(formulas):
        return False
    skipped = set(skip)
    for index, (text, formula) in enumerate(zip(texts, formulas, strict=True)):
        if index in skipped:
            continue
        try:
            if read(text, lexicon) != formula:
                return False
        except ValueError:  # EnglishSyntaxError: the text is outside the template language
            return False
    return True


def row_drift(row: Mapping[str, Any]) -> dict[str, bool | None]:
    """The drift of one built row (a `datasets/lexical` record or a lexical sample's metadata).

    Returns:
        `template` (the source reads back to its FOL), `reading_drift` (the follow-up does not read back; None when
        the source is not template English), `keyword_source` (the source's conclusion words all occur in its
        premises) and `keyword_drift` (they do not in the follow-up; None when they did not in the source).
    """
    source_keywords = keywords_match(row["premises"], row["conclusion"])
    keyword = not keywords_match(row["followup_premises"], row["followup_conclusion"]) if source_keywords else None
    try:
        template, reading = _reading_drift(row)
    except ValueError:  # a FOL the project's parser cannot read, or no lexicon for it: not measured by reading
        template, reading = False, None
    return {"template": template, "reading_drift": reading, "keyword_source": source_keywords, "keyword_drift": keyword}


def _reading_drift(row: Mapping[str, Any]) -> tuple[bool, bool | None]:
    """(the source reads back to its FOL, the follow-up does not read back to its expected FOL or None)."""
    premises = [parse(p) for p in row["premises_fol"]]
    conclusion = parse(row["conclusion_fol"])
    proven = row.get("expectation") == "proven" and bool(row.get("followup_conclusion_fol"))
    follow_premises = [parse(p) for p in row["followup_premises_fol"]] if proven else premises
    follow_conclusion = parse(row["followup_conclusion_fol"]) if proven else conclusion
    lexicon = lexicon_for([*premises, conclusion, *follow_premises, follow_conclusion], style="natural")
    source_symbols = signature(*premises, conclusion)
    foreign = [
        i
        for i, f in enumerate(follow_premises)
        if not (
            signature(f).predicates & source_symbols.predicates or signature(f).constants & source_symbols.constants
        )
    ]
    template = reads_back([*row["premises"], row["conclusion"]], [*premises, conclusion], lexicon)
    if not template:
        return False, None
    reading = not reads_back(
        [*row["followup_premises"], row["followup_conclusion"]],
        [*follow_premises, follow_conclusion],
        lexicon,
        foreign,
    )
    return True, reading


def _summary(relation: str, expectation: str, drifts: Sequence[Mapping[str, bool | None]]) -> dict[str, object]:
    template = [d["reading_drift"] for d in drifts if d["template"]]
    keyword = [d["keyword_drift"] for d in drifts if d["keyword_source"]]
    return {
        "relation": relation,
        "expectation": expectation,
        "rows": len(drifts),
        "template": len(template),
        # an empty share has no value (NaN), not 0: no row could be measured
        "reading_drift": sum(map(bool, template)) / len(template) if template else float("nan"),
        "keyword_sources": len(keyword),
        "keyword_drift": sum(map(bool, keyword)) / len(keyword) if keyword else float("nan"),
    }


def drift_table(rows: Iterable[Mapping[str, Any]]) -> pd.DataFrame:
    """Per relation, the share of follow-ups that drift by reading and by key words (see the module docstring).

    Pending rows (an LLM follow-up still to be made) and rows without FOL are skipped.

    Returns:
        One row per relation in catalogue order, then `assumed` and `proven` rows over every relation of that basis,
        then `all`; columns `DRIFT_COLUMNS`: `rows`, `template` (rows whose source is template English, the
        denominator of `reading_drift`), `keyword_sources` (rows whose source's key words match, the denominator of
        `keyword_drift`).
    """
    by_relation: dict[str, list[dict[str, bool | None]]] = {}
    bases: dict[str, set[str]] = {}
    by_basis: dict[str, list[dict[str, bool | None]]] = {}
    for row in rows:
        if row.get("pending") or not row.get("conclusion_fol"):
            continue
        drift = row_drift(row)
        relation, basis = str(row["mr"]), str(row.get("expectation") or "")
        by_relation.setdefault(relation, []).append(drift)
        bases.setdefault(relation, set()).add(basis)
        by_basis.setdefault(basis, []).append(drift)
    table = [
        _summary(relation, "/".join(sorted(bases[relation])), by_relation[relation])
        for relation in sorted(by_relation, key=lambda r: relation_order("lexical", r))
    ]
    table += [_summary(basis, basis, by_basis[basis]) for basis in ("assumed", "proven") if basis in by_basis]
    table.append(_summary("all", "", [d for drifts in by_relation.values() for d in drifts]))
    return pd.DataFrame(table, columns=list(DRIFT_COLUMNS))


DRIFT_NOTE = "drift"
"""The `build_stats.json` notes key of a lexical build's drift (`drift_note`)."""


def drift_note(rows: Iterable[Mapping[str, Any]]) -> dict[str, dict[str, object]]:
    """`drift_table(rows)` as JSON-ready build notes: relation (and `assumed`, `proven`, `all`) -> its figures.

    Each value holds the other `DRIFT_COLUMNS` (`expectation`, the counts, and the two shares); a share no row could
    measure is None (NaN in the table), so the note is plain JSON.
    """
    note: dict[str, dict[str, object]] = {}
    for record in drift_table(rows).to_dict(orient="records"):
        figures: dict[str, object] = {}
        for column in DRIFT_COLUMNS[1:]:
            value = record[column]
            if column in ("reading_drift", "keyword_drift"):
                figures[column] = None if math.isnan(value) else float(value)
            elif column == "expectation":
                figures[column] = str(value)
            else:
                figures[column] = int(value)
        note[str(record["relation"])] = figures
    return note


def drift_frame(note: Mapping[str, Mapping[str, object]]) -> pd.DataFrame:
    """The `drift_table` a `drift_note` was made from (a missing share back to NaN), in `drift_table`'s row order.

    `build_stats.json` is written with sorted keys, so the order is restored here: relations in catalogue order, then
    `assumed`, `proven` and `all`.
    """
    totals = ("assumed", "proven", "all")
    relations = sorted((r for r in note if r not in totals), key=lambda r: relation_order("lexical", r))
    rows = [{"relation": r, **note[r]} for r in [*relations, *(t for t in totals if t in note)]]
    table = pd.DataFrame(rows, columns=list(DRIFT_COLUMNS))
    for column in ("reading_drift", "keyword_drift"):
        table[column] = table[column].astype(float)
    return table

"""What a logicasker row claims, read back from its own columns, for `lgmt verify` to re-prove with a second prover.

LogicAsker: the yes/no answer (yes iff the premises entail the conclusion); for a yes-test, that every premise is
needed (without any one premise the conclusion no longer follows: the premise set is minimal, as the builder proves
with Z3, `generate.needless_premises`); and that the row's effective depth equals its length (a column check, made
as a claim that cannot be parsed when it fails, so that it is counted and named with the row id).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from lgmt_tasks.verify.claims import ENTAILED, NOT_ENTAILED, Claim, RowError, choice, guard, text, texts

PREMISE_NEEDED = "premise needed"
"""The claim family of the minimality claims of yes-tests (a line of `lgmt verify`'s table)."""


def _depth(row: Mapping[str, Any]) -> None:
    length, depth = row.get("length"), row.get("effective_depth")
    if depth is not None and depth != length:
        raise RowError(f"effective_depth {depth} differs from length {length}")


def row_claims(row: Mapping[str, Any], row_id: str) -> list[Claim]:
    """The yes/no answer of a LogicAsker row; for a yes-test also one `premise needed` claim per premise."""

    def make() -> list[Claim]:
        answer = choice(row, "answer", ("yes", "no"))
        premises, conclusion = texts(row, "premises_fol"), text(row, "conclusion_fol")
        what = f"answer {answer}: premises {'entail' if answer == 'yes' else 'do not entail'} the conclusion"
        claims = [
            Claim(
                row_id,
                "answer",
                what,
                "entails",
                (*premises, conclusion),
                ENTAILED if answer == "yes" else NOT_ENTAILED,
            )
        ]
        if answer == "yes":
            claims += [
                Claim(
                    row_id,
                    PREMISE_NEEDED,
                    f"premise {i + 1} needed: the others do not entail the conclusion",
                    "entails",
                    (*premises[:i], *premises[i + 1 :], conclusion),
                    NOT_ENTAILED,
                )
                for i in range(len(premises))
            ]
        return claims

    def depth() -> list[Claim]:
        _depth(row)
        return []

    return [
        *guard(row_id, "answer", "answer", "entails", make),
        *guard(row_id, "effective depth", "effective depth equals length", "entails", depth),
    ]

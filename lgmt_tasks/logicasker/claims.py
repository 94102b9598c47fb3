"""What a logicasker row claims, read back from its own columns, for `lgmt verify` to re-prove with a second prover.

LogicAsker: the yes/no answer (yes iff the premises entail the conclusion).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from lgmt_tasks.verify.claims import ENTAILED, NOT_ENTAILED, Claim, choice, guard, text, texts


def row_claims(row: Mapping[str, Any], row_id: str) -> list[Claim]:
    """The yes/no answer of a LogicAsker row: yes iff the premises entail the conclusion."""

    def make() -> list[Claim]:
        answer = choice(row, "answer", ("yes", "no"))
        formulas = (*texts(row, "premises_fol"), text(row, "conclusion_fol"))
        what = f"answer {answer}: premises {'entail' if answer == 'yes' else 'do not entail'} the conclusion"
        return [Claim(row_id, "answer", what, "entails", formulas, ENTAILED if answer == "yes" else NOT_ENTAILED)]

    return guard(row_id, "answer", "answer", "entails", make)

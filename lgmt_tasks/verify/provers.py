"""The provers a dataset's claims can be re-proven with, behind one small interface.

Z3 (in process, `lgmt_tasks.logic.prover`) is the prover every builder uses; E (`lgmt_tasks.logic.eprover`, one
process per query through a TPTP export) is the independent second opinion. Both answer the same three questions
with the same three kinds of outcome (DESIGN decision 2): a decided answer, `Undecided` (a limit was hit, or the
prover gave up), or, for a three-valued label, `Contradictory` premises.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

from lgmt_tasks.logic.prover import Contradictory, Label, Undecided
from lgmt_tasks.logic.syntax import Formula

PROVERS: tuple[str, ...] = ("eprover", "z3")
"""Prover names accepted by `get_prover` and by `lgmt verify --prover` (the first is the default)."""

DEFAULT_TIMEOUT_S = 10.0
"""Wall-clock limit per query (Z3: per solver check; E: per process call)."""

EntailmentFn = Callable[[Sequence[Formula], Formula], "Label | Undecided | Contradictory"]
EntailsFn = Callable[[Sequence[Formula], Formula], "bool | Undecided"]
EquivalentFn = Callable[[Formula, Formula], "bool | Undecided"]


class ProverUnavailable(RuntimeError):
    """The requested prover is not installed on this machine."""


@dataclass(frozen=True)
class Prover:
    """One prover, with its time limit bound in.

    Attributes:
        name: `eprover` or `z3`.
        timeout_s: The limit per query.
        entailment: Three-valued label of Γ ⊢? q (`Label`, `Undecided` or `Contradictory`).
        entails: Whether Γ ⊨ q (`bool` or `Undecided`).
        equivalent: Whether a ≡ b (`bool` or `Undecided`).
    """

    name: str
    timeout_s: float
    entailment: EntailmentFn
    entails: EntailsFn
    equivalent: EquivalentFn


def _z3(timeout_s: float) -> Prover:
    from lgmt_tasks.logic import prover as z3

    ms = max(1, round(timeout_s * 1000))
    return Prover(
        "z3",
        timeout_s,
        lambda premises, conclusion: z3.entailment(premises, conclusion, timeout_ms=ms),
        lambda premises, conclusion: z3.entails(premises, conclusion, timeout_ms=ms),
        lambda a, b: z3.equivalent(a, b, timeout_ms=ms),
    )


def _eprover(timeout_s: float) -> Prover:
    try:
        from lgmt_tasks.logic import eprover as e
    except ImportError as exc:  # the E back end is not part of this installation yet
        raise ProverUnavailable(f"prover 'eprover': lgmt_tasks.logic.eprover cannot be imported ({exc})") from exc
    if not e.eprover_available():
        raise ProverUnavailable(
            "prover 'eprover': the `eprover` executable was not found on PATH "
            "(Debian/Ubuntu: apt-get install eprover); use --prover z3 to check with Z3 instead"
        )
    return Prover(
        "eprover",
        timeout_s,
        lambda premises, conclusion: e.eprover_entailment(premises, conclusion, timeout_s=timeout_s),
        lambda premises, conclusion: e.eprover_entails(premises, conclusion, timeout_s=timeout_s),
        lambda a, b: e.eprover_equivalent(a, b, timeout_s=timeout_s),
    )


def get_prover(name: str, timeout_s: float = DEFAULT_TIMEOUT_S) -> Prover:
    """The prover called `name` with `timeout_s` per query.

    Raises:
        ValueError: An unknown name or a non-positive limit.
        ProverUnavailable: E was asked for and is not installed.
    """
    if timeout_s <= 0:
        raise ValueError(f"timeout_s={timeout_s}: must be positive")
    if name == "z3":
        return _z3(timeout_s)
    if name == "eprover":
        return _eprover(timeout_s)
    raise ValueError(f"prover={name!r}: expected one of {', '.join(PROVERS)}")

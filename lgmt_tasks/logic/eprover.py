"""The second prover: E (Stephan Schulz's superposition prover), one process call per check, via TPTP.

Every label we ship is proven by Z3 in process (`lgmt_tasks.logic.prover`). This module re-proves the same
claims with an independent prover that shares no code with Z3 and reads our formulas through a different
door, the TPTP export of `lgmt_tasks.logic.tptp`; an agreement between the two is evidence that neither the
encoding nor a solver bug produced a label. The public functions mirror `prover.entailment`, `prover.entails`,
`prover.equivalent` and `prover.satisfiable` exactly, including `Undecided` and `Contradictory`.

Reading E's answer
------------------
Each check is one run of ``eprover --satauto --tstp-format --silent --cpu-limit=N --memory-limit=M`` on a
problem given on stdin; the outcome is the single ``# SZS status …`` line E prints:

* ``Theorem`` (conjecture proven) and ``Unsatisfiable`` (no conjecture, clause set refuted) are proofs;
  ``ContradictoryAxioms`` means E refuted the axioms without using the conjecture, i.e. the premises alone are
  unsatisfiable.
* ``CounterSatisfiable`` / ``Satisfiable`` mean E *saturated* the clause set without deriving the empty clause.
  E prints them only when its proof state is complete and its calculus is complete (no axiom filtering, no
  deleted non-redundant clauses); otherwise it prints ``GaveUp``. So they are sound disproofs. ``--satauto``
  is ``--auto`` without SInE axiom selection, which would turn every saturation into ``GaveUp``.
* Anything else (``ResourceOut`` for the CPU or memory limit, ``GaveUp``, a run killed by the wall-clock
  backstop) is `Undecided`, never a guess.

E cannot always saturate when a counter-model exists (it never can when every counter-model is infinite), so
it leaves more non-entailments undecided than Z3, whose model-based quantifier instantiation finds finite
models directly. ``Unknown`` needs saturation in both directions.

Limits
------
``timeout_s`` is E's CPU-time limit per check (``--cpu-limit``, whole seconds, rounded up); a wall-clock
backstop of ``3 × timeout_s + 5`` seconds kills a process that does not get the CPU on a loaded machine. CPU
time, unlike Z3's rlimit, is not deterministic across machines: E is a cross-check, never what decides a label.

A missing binary raises `EproverUnavailableError` (install the Debian package ``eprover``). Input E refuses or a
crash raises `EproverError`: that is a bug in our export, not an undecided query.
"""

from __future__ import annotations

import math
import re
import shutil
import subprocess
from collections.abc import Sequence
from dataclasses import dataclass

from lgmt_tasks.logic.prover import Contradictory, Label, Undecided, label_from_checks
from lgmt_tasks.logic.syntax import Formula, Iff, Not, free_vars
from lgmt_tasks.logic.tptp import to_tptp_open, tptp_problem

__all__ = [
    "DEBIAN_PACKAGE",
    "DEFAULT_TIMEOUT_S",
    "EPROVER_BINARY",
    "EPROVER_FLAGS",
    "MEMORY_LIMIT_MB",
    "EproverError",
    "EproverRun",
    "EproverUnavailableError",
    "check_syntax",
    "eprover_available",
    "eprover_entailment",
    "eprover_entails",
    "eprover_equivalent",
    "eprover_satisfiable",
    "eprover_version",
    "run_eprover",
]

EPROVER_BINARY = "eprover"
"""The executable looked up on ``PATH``."""

DEBIAN_PACKAGE = "eprover"
"""The Debian/Ubuntu package that installs `EPROVER_BINARY` (``apt-get install eprover``)."""

DEFAULT_TIMEOUT_S: float = 10.0
"""CPU seconds per E run; matches Z3's wall-clock backstop `prover.DEFAULT_TIMEOUT_MS`."""

MEMORY_LIMIT_MB = 2048
"""E's ``--memory-limit`` (2 GB is the largest E accepts): a runaway search ends as ``ResourceOut``."""

EPROVER_FLAGS: tuple[str, ...] = ("--satauto", "--tstp-format", "--silent", f"--memory-limit={MEMORY_LIMIT_MB}")
"""Flags of every proving run; ``--cpu-limit`` is added per call."""

_WALL_FACTOR = 3.0
_WALL_MARGIN_S = 5.0
_STATUS_LINE = re.compile(r"^# SZS status (\S+)", re.MULTILINE)
# E's exit codes for bad input or a broken installation (cio_signals.h): syntax, usage, file, system, other,
# input-semantic errors. With no SZS status line these are errors, not undecided queries.
_ERROR_EXIT_CODES = frozenset({3, 4, 5, 6, 10, 11})
_OUT_OF_MEMORY_EXIT_CODE = 2


class EproverUnavailableError(FileNotFoundError):
    """The ``eprover`` executable is not on ``PATH``."""

    def __init__(self) -> None:
        super().__init__(
            f"E prover not found: no {EPROVER_BINARY!r} executable on PATH. Install the Debian package "
            f"{DEBIAN_PACKAGE!r} (apt-get install -y {DEBIAN_PACKAGE}; `make eprover` does this as root)."
        )


class EproverError(RuntimeError):
    """E rejected the problem or failed without an SZS status: a bug in the export or the installation.

    Attributes:
        returncode: E's exit code (negative: killed by that signal).
        stderr: E's error output (it names the line and column of a syntax error).
        problem: The TPTP text that was sent.
    """

    def __init__(self, message: str, *, returncode: int, stderr: str, problem: str) -> None:
        super().__init__(f"{message} (exit code {returncode}): {stderr.strip() or '<no stderr>'}")
        self.returncode = returncode
        self.stderr = stderr
        self.problem = problem


@dataclass(frozen=True)
class EproverRun:
    """One E run: the SZS status (``None`` if E printed none or was killed) and what is needed to explain it.

    Attributes:
        status: ``"Theorem"``, ``"CounterSatisfiable"``, ``"ResourceOut"``, …, or ``None``.
        returncode: E's exit code; ``None`` if the wall-clock backstop killed it.
        stdout: E's standard output.
        stderr: E's error output.
    """

    status: str | None
    returncode: int | None
    stdout: str
    stderr: str


def eprover_available() -> bool:
    """Whether the ``eprover`` executable is on ``PATH``."""
    return shutil.which(EPROVER_BINARY) is not None


def _binary() -> str:
    path = shutil.which(EPROVER_BINARY)
    if path is None:
        raise EproverUnavailableError()
    return path


def eprover_version() -> str:
    """E's version line (``"E 2.6 Floral Guranse (…)"``).

    Raises:
        EproverUnavailableError: E is not installed.
    """
    done = subprocess.run([_binary(), "--version"], capture_output=True, text=True, check=False, timeout=30)
    return done.stdout.strip()


def _check_timeout(timeout_s: float) -> int:
    if not timeout_s > 0 or math.isinf(timeout_s):
        raise ValueError(f"timeout_s must be a positive, finite number of seconds, got {timeout_s!r}")
    return max(1, math.ceil(timeout_s))


def run_eprover(problem: str, *, timeout_s: float = DEFAULT_TIMEOUT_S) -> EproverRun:
    """Run E once on a TPTP problem (stdin) with `EPROVER_FLAGS` and ``--cpu-limit=ceil(timeout_s)``.

    Raises:
        EproverUnavailableError: E is not installed.
        EproverError: E rejected the input or failed without printing an SZS status.
        ValueError: `timeout_s` is not a positive number.
    """
    cpu_limit = _check_timeout(timeout_s)
    command = [_binary(), *EPROVER_FLAGS, f"--cpu-limit={cpu_limit}"]
    try:
        done = subprocess.run(
            command,
            input=problem,
            capture_output=True,
            text=True,
            check=False,
            timeout=_WALL_FACTOR * cpu_limit + _WALL_MARGIN_S,
        )
    except subprocess.TimeoutExpired as exc:  # subprocess.run has killed the process

        def text(raw: bytes | str | None) -> str:
            return raw.decode(errors="replace") if isinstance(raw, bytes) else (raw or "")

        return EproverRun(None, None, text(exc.stdout), text(exc.stderr))
    statuses = _STATUS_LINE.findall(done.stdout)
    if not statuses and done.returncode in _ERROR_EXIT_CODES:
        raise EproverError("E rejected the problem", returncode=done.returncode, stderr=done.stderr, problem=problem)
    if len(set(statuses)) > 1:
        raise EproverError(
            f"E printed conflicting SZS statuses {statuses}",
            returncode=done.returncode,
            stderr=done.stderr,
            problem=problem,
        )
    return EproverRun(statuses[0] if statuses else None, done.returncode, done.stdout, done.stderr)


def check_syntax(problem: str) -> None:
    """Have E parse and clausify `problem` without proving anything (``--cnf``); return if it accepts it.

    E has no parse-only switch; ``--cnf --no-preprocessing`` reads the problem, clausifies it, prints the
    clauses and stops, which is the closest thing and cheap.

    Raises:
        EproverUnavailableError: E is not installed.
        EproverError: E rejected the input (the message carries E's line, column and expectation).
    """
    command = [_binary(), "--cnf", "--no-preprocessing", "--tstp-format", "--silent", "--cpu-limit=30"]
    done = subprocess.run(command, input=problem, capture_output=True, text=True, check=False, timeout=120)
    if done.returncode != 0 or "# CNFization successful!" not in done.stdout:
        raise EproverError(
            "E did not parse the problem", returncode=done.returncode, stderr=done.stderr, problem=problem
        )


def _undecided(run: EproverRun, what: str, timeout_s: float) -> Undecided:
    """Map an inconclusive run onto the reason categories of `prover.Undecided` (plus ``"memory limit"``)."""
    if run.returncode is None:
        return Undecided("timeout", f"{what}: killed after {_WALL_FACTOR * math.ceil(timeout_s) + _WALL_MARGIN_S:g} s")
    status = run.status
    if status == "ResourceOut" or run.returncode == _OUT_OF_MEMORY_EXIT_CODE:
        if "(memory)" in run.stdout or run.returncode == _OUT_OF_MEMORY_EXIT_CODE:
            reason = "memory limit"
        elif "(time)" in run.stdout or "CPU time limit" in run.stderr:
            reason = "timeout"
        else:
            reason = "resource limit"
    elif status == "GaveUp":
        reason = "incomplete"
    elif status is None:
        reason = f"unknown: no SZS status (exit code {run.returncode})"
    else:
        reason = f"unknown: {status}"
    return Undecided(reason, f"{what}: SZS status {status} (exit code {run.returncode})")


# Outcomes of one check, after reading the SZS status.
_PROVED = "proved"  # the conjecture follows (or, without one, the axioms are unsatisfiable)
_AXIOMS_UNSAT = "axioms unsatisfiable"  # ContradictoryAxioms: proof without the conjecture
_NOT_PROVED = "saturated"  # a complete saturation: a counter-model exists


def _check(premises: Sequence[Formula], conclusion: Formula | None, what: str, timeout_s: float) -> str | Undecided:
    """Run one check; `_PROVED`, `_AXIOMS_UNSAT`, `_NOT_PROVED` or `Undecided`."""
    run = run_eprover(tptp_problem(premises, conclusion), timeout_s=timeout_s)
    if conclusion is not None:
        outcomes = {"Theorem": _PROVED, "ContradictoryAxioms": _AXIOMS_UNSAT, "CounterSatisfiable": _NOT_PROVED}
    else:
        outcomes = {"Unsatisfiable": _PROVED, "ContradictoryAxioms": _PROVED, "Satisfiable": _NOT_PROVED}
    outcome = outcomes.get(run.status or "")
    return outcome if outcome is not None else _undecided(run, what, timeout_s)


def _require_sentences(premises: Sequence[Formula], conclusion: Formula | None, kind: str = "premise") -> None:
    """Raise `ValueError` naming every free variable, as `prover.entailment` does."""
    named = [(f"{kind} {i}", p) for i, p in enumerate(premises)]
    if conclusion is not None:
        named.append(("the conclusion", conclusion))
    problems = [f"{where} has free variable(s) {', '.join(sorted(free_vars(f)))}" for where, f in named if free_vars(f)]
    if problems:
        raise ValueError("premises and conclusions must be sentences: " + "; ".join(problems))


def eprover_entailment(
    premises: Sequence[Formula], conclusion: Formula, *, timeout_s: float = DEFAULT_TIMEOUT_S
) -> Label | Undecided | Contradictory:
    """The three-valued label of ``premises ⊢? conclusion`` by E, with the semantics of `prover.entailment`.

    ``TRUE`` iff Γ ⊨ q, ``FALSE`` iff Γ ⊨ ¬q, ``UNKNOWN`` otherwise, for satisfiable Γ; `Contradictory` if Γ is
    unsatisfiable. Two E runs (conjecture q, conjecture ¬q); a third on Γ alone when one side is proven and the
    other undecided (the label then depends on whether Γ is satisfiable). A run that proves its conjecture
    without using it (``ContradictoryAxioms``) settles `Contradictory` at once.

    Args:
        premises: The premises Γ (sentences).
        conclusion: The conclusion q (a sentence).
        timeout_s: CPU seconds per E run.

    Returns:
        A `Label`, `Undecided` (a run E needed was inconclusive) or `Contradictory`.

    Raises:
        ValueError: A premise or the conclusion has free variables, or `timeout_s` is not positive.
        EproverUnavailableError: E is not installed.
        EproverError: E rejected the problem.
    """
    premises = tuple(premises)
    _require_sentences(premises, conclusion)
    _check_timeout(timeout_s)
    for_q = _check(premises, conclusion, "premises ⊢ conclusion", timeout_s)
    if for_q == _AXIOMS_UNSAT:
        return Contradictory()
    for_not_q = _check(premises, Not(conclusion), "premises ⊢ ¬conclusion", timeout_s)
    if for_not_q == _AXIOMS_UNSAT:
        return Contradictory()

    def proven(outcome: str | Undecided) -> bool | Undecided:
        return outcome if isinstance(outcome, Undecided) else outcome == _PROVED

    return label_from_checks(
        proven(for_q), proven(for_not_q), lambda: proven(_check(premises, None, "premises", timeout_s))
    )


def eprover_entails(
    premises: Sequence[Formula], conclusion: Formula, *, timeout_s: float = DEFAULT_TIMEOUT_S
) -> bool | Undecided:
    """Whether Γ ⊨ q by E (one run); unsatisfiable premises entail everything, as in `prover.entails`.

    Returns:
        ``True`` if E proved q, ``False`` if it saturated Γ ∧ ¬q, else `Undecided`.

    Raises:
        ValueError: A premise or the conclusion has free variables, or `timeout_s` is not positive.
        EproverUnavailableError: E is not installed.
        EproverError: E rejected the problem.
    """
    premises = tuple(premises)
    _require_sentences(premises, conclusion)
    _check_timeout(timeout_s)
    outcome = _check(premises, conclusion, "premises ⊢ conclusion", timeout_s)
    if isinstance(outcome, Undecided):
        return outcome
    return outcome in (_PROVED, _AXIOMS_UNSAT)


def eprover_equivalent(a: Formula, b: Formula, *, timeout_s: float = DEFAULT_TIMEOUT_S) -> bool | Undecided:
    """Whether `a` and `b` are logically equivalent, by E (one run, conjecture ``a <=> b``).

    Open formulas are compared under the universal closure over their joint free variables, as in
    `prover.equivalent`: each free variable becomes a fresh constant (``v_<name>`` in TPTP), which is the same
    test.

    Returns:
        ``True`` if E proved ``a <=> b``, ``False`` if it saturated its negation, else `Undecided`.

    Raises:
        ValueError: `timeout_s` is not positive.
        EproverUnavailableError: E is not installed.
        EproverError: E rejected the problem.
    """
    _check_timeout(timeout_s)
    problem = f"fof(goal, conjecture, {to_tptp_open(Iff(a, b))}).\n"
    run = run_eprover(problem, timeout_s=timeout_s)
    if run.status == "Theorem":
        return True
    if run.status == "CounterSatisfiable":
        return False
    return _undecided(run, "a ⇔ b", timeout_s)


def eprover_satisfiable(formulas: Sequence[Formula], *, timeout_s: float = DEFAULT_TIMEOUT_S) -> bool | Undecided:
    """Whether the sentences have a common model, by E (one run; an empty sequence is satisfiable).

    Returns:
        ``True`` if E saturated them, ``False`` if it refuted them, else `Undecided`.

    Raises:
        ValueError: A formula has free variables, or `timeout_s` is not positive.
        EproverUnavailableError: E is not installed.
        EproverError: E rejected the problem.
    """
    formulas = tuple(formulas)
    _require_sentences(formulas, None, "formula")
    _check_timeout(timeout_s)
    if not formulas:
        return True  # E itself answers GaveUp on an empty problem
    outcome = _check(formulas, None, "formulas", timeout_s)
    if isinstance(outcome, Undecided):
        return outcome
    return outcome == _NOT_PROVED

"""Three-valued entailment, equivalence and satisfiability for our FOL, decided in process by Z3.

Every label and every equivalence claim in the datasets we build is proven here (DESIGN decision 2), so the
module is strict about keeping outcomes apart:

* a *label* (`Label.TRUE`, `Label.FALSE`, `Label.UNKNOWN`) is returned only when every solver check it rests on
  was decided;
* `Undecided` is returned when a check Z3 needed came back `unknown` (resource limit, wall-clock timeout, or the
  incompleteness of its quantifier reasoning); it is never a label and it refuses to be used as a truth value;
* `Contradictory` is returned by `entailment` when the premises are unsatisfiable: that is a defect of the
  problem (a build error for that item), not a label.

Encoding
--------
One uninterpreted sort ``Individual`` for the domain (non-empty, as in standard FOL and in Z3). A predicate is an
uninterpreted function to Bool keyed by ``(name, arity)``, so ``P`` and ``P/2`` never clash. A constant is a
0-ary function of the sort. Equality is Z3's own. Quantifiers bind fresh Z3 constants, one per binder, so
shadowing (``∀x ∃x …``) is handled by construction. ``⊤``/``⊥`` are Z3's Boolean values, ``⊕`` is Z3's ``Xor``,
``∧``/``∨`` stay n-ary. Symbols are mangled with a class prefix (``c:``, ``p:``, ``b:``, ``v:``), so a constant,
a predicate, a bound variable and a free variable can never be confused whatever their names are.

Limits and reproducibility
--------------------------
Each solver check runs under two limits. ``rlimit`` is Z3's deterministic resource counter (it counts internal
work, not time): for a given Z3 version the same query always spends the same amount, so an outcome decided under
the default `DEFAULT_RLIMIT` is the same on every machine, which is what reproducible datasets need.
``timeout_ms`` is a wall-clock backstop (`DEFAULT_TIMEOUT_MS`) that should normally never be the limit that is
hit; it keeps a pathological query from stalling a build on a slow machine. Both limits apply per solver check
(``entailment`` makes two checks, occasionally three; ``equivalent`` one or two). Pass ``rlimit=None`` or
``timeout_ms=None`` to lift a limit.

Contexts, speed and reproducibility
-----------------------------------
A query's cost was mostly fixed overhead, not search: about 0.4 ms to make a `z3.Context`, a first solver check
that pays another millisecond of per-context set-up, and encoding through z3's Python layer. So, by default
(mode ``"shared"``, see `PROVER_MODES`), each thread keeps one context (`lgmt_tasks.logic.z3_context`) that its
queries reuse: every query gets a fresh solver (Z3's plain SMT solver), sentences are encoded once per context
(formulas are frozen and hashable), and Z3's C API is called directly. The median label query is about 2.1x faster
than on the original path and 13x faster than E per process call (``benchmarks/bench_z3_vs_eprover.py``, 300
FOLIO/ProverQA queries).

What this keeps and what it changes. A decided outcome (a label, `Contradictory`, or a decided entailment,
equivalence or satisfiability) is a fact about the formulas, whichever context proved it: Z3 is sound. What a
shared context changes is the route: Z3's heuristics follow its internal term ids, which depend on what the context
saw before, so the resources a check spends depend on earlier queries. That could only matter for a query close to
a limit, so a query the shared context leaves `Undecided` is asked again in a context of its own (mode
``"fresh"``), and `Undecided` keeps its old meaning: not decided in a fresh context. (The one theoretical
difference left: a query that a fresh context cannot decide within `DEFAULT_RLIMIT` but a shared one happens to
decide would get its true label instead of `Undecided`; none of the 1,847 FOLIO/ProverQA queries needs more than
about 1 % of the limit.) ``tests/logic/test_prover_determinism.py`` asks real queries in several orders and
processes and compares every outcome with the original path.

Mode ``"fresh"`` makes a new context per query and the same Z3 calls, in the same order and with the same
temporary terms freed at the same moments, as the original path ``"python"``, so its search is identical (Z3's
statistics match check by check). ``LGMT_PROVER=python`` (or ``fresh``) selects a mode for a whole process;
``mode=`` selects it per call.

Thread and process safety
-------------------------
A context is used only by the thread that made it (a `threading.local`), and a process that inherits one from its
parent by ``fork`` makes its own, so the functions may be called from worker threads (``asyncio.to_thread``, a
thread pool) and worker processes (formulas are plain frozen dataclasses and pickle). Z3 allows distinct contexts
to be used concurrently, and its Python binding releases the GIL while the solver runs. Nothing is created at
import: a thread's context is made by its first query and replaced after `z3_context.RECYCLE_AFTER_QUERIES`
queries, so its term tables do not grow without bound.
"""

from __future__ import annotations

import os
import time
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from enum import Enum
from typing import Any, Literal, TypeVar

import z3

from lgmt_tasks.logic.limits import DEFAULT_RLIMIT, DEFAULT_TIMEOUT_MS  # declared there: see its docstring
from lgmt_tasks.logic.malloc_tuning import ensure_tuned as ensure_malloc_tuned
from lgmt_tasks.logic.syntax import (
    And,
    Atom,
    Bottom,
    Const,
    Eq,
    Exists,
    Forall,
    Formula,
    Iff,
    Implies,
    Not,
    Or,
    Term,
    Top,
    Xor,
    free_vars,
)
from lgmt_tasks.logic.z3_context import DirectEncoder, shared_context, solver_assert

__all__ = [
    "DEFAULT_RLIMIT",
    "DEFAULT_TIMEOUT_MS",
    "PROVER_MODES",
    "ProverMode",
    "Contradictory",
    "Label",
    "Undecided",
    "entailment",
    "entails",
    "equivalent",
    "satisfiable",
]


ProverMode = Literal["shared", "fresh", "python"]
PROVER_MODES: tuple[str, ...] = ("shared", "fresh", "python")
"""How a query is put to Z3 (see "Contexts" in the module docstring).

``"shared"`` (the default): the calling thread's reused context, sentences encoded once per context, a fresh solver
per query, Z3's C API called directly; a query it leaves undecided is asked again in ``"fresh"`` mode.
``"fresh"``: a new context per query, C API called directly; makes the very same Z3 calls as ``"python"``.
``"python"``: a new context per query through z3's Python layer: the original path, kept to compare against.
Chosen per call (``mode=``), else by the environment variable ``LGMT_PROVER`` (read at each call), else ``"shared"``.
"""


@dataclass
class ProverClock:
    """What this process spent in the prover's entry points (`entailment`, `entails`, `equivalent`, `satisfiable`).

    Read by benchmarks (`benchmarks/lgmt_paper_set.py`: a build's wall time over the proof time it needs); it never
    affects an outcome. Each process (a build's worker too) has its own; take the difference of two readings.

    Attributes:
        seconds: Wall seconds inside the entry points (encoding, solver set-up and checks; a fresh-context retry
            included).
        cpu_seconds: This process's CPU seconds inside them (on a loaded machine, less than `seconds`).
        calls: Entry-point calls.
    """

    seconds: float = 0.0
    cpu_seconds: float = 0.0
    calls: int = 0


CLOCK = ProverClock()
"""This process's `ProverClock`."""


def _mode(requested: str | None) -> str:
    """The mode of one call: the argument, else ``LGMT_PROVER``, else ``"shared"``; anything else is an error."""
    mode = requested if requested is not None else os.environ.get("LGMT_PROVER", "shared")
    if mode not in PROVER_MODES:
        where = "mode" if requested is not None else "the environment variable LGMT_PROVER"
        raise ValueError(f"{where} must be one of {', '.join(PROVER_MODES)}, got {mode!r}")
    return mode


class Label(str, Enum):
    """The three-valued entailment label of LGMT §2.2."""

    TRUE = "True"
    FALSE = "False"
    UNKNOWN = "Unknown"

    def __str__(self) -> str:
        """Return the plain value (``"True"``), as dataset columns and prompts need, on every Python version."""
        return self.value


@dataclass(frozen=True)
class Undecided:
    """Z3 could not settle a check the answer depends on; never to be mistaken for a label or a truth value.

    Attributes:
        reason: A short, stable category for counting dropped items: ``"timeout"`` (wall clock),
            ``"resource limit"`` (rlimit), ``"incomplete"`` (Z3 gave up, typically on quantifiers), or
            ``"unknown: <Z3's reason>"`` for anything else.
        detail: Which check was undecided and Z3's own words; for logs, not compared.
    """

    reason: str
    detail: str = field(default="", compare=False)

    def __bool__(self) -> bool:
        """Refuse truthiness, so ``if entails(...)`` cannot silently treat "undecided" as "no"."""
        raise TypeError(f"Undecided({self.reason!r}) has no truth value; test with isinstance(result, Undecided)")


@dataclass(frozen=True)
class Contradictory:
    """The premises are unsatisfiable: every conclusion follows, so the problem has no meaningful label."""

    reason: str = "premises are unsatisfiable"


# --------------------------------------------------------------------------- encoding


class _Encoder:
    """Translates our AST into Z3 terms of one private context.

    The symbol tables live on the instance (one per public call), never at module level.
    """

    def __init__(self, ctx: z3.Context) -> None:
        self.ctx = ctx
        self.sort = z3.DeclareSort("Individual", ctx)
        self._bool = z3.BoolSort(ctx)
        self._predicates: dict[tuple[str, int], z3.FuncDeclRef] = {}
        self._constants: dict[str, z3.ExprRef] = {}
        self._free: dict[str, z3.ExprRef] = {}
        self._binders = 0

    def free_variable(self, name: str) -> z3.ExprRef:
        """Return the Z3 constant standing for free variable `name` (used only to close open formulas)."""
        if name not in self._free:
            self._free[name] = z3.Const(f"v:{name}", self.sort)
        return self._free[name]

    def _term(self, t: Term, env: dict[str, z3.ExprRef]) -> z3.ExprRef:
        if isinstance(t, Const):
            if t.name not in self._constants:
                self._constants[t.name] = z3.Const(f"c:{t.name}", self.sort)
            return self._constants[t.name]
        if t.name in env:
            return env[t.name]
        if t.name in self._free:
            return self._free[t.name]
        # Callers check for free variables before encoding, so this is a programming error.
        raise ValueError(f"unexpected free variable {t.name!r}")

    def _predicate(self, name: str, arity: int) -> z3.FuncDeclRef:
        key = (name, arity)
        if key not in self._predicates:
            self._predicates[key] = z3.Function(f"p:{name}/{arity}", *([self.sort] * arity), self._bool)
        return self._predicates[key]

    def negate(self, f: z3.BoolRef) -> z3.BoolRef:
        """``¬f``."""
        return z3.Not(f, self.ctx)

    def formula(self, f: Formula, env: dict[str, z3.ExprRef] | None = None) -> z3.BoolRef:
        """Encode `f`; `env` maps the names of enclosing bound variables to their Z3 constants."""
        env = env or {}
        if isinstance(f, Atom):
            return self._predicate(f.pred, len(f.args))(*(self._term(a, env) for a in f.args))
        if isinstance(f, Eq):
            return self._term(f.left, env) == self._term(f.right, env)
        if isinstance(f, Top):
            return z3.BoolVal(True, self.ctx)
        if isinstance(f, Bottom):
            return z3.BoolVal(False, self.ctx)
        if isinstance(f, Not):
            return z3.Not(self.formula(f.body, env), self.ctx)
        if isinstance(f, And):
            return z3.And(*(self.formula(a, env) for a in f.args))
        if isinstance(f, Or):
            return z3.Or(*(self.formula(a, env) for a in f.args))
        if isinstance(f, Implies):
            return z3.Implies(self.formula(f.left, env), self.formula(f.right, env), self.ctx)
        if isinstance(f, Iff):
            return self.formula(f.left, env) == self.formula(f.right, env)
        if isinstance(f, Xor):
            return z3.Xor(self.formula(f.left, env), self.formula(f.right, env), self.ctx)
        if isinstance(f, (Forall, Exists)):
            self._binders += 1
            bound = z3.Const(f"b:{self._binders}:{f.var}", self.sort)
            body = self.formula(f.body, {**env, f.var: bound})
            return (z3.ForAll if isinstance(f, Forall) else z3.Exists)([bound], body)
        raise TypeError(f"not a formula: {f!r}")


# --------------------------------------------------------------------------- solving


_SAT = "sat"
_UNSAT = "unsat"


class _Session:
    """A context (fresh, or the thread's shared one), its encoder and a fresh incremental solver, for one call."""

    def __init__(self, timeout_ms: int | None, rlimit: int | None, mode: str) -> None:
        if timeout_ms is not None and timeout_ms < 1:
            raise ValueError(f"timeout_ms must be a positive number of milliseconds or None, got {timeout_ms}")
        if rlimit is not None and rlimit < 1:
            raise ValueError(f"rlimit must be positive or None, got {rlimit}")
        ensure_malloc_tuned()  # every query makes and frees a solver, most a context: keep that memory for the next
        self.direct = mode != "python"
        self.shared = shared_context() if mode == "shared" else None
        self.ctx = self.shared.ctx if self.shared else z3.Context()
        if self.shared:
            self.encoder: Any = self.shared.encoder
        else:
            self.encoder = DirectEncoder(self.ctx) if self.direct else _Encoder(self.ctx)
        # Shared mode: Z3's plain incremental SMT solver. `z3.Solver` wraps that same solver with a second, tactic-based
        # one it may fall back to; setting up the pair costs about 0.3 ms a query, and an undecided query is re-asked
        # in a fresh context anyway. The fresh modes keep `z3.Solver`, as the original path had it.
        self.solver = z3.SimpleSolver(ctx=self.ctx) if self.shared else z3.Solver(ctx=self.ctx)
        if timeout_ms is not None:
            self.solver.set("timeout", timeout_ms)
        if rlimit is not None:
            self.solver.set("rlimit", rlimit)
        self.timeout_ms = timeout_ms
        self.rlimit = rlimit

    def sentence(self, f: Formula) -> Any:
        """Encode a closed formula (once per context in shared mode)."""
        return self.shared.sentence(f) if self.shared else self.encoder.formula(f)

    def add(self, f: Any) -> None:
        """Assert one encoded formula."""
        if self.direct:
            solver_assert(self.solver, f)
        else:
            self.solver.add(f)

    def assert_all(self, formulas: Iterable[Any]) -> None:
        for f in formulas:
            self.add(f)

    def check(self, what: str, *extra: Any) -> str | Undecided:
        """Check the asserted formulas plus `extra` (in a push/pop scope): ``"sat"``, ``"unsat"`` or `Undecided`."""
        self.solver.push()
        try:
            for f in extra:
                self.add(f)
            start = time.perf_counter()
            result = self.solver.check()
            elapsed_ms = (time.perf_counter() - start) * 1000
            if result == z3.sat:
                return _SAT
            if result == z3.unsat:
                return _UNSAT
            raw = self.solver.reason_unknown()
            return Undecided(self._reason(raw, elapsed_ms), f"{what}: {raw}")
        finally:
            self.solver.pop()

    def _reason(self, raw: str, elapsed_ms: float) -> str:
        """Map Z3's free-text `reason_unknown` onto a few stable categories for build statistics.

        Z3's incremental core reports both an exhausted rlimit and a wall-clock timeout as ``"canceled"``, so the
        elapsed time tells them apart: the timer cannot fire before `timeout_ms` has passed.
        """
        text = raw.lower()
        if "timeout" in text or (text == "canceled" and self.timeout_ms is not None and elapsed_ms >= self.timeout_ms):
            return "timeout"
        if "resource" in text or "rlimit" in text or (text == "canceled" and self.rlimit is not None):
            return "resource limit"
        if "incomplete" in text or "quantifiers" in text or "gave up" in text:
            return "incomplete"
        return f"unknown: {raw}"


def _require_sentences(formulas: Iterable[tuple[str, Formula]]) -> None:
    """Raise `ValueError` naming every free variable: premises and conclusions must be sentences."""
    problems = []
    for where, f in formulas:
        fv = free_vars(f)
        if fv:
            problems.append(f"{where} has free variable(s) {', '.join(sorted(fv))}")
    if problems:
        raise ValueError("premises and conclusions must be sentences: " + "; ".join(problems))


def entailment(
    premises: Sequence[Formula],
    conclusion: Formula,
    *,
    timeout_ms: int | None = DEFAULT_TIMEOUT_MS,
    rlimit: int | None = DEFAULT_RLIMIT,
    mode: ProverMode | None = None,
) -> Label | Undecided | Contradictory:
    """Decide the three-valued label of ``premises ⊢? conclusion`` (LGMT §2.2).

    ``TRUE`` iff Γ ⊨ q, ``FALSE`` iff Γ ⊨ ¬q, ``UNKNOWN`` otherwise, for satisfiable Γ. It checks Γ ∧ ¬q and
    Γ ∧ q. Both unsatisfiable means Γ is unsatisfiable (`Contradictory`). When exactly one is unsatisfiable and the
    other undecided, the answer could be a label or `Contradictory`, so Γ alone is checked as well; a label is
    returned only when the satisfiability of Γ is established. Any other undecided check gives `Undecided`.

    Args:
        premises: The premises Γ (sentences; an empty sequence means no premises).
        conclusion: The conclusion q (a sentence).
        timeout_ms: Wall-clock limit per solver check in milliseconds (``None``: none).
        rlimit: Z3 resource limit per solver check, deterministic across machines (``None``: none).
        mode: ``"shared"``, ``"fresh"`` or ``"python"`` (see `PROVER_MODES`); ``None``: ``LGMT_PROVER``, else
            ``"shared"``. Decided outcomes do not depend on it.

    Returns:
        A `Label`, or `Undecided` (a needed check was not decided), or `Contradictory` (Γ is unsatisfiable).

    Raises:
        ValueError: A premise or the conclusion has free variables.
    """
    premises = tuple(premises)
    _require_sentences([*((f"premise {i}", p) for i, p in enumerate(premises)), ("the conclusion", conclusion)])

    def ask(mode: str) -> Label | Undecided | Contradictory:
        session = _Session(timeout_ms, rlimit, mode)
        session.assert_all(session.sentence(p) for p in premises)
        q = session.sentence(conclusion)
        with_not_q = session.check("premises ∧ ¬conclusion", session.encoder.negate(q))
        with_q = session.check("premises ∧ conclusion", q)
        return label_from_checks(_proven(with_not_q), _proven(with_q), lambda: _proven(session.check("premises")))

    return _asked(mode, ask)


def _proven(outcome: str | Undecided) -> bool | Undecided:
    """Whether a check of Γ ∧ ¬x proved Γ ⊨ x (it is unsatisfiable), or why it is not known."""
    return outcome if isinstance(outcome, Undecided) else outcome == _UNSAT


_Outcome = TypeVar("_Outcome")


def _asked(mode: str | None, ask: Callable[[str], _Outcome]) -> _Outcome:
    """`ask` in the chosen mode; in shared mode an `Undecided` outcome is asked again in a fresh context.

    The retry makes "undecided" mean what it always meant, undecided in a context of its own, so a query whose
    search in a shared context happened to go worse is never dropped for that reason.
    """
    start, cpu = time.perf_counter(), time.process_time()
    try:
        chosen = _mode(mode)
        outcome = ask(chosen)
        if chosen == "shared" and isinstance(outcome, Undecided):
            return ask("fresh")
        return outcome
    finally:
        CLOCK.seconds += time.perf_counter() - start
        CLOCK.cpu_seconds += time.process_time() - cpu
        CLOCK.calls += 1


def label_from_checks(
    entails_q: bool | Undecided,
    entails_not_q: bool | Undecided,
    premises_unsatisfiable: Callable[[], bool | Undecided],
) -> Label | Undecided | Contradictory:
    """The three-valued label from the two one-sided checks Γ ⊨ q and Γ ⊨ ¬q, whichever prover made them.

    Both Z3 and E decide a label this way, so the case analysis lives here once. When exactly one side is proven
    and the other undecided, the label still follows if Γ is satisfiable, so `premises_unsatisfiable` is asked
    (lazily: it costs a third prover call) whether Γ alone is contradictory.

    Returns:
        `Contradictory` if Γ entails both, TRUE/FALSE/UNKNOWN when decided, else the first `Undecided`.
    """
    if entails_q is True and entails_not_q is True:
        return Contradictory()
    if entails_q is True and entails_not_q is False:
        return Label.TRUE
    if entails_q is False and entails_not_q is True:
        return Label.FALSE
    if entails_q is False and entails_not_q is False:
        return Label.UNKNOWN
    if entails_q is True or entails_not_q is True:
        alone = premises_unsatisfiable()
        if isinstance(alone, Undecided):
            return alone
        if alone is True:
            return Contradictory()
        return Label.TRUE if entails_q is True else Label.FALSE
    # Either one side refuted and the other undecided (TRUE/FALSE vs UNKNOWN), or both undecided.
    undecided = entails_q if isinstance(entails_q, Undecided) else entails_not_q
    assert isinstance(undecided, Undecided)
    return undecided


def entails(
    premises: Sequence[Formula],
    conclusion: Formula,
    *,
    timeout_ms: int | None = DEFAULT_TIMEOUT_MS,
    rlimit: int | None = DEFAULT_RLIMIT,
    mode: ProverMode | None = None,
) -> bool | Undecided:
    """Whether Γ ⊨ q classically (one check of Γ ∧ ¬q); unsatisfiable premises entail everything.

    Args:
        premises: The premises Γ (sentences).
        conclusion: The conclusion q (a sentence).
        timeout_ms: Wall-clock limit per solver check in milliseconds (``None``: none).
        rlimit: Z3 resource limit per solver check (``None``: none).
        mode: ``"shared"``, ``"fresh"`` or ``"python"`` (see `PROVER_MODES`); ``None``: ``LGMT_PROVER``, else
            ``"shared"``. Decided outcomes do not depend on it.

    Returns:
        ``True`` if Γ ⊨ q, ``False`` if Z3 found a model of Γ ∧ ¬q, else `Undecided`.

    Raises:
        ValueError: A premise or the conclusion has free variables.
    """
    premises = tuple(premises)
    _require_sentences([*((f"premise {i}", p) for i, p in enumerate(premises)), ("the conclusion", conclusion)])

    def ask(mode: str) -> bool | Undecided:
        session = _Session(timeout_ms, rlimit, mode)
        session.assert_all(session.sentence(p) for p in premises)
        return _proven(session.check("premises ∧ ¬conclusion", session.encoder.negate(session.sentence(conclusion))))

    return _asked(mode, ask)


def equivalent(
    a: Formula,
    b: Formula,
    *,
    timeout_ms: int | None = DEFAULT_TIMEOUT_MS,
    rlimit: int | None = DEFAULT_RLIMIT,
    mode: ProverMode | None = None,
) -> bool | Undecided:
    """Whether `a` and `b` are logically equivalent (true in exactly the same interpretations).

    Open formulas are allowed here, unlike in `entailment`: both are compared under the universal closure over
    their joint free variables, i.e. ``∀x̄ (a ↔ b)`` must be valid. The free variables become fresh constants,
    which is the same test (``¬(a ↔ b)`` with fresh constants is unsatisfiable iff the closure is valid). This
    is what a rewrite of a sub-formula under binders needs.

    Args:
        a: A formula.
        b: A formula.
        timeout_ms: Wall-clock limit per solver check in milliseconds (``None``: none).
        rlimit: Z3 resource limit per solver check (``None``: none).
        mode: ``"shared"``, ``"fresh"`` or ``"python"`` (see `PROVER_MODES`); ``None``: ``LGMT_PROVER``, else
            ``"shared"``. Decided outcomes do not depend on it.

    Returns:
        ``True`` if equivalent, ``False`` if Z3 found a distinguishing interpretation, else `Undecided`.
    """

    def ask(mode: str) -> bool | Undecided:
        session = _Session(timeout_ms, rlimit, mode)
        for name in sorted(free_vars(a) | free_vars(b)):
            session.encoder.free_variable(name)
        za, zb = session.encoder.formula(a), session.encoder.formula(b)
        # Two checks with plain polarities instead of one on ¬(a ↔ b): under ↔ every quantifier occurs both
        # positively and negatively, which defeats Z3's skolemisation and model-based instantiation (it cannot even
        # refute ∀x∃y L(x, y) ≡ ∃y∀x L(x, y) that way, while a ∧ ¬b is refuted in milliseconds).
        first = session.check("a ∧ ¬b", za, session.encoder.negate(zb))
        if first == _SAT:
            return False
        second = session.check("b ∧ ¬a", zb, session.encoder.negate(za))
        if second == _SAT:
            return False
        if isinstance(first, Undecided):
            return first
        if isinstance(second, Undecided):
            return second
        return True

    return _asked(mode, ask)


def satisfiable(
    formulas: Sequence[Formula],
    *,
    timeout_ms: int | None = DEFAULT_TIMEOUT_MS,
    rlimit: int | None = DEFAULT_RLIMIT,
    mode: ProverMode | None = None,
) -> bool | Undecided:
    """Whether the sentences have a common model (an empty sequence is satisfiable).

    Args:
        formulas: Sentences, read as a conjunction.
        timeout_ms: Wall-clock limit for the solver check in milliseconds (``None``: none).
        rlimit: Z3 resource limit for the solver check (``None``: none).
        mode: ``"shared"``, ``"fresh"`` or ``"python"`` (see `PROVER_MODES`); ``None``: ``LGMT_PROVER``, else
            ``"shared"``. Decided outcomes do not depend on it.

    Returns:
        ``True`` if Z3 found a model, ``False`` if it proved there is none, else `Undecided`.

    Raises:
        ValueError: A formula has free variables.
    """
    formulas = tuple(formulas)
    _require_sentences((f"formula {i}", f) for i, f in enumerate(formulas))

    def ask(mode: str) -> bool | Undecided:
        session = _Session(timeout_ms, rlimit, mode)
        session.assert_all(session.sentence(f) for f in formulas)
        result = session.check("formulas")
        return result if isinstance(result, Undecided) else result == _SAT

    return _asked(mode, ask)

"""Z3 contexts for the prover: terms made through Z3's C API, and one reused context per thread.

Why these exist
---------------
Measured on 300 FOLIO/ProverQA label queries (one process, 2026-11-26), a query through z3's Python layer in a
fresh context cost about 3.1 ms: 0.45 ms for the context and solver, 1.25 ms to encode the formulas and 1.4 ms in
the two solver checks, most of the first check being per-context set-up rather than search. Most of the encoding
time is the Python layer's checking and coercion around each C call (sort and context look-ups, casts), not Z3.

`DirectEncoder` makes the same C calls as `prover._Encoder` does through the Python layer, in the same order, and
frees every temporary term at the same moment, so in a fresh context Z3 sees an identical sequence of operations:
identical term ids, identical search, identical resource counts (the determinism tests compare Z3's statistics
check by check). Freeing order matters because Z3 gives a freed term's id to the next new one: after a quantifier
is built, its bound constant is released before the body it was abstracted from, as the old path's frames do.

`SharedContext` is the calling thread's reused context with the sentences already encoded in it, which saves the
context, most of the first check's set-up and the re-encoding of repeated premises. Z3's heuristics follow term
ids, which in a shared context depend on earlier queries, so the prover re-asks any query a shared context leaves
undecided in a fresh one (see "Contexts, speed and reproducibility" in `lgmt_tasks.logic.prover`).
"""

from __future__ import annotations

import atexit
import os
import threading
from typing import Any

import z3
from z3 import z3core

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
)

__all__ = ["DirectEncoder", "Ref", "SharedContext", "shared_context", "solver_assert"]


class Ref:
    """One counted reference to a Z3 term of a context, released when the Python object dies (as `z3.AstRef`)."""

    __slots__ = ("_ctx", "_ref", "ast")

    def __init__(self, ast: Any, ctx: z3.Context) -> None:
        self._ctx = ctx  # keeps the context alive for as long as a reference into it exists
        self._ref = ctx.ref()
        self.ast = ast
        z3core.Z3_inc_ref(self._ref, ast)

    def __del__(self) -> None:
        if self.ast is not None and z3core.Z3_dec_ref is not None:
            z3core.Z3_dec_ref(self._ref, self.ast)
            self.ast = None


def _array(refs: list[Ref]) -> Any:
    arr = (z3.Ast * len(refs))()
    for i, r in enumerate(refs):
        arr[i] = r.ast
    return arr


class DirectEncoder:
    """Translates our AST into Z3 terms of one private context with direct C calls (see the module docstring).

    It mirrors `prover._Encoder` call for call; the symbol tables live on the instance, never at module level.
    """

    def __init__(self, ctx: z3.Context) -> None:
        self.ctx = ctx
        self._c = ctx.ref()
        self.sort = Ref(
            z3core.Z3_mk_uninterpreted_sort(self._c, z3core.Z3_mk_string_symbol(self._c, "Individual")), ctx
        )
        self._bool = z3core.Z3_mk_bool_sort(self._c)
        self._predicates: dict[tuple[str, int], Ref] = {}
        self._constants: dict[str, Ref] = {}
        self._free: dict[str, Ref] = {}
        self._binders = 0

    def _const(self, name: str) -> Ref:
        return Ref(z3core.Z3_mk_const(self._c, z3core.Z3_mk_string_symbol(self._c, name), self.sort.ast), self.ctx)

    def free_variable(self, name: str) -> Ref:
        """Return the Z3 constant standing for free variable `name` (used only to close open formulas)."""
        if name not in self._free:
            self._free[name] = self._const(f"v:{name}")
        return self._free[name]

    def _term(self, t: Term, env: dict[str, Ref]) -> Ref:
        if isinstance(t, Const):
            if t.name not in self._constants:
                self._constants[t.name] = self._const(f"c:{t.name}")
            return self._constants[t.name]
        if t.name in env:
            return env[t.name]
        if t.name in self._free:
            return self._free[t.name]
        raise ValueError(f"unexpected free variable {t.name!r}")

    def _predicate(self, name: str, arity: int) -> Ref:
        key = (name, arity)
        if key not in self._predicates:
            domain = (z3.Sort * arity)(*([self.sort.ast] * arity))
            symbol = z3core.Z3_mk_string_symbol(self._c, f"p:{name}/{arity}")
            self._predicates[key] = Ref(z3core.Z3_mk_func_decl(self._c, symbol, arity, domain, self._bool), self.ctx)
        return self._predicates[key]

    def negate(self, f: Ref) -> Ref:
        """``¬f`` (as `z3.Not`)."""
        return Ref(z3core.Z3_mk_not(self._c, f.ast), self.ctx)

    def formula(self, f: Formula, env: dict[str, Ref] | None = None) -> Ref:
        """Encode `f`; `env` maps the names of enclosing bound variables to their Z3 constants."""
        env = env or {}
        c = self._c
        if isinstance(f, Atom):
            decl = self._predicate(f.pred, len(f.args))
            args = [self._term(a, env) for a in f.args]
            return Ref(z3core.Z3_mk_app(c, decl.ast, len(args), _array(args)), self.ctx)
        if isinstance(f, Eq):
            return Ref(z3core.Z3_mk_eq(c, self._term(f.left, env).ast, self._term(f.right, env).ast), self.ctx)
        if isinstance(f, Top):
            return Ref(z3core.Z3_mk_true(c), self.ctx)
        if isinstance(f, Bottom):
            return Ref(z3core.Z3_mk_false(c), self.ctx)
        if isinstance(f, Not):
            body = self.formula(f.body, env)  # held until the parent exists: a temporary would free it first
            return Ref(z3core.Z3_mk_not(c, body.ast), self.ctx)
        if isinstance(f, (And, Or)):
            parts = [self.formula(a, env) for a in f.args]
            make = z3core.Z3_mk_and if isinstance(f, And) else z3core.Z3_mk_or
            return Ref(make(c, len(parts), _array(parts)), self.ctx)
        if isinstance(f, (Implies, Iff, Xor)):
            left = self.formula(f.left, env)
            right = self.formula(f.right, env)
            make = (
                z3core.Z3_mk_implies
                if isinstance(f, Implies)
                else z3core.Z3_mk_eq
                if isinstance(f, Iff)
                else z3core.Z3_mk_xor
            )
            return Ref(make(c, left.ast, right.ast), self.ctx)
        if isinstance(f, (Forall, Exists)):
            self._binders += 1
            bound = self._const(f"b:{self._binders}:{f.var}")
            body = self.formula(f.body, {**env, f.var: bound})
            bound_array = (z3.Ast * 1)(bound.ast)
            empty = z3core.Z3_mk_string_symbol(c, "")
            quantifier = Ref(
                z3core.Z3_mk_quantifier_const_ex(
                    c, isinstance(f, Forall), 1, empty, empty, 1, bound_array, 0, None, 0, None, body.ast
                ),
                self.ctx,
            )
            # Release in the old path's order (its frame drops `bound`, then `body`): Z3 recycles freed ids.
            del bound_array
            del bound
            del body
            return quantifier
        raise TypeError(f"not a formula: {f!r}")


def solver_assert(solver: z3.Solver, f: Ref) -> None:
    """Assert `f` in `solver` (as `z3.Solver.add` does for one Boolean term)."""
    z3core.Z3_solver_assert(solver.ctx.ref(), solver.solver, f.ast)


RECYCLE_AFTER_QUERIES = 2000
"""A thread's shared context is replaced after this many queries (its term tables and sentence cache only grow)."""

MAX_CACHED_SENTENCES = 20_000
"""A thread's shared context is replaced early when its sentence cache holds more encoded sentences than this."""


class SharedContext:
    """A Z3 context reused by the queries of one thread, with the sentences already encoded in it.

    Each query still gets its own solver; only terms are shared. See the prover's module docstring for what this
    does and does not guarantee about outcomes.
    """

    def __init__(self) -> None:
        self.ctx = z3.Context()
        self.encoder = DirectEncoder(self.ctx)
        self.pid = os.getpid()
        self.queries = 0
        self._sentences: dict[Formula, Ref] = {}

    def sentence(self, f: Formula) -> Ref:
        """The encoding of the closed formula `f`, made once per context (formulas are frozen and hashable)."""
        encoded = self._sentences.get(f)
        if encoded is None:
            encoded = self._sentences[f] = self.encoder.formula(f)
        return encoded

    @property
    def worn(self) -> bool:
        """Whether this context has served enough queries or cached enough sentences to be replaced."""
        return self.queries >= RECYCLE_AFTER_QUERIES or len(self._sentences) > MAX_CACHED_SENTENCES


_per_thread = threading.local()
"""Private: each thread's `SharedContext`, created by its first query (never at import)."""


def shared_context() -> SharedContext:
    """The calling thread's shared context: made on first use, replaced when worn or inherited from a parent process."""
    current: SharedContext | None = getattr(_per_thread, "context", None)
    if current is None or current.pid != os.getpid() or current.worn:
        if current is None and threading.current_thread() is threading.main_thread():
            atexit.register(_release, _per_thread)  # other threads' contexts are freed when the thread ends
        current = _per_thread.context = SharedContext()
    current.queries += 1
    return current


def _release(per_thread: threading.local) -> None:
    """Free the calling (main) thread's shared context at exit, before the interpreter tears down z3's modules.

    Left to interpreter shutdown, a context held by a module-level object can be freed after parts of z3's binding
    are gone, which glibc has reported as heap corruption at exit.
    """
    per_thread.__dict__.pop("context", None)

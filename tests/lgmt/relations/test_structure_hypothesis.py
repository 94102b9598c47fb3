"""Prover-free invariants of every relation on Hypothesis-generated cases (the shared FOL strategies)."""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from lgmt_tasks.lgmt.relations import RELATIONS, Case
from lgmt_tasks.lgmt.relations.check import structural_problem
from lgmt_tasks.logic.parse import parse
from lgmt_tasks.logic.printer import show
from tests.fol_strategies import formulas

cases = st.builds(
    lambda ps, q: Case(tuple(ps), q),
    st.lists(formulas(max_depth=4), min_size=1, max_size=3),
    formulas(max_depth=3),
)


@settings(max_examples=150, deadline=None)
@given(cases, st.integers(0, 2**32 - 1), st.sampled_from(["paper", "forward", "introduction", "any", "counts"]))
def test_every_followup_is_well_formed_and_reproducible(case, seed, direction):
    for mr, relation in RELATIONS.items():
        fu = relation.apply(case, random.Random(seed), direction=direction, names="natural")
        assert (fu is None) == (not relation.applies(case, direction=direction)), mr
        sites = relation.sites(case, direction=direction)
        if direction == "paper":  # a filter, no fallback
            assert sites == [s for s in relation.all_sites(case) if relation.paper_site(s)], mr
        elif direction == "counts":  # issue #25's reading fitted to the counts: a filter too
            assert sites == [s for s in relation.all_sites(case) if relation.counts_site(s)], mr
        else:  # the sites added for the counts reading leave the older modes unchanged
            assert not any(relation.counts_only(s) for s in sites), mr
        if fu is None:
            continue
        assert fu.variant in ("paper", "introduction", "extended"), mr
        assert fu.variant == ("paper" if fu.direction == "forward" or direction == "paper" else fu.variant), mr
        if fu.direction == "introduction":
            assert fu.variant == "introduction", mr
        assert structural_problem(case, fu) is None, (mr, fu)
        assert fu == relation.apply(case, random.Random(seed), direction=direction, names="natural"), mr
        assert (fu.premises_fol, fu.conclusion_fol) != (case.premises_fol, case.conclusion_fol), mr
        assert fu.direction in relation.directions, mr
        for f in (*fu.premises_fol, fu.conclusion_fol):
            assert parse(show(f)) == f, (mr, show(f))  # follow-ups print and read back (names stay legal)

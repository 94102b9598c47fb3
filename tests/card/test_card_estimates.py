"""The card's interval helpers and paper-figure matching, on hand-made counts (no logs)."""

from __future__ import annotations

import pytest

from lgmt_tasks.card.estimates import empty, pooled_sequence, wilson, wilson_of_rate
from lgmt_tasks.card.paper_figures import MATCHERS, TABLES, paper_figure
from lgmt_tasks.scorers.intervals import wilson_interval


def test_one_interval_is_the_reports_wilson_interval():
    estimate = wilson(3, 10)
    assert (estimate.low, estimate.high) == wilson_interval(3, 10)
    assert (estimate.value, estimate.n, estimate.method, estimate.family) == (0.3, 10, "wilson", 1)


@pytest.mark.parametrize(("successes", "n"), [(0, 5), (1, 3), (7, 20), (20, 20)])
def test_a_simultaneous_interval_is_wider_the_larger_its_family(successes, n):
    widths = []
    for family in (1, 2, 10, 20):
        estimate = wilson(successes, n, family=family)
        assert estimate.contains_value()
        widths.append(estimate.high - estimate.low)
    assert widths == sorted(widths) and widths[0] < widths[-1]


def test_a_rate_that_is_not_its_counts_ratio_is_refused():
    with pytest.raises(ValueError, match="is not 3.0 / 10.0"):
        wilson(3, 10, value=0.25)


def test_no_trial_gives_no_rate_and_no_interval():
    assert wilson(0, 0) == empty() == wilson_of_rate(float("nan"), 4)
    assert empty().contains_value()


def test_the_pooled_sequence_is_the_group_weighted_mean_of_the_relations_bounds():
    relations = [
        {"groups": 10, "violations": 2, "lower": 0.05, "upper": 0.55},
        {"groups": 30, "violations": 3, "lower": 0.01, "upper": 0.30},
    ]
    estimate = pooled_sequence(relations, [0.05], 5 / 40)
    assert estimate.low == pytest.approx((10 * 0.05 + 30 * 0.01) / 40)
    assert estimate.high == pytest.approx((10 * 0.55 + 30 * 0.30) / 40)
    assert estimate.contains_value() and estimate.level == pytest.approx(0.95)
    assert pooled_sequence(relations, [0.05, 0.05], 5 / 40).level == pytest.approx(0.90)  # two runs: both must hold


@pytest.mark.parametrize(
    ("suite", "model", "paper_model"),
    [
        ("divlogiceval", "openai/gpt-4o", "GPT-4o (gpt-4o-2024-05-13)"),
        ("divlogiceval", "openai/gpt-4o-mini", None),
        ("logicasker", "openai/gpt-4", "GPT-4"),
        ("logicasker", "openai/gpt-4o", None),
        ("lgmt", "anthropic/claude-sonnet-4-5", "Claude 4.5 Sonnet"),
        ("lgmt", "together/meta-llama/Llama-3.3-70B-Instruct-Turbo", "Llama 3.3"),
        ("divlogiceval", "together/meta-llama/Llama-3.3-70B-Instruct-Turbo", "LLaMA3.3 (llama-3.3-70b-instruct)"),
        ("lexical", "together/meta-llama/Llama-3.3-70B-Instruct-Turbo", None),
        ("lexical", "hf/meta-llama/Meta-Llama-3-8B-Instruct", "LLAMA3"),
        ("qmfol", "google/gemini-3.1-pro", "Gemini-3.1-Pro"),
        ("lgmt", "lgmt/smollm2", None),
    ],
)
def test_a_paper_figure_is_found_for_its_family_only(suite, model, paper_model):
    figure = paper_figure(suite, model)
    assert (figure.paper_model if figure else None) == paper_model
    if figure is not None:
        assert figure.note == "paper, not re-run" and 0 < figure.value < 1


def test_every_paper_model_has_a_matcher():
    assert {name for table in TABLES for name in table.values} == set(MATCHERS)

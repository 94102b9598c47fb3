"""One wording for a rate over no parsed group: `no parsed group`, in every Markdown table and in the headline.

A rate is NaN both where a row had no group at all (the papers' dash, `–`) and where it had groups but none with a
parsed answer; the second is a finding about the model, so it is said in words wherever the counts tell them apart.
"""

from __future__ import annotations

import math

import pandas as pd

from lgmt_tasks.report.headline import display_table
from lgmt_tasks.report.suite_report import MISSING, NO_PARSED_GROUP, markdown


def cells(text: str, first: str) -> list[str]:
    [line] = [line for line in text.splitlines() if line.startswith(f"| {first} ")]
    return [cell.strip() for cell in line.strip("|").split("|")]


def test_a_table_row_with_groups_but_none_parsed_says_so_and_a_row_without_groups_keeps_the_dash() -> None:
    table = pd.DataFrame(
        {"relation": ["A", "B", "C"], "groups": [3, 0, 2], "parsed": [0, 0, 2], "mvr": [math.nan, math.nan, 0.5]}
    )
    text = markdown(table)
    assert cells(text, "A")[-1] == NO_PARSED_GROUP
    assert cells(text, "B")[-1] == MISSING
    assert cells(text, "C")[-1] == "0.500" and "nan" not in text


def test_the_headline_says_no_parsed_group_for_a_nan_rate_of_a_log_with_samples() -> None:
    table = pd.DataFrame(
        {
            "task": ["mr_e", "mr_s", "mr_c"],
            "model": ["m", "m", "m"],
            "samples": [4, 4, 0],
            "mvr": [math.nan, 0.25, math.nan],
            "mvr_stderr": [math.nan, 0.1, math.nan],
        }
    )
    assert display_table(table)["mvr"].tolist() == [NO_PARSED_GROUP, "0.250 ± 0.100", "-"]

"""The noise floor of `-T control=true` at the suite level: when to suggest it, and its table in `lgmt report`.

The control member itself is asked by `solvers.group` and scored by `scorers.lgmt` (`pairwise.CONTROL_KEYS`); this
module holds what a task and a report do with it.

When to suggest it: the eval samples answers, but no control member measures the noise floor.

The control member (the source asked again, unchanged) costs one more model call per group. Under greedy decoding
(`--temperature 0`, the paper's setting, and our `lgmt/smollm2`'s default) a deterministic model answers the same
prompt the same way, so the control rate is 0 by construction and the call buys nothing; that is why the default is
off. With a temperature above 0 a model's answers vary by themselves, and a violation counts as a defect only
above that floor, which is exactly what the control measures.

Inspect resolves a task while the eval's generation settings are active (`inspect eval --temperature 0.7`, or
`eval(..., temperature=0.7)`: `eval_resolve_tasks` calls `init_active_model(model, GenerateConfig(**kwargs))` before
creating the tasks), so a task can read the temperature the user asked for and warn. It cannot see everything that
makes answers stochastic, so the warning is a hint, not a default: a provider's own default temperature (OpenAI's
and Anthropic's APIs sample at 1.0 when Inspect passes none), a temperature set with `--model-args` or a model role,
and `--epochs` (not a generation setting) are invisible at task creation. Turning the control on by such a guess
would change what a run's scores contain depending on a setting the task may not see, so it stays explicit.
"""

from __future__ import annotations

import logging
from collections.abc import Sequence

import pandas as pd
from inspect_ai.model._generate_config import active_generate_config

from lgmt_tasks.lgmt.frame import SETTING, group_frame
from lgmt_tasks.scorers.pairwise import CONTROL_KEYS, OUTCOME_KEYS, mvr_minus_control

logger = logging.getLogger(__name__)

SUGGESTION = (
    "LGMT: --temperature {temperature} samples answers, so some violations are the model's own randomness; add "
    "-T control=true to measure that noise floor (the source asked twice) and see which relations are above it."
)
"""The one-line warning of `suggest_control`."""


def sampling_temperature() -> float | None:
    """The temperature of the eval being set up, if one above 0 was asked for (None otherwise, or outside an eval)."""
    temperature = active_generate_config().temperature
    return temperature if temperature is not None and temperature > 0 else None


def suggest_control(control: bool) -> str | None:
    """Log a one-line warning suggesting `-T control=true` when the eval samples with a temperature above 0.

    Args:
        control: Whether the task already asks the control member.

    Returns:
        The warning logged, or None when none was (control on, greedy or unset temperature).
    """
    temperature = sampling_temperature()
    if control or temperature is None:
        return None
    message = SUGGESTION.format(temperature=temperature)
    logger.warning(message)
    return message


CONTROL_TABLE = "control_noise_floor"
"""The stem of the report table (and of its `--out` files)."""

CONTROL_TITLE = (
    "Noise floor (-T control=true): MVR vs the control rate (the source asked twice) per relation, on the groups "
    "where every answer parsed; above_control = yes when the 95% Newcombe paired interval of MVR − control lies "
    "above 0 (one-sided test at 2.5%)"
)

CONTROL_COLUMNS = (
    "relation",
    "pairs",
    "mvr",
    "control_rate",
    "excess_mvr",
    "low",
    "high",
    "above_control",
)


def has_control(groups: pd.DataFrame) -> bool:
    """Whether any group of a report was scored with a control member (a run with `-T control=true`)."""
    return "paired" in groups and bool(groups["paired"].notna().any())


def control_table(groups: pd.DataFrame, setting: Sequence[str] = tuple(SETTING)) -> pd.DataFrame:
    """Per setting, one row per relation and an `all` row: MVR, control rate, their difference, interval, verdict.

    Args:
        groups: `lgmt_tasks.lgmt.frame.group_frame` rows (epoch-reduced outcome and control keys per group).
        setting: The columns that identify a run's setting (rows of different settings are never pooled).

    Returns:
        The table (columns `setting` then `CONTROL_COLUMNS`); empty when no group has control keys.
    """
    if not has_control(groups):
        return pd.DataFrame()
    controlled = groups[groups["paired"].notna()]
    rows: list[dict[str, object]] = []
    for key, run in controlled.groupby(list(setting), sort=False, dropna=False):
        chunks = [*run.groupby("mr", sort=False), ("all", run)]
        for relation, chunk in chunks:
            difference = mvr_minus_control(chunk[[*OUTCOME_KEYS, *CONTROL_KEYS]].to_dict("records"))
            rows.append(
                {
                    **dict(zip(setting, key, strict=True)),
                    "relation": relation,
                    "pairs": difference.pairs,
                    "mvr": difference.mvr,
                    "control_rate": difference.control,
                    "excess_mvr": difference.value,
                    "low": difference.low,
                    "high": difference.high,
                    "above_control": "yes" if difference.above_control else "no",
                }
            )
    table = pd.DataFrame(rows, columns=[*setting, *CONTROL_COLUMNS])
    if all(float(v).is_integer() for v in table["pairs"]):
        table["pairs"] = table["pairs"].astype(int)
    return table


def controlled_logs(paths: Sequence[str]) -> list[str]:
    """The logs among `paths` of runs with `-T control=true` (read from each log's header, so cheap)."""
    from inspect_ai.log import read_eval_log

    return [path for path in paths if (read_eval_log(path, header_only=True).eval.task_args or {}).get("control")]


def control_section(paths: Sequence[str]) -> str:
    """`lgmt report`'s noise-floor section: the title and `control_table` of the controlled runs ("" if none)."""
    logs = controlled_logs(paths)
    table = control_table(group_frame(logs), SETTING) if logs else pd.DataFrame()
    if table.empty:
        return ""
    return f"{CONTROL_TITLE}:\n" + table.to_markdown(index=False, floatfmt=".3f")

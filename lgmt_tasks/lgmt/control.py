"""The control members of `-T control` at the suite level: the rendered source, when to suggest a control, the table.

`-T control` takes `none` (the default; `false`), `repeat` (`true`: the noise floor, the source asked again,
unchanged) or `render` (the style control: the source with every premise and the conclusion re-rendered from its own
FOL by the template realiser that writes the follow-ups' changed sentences, no logical change). The control member is
asked by `solvers.group` and scored by `scorers.lgmt` (`pairwise.CONTROL_KEYS`, the same keys for both); this module
holds what a task and a report do with it: `render_member` writes the render control's prompt, `suggest_control`
suggests the noise floor, `control_table` puts either control's rate beside every relation's MVR.

Where the rendered text comes from: the task renders it when it loads the rows, from the rows' `premises_fol` and
`conclusion_fol`, with the lexicon and realiser of the follow-ups (`english.case_lexicon`, `realize.realize`). Not a
dataset column: rendering is deterministic (the same FOL gives the same sentences, byte for byte) and cheap (about
1.5 ms a group), so every dataset, built before this option or published, gets the control without a rebuild, and
the render control always uses the realiser of the code that runs it, as a rebuilt follow-up would.

The render control measures the violation rate that template English alone causes, beside every relation: a model
that answers by the logic answers the rendered source as it answers the source; a model that reacts to style
(most follow-ups mix template sentences with the source's natural ones) shows it here. On sources whose English
is the realiser's own (`source=generated`) the rendered source is the source, and the render control is the
repeat control.

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
from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any

from inspect_ai.dataset import Sample
from inspect_ai.model._generate_config import active_generate_config

from lgmt_tasks.lgmt.english import case_lexicon
from lgmt_tasks.lgmt.frame import CONTROL, SETTING, group_frame, variant_columns
from lgmt_tasks.lgmt.relations.followup import LABEL_OBLIGATION, FollowUp
from lgmt_tasks.logic.parse import parse
from lgmt_tasks.logic.realize import realize
from lgmt_tasks.scorers.pairwise import CONTROL_KEYS, OUTCOME_KEYS, above_control_holm, mvr_minus_control
from lgmt_tasks.solvers.prompts import render_user_prompt
from lgmt_tasks.sources.case import Case
from lgmt_tasks.vocabulary import RENDER_PROMPT_KEY, control_kind

if TYPE_CHECKING:  # pandas is imported by the report functions that use it: the tasks import this module, and
    import pandas as pd  # Inspect imports every installed plugin before any eval (`tests/test_import_graph.py`)

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


def rendered_source(record: Mapping[str, Any]) -> tuple[list[str], str]:
    """The source case of a group row re-rendered from its FOL: every premise and the conclusion, by the realiser.

    The lexicon is the follow-ups' (`english.case_lexicon`) for a follow-up that changes nothing: the source's
    symbols spoken as a follow-up's changed sentence speaks them.

    Args:
        record: A dataset row (`premises`, `premises_fol`, `conclusion`, `conclusion_fol`).

    Returns:
        The rendered premises and conclusion.

    Raises:
        ValueError: Naming the row, if its FOL does not parse or cannot be realised.
    """
    try:
        premises_fol = tuple(parse(text) for text in record["premises_fol"])
        conclusion_fol = parse(record["conclusion_fol"])
        case = Case(premises_fol, conclusion_fol, tuple(record["premises"]), record["conclusion"])
        same = FollowUp(
            premises_fol=premises_fol,
            conclusion_fol=conclusion_fol,
            premise_origin=(None,) * len(premises_fol),
            conclusion_changed=True,
            mr="control",
            category="control",
            direction="forward",
            changed="all",
            site="",
            obligation=LABEL_OBLIGATION,
        )
        lexicon = case_lexicon(case, same)
        return [realize(f, lexicon) for f in premises_fol], realize(conclusion_fol, lexicon)
    except ValueError as error:  # FormulaSyntaxError, RealizationError, LexiconError
        raise ValueError(
            f"group {record.get('id', '?')}: -T control=render cannot re-render its source from its FOL: {error}"
        ) from error


def render_member(sample: Sample) -> Sample:
    """The sample with the render control member added to its metadata (`-T control=render`).

    Adds `rendered_premises` and `rendered_conclusion` (the source re-rendered, `rendered_source`) and, under
    `RENDER_PROMPT_KEY`, the user prompt the solver asks. The members (`metadata["members"]`) are unchanged.
    """
    metadata = dict(sample.metadata or {})
    premises, conclusion = rendered_source({"id": sample.id, **metadata})
    metadata.update(
        rendered_premises=premises,
        rendered_conclusion=conclusion,
        **{RENDER_PROMPT_KEY: render_user_prompt(premises, conclusion)},
    )
    return sample.model_copy(update={"metadata": metadata})


def suggest_control(control: bool | str) -> str | None:
    """Log a one-line warning suggesting `-T control=true` when the eval samples with a temperature above 0.

    Args:
        control: The task's `-T control` (no warning with a control member of either kind: the render control
            also measures the model's randomness, on top of the style).

    Returns:
        The warning logged, or None when none was (control on, greedy or unset temperature).
    """
    temperature = sampling_temperature()
    if control_kind(control) != "none" or temperature is None:
        return None
    message = SUGGESTION.format(temperature=temperature)
    logger.warning(message)
    return message


CONTROL_TABLE = "control_noise_floor"
"""The stem of the report table (and of its `--out` files)."""

CONTROL_TITLE = (
    "Noise floor (-T control=true): MVR vs the control rate (the source asked twice) per relation, on the groups "
    "where every answer parsed; above_control = yes when MVR − control is above 0 "
    "at 2.5% one-sided, Holm-corrected across the relations (p_holm; the all row is one test, p_value, its own "
    "95% Newcombe paired interval above 0)"
)
RENDER_TITLE = (
    "Style control (-T control=render): MVR vs the render rate (the source vs itself re-rendered by the template "
    "realiser) per relation, on the groups where every answer parsed; above_control = yes when MVR − render rate "
    "is above 0 at 2.5% one-sided, Holm-corrected across the relations (p_holm; the all row is one test, its own "
    "95% Newcombe paired interval above 0); nothing is subtracted from MVR"
)
BOTH_TITLE = (
    "Controls (-T control=true | render): MVR vs the control rate per relation, column control = repeat (the source "
    "asked twice, the noise floor) or render (the source vs itself re-rendered by the template realiser, the style "
    "control), on the groups where every answer parsed; above_control = yes when MVR − control rate is above 0 at "
    "2.5% one-sided, Holm-corrected across the relations (p_holm; the all row is one test, its own 95% Newcombe "
    "paired interval above 0); nothing is subtracted from MVR"
)

CONTROL_COLUMNS = (
    "relation",
    CONTROL,
    "pairs",
    "mvr",
    "control_rate",
    "excess_mvr",
    "low",
    "high",
    "p_value",
    "p_holm",
    "above_control",
)


def has_control(groups: pd.DataFrame) -> bool:
    """Whether any group of a report was scored with a control member (a run with `-T control=true` or `render`)."""
    return "paired" in groups and bool(groups["paired"].notna().any())


def control_title(groups: pd.DataFrame) -> str:
    """The title of `control_table`: the noise floor's, the style control's, or both's (by the groups' controls)."""
    kinds = set(groups.loc[groups["paired"].notna(), CONTROL]) if CONTROL in groups and has_control(groups) else set()
    if kinds == {"render"}:
        return RENDER_TITLE
    return BOTH_TITLE if "render" in kinds else CONTROL_TITLE


def control_table(groups: pd.DataFrame, setting: Sequence[str] = tuple(SETTING)) -> pd.DataFrame:
    """Per setting, one row per relation and an `all` row: MVR, control rate, their difference, interval, verdict.

    Column `control` says which control member a row measures (`repeat` or `render`, from the log's `-T control`);
    `control_rate` is that member's rate (the render rate of a `render` row). `p_value` is the one-sided p of MVR >
    control that the interval inverts; `p_holm` adjusts it by Holm across the relations of the setting (the `all`
    row is one test of its own: `p_holm` = `p_value`), and `above_control` is `p_holm` < 2.5%. Runs with different
    controls differ in their settings, so their rows are never pooled.

    Args:
        groups: `lgmt_tasks.lgmt.frame.group_frame` rows (epoch-reduced outcome and control keys per group).
        setting: The columns that identify a run's setting (rows of different settings are never pooled); the
            report adds `variant` when the groups hold more than one variant of the laws.

    Returns:
        The table (columns `setting` then `CONTROL_COLUMNS`); empty when no group has control keys.
    """
    import pandas as pd

    if not has_control(groups):
        return pd.DataFrame()
    controlled = groups[groups["paired"].notna()]
    rows: list[dict[str, object]] = []
    for key, run in controlled.groupby(list(setting), sort=False, dropna=False):
        chunks = [*run.groupby("mr", sort=False), ("all", run)]
        differences = {
            str(relation): mvr_minus_control(chunk[[*OUTCOME_KEYS, *CONTROL_KEYS]].to_dict("records"))
            for relation, chunk in chunks
        }
        overall = differences.pop("all")
        verdicts = above_control_holm(differences)  # one family: the relations of this setting
        verdicts["all"] = (overall.p_value, overall.above_control)  # the one overall test stands alone
        differences["all"] = overall
        for relation, chunk in chunks:
            difference = differences[str(relation)]
            p_holm, above = verdicts[str(relation)]
            rows.append(
                {
                    **dict(zip(setting, key, strict=True)),
                    "relation": relation,
                    CONTROL: _kind_of(chunk),
                    "pairs": difference.pairs,
                    "mvr": difference.mvr,
                    "control_rate": difference.control,
                    "excess_mvr": difference.value,
                    "low": difference.low,
                    "high": difference.high,
                    "p_value": difference.p_value,
                    "p_holm": p_holm,
                    "above_control": "yes" if above else "no",
                }
            )
    table = pd.DataFrame(rows, columns=[*setting, *CONTROL_COLUMNS])
    if all(float(v).is_integer() for v in table["pairs"]):
        table["pairs"] = table["pairs"].astype(int)
    return table


def _kind_of(groups: pd.DataFrame) -> str:
    """The control of a chunk of controlled groups (`repeat` for a frame without the column)."""
    kinds = sorted(set(groups[CONTROL])) if CONTROL in groups else []
    return "+".join(kinds) if kinds else "repeat"


def _log_control(path: str) -> str:
    """A log's control (`none` for a log without one, or with a value this version does not know)."""
    from inspect_ai.log import read_eval_log

    value = (read_eval_log(path, header_only=True).eval.task_args or {}).get("control")
    try:
        return control_kind(value)
    except ValueError:
        return "none"


def controlled_logs(paths: Sequence[str]) -> list[str]:
    """The logs among `paths` of runs with a control member, `-T control=true` or `render` (read from headers)."""
    return [path for path in paths if _log_control(path) != "none"]


def control_section(paths: Sequence[str]) -> str:
    """`lgmt report`'s control section: the title and `control_table` of the controlled runs ("" if none).

    When the groups hold more than one variant of the laws, `variant` is part of the setting (rows per variant).
    """
    import pandas as pd

    logs = controlled_logs(paths)
    groups = group_frame(logs) if logs else pd.DataFrame()
    table = control_table(groups, [*SETTING, *variant_columns(groups)]) if logs else pd.DataFrame()
    if table.empty:
        return ""
    return f"{control_title(groups)}:\n" + table.to_markdown(index=False, floatfmt=".3f")

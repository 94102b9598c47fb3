"""Groups of entailment problems (LGMT, lexical): `LabelGroupTask`, the paper's prompts, True/False/Unknown."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

import datasets

from lgmt_tasks.builders import order
from lgmt_tasks.solvers.prompts import PROMPTINGS, render_user_prompt, system_prompt
from lgmt_tasks.task_configs._requests import MultiRequestTask, choices
from lgmt_tasks.vocabulary import TRUTH_LABELS

LABELS: tuple[str, ...] = TRUTH_LABELS
"""The labels, in the order of a member's log-likelihood requests (and of the argmax tie-break)."""

ANSWER_CUE = '{"label": "'
"""Start of the answer a log-likelihood context ends with; the continuations are the bare labels."""

DEFAULT_PROMPTING: Mapping[str, str] = {"generate_until": "zero_shot_cot", "loglikelihood": "zero_shot"}
"""The prompting strategy per output type when the config names none."""

PREFILLS: Mapping[str, str] = {
    "zero_shot": ANSWER_CUE,
    "few_shot": ANSWER_CUE,
    "zero_shot_cot": '{"reasoning": "',
    "few_shot_cot": '{"reasoning": "',
}
"""The generation prefill per prompting (`prefill=true`): the opening of the JSON answer the prompt asks for, as the
Inspect tasks' `-T prefill=true` (`lgmt_tasks.solvers.group.PREFILLS`; a test keeps the two equal, and this module
does not import the Inspect solvers)."""

LOGLIK_PROMPTINGS: tuple[str, ...] = ("zero_shot", "few_shot")
"""Prompting strategies that ask for the label directly: the only ones a scored label continuation fits."""


def check_prompting(prompting: str, output_type: str) -> str:
    """Validate a prompting strategy for an output type.

    Args:
        prompting: One of `PROMPTINGS`; for log-likelihood, one of `LOGLIK_PROMPTINGS`.
        output_type: `generate_until` or `loglikelihood`.

    Returns:
        `prompting`, unchanged.

    Raises:
        ValueError: Listing the valid values, if `prompting` is not one of them.
    """
    valid = LOGLIK_PROMPTINGS if output_type == "loglikelihood" else PROMPTINGS
    if prompting not in valid:
        why = " (a scored label continuation cannot follow a request for reasoning)" if prompting in PROMPTINGS else ""
        raise ValueError(f"prompting={prompting!r} for {output_type}: expected one of {', '.join(valid)}{why}")
    return prompting


TRUE_WORDS: frozenset[str] = frozenset({"true", "yes", "on", "1"})
FALSE_WORDS: frozenset[str] = frozenset({"false", "no", "off", "0"})
"""What a boolean parameter accepts besides a bool (any case), as the Inspect tasks' `-T` (`lgmt_tasks.task_params`,
which this module does not import: it imports Inspect; a test keeps the two equal)."""


def check_prefill(value: Any) -> bool:
    """Read the `prefill` parameter: a bool, 0 / 1, or a word of `TRUE_WORDS` / `FALSE_WORDS` (`prefill=true`).

    Raises:
        ValueError: Naming the value, on anything else (`maybe` is not silently true).
    """
    if isinstance(value, bool):
        return value
    word = str(value).strip().lower() if isinstance(value, str | int) else None
    if word in TRUE_WORDS or word in FALSE_WORDS:
        return word in TRUE_WORDS
    raise ValueError(f"prefill={value!r}: expected true or false (or yes / no / on / off / 1 / 0)")


def member_prompts(doc: Mapping[str, Any]) -> list[str]:
    """Render the user prompt of every member of a group: the source first, then each follow-up in order.

    Args:
        doc: One group (LGMT or lexical row).

    Returns:
        The user prompts (the paper's user template), at least two.
    """
    extra = doc.get("extra_followups") or []
    return [
        render_user_prompt(list(doc["premises"]), doc["conclusion"]),
        render_user_prompt(list(doc["followup_premises"]), doc["followup_conclusion"]),
        *(render_user_prompt(list(e["premises"]), e["conclusion"]) for e in extra),
    ]


def member_count(doc: Mapping[str, Any]) -> int:
    """How many members a group has (the source, the follow-up and any extra follow-ups)."""
    return 2 + len(doc.get("extra_followups") or [])


def member_labels(doc: Mapping[str, Any], results: Sequence[tuple[float, bool]]) -> list[str]:
    """Each member's answer in a log-likelihood task: the label with the highest log-likelihood (ties: `LABELS` order).

    Raises:
        ValueError: If there are not `len(LABELS)` results per member.
    """
    return [LABELS[j] for j in choices(doc, results, member_count(doc), len(LABELS), "member")]


def interleave_by(rows: datasets.Dataset, column: str, group_of: Callable[[str], str] = str) -> datasets.Dataset:
    """Reorder rows round-robin over the groups of a column, keeping each group's own order.

    The suites' loaders already return their rows in this order (`lgmt_tasks.builders.order`, the one implementation,
    shared with the Inspect tasks so that `--limit N` takes the same rows in both frameworks); reordering again
    changes nothing.

    Args:
        rows: The rows.
        column: The column (e.g. `mr`).
        group_of: Maps a value to its group (default: the value itself).

    Returns:
        The same rows: the first row of every group (in order of first appearance), then every second, ... so that
        `--limit N` covers many groups.
    """
    return order.interleave_by(rows, column, group_of)


class LabelGroupTask(MultiRequestTask):
    """A `MultiRequestTask` whose documents are groups of entailment problems answered True / False / Unknown.

    Units are the group's members (`member_prompts`: the source, then each follow-up), asked with the paper's
    system prompt (`prompting`, Appendix C.1) and user template. Generation: the completion is read by the one label
    parser. Log-likelihood: the context ends with `ANSWER_CUE`, `{"label": "`, and the bare labels are scored (no
    leading space: in JSON the label follows the opening quote directly; for BPE tokenizers such as SmolLM2's,
    ` "` is one token, so the boundary is a token boundary); only the direct prompts (`LOGLIK_PROMPTINGS`) fit.
    LGMT and lexical subclass it with their own parameters and loader.
    """

    UNIT = "member"
    CONTINUATIONS = LABELS
    FEWSHOT_HINT = (
        'the demonstrations are in the system prompt: use --metadata \'{"prompting": "few_shot"}\' (or few_shot_cot)'
    )

    prompting: str
    """The effective prompting strategy."""
    prefill: bool
    """Whether generation contexts end with the opening of the JSON answer (`PREFILLS`)."""

    def configure(self, output_type: str, metadata: Mapping[str, Any]) -> dict[str, Any]:
        """Read `prompting` (default per output type, `DEFAULT_PROMPTING`) and `prefill` (default false).

        `prefill=true` makes a generation context end with the opening of the JSON answer the prompting asks for
        (`{"label": "`, or `{"reasoning": "` for the chain-of-thought prompts), as `-T prefill=true` does in the
        Inspect tasks (lm-eval's own `gen_prefix` is fixed in a YAML, not a run parameter, and its text never reaches
        `process_results`). A small local model (the embedded 135M one) otherwise seldom writes the JSON at all, so
        every answer is unparsed. The
        completion then holds only the continuation (`True"}`); `process_results` puts the opening back in front.
        Not in the paper. A log-likelihood context always ends with `ANSWER_CUE`, so `prefill` changes nothing there.

        Raises:
            ValueError: On an invalid `prompting` for the output type, or a `prefill` that is no boolean.
        """
        self.prompting = check_prompting(str(metadata.get("prompting", DEFAULT_PROMPTING[output_type])), output_type)
        self.system_prompt = system_prompt(self.prompting)
        self.prefill = check_prefill(metadata.get("prefill", False)) and output_type == "generate_until"
        if output_type == "loglikelihood":
            self.answer_cue = ANSWER_CUE
        else:
            self.answer_cue = PREFILLS[self.prompting] if self.prefill else ""
        return {"prompting": self.prompting, "prefill": self.prefill}

    def unit_prompts(self, doc: Mapping[str, Any]) -> list[str]:
        """The members' user prompts (`member_prompts`)."""
        return member_prompts(doc)

"""The QMFOL evaluation prompt and the neutral filler of the length ablation (paper §3.3, §4.2.2).

The paper shows its evaluation instruction only as a figure and publishes the full prompt elsewhere, so the text
here is ours, written to its description: the model assigns True, False or Unknown to a candidate conclusion from
the premises alone (§2.2 defines the three labels; §4.1.4 notes that models err by bringing in outside knowledge,
so the prompt forbids it). Premises are numbered ("Premise 5: …", as the paper quotes them) in the shuffled order of
the dataset. The answer format is the JSON label that the one label parser reads strictly
(`lgmt_tasks.scorers.answers.parse_label`); other explicit answers are still read by its lenient stage.

Length ablation (§4.2.2). The paper appends about 600 tokens of "Unimportant Content" to tasks without distractors
to show that the accuracy drop of 20 distractors is not a length effect. `padding_tokens=N` appends a paragraph of
N filler words after the premises ("Unimportant content." repeated; words approximate tokens, since the tokenizer
is the model's: compare the input tokens of a run with and without padding in the log, see
`lgmt_tasks.qmfol.report.qmfol_samples`).

Prefill (`qmfol_generate(prefill=True)`, not in the paper). The prompt asks for reasoning followed by a JSON label; a
small model seldom writes the JSON at all. With a prefill the assistant turn opens with `{"label": "` (the mechanism
of `lgmt_tasks.solvers.prefill`, shared with LGMT), so the model answers directly, without the reasoning the prompt
asks for: the results are those of a direct answer and are not comparable with the paper's.
"""

from __future__ import annotations

from collections.abc import Sequence

from inspect_ai.solver import Solver, generate

from lgmt_tasks.solvers.prefill import LABEL_OPENING, prefill_generate

QMFOL_TEMPLATE = """\
Based only on the premises below, decide whether the conclusion is True, False, or Unknown.
- True: the conclusion follows from the premises.
- False: the negation of the conclusion follows from the premises.
- Unknown: neither the conclusion nor its negation follows from the premises.
Treat the premises as the only facts; do not use outside knowledge.

Premises:
{premises}
{padding}
Conclusion: {conclusion}

Reason step by step, then end your answer with a JSON object on its own line: {{"label": "True"}}, \
{{"label": "False"}} or {{"label": "Unknown"}}."""
"""The user prompt; `{premises}` holds one numbered premise per line, `{padding}` the filler paragraph (or nothing)."""

FILLER_UNIT = ("Unimportant", "content.")
"""The filler's words, repeated: the paper's placeholder text."""


def filler(words: int) -> str:
    """A neutral paragraph of exactly `words` words ("Unimportant content. Unimportant content. …").

    Args:
        words: How many words (0 gives an empty string).

    Returns:
        The paragraph.

    Raises:
        ValueError: If `words` is negative.
    """
    if words < 0:
        raise ValueError(f"padding must be at least 0 words, got {words}")
    return " ".join(FILLER_UNIT[k % len(FILLER_UNIT)] for k in range(words))


def render_prompt(premises: Sequence[str], conclusion: str, padding_tokens: int = 0) -> str:
    """Fill the QMFOL prompt.

    Args:
        premises: The premises in presentation order.
        conclusion: The conclusion.
        padding_tokens: Filler words to append after the premises (the §4.2.2 ablation); 0 for none.

    Returns:
        The user message.
    """
    numbered = "\n".join(f"Premise {k}: {p}" for k, p in enumerate(premises, start=1))
    padding = f"\n{filler(padding_tokens)}\n" if padding_tokens else ""
    return QMFOL_TEMPLATE.format(premises=numbered, padding=padding, conclusion=conclusion)


QMFOL_PREFILL = LABEL_OPENING
"""The assistant prefill of QMFOL (with `prefill=True`): the opening of the `{"label": ...}` object it asks for."""


def qmfol_generate(prefill: bool = False) -> Solver:
    """The QMFOL solver: one generation for the prompt, optionally with the answer opened by `QMFOL_PREFILL`.

    Args:
        prefill: Open the assistant turn with `{"label": "`; the completion the scorer parses is then the opening
            plus the model's continuation. False (the default, as in the paper) is Inspect's plain `generate()`.

    Returns:
        The solver.
    """
    return prefill_generate(QMFOL_PREFILL) if prefill else generate()

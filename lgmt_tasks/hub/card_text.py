"""Card text shared by every suite: the folder a card names, and how to run the dataset with Inspect and lm-eval.

A card must not depend on where a build was written (a rebuild into a temporary folder has to give the same bytes
as the committed `datasets/<suite>`), so cards name the conventional folder `datasets/<suite>`, never `--out`.
"""

from __future__ import annotations

from collections.abc import Sequence


def repo_folder(suite: str) -> str:
    """The folder a card names in its build command and examples: `datasets/<suite>` (independent of `--out`)."""
    return f"datasets/{suite}"


def usage_section(inspect_tasks: Sequence[str], lm_eval_tasks: Sequence[str], folder: str, note: str = "") -> str:
    """The card's "Run it" section: Inspect and lm-eval on the local folder, and on the Hub at a pinned revision.

    Args:
        inspect_tasks: Inspect task names without the `lgmt_tasks/` prefix; the first is used in the examples.
        lm_eval_tasks: lm-eval task (or group) names; the first is used in the examples.
        folder: The local folder (`repo_folder(suite)`).
        note: An extra sentence (for example which tasks exist per category).

    Returns:
        Markdown, starting with the `## Run it` heading.
    """
    task, lm_task = inspect_tasks[0], lm_eval_tasks[0]
    others = ", ".join(f"`lgmt_tasks/{t}`" for t in inspect_tasks[1:])
    lm_others = ", ".join(f"`{t}`" for t in lm_eval_tasks[1:])
    lines = [
        "## Run it",
        "",
        "Install `lgmt-tasks`, then evaluate this folder, or this repository on the Hub pinned to a revision (a "
        "commit, tag or branch), so that what is evaluated is exactly what was published:",
        "",
        "```bash",
        f"inspect eval lgmt_tasks/{task} -T dataset={folder} --model <model>",
        f"inspect eval lgmt_tasks/{task} -T dataset=<org>/<name> -T revision=<commit> --model <model>",
        f'lm_eval --include_path "$(lgmt lm-eval-path)" --tasks {lm_task} \\',
        '  --metadata \'{"dataset": "<org>/<name>", "dataset_revision": "<commit>"}\' --model ...',
        "```",
    ]
    extra = []
    if others:
        extra.append(f"Other Inspect tasks on the same rows: {others}.")
    if lm_others:
        extra.append(f"Other lm-eval tasks: {lm_others}.")
    if note:
        extra.append(note)
    if extra:
        lines += ["", " ".join(extra)]
    return "\n".join(lines)

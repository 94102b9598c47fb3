"""`lgmt audit-translations`: the paper's LLM audit of translated follow-ups (Appendix C.3) over a built dataset."""

from __future__ import annotations

import json

import click


@click.command("audit-translations")
@click.argument("directory", metavar="DIR")
@click.option("--model", "model", required=True, help="Auditor model (any Inspect model name, e.g. openai/gpt-4o).")
@click.option("--json", "as_json", is_flag=True, help="Print the summary as one JSON object.")
@click.option("--limit", type=click.IntRange(min=0), default=None, help="Audit only the first N groups.")
@click.option(
    "--include-template",
    is_flag=True,
    help="Audit template-realised rows too (by default only rows with translator = model).",
)
@click.option(
    "--max-connections",
    type=click.IntRange(min=1),
    default=10,
    show_default=True,
    help="Model calls in flight at most.",
)
def audit_translations_command(
    directory: str, model: str, as_json: bool, limit: int | None, include_template: bool, max_connections: int
) -> None:
    """Ask an auditor model whether each translated follow-up sentence preserves its formula's structure.

    DIR is a folder written by `lgmt build lgmt` (or a Hub dataset id). Prints the sentences asked, those with a
    strict JSON verdict, the unparsed replies (separately), the flagged share (flagged / with a verdict) and the
    flagged group ids.

    \b
    Examples:
      lgmt audit-translations datasets/lgmt-model --model openai/gpt-4o
      lgmt audit-translations datasets/lgmt --model lgmt/smollm2 --include-template --limit 20 --json
    """  # noqa: D301  (click's no-rewrap marker is the backspace character, so the docstring is not raw)
    from lgmt_tasks.lgmt.audit_translations import audit_translations

    result = audit_translations(
        directory, model, include_template=include_template, limit=limit, max_connections=max_connections
    )
    if result.asked == 0:
        hint = "" if include_template else " (template rows are audited only with --include-template)"
        raise click.ClickException(f"no translated follow-up sentence to audit in {directory}{hint}")
    if as_json:
        click.echo(json.dumps(result.summary(), ensure_ascii=False))
    else:
        click.echo(result.to_text())

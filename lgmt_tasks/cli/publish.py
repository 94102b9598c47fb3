"""`lgmt publish <suite>`: check a built dataset folder offline, then push it to the Hugging Face Hub."""

from __future__ import annotations

import click

from lgmt_tasks.suites import SUITE_NAMES


@click.command("publish")
@click.argument("suite", type=click.Choice(SUITE_NAMES))
@click.option("--repo-id", required=True, help="Dataset repository on the Hub, ORG/NAME (created if missing).")
@click.option("--private", is_flag=True, help="Create the repository private (an existing one keeps its visibility).")
@click.option("--revision", default=None, help="Branch to push to (created from main if missing). Default: main.")
@click.option(
    "--folder",
    type=click.Path(file_okay=False),
    default=None,
    help="The folder written by `lgmt build` (default: datasets/<suite>).",
)
def publish_command(suite: str, repo_id: str, private: bool, revision: str | None, folder: str | None) -> None:
    """Push a suite's built dataset folder (card + data files) to a Hub dataset repository.

    The folder is checked first (card YAML, configs, every config loads with `datasets.load_dataset` into the
    declared features); an invalid folder is refused. The token comes from HF_TOKEN or `hf auth login` and is
    never printed.
    """
    from lgmt_tasks.hub.check import RepoCheckError
    from lgmt_tasks.hub.publish import PublishError, publish

    path = folder or f"datasets/{suite}"
    try:
        result = publish(path, repo_id, suite=suite, private=private, revision=revision)
    except RepoCheckError as exc:
        raise click.ClickException(f"refusing to publish {path}: " + "; ".join(exc.problems)) from None
    except PublishError as exc:
        raise click.ClickException(str(exc)) from None
    counts = result.check.rows
    rows = ", ".join(f"{name}/{split}: {n}" for name, splits in counts.items() for split, n in splits.items())
    click.echo(
        f"Pushed {len(result.check.files)} files ({rows} rows) to {result.url} at {result.revision}, "
        f"commit {result.commit or '?'}."
    )
    pin = result.commit or result.revision
    click.echo(
        f"Evaluate exactly this: inspect eval lgmt_tasks/{suite} -T dataset={repo_id} -T revision={pin} --model <model>"
    )

"""`lgmt build <suite>`: build a suite's dataset as a Hub repository folder, and print what was built."""

from __future__ import annotations

import click

from lgmt_tasks.logic.prover import DEFAULT_TIMEOUT_MS


@click.group()
def build() -> None:
    """Build a suite's dataset (a Hugging Face dataset repository folder with its card)."""


@build.command("lgmt")
@click.option("--source", type=click.Choice(["generated", "folio", "proverqa", "logicnli"]), default="generated",
              show_default=True, help="Where source cases come from.")
@click.option("--source-path", type=click.Path(exists=True), default=None,
              help="File or folder of source records (required unless --source generated).")
@click.option("--mr", "mrs", multiple=True, help="Relation id (repeatable), e.g. MR-E1.1. Default: all 20.")
@click.option("--per-mr", type=int, default=200, show_default=True, help="Groups per relation.")
@click.option("--seed", type=int, default=0, show_default=True)
@click.option("--followups", type=int, default=1, show_default=True, help="Follow-ups per group.")
@click.option("--compose", type=click.Choice(["0", "2", "3"]), default="0", show_default=True,
              help="Chain length of composed relations (0: single relations).")
@click.option("--names", type=click.Choice(["abstract", "natural"]), default="abstract", show_default=True,
              help="Fresh symbols for MR-S.")
@click.option("--direction", type=click.Choice(["forward", "introduction", "any"]), default="any",
              show_default=True, help="Direction of the MR-E2 laws.")
@click.option("--generated-cases", type=int, default=300, show_default=True,
              help="Source cases to generate (--source generated).")
@click.option("--timeout-ms", type=int, default=DEFAULT_TIMEOUT_MS, show_default=True, help="Z3 limit per query.")
@click.option("--translator", type=click.Choice(["template", "model"]), default="template", show_default=True,
              help="English of transformed formulas: the drift-free template realiser, or a model (the paper's "
              "prompt, each sentence checked by a round trip proven by Z3; rejected groups are dropped).")
@click.option("--translator-model", default=None, help="Inspect model for --translator model (e.g. openai/gpt-4o).")
@click.option("--translation-attempts", type=click.IntRange(min=1), default=2, show_default=True,
              help="Round trips per sentence before its group is rejected (--translator model).")
@click.option("--num-proc", type=click.IntRange(min=1), default=1, show_default=True,
              help="Processes to build with (the output does not depend on it).")
@click.option("--out", type=click.Path(), required=True, help="Output folder (e.g. datasets/lgmt).")
def build_lgmt_command(source: str, source_path: str | None, mrs: tuple[str, ...], per_mr: int, seed: int,
                       followups: int, compose: str, names: str, direction: str, generated_cases: int,
                       timeout_ms: int, translator: str, translator_model: str | None, translation_attempts: int,
                       num_proc: int, out: str) -> None:
    """Build LGMT metamorphic groups: sources x relations, every label and follow-up proven by Z3."""
    from lgmt_tasks.builders.lgmt import LgmtConfig, build_lgmt
    from lgmt_tasks.builders.lgmt_card import write_lgmt_repo
    from lgmt_tasks.relations import RELATIONS

    if translator == "model" and not translator_model:
        raise click.UsageError("--translator model needs --translator-model M (any Inspect model name)")
    if translator == "template" and translator_model:
        raise click.UsageError("--translator-model is only used with --translator model")
    try:
        config = LgmtConfig(source=source, source_path=source_path, mrs=tuple(mrs) or tuple(RELATIONS),
                            per_mr=per_mr, seed=seed, followups=followups, compose=int(compose), names=names,
                            direction=direction, generated_cases=generated_cases, timeout_ms=timeout_ms)
    except ValueError as exc:
        raise click.BadParameter(str(exc)) from exc
    result = build_lgmt(config, progress=True, num_proc=num_proc)
    if translator == "model":
        from lgmt_tasks.builders.translate import translate_build, with_translation

        assert translator_model is not None
        translated, translation_stats = translate_build(result, translator_model, attempts=translation_attempts,
                                                        timeout_ms=timeout_ms, progress=True)
        result = with_translation(result, translated, translation_stats)
    write_lgmt_repo(result, out)
    click.echo(result.stats.to_markdown(["candidates", "tried", "proven"]))
    click.echo(f"\n{len(result.dataset)} groups from a candidate pool of {result.stats.notes['candidate_pool']}; "
               f"{result.stats.total_dropped()} dropped. Written to {out}")


@build.command("divlogiceval")
@click.option("--per-type", type=int, default=20, show_default=True, help="Instances per question type.")
@click.option("--seed", type=int, default=0, show_default=True)
@click.option("--n", "n", type=int, default=3, show_default=True,
              help="The paper's n: 2..n+1 propositions per instance, at most n uses of a variable.")
@click.option("--pool", default=None, help="Sentence pool: a .txt / .jsonl file or a dataset folder / Hub id "
              "(default: ours).")
@click.option("--pool-column", default="sentence", show_default=True, help="Sentence column of a JSONL/dataset pool.")
@click.option("--pool-negation-column", default="negation", show_default=True,
              help="Negation column, used when present (else negations are made by rule).")
@click.option("--pool-split", default="train", show_default=True, help="Split of a dataset pool.")
@click.option("--timeout-ms", type=int, default=DEFAULT_TIMEOUT_MS, show_default=True, help="Z3 limit per query.")
@click.option("--num-proc", type=click.IntRange(min=1), default=1, show_default=True,
              help="Processes to build with (the output does not depend on it).")
@click.option("--out", type=click.Path(), required=True, help="Output folder (e.g. datasets/divlogiceval).")
def build_divlogiceval_command(per_type: int, seed: int, n: int, pool: str | None, pool_column: str,
                               pool_negation_column: str, pool_split: str, timeout_ms: int, num_proc: int,
                               out: str) -> None:
    """Build DivLogicEval four-option questions (3c1e, 3e1c, missing premise), every answer key proven by Z3."""
    from lgmt_tasks.builders.divlogiceval import DivLogicEvalConfig, build_divlogiceval
    from lgmt_tasks.builders.divlogiceval_card import write_divlogiceval_repo

    try:
        config = DivLogicEvalConfig(per_type=per_type, seed=seed, n=n, pool=pool, pool_column=pool_column,
                                    pool_negation_column=pool_negation_column, pool_split=pool_split,
                                    timeout_ms=timeout_ms)
    except ValueError as exc:
        raise click.BadParameter(str(exc)) from exc
    result = build_divlogiceval(config, progress=True, num_proc=num_proc)
    write_divlogiceval_repo(result, out)
    click.echo(result.stats.to_markdown(["drawn", "proven", "rows"]))
    click.echo(f"\n{len(result.dataset)} instances; answer positions {result.stats.notes['answer_positions']}. "
               f"Written to {out}")


@build.command("logicasker")
@click.option("--logic", multiple=True, type=click.Choice(["propositional", "predicate"]),
              help="Logic to include (repeatable). Default: both.")
@click.option("--category", multiple=True, type=click.Choice(["inference", "equivalence", "fallacy"]),
              help="Rule category to include (repeatable). Default: all.")
@click.option("--rule", "rules", multiple=True, help="Rule name or id (repeatable), e.g. 'modus ponens'. Default: all.")
@click.option("--length", default="1", show_default=True, help="Chain lengths: 3, 1..7 or 1,3,5,7.")
@click.option("--per-skill", type=int, default=4, show_default=True, help="Tests per skill and length.")
@click.option("--seed", type=int, default=0, show_default=True)
@click.option("--unbalanced", is_flag=True, help="Draw problem types uniformly (the paper) instead of half yes.")
@click.option("--attempts", type=int, default=30, show_default=True, help="Generation attempts per test.")
@click.option("--timeout-ms", type=int, default=DEFAULT_TIMEOUT_MS, show_default=True, help="Z3 limit per query.")
@click.option("--list", "list_rules", is_flag=True, help="Print the skill catalogue and exit.")
@click.option("--num-proc", type=click.IntRange(min=1), default=1, show_default=True,
              help="Processes to build with (the output does not depend on it).")
@click.option("--out", type=click.Path(), default=None, help="Output folder (e.g. datasets/logicasker).")
def build_logicasker_command(logic: tuple[str, ...], category: tuple[str, ...], rules: tuple[str, ...], length: str,
                             per_skill: int, seed: int, unbalanced: bool, attempts: int, timeout_ms: int,
                             list_rules: bool, num_proc: int, out: str | None) -> None:
    """Build LogicAsker tests: every skill at every length, balanced yes/no, every answer proven by Z3."""
    from lgmt_tasks.builders.logicasker import LogicAskerConfig, build_logicasker, parse_lengths, summary
    from lgmt_tasks.builders.logicasker_card import write_logicasker_repo
    from lgmt_tasks.logicasker.catalogue import counts_markdown

    try:
        config = LogicAskerConfig(logic=logic, category=category, rules=rules, lengths=parse_lengths(length),
                                  per_skill=per_skill, seed=seed, balanced=not unbalanced, attempts=attempts,
                                  timeout_ms=timeout_ms)
    except ValueError as exc:
        raise click.BadParameter(str(exc)) from exc
    click.echo("Skills (rules / leaves = rule x problem type):\n" + counts_markdown(config.skills()))
    if list_rules:
        for skill in config.skills():
            click.echo(f"{skill.id}\t{skill.name}\t{skill.logic}\t{skill.category}\t{skill.source}")
        return
    if out is None:
        raise click.UsageError("--out is required (or use --list)")
    result = build_logicasker(config, progress=True, num_proc=num_proc)
    write_logicasker_repo(result, out)
    click.echo(f"\n{summary(result)}\nWritten to {out}")


from lgmt_tasks.cli_qmfol import build_qmfol_command  # noqa: E402  (QMFOL's command lives in its own module)

build.add_command(build_qmfol_command)
from lgmt_tasks.cli_lexical import build_lexical_command  # noqa: E402  (the lexical command lives in its own module)

build.add_command(build_lexical_command)

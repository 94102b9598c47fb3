r"""A seeded random sample of reported violations, as CSV for manual review (LGMT §4.5.2 and §5.1).

The paper's false report rate is FRR = (FP_drift + FP_parse) / N over N reported violations inspected by hand:
it sampled 360 of its 4,613 violations (pooled over all models) and found 4 caused by semantic drift and 1 by a
parsing error. This module draws such a sample from Inspect logs and writes one CSV row per violation with
everything a reviewer needs (both cases in English and FOL, the raw responses, the parsed answers and how they were
parsed) and three empty columns to fill in: `semantic_drift`, `parse_error`, `notes`.

What counts as a reported violation: a sample-epoch whose LGMT score (a dict score with a `violation` key) has
`violation == 1`. Every log given is pooled, as in the paper; `log` and `model` columns say where a row came from.

Sample size. By default the size follows Cochran's formula for estimating a proportion,

    n0 = z² · p · (1 − p) / e²        (z = 1.95996 for 95% confidence, e = 0.05 margin, p = 0.5)
    n  = ⌈ n0 / (1 + (n0 − 1) / N) ⌉  (finite-population correction over the N violations)

n0 = 384.15, the paper's "N ≥ 385" after rounding up. For the paper's N = 4,613 violations the corrected size is
⌈354.7⌉ = 355; the paper took 360, i.e. rounded up further. n0 is not rounded before the correction (rounding it
to 385 first would give 356).

The sample is `random.Random(seed).sample` over the violations in a fixed order (log path, sample id, epoch), so the
same logs and seed give the same rows; rows are written in that order.
"""

from __future__ import annotations

import csv
import io
import json
import math
import random
from collections.abc import Iterable, Mapping, Sequence
from pathlib import Path
from statistics import NormalDist
from typing import Any, TextIO

from inspect_ai.log import EvalSample, read_eval_log, read_eval_log_samples

from lgmt_tasks.report.headline import log_paths
from lgmt_tasks.vocabulary import UNPARSED

REVIEW_COLUMNS: tuple[str, ...] = ("semantic_drift", "parse_error", "notes")
"""Empty columns for the reviewer (the two false-positive types of §4.5.2, and free text)."""

CSV_COLUMNS: tuple[str, ...] = (
    "id",
    "epoch",
    "log",
    "model",
    "mr",
    "category",
    "changed",
    "translator",
    "gold",
    "source_answer",
    "followup_answers",
    "parsed_how",
    "source_response",
    "followup_responses",
    "premises",
    "conclusion",
    "premises_fol",
    "conclusion_fol",
    "followup_premises",
    "followup_conclusion",
    "followup_premises_fol",
    "followup_conclusion_fol",
    "extra_followups",
    *REVIEW_COLUMNS,
)
"""The CSV header, in order. List-valued fields are written one item per line (premises numbered)."""

_RESPONSE_SEPARATOR = "\n\n----- next follow-up -----\n\n"


def cochran_size(
    population: int | None = None, *, confidence: float = 0.95, margin: float = 0.05, p: float = 0.5
) -> int:
    """Cochran's sample size for a proportion, with the finite-population correction when `population` is given.

    Args:
        population: Number of reported violations N (None: infinite population).
        confidence: Two-sided confidence level.
        margin: Margin of error e.
        p: Assumed proportion (0.5 is the most conservative).

    Returns:
        The sample size, never more than the population.
    """
    if not 0 < confidence < 1 or not 0 < margin < 1 or not 0 < p < 1:
        raise ValueError("confidence, margin and p must lie strictly between 0 and 1")
    z = NormalDist().inv_cdf(1 - (1 - confidence) / 2)
    n0 = z * z * p * (1 - p) / (margin * margin)
    if population is None:
        return math.ceil(n0)
    if population < 0:
        raise ValueError(f"population={population}: must not be negative")
    if population == 0:
        return 0
    return min(population, math.ceil(n0 / (1 + (n0 - 1) / population)))


def _lgmt_score(sample: EvalSample) -> tuple[Mapping[str, Any], Mapping[str, Any]] | None:
    """The LGMT score value and metadata of a sample, if it has one (a dict score with a `violation` key)."""
    for score in (sample.scores or {}).values():
        if isinstance(score.value, Mapping) and "violation" in score.value:
            return score.value, score.metadata or {}
    return None


def _numbered(items: Sequence[Any]) -> str:
    return "\n".join(f"{i}. {item}" for i, item in enumerate(items, start=1))


def violation_row(sample: EvalSample, log: str, model: str) -> dict[str, Any] | None:
    """The CSV row of one sample-epoch if its LGMT score reports a violation, else None."""
    found = _lgmt_score(sample)
    if found is None or found[0].get("violation") != 1:
        return None
    score_meta = found[1]
    meta = sample.metadata or {}
    answers = [a if a is not None else UNPARSED for a in score_meta.get("answers", [])]
    responses = [str(r) for r in (sample.store or {}).get("responses", [])]
    extra = meta.get("extra_followups") or []
    row: dict[str, Any] = {
        "id": str(sample.id),
        "epoch": sample.epoch,
        "log": log,
        "model": model,
        "mr": meta.get("mr", ""),
        "category": meta.get("category", ""),
        "changed": meta.get("changed", ""),
        "translator": meta.get("translator", ""),
        "gold": sample.target if isinstance(sample.target, str) else "; ".join(sample.target),
        "source_answer": answers[0] if answers else "",
        "followup_answers": "; ".join(answers[1:]),
        "parsed_how": "; ".join(score_meta.get("parsed_how", [])),
        "source_response": responses[0] if responses else "",
        "followup_responses": _RESPONSE_SEPARATOR.join(responses[1:]),
        "premises": _numbered(meta.get("premises", [])),
        "conclusion": meta.get("conclusion", ""),
        "premises_fol": _numbered(meta.get("premises_fol", [])),
        "conclusion_fol": meta.get("conclusion_fol", ""),
        "followup_premises": _numbered(meta.get("followup_premises", [])),
        "followup_conclusion": meta.get("followup_conclusion", ""),
        "followup_premises_fol": _numbered(meta.get("followup_premises_fol", [])),
        "followup_conclusion_fol": meta.get("followup_conclusion_fol", ""),
        "extra_followups": json.dumps(extra, ensure_ascii=False) if extra else "",
    }
    row.update(dict.fromkeys(REVIEW_COLUMNS, ""))
    return row


def violations(logs: Iterable[str | Path]) -> list[dict[str, Any]]:
    """Every reported violation in the logs (files or folders), ordered by log path, sample id and epoch."""
    rows: list[dict[str, Any]] = []
    for path in sorted(log_paths(logs)):
        model = read_eval_log(path, header_only=True).eval.model
        for sample in read_eval_log_samples(path, all_samples_required=False):
            row = violation_row(sample, path, model)
            if row is not None:
                rows.append(row)
    rows.sort(key=lambda r: (r["log"], r["id"], r["epoch"]))
    return rows


def sample_violations(rows: Sequence[dict[str, Any]], n: int | None = None, seed: int = 0) -> list[dict[str, Any]]:
    """A seeded random sample of violation rows (Cochran's size over `len(rows)` when `n` is None).

    Args:
        rows: Violation rows, in their fixed order (as `violations` returns them).
        n: Sample size; capped at the number of rows.
        seed: Sampling seed.

    Returns:
        The sampled rows, in their original order.
    """
    size = cochran_size(len(rows)) if n is None else n
    if size < 0:
        raise ValueError(f"sample size {size}: must not be negative")
    chosen = random.Random(seed).sample(range(len(rows)), min(size, len(rows)))
    return [rows[i] for i in sorted(chosen)]


def write_csv(rows: Iterable[Mapping[str, Any]], out: TextIO | str | Path) -> None:
    """Write rows with the `CSV_COLUMNS` header (UTF-8; cells with line breaks are quoted)."""
    if isinstance(out, (str, Path)):
        with Path(out).open("w", encoding="utf-8", newline="") as fh:
            write_csv(rows, fh)
        return
    writer = csv.DictWriter(out, fieldnames=list(CSV_COLUMNS), extrasaction="raise")
    writer.writeheader()
    for row in rows:
        writer.writerow(row)


def to_csv_text(rows: Iterable[Mapping[str, Any]]) -> str:
    """The CSV as one string (for printing to standard output)."""
    buffer = io.StringIO()
    write_csv(rows, buffer)
    return buffer.getvalue()


VIOLATIONS_CSV = "violations_sample.csv"
"""File name of the sample under `lgmt report --sample-violations ... --out DIR`."""


def export_sample(
    logs: Iterable[str | Path], n: int | None = None, seed: int = 0, out_dir: str | Path | None = None
) -> tuple[int, list[dict[str, Any]], Path | None]:
    """Find every violation in the logs, draw the sample, and write it to `out_dir/violations_sample.csv`.

    Args:
        logs: Log files or folders.
        n: Sample size (None: Cochran's size over the violations found).
        seed: Sampling seed.
        out_dir: Folder for the CSV (created); None writes nothing.

    Returns:
        The number of violations found, the sampled rows, and the CSV path (None without `out_dir`).
    """
    found = violations(logs)
    rows = sample_violations(found, n=n, seed=seed)
    if out_dir is None:
        return len(found), rows, None
    folder = Path(out_dir)
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / VIOLATIONS_CSV
    write_csv(rows, path)
    return len(found), rows, path

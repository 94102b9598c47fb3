r"""The one answer parser of lgmt-tasks (DESIGN decision 5): strict, then lenient, then an explicit `unparsed`.

Every suite asks for a closed set of labels (True/False/Unknown for LGMT, yes/no for LogicAsker, A–D for
DivLogicEval). A violation is only meaningful if both answers were read correctly, so the parser prefers saying
"unparsed" to guessing, and the unparsed rate is reported as its own metric instead of being folded into errors.

The three stages, applied to the whole completion:

1. **strict**: a JSON object (raw, inside a code fence, or anywhere in the text; the last one wins) whose
   `label` (or `answer`) key holds exactly one of the labels, compared case-insensitively, aliases allowed
   (`"Uncertain"` → `Unknown`). A JSON answer is final: if its value is not a label, the answer is unparsed, and
   labels mentioned in the rest of the text (including the JSON's own `reasoning`) are never looked at.
2. **lenient**: explicit statements of an answer, of which the LAST one counts:
   - a key/value cue: `label: True`, `"label": "False"` in broken JSON, `Answer: Unknown`, `**Answer:** C`;
   - a copula cue: `The answer is False`, `the final answer is: yes`, `the correct answer is (B)`;
   - an emphasised label: `**True**`, `__no__`, `==no==`, `\boxed{C}`;
   - a line that is nothing but a label (`No.`, `**True**`, `C)`), on the final or the first line (answer first, then
     an explanation, is how small models often reply to the direct prompts);
   - a reply that *opens* with a label closed by punctuation (`No, we cannot infer ...`, `True. Because ...`): the
     label is the first word of the whole reply, so this is an answer given first, not a label found in prose;
   - for letters only, a final line that starts with an option marker (`C) Paris`), unless the lines above it are
     also options (then it is the model listing the choices, not answering).
   A JSON-style quoted key (`"label": ...`) outranks prose cues, since it is the format the prompts ask for.
   The words after a cue must *start* with a label: "the answer is not True" and "it is not true that ..." state
   nothing. Labels are whole words: `Unknowns`, `yes-men` and `cannot` are not `Unknown`, `yes` and `no`.
3. **unparsed**: nothing explicit was found, or the final statement names two different labels (`True or False`,
   `Yes and no`, `either A or B`); a hedge is not an answer, and an earlier statement does not get to stand in for it.

`parse_label`, `parse_yes_no` and `parse_choice` are thin wrappers over `parse_answer` with an `AnswerFormat`.
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Any, Literal

from lgmt_tasks.vocabulary import OPTION_LETTERS, TRUTH_LABELS, YES_NO_LABELS

How = Literal["strict", "lenient", "unparsed"]

TRUTH_ALIASES: Mapping[str, str] = MappingProxyType({"Uncertain": "Unknown"})  # read-only: a default argument


# A word keeps inner hyphens and apostrophes, so that `yes-men`, `don't` and `Unknowns` are single tokens that are
# not labels. Anything else that is not white space is a one-character token.
_WORD = re.compile(r"[^\W_]+(?:['’\-][^\W_]+)*")
_TOKEN = re.compile(r"[^\W_]+(?:['’\-][^\W_]+)*|\S")
# Characters that decorate a label without changing it: markdown emphasis, quotes, brackets, highlight marks.
_DECORATION = frozenset("*_`\"'“”‘’=#~()[]{}<>-•")
_CLOSERS = frozenset("*_`\"'”’)]}>=~")
_TERMINATORS = frozenset(".!?:;,")
_OPENING_CLOSERS = frozenset(".!:;,")  # punctuation that closes a label opening a reply (`No, ...`; not `?`)
_CONNECTORS = frozenset({"or", "and", "nor", "vs", "versus", "/", ",", "&", "|", "+"})
_HEDGES = frozenset({"either", "both", "neither"})

_KEY_VALUE_CUE = re.compile(
    r"""(?<![\w-])(?P<quote>["'])?(?:final[ _-]?answer|answer|label|verdict|prediction)(?P=quote)?\**\s*[:=]""",
    re.IGNORECASE,
)
_COPULA_CUE = re.compile(
    r"(?<![\w-])(?:(?:the|my|our)\s+)?(?:(?:final|correct|right)\s+)?(?:answer|label|verdict)\s+"
    r"(?:is|would\s+be|should\s+be|will\s+be|must\s+be)\b\s*:?",
    re.IGNORECASE,
)
_EMPHASIS = re.compile(r"\*\*([^*\n]+?)\*\*|__([^_\n]+?)__|==([^=\n]+?)==|\\boxed\{([^{}\n]*)\}")
_OPTION_LINE = re.compile(r"^\s*\(?(?P<letter>[^\W\d_])\)(?:\s|$)")
_WINDOW = 200  # characters after a cue in which its label run must lie
_JSON_START = re.compile(r"\{\s*[\"}]")


@dataclass(frozen=True)
class ParsedAnswer:
    """What the parser read from one completion.

    Attributes:
        label: The canonical label, or None when unparsed.
        how: `strict` (a JSON label), `lenient` (an explicit statement in text) or `unparsed`.
        detail: A short human-readable account of what was matched or why nothing was (shown in `inspect view`).
    """

    label: str | None
    how: How
    detail: str


@dataclass(frozen=True)
class AnswerFormat:
    """The closed answer set of one suite, and how its labels may be written.

    Attributes:
        labels: The canonical labels (what the scorer compares with the gold target).
        aliases: Other spellings mapped to a canonical label (e.g. `Uncertain` → `Unknown`).
        keys: JSON keys that hold the answer, in order of preference.
        case_sensitive: Match labels in prose only with their exact case. Needed for letters, where `a` is an
            article; JSON values are always compared case-insensitively (there is no article in `{"answer": "c"}`).
        option_markers: Accept a final line starting with `C)` / `(C)` (multiple-choice answers).
    """

    labels: tuple[str, ...]
    aliases: Mapping[str, str] = field(default_factory=dict)
    keys: tuple[str, ...] = ("label", "answer")
    case_sensitive: bool = False
    option_markers: bool = False
    _spellings: dict[str, str] = field(init=False, repr=False, compare=False)
    _folded: dict[str, str] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        if not self.labels or len(set(self.labels)) != len(self.labels):
            raise ValueError(f"labels must be non-empty and distinct; got {self.labels!r}")
        unknown_targets = sorted(set(self.aliases.values()) - set(self.labels))
        if unknown_targets:
            raise ValueError(f"aliases map to {unknown_targets}, which are not among the labels {self.labels}")
        for word in (*self.labels, *self.aliases):
            if not _WORD.fullmatch(word):
                raise ValueError(f"label or alias {word!r} must be a single word")

        spellings = {label: label for label in self.labels} | dict(self.aliases)
        folded = {word.casefold(): label for word, label in spellings.items()}
        if len(folded) != len(spellings):
            raise ValueError(f"labels and aliases must differ in more than case: {sorted(spellings)}")
        object.__setattr__(self, "_spellings", spellings)
        object.__setattr__(self, "_folded", folded)

    def lookup(self, word: str, *, ignore_case: bool = False) -> str | None:
        """Return the canonical label spelled by `word` (a label or an alias), or None."""
        if self.case_sensitive and not ignore_case:
            return self._spellings.get(word)
        return self._folded.get(word.casefold())


TRUTH_FORMAT = AnswerFormat(labels=TRUTH_LABELS, aliases=TRUTH_ALIASES)
YES_NO_FORMAT = AnswerFormat(labels=YES_NO_LABELS)
CHOICE_FORMAT = AnswerFormat(labels=tuple(OPTION_LETTERS), case_sensitive=True, option_markers=True)


@dataclass(frozen=True)
class _Run:
    """A label run: the labels named at one place (`True`, `True or False`), and where the run ends."""

    labels: tuple[str, ...]
    end_token: int
    hedged: bool

    @property
    def ambiguous(self) -> bool:
        return self.hedged or len(set(self.labels)) > 1


@dataclass(frozen=True)
class _Statement:
    """One explicit answer statement found in the text."""

    end: int  # character offset where the statement ends; the last statement wins
    rank: int  # 1 for JSON-style quoted keys, which outrank prose cues
    run: _Run
    kind: str


def _tokens(text: str) -> list[tuple[str, int]]:
    return [(m.group(), m.end()) for m in _TOKEN.finditer(text)]


def _skip(tokens: list[tuple[str, int]], i: int, skippable: frozenset[str]) -> int:
    while i < len(tokens) and tokens[i][0] in skippable:
        i += 1
    return i


def _label_run(tokens: list[tuple[str, int]], fmt: AnswerFormat, *, ignore_case: bool = False) -> _Run | None:
    """Read a run of labels at the start of `tokens` (after decoration), or None if they do not start with one."""
    i = _skip(tokens, 0, _DECORATION | {":"})
    hedged = False
    if i < len(tokens) and tokens[i][0].casefold() in _HEDGES:
        hedged = True
        i = _skip(tokens, i + 1, _DECORATION)
    if i >= len(tokens):
        return None
    first = fmt.lookup(tokens[i][0], ignore_case=ignore_case)
    if first is None:
        return None
    labels = [first]
    i += 1
    while True:
        j = _skip(tokens, i, _DECORATION)
        if j >= len(tokens) or tokens[j][0].casefold() not in _CONNECTORS:
            break
        k = _skip(tokens, j + 1, _DECORATION)
        following = fmt.lookup(tokens[k][0], ignore_case=ignore_case) if k < len(tokens) else None
        if following is None:
            break
        labels.append(following)
        i = k + 1
    return _Run(tuple(labels), i, hedged)


def _letter_starts_a_phrase(tokens: list[tuple[str, int]], run: _Run, fmt: AnswerFormat) -> bool:
    """For letters: `Answer: A man plays ...` is the article "A" opening an option's text, not the letter A."""
    if not fmt.option_markers or run.end_token >= len(tokens) or tokens[run.end_token - 1][0] != "A":
        return False  # only the letter A doubles as an English word (the article)
    following = tokens[run.end_token][0]
    return following[0].isalnum() and fmt.lookup(following) is None and following.casefold() not in _CONNECTORS


def _exact_run(text: str, fmt: AnswerFormat, *, ignore_case: bool = False) -> _Run | None:
    """Read a label run that is all of `text` apart from decoration and final punctuation (`**True**.`, `C)`)."""
    tokens = _tokens(text)
    run = _label_run(tokens, fmt, ignore_case=ignore_case)
    if run is None or _skip(tokens, run.end_token, _DECORATION | _TERMINATORS) != len(tokens):
        return None
    return run


def _describe(run: _Run) -> str:
    return " / ".join(dict.fromkeys(run.labels))


def _json_objects(text: str) -> list[dict[str, Any]]:
    """Every top-level JSON object in `text`, in order (objects nested in another one are not top-level)."""
    decoder = json.JSONDecoder()
    objects: list[dict[str, Any]] = []
    resume = 0
    for match in _JSON_START.finditer(text):
        start = match.start()
        if start < resume:
            continue
        try:
            value, end = decoder.raw_decode(text, start)
        except (ValueError, RecursionError):  # RecursionError: absurdly deep nesting
            continue
        if isinstance(value, dict):
            objects.append(value)
            resume = end
    return objects


def _strict(text: str, fmt: AnswerFormat) -> ParsedAnswer | None:
    """Return the answer of the last JSON object with an answer key, or None if there is no such object."""
    wanted = [key.casefold() for key in fmt.keys]
    for obj in reversed(_json_objects(text)):
        present = {str(key).casefold(): value for key, value in obj.items()}
        key = next((k for k in wanted if k in present), None)
        if key is None:
            continue
        value = present[key]
        shown = json.dumps(value, ensure_ascii=False)
        if isinstance(value, bool):
            value = "true" if value else "false"
        if not isinstance(value, str):
            return ParsedAnswer(None, "unparsed", f"JSON {key!r} is {shown}, not a string")
        label = fmt.lookup(value.strip(), ignore_case=True)
        if label is not None:
            return ParsedAnswer(label, "strict", f"JSON {key!r}: {shown}")
        run = _exact_run(value, fmt, ignore_case=True)
        if run is not None and not run.ambiguous:
            return ParsedAnswer(run.labels[0], "lenient", f"JSON {key!r}: {shown} (decoration removed)")
        if run is not None:
            return ParsedAnswer(None, "unparsed", f"JSON {key!r}: {shown} names several labels ({_describe(run)})")
        return ParsedAnswer(None, "unparsed", f"JSON {key!r}: {shown} is not one of {', '.join(fmt.labels)}")
    return None


def _cue_statements(text: str, fmt: AnswerFormat) -> list[_Statement]:
    found: list[_Statement] = []
    for cue, kind in ((_KEY_VALUE_CUE, "key"), (_COPULA_CUE, "copula")):
        for match in cue.finditer(text):
            # A label run is a few words: look at a short window, so that many cues in one line stay linear.
            rest = text[match.end() : match.end() + _WINDOW].split("\n", 1)[0]
            tokens = _tokens(rest)
            run = _label_run(tokens, fmt)
            if run is None or _letter_starts_a_phrase(tokens, run, fmt):
                continue
            closed = _skip(tokens, run.end_token, _CLOSERS)  # show a closing `**` or `)` with the statement
            end = match.end() + tokens[closed - 1][1]
            rank = 1 if kind == "key" and match.group("quote") else 0
            found.append(_Statement(end, rank, run, f"{kind} cue {text[match.start() : end].strip()!r}"))
    for match in _EMPHASIS.finditer(text):
        inner = next(group for group in match.groups() if group is not None)
        run = _exact_run(inner, fmt)
        if run is not None:
            found.append(_Statement(match.end(), 0, run, f"emphasised {match.group()!r}"))
    return found


def _line_statements(text: str, fmt: AnswerFormat) -> list[_Statement]:
    lines = [(m.group(), m.end()) for m in re.finditer(r"[^\n]+", text) if not m.group().isspace()]
    if not lines:
        return []
    found: list[_Statement] = []
    ends = [("final", lines[-1])] + ([("first", lines[0])] if len(lines) > 1 else [])
    for position, (line, end) in ends:
        run = _exact_run(line, fmt)
        if run is not None:
            found.append(_Statement(end, 0, run, f"{position} line {line.strip()!r}"))
    first_line, first_end = lines[0]
    tokens = _tokens(first_line)
    run = _label_run(tokens, fmt)
    if run is not None and run.end_token < len(tokens) and tokens[run.end_token][0] in _OPENING_CLOSERS:
        end = first_end - len(first_line) + tokens[run.end_token - 1][1]
        found.append(_Statement(end, 0, run, f"reply opens with {first_line[: tokens[run.end_token][1]].strip()!r}"))
    if fmt.option_markers:
        line, end = lines[-1]
        option = _OPTION_LINE.match(line)
        listing = len(lines) > 1 and _OPTION_LINE.match(lines[-2][0]) is not None
        label = fmt.lookup(option.group("letter")) if option else None
        if label is not None and not listing:
            found.append(_Statement(end, 0, _Run((label,), 1, False), f"final line {line.strip()!r}"))
    return found


def _lenient(text: str, fmt: AnswerFormat) -> ParsedAnswer:
    statements = _cue_statements(text, fmt) + _line_statements(text, fmt)
    if not statements:
        return ParsedAnswer(None, "unparsed", "no JSON answer and no explicit answer statement")
    last = max(statements, key=lambda s: (s.rank, s.end, s.run.ambiguous))
    if last.run.ambiguous:
        detail = f"final statement names several labels ({_describe(last.run)}): {last.kind}"
        return ParsedAnswer(None, "unparsed", detail)
    return ParsedAnswer(last.run.labels[0], "lenient", last.kind)


def parse_answer(text: str, fmt: AnswerFormat) -> ParsedAnswer:
    """Read the answer of one completion: strict JSON, else the last explicit statement, else unparsed.

    Args:
        text: The model's completion.
        fmt: The closed answer set and how it may be written.

    Returns:
        The parsed answer; never raises on any text.
    """
    return _strict(text, fmt) or _lenient(text, fmt)


def parse_label(
    text: str, labels: Sequence[str] = TRUTH_LABELS, aliases: Mapping[str, str] = TRUTH_ALIASES
) -> ParsedAnswer:
    """Parse an entailment label (LGMT, QMFOL): `True`, `False` or `Unknown`; `Uncertain` is read as `Unknown`.

    Args:
        text: The model's completion.
        labels: The canonical labels.
        aliases: Other accepted spellings, mapped to canonical labels.

    Returns:
        The parsed answer.
    """
    fmt = TRUTH_FORMAT if (tuple(labels), aliases) == (TRUTH_LABELS, TRUTH_ALIASES) else None
    return parse_answer(text, fmt or AnswerFormat(labels=tuple(labels), aliases=dict(aliases)))


def parse_yes_no(text: str, labels: tuple[str, str] = YES_NO_LABELS) -> ParsedAnswer:
    """Parse a yes/no answer (LogicAsker). `cannot`, `I don't know` and `Yes and no` are not answers.

    Args:
        text: The model's completion.
        labels: The canonical spellings of yes and no, in that order (e.g. `("Yes", "No")`).

    Returns:
        The parsed answer, with the label spelled as in `labels`.
    """
    fmt = YES_NO_FORMAT if labels == YES_NO_LABELS else AnswerFormat(labels=labels)
    return parse_answer(text, fmt)


def parse_choice(text: str, letters: str = OPTION_LETTERS) -> ParsedAnswer:
    """Parse a multiple-choice letter (DivLogicEval): `Answer: C`, `(C)`, `C)`, a lone `C`.

    Letters are matched in upper case only in prose (a lower-case `a` is an article); JSON values in any case.

    Args:
        text: The model's completion.
        letters: The option letters, in order.

    Returns:
        The parsed answer; the label is the upper-case letter.
    """
    fmt = (
        CHOICE_FORMAT
        if letters == OPTION_LETTERS
        else AnswerFormat(tuple(letters), case_sensitive=True, option_markers=True)
    )
    return parse_answer(text, fmt)

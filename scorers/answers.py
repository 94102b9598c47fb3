r"""The one answer parser of lgmt-tasks (DESIGN decision 5): what a careful grader reads, else an explicit `unparsed`.

Every suite asks for a closed set of labels (True/False/Unknown for LGMT, lexical and QMFOL, yes/no for LogicAsker,
A–D for DivLogicEval). A violation is only meaningful if both answers were read correctly, so the parser prefers
saying "unparsed" to guessing, and the unparsed rate is reported as its own metric instead of being folded into
errors. It reads a reply as a careful human grader does. The grading rules are in `tests/scorers/answer_corpus.md`,
and `answer_corpus.jsonl` holds 378 replies graded by hand, which the parser must read exactly as graded (issue #26;
agreement per format and prompting: `benchmarks/answer_reader.py`).

What the reply's own answer can be found in:

1. **The prompt's own text is set aside** (`AnswerFormat.echoes`). The prompts show example answers and format lines,
   such as `{"reasoning": "Step 1: ...", "label": "Unknown"}`, the demonstrations' JSON, QMFOL's `{"label": "True"},
   {"label": "False"} or {"label": "Unknown"}` and DivLogicEval's `'Answer: <A/B/C/D>'`. A reply that repeats one of
   them has not answered by doing so. If a reply repeats the demonstrations and then the prompt's closing line
   (`AnswerFormat.closing_lines`: "Now please answer the following question:"), only what follows that line is its
   own.
2. **Invented questions are cut off** (`AnswerFormat.question_openings`). A reply that answers and then starts
   another question with its own answer ("--- Example 4 …", "Premises: …", "Consider the following premises: …", a
   passage with options A–D) is read up to that question. A reply that *opens* with a question (repeating the
   prompt, or restating the problem) answers after the last question it writes.
3. **Reasoning cut off is set aside.** Inside a JSON string cut off by the end of the reply (a truncated
   `"reasoning": "…`), a "label is True" is a step that never reached its end.

The statements of an answer:

- **JSON** (raw, fenced or anywhere in the text): an object whose `label` (or `answer`) key holds a label, compared
  case-insensitively, with aliases allowed (`"Uncertain"` → `Unknown`). A value that names one label with a gloss
  (`"Unknown (not settled)"`, `"The conclusion is False."`) is that label. A value that names none is an answer too:
  unparsed. A JSON object does not count when it is introduced as an example ("for reference:", "Example:", "should
  look like") or under a condition ("had premise 4 said …, I would answer {…}"). Objects offered as alternatives
  (`{…} or {…}`) are a hedge. A quoted key in broken JSON (`"label": "False"` after an unescaped quote) counts as JSON.
  An opening quote without its closing one (`'Answer: <A/B/C/D>`) is not a quoted key.
- **Prose statements**: a key (`Answer: C`, `**Final label:** Unknown`, `Conclusion: True`, `答案：B`); a copula
  (`the answer is False`, `the correct option is B`, `the conclusion is False`, `B is the answer`); a conclusion
  (`so it's False`, `Therefore, no.`, `So D.`); a choice (`I think it's C`, `I'd go with C`); `\boxed{C}`; a line
  that is nothing but a label (`**True**`, `No.`) as the final or first line or the final sentence; a reply that
  opens with a label closed by punctuation (`No, we cannot infer …`, but not `Yes, let me work through this`); and
  for letters a final `C) Paris` or `Option C` line, or a lone letter in either case (`b)`). The words after a cue
  must *start* with a label. "The answer is not True" and "it is not true that …" state nothing. Labels are whole
  words: `Unknowns`, `yes-men` and `cannot` are not `Unknown`, `yes` and `no`.
- **Not statements**: anything in a question ("Is the answer yes?"), in a `whether` or `if` clause, or under a
  condition ("the answer would be True if …", "Were Bob a student, the conclusion would be False", "… is True only
  if …"). A bold label inside an explanation (`premise 1 is **True**`) does not count either. A possibility ("it
  might be D") commits to nothing: as the last statement it is a hedge.

Which statement is the answer: the LAST JSON answer, unless an explicit correction follows it ("Wait", "Actually",
"Correction:", "On second thought", …) with a prose statement after the cue. Without any JSON answer, the LAST
prose statement counts. A later conclusion overrides an earlier "the label is True" with or without a cue. If the
deciding statement names two different labels (`True or False`, `Yes and no`, `either A or B`), the reply is
unparsed: a hedge is not an answer, and an earlier statement does not get to stand in for it.

`parse_label`, `parse_yes_no` and `parse_choice` are thin wrappers over `parse_answer` with an `AnswerFormat`.

The prompts' example strings are written below (`TRUTH_ECHOES`, ...), not imported: scorers may not import solvers
(`tests/test_layout.py`). `tests/scorers/test_answer_corpus.py` checks them against the prompts themselves:
every example answer and format line the prompts show is set aside, and every prompt's closing line and question
opening is known.
"""

from __future__ import annotations

import bisect
import itertools
import json
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Any, Literal

from lgmt_tasks.demo_answers import LGMT_COT_DEMO_ANSWERS
from lgmt_tasks.vocabulary import OPTION_LETTERS, TRUTH_LABELS, YES_NO_LABELS

How = Literal["strict", "lenient", "unparsed"]

TRUTH_WORDS_ABROAD: dict[str, tuple[str, ...]] = {
    "True": ("Verdadero", "Verdadeiro", "Vrai", "Wahr", "Richtig", "Vero", "Waar", "Истина", "Истинно", "Верно", "真"),
    "False": ("Falso", "Faux", "Falsch", "Onwaar", "Ложь", "Ложно", "Неверно", "假", "偽"),
    "Unknown": (
        "Desconocido", "Desconhecido", "Inconnu", "Unbekannt", "Sconosciuto", "Onbekend", "Неизвестно",
        "Incierto", "Incerto", "Incertain", "Ungewiss", "Onzeker",
        "Indeterminado", "Indeterminato", "Indéterminé", "Unbestimmt", "Onbepaald",
        "未知", "不确定", "无法确定", "不明",
    ),
}  # fmt: skip
"""The three labels in Spanish, Portuguese, French, German, Italian, Dutch and Russian (#38: a reply in its own
language states a label a grader reads), and in Chinese and Japanese where the label is a word of its own (`答案：假`,
`{"label": "未知"}`). Only words that are not English words, so that no English reply changes."""

YES_NO_WORDS_ABROAD: dict[str, tuple[str, ...]] = {
    "yes": ("Sí", "Si", "Sim", "Oui", "Ja", "Да", "是", "是的", "はい"),
    "no": ("Não", "Nao", "Non", "Nein", "Nee", "Нет", "否", "不是", "いいえ"),
}
"""Yes and no in the same languages (Spanish and Italian "No" is the English word)."""

TRUTH_ALIASES: Mapping[str, str] = MappingProxyType(
    {"Uncertain": "Unknown"} | {word: label for label, words in TRUTH_WORDS_ABROAD.items() for word in words}
)  # read-only: a default argument

_UNDETERMINED = (
    r"(?:can\s*not|can't|cannot|could\s*not|couldn't)\s+be\s+(?:determined|decided|established|settled|known)"
    r"(?:\s+(?:from|with|by|based\s+on|given)\s+(?:the\s+)?(?:given\s+|available\s+)?"
    r"(?:premises|information|facts|statements))?"
)
UNKNOWN_PARAPHRASES: tuple[tuple[str, str], ...] = (
    # "Cannot be determined" as a value (a JSON string, after a key, a line of its own): the label
    (rf"(?m)(^|[\"'“:：*(]\s*){_UNDETERMINED}", r"\1Unknown"),
    (r"\bnot\s+determinable\b", "Unknown"),
    # "Undetermined", "indeterminate", "inconclusive": the same, as an adjective
    (r"\b(?:undetermined|indeterminate|indeterminable|undecidable|undecided|inconclusive|unknowable)\b", "Unknown"),
    # "Not enough information (to determine it)" as a value
    (
        r"(?m)(^|[\"'“:：*(]\s*)"
        r"(?:not\s+enough|insufficient)\s+(?:information|info|evidence)"
        r"(?:\s+to\s+(?:determine|decide|tell|say|conclude)(?:\s+(?:it|this|that|either\s+way))?)?",
        r"\1Unknown",
    ),
    # "not True, and not False either", "not True and not False": excluding both other labels
    (
        r"\bnot\s+[*_`]*(?P<one>true|false)[*_`]*\s*[,;]?\s*(?:(?:and|but|nor)\s+)?(?:(?:it\s+is|it's|is)\s+)?not\s+"
        r"[*_`]*(?!(?P=one))(?:true|false)(?=[*_`]*\W|$)(?:[*_`]*\s+either)?",
        "Unknown",
    ),
    # "neither True nor False", "neither proven nor disproven": the third value, in three-valued entailment
    (
        r"\bneither\s+[*_`]*(?:true|false)[*_`]*\s+nor\s+[*_`]*(?:true|false)(?=[*_`]*\W|$)"
        r"|\bneither\s+(?:proven|proved|provable|entailed|established)\s+nor\s+"
        r"(?:disproven|disproved|refuted|refutable|contradicted)\b",
        "Unknown",
    ),
)
"""What a careful grader reads as Unknown in a three-valued reply though the word is not written (#38), where it
stands for the word: a value (a JSON string, after a key, a line of its own), an adjective ("the conclusion is
undetermined"), "neither True nor False". Each is rewritten to the label before the reply is read, so that every rule
(cues, JSON values, final lines, hedges) applies to it. "The conclusion cannot be inferred" and "not True" are not
here: either could mean False as well as Unknown."""

_WHETHER = r"(?:\bwhether\s+[^.;\n]{1,120}?\s+)?"  # "whether X cannot be determined": a subject, not a condition
_DETERMINERS = r"(?:the\s+|these\s+|those\s+)?(?:given\s+|available\s+|more\s+|further\s+|additional\s+)?"
UNKNOWN_STATEMENTS: tuple[tuple[str, str], ...] = (
    # "so it cannot be determined from the premises", "whether she is a manager cannot be determined" (not "False or …")
    (rf"{_WHETHER}(?<!\bor\s){_UNDETERMINED}", "Unknown"),
    (rf"{_WHETHER}\b(?:remains|stays|is\s+left)\s+Unknown\b", "Unknown"),  # "… remains undetermined" (rewritten)
    (r"\bcan\s+be\s+Unknown\b", "Unknown"),  # "can be neither proved nor disproved" (rewritten)
    # "the premises are insufficient to establish either …", "neither the conclusion nor its negation follows"
    (r"\b(?:premises|information)\s+(?:are|is)\s+(?:insufficient|not\s+enough)\b", "Unknown"),
    (r"\b(?:insufficient|not\s+enough)\s+to\s+(?:establish|prove|determine|decide)\b", "Unknown"),
    (r"\bneither\s+(?:the\s+)?conclusion\s+nor\s+its\s+negation\b", "Unknown"),
    (  # "I cannot determine this without more information" (not "Sorry, I can't determine that": a refusal)
        r"\b(?:I|we|one)\s+(?:can\s*not|can't|cannot|could\s*not|couldn't)\s+(?:determine|decide|tell)\b"
        rf"[^.\n]{{0,60}}?\b(?:from|without|with|based\s+on|given)\s+{_DETERMINERS}"
        r"(?:premises|information|facts|statements|data)\b",
        "Unknown",
    ),
    (
        r"\b(?:there\s+is|there's|we\s+have)\s+(?:not\s+enough|insufficient)\s+(?:information|info|evidence)\b",
        "Unknown",
    ),
)
"""Sentences a careful grader reads as Unknown, said of the conclusion or of the question (#38): each is a statement
of the label where it stands, weighed like any other (the last one counts; not under a condition or in a question)."""

TRUE_FALSE_STATEMENTS: tuple[tuple[str, str], ...] = (
    # "The conclusion follows from the premises" (not "the negation of the conclusion follows", "does not follow")
    (r"(?<!\bof\s)(?<!\bof\sthe\s)\bconclusion\s+(?:logically\s+|necessarily\s+|clearly\s+)?follows\b", "True"),
    (
        r"(?<!\bnor\s)\b(?:negation\s+of\s+the\s+conclusion|its\s+negation)\s+(?:logically\s+|necessarily\s+)?follows\b",
        "False",
    ),
    (r"\b(?:premises|they)\s+(?:refute|contradict|disprove)\s+(?:the\s+)?conclusion\b", "False"),
    (r"\bconclusion\s+is\s+(?:refuted|contradicted|disproved|disproven)\b", "False"),
    # "Therefore, the premises entail the conclusion" / "… entail its negation"
    (r"\bpremises\s+(?:logically\s+)?entail\s+the\s+conclusion\b", "True"),
    (r"\bpremises\s+(?:logically\s+)?entail\s+(?:its\s+negation|the\s+negation\s+of\s+the\s+conclusion)\b", "False"),
)
"""What True and False mean, said of the conclusion: "the conclusion follows", "its negation follows" (#38)."""

NO_STATEMENTS: tuple[tuple[str, str], ...] = (
    (
        r"\b(?:we|one|you|I)\s+(?:can\s*not|can't|cannot|could\s*not|couldn't)\s+(?:validly\s+|logically\s+)?"
        r"(?:infer|conclude|deduce|derive)\b",
        "no",
    ),
    (
        r"\b(?:can\s*not|can't|cannot|could\s*not|couldn't)\s+be\s+(?:validly\s+|logically\s+)?"
        r"(?:inferred|concluded|deduced|derived|determined|established)\b",
        "no",
    ),
    (r"\bno\s+conclusion\b[^.\n]{0,60}?\bcan\s+be\s+drawn\b", "no"),
    (r"\b(?:does\s+not|doesn't)\s+(?:logically\s+|necessarily\s+)?follow\b", "no"),
    (r"(?m)^\W*not\s+necessarily\b", "no"),
    (r"\bnot\s+enough\s+information\s+to\s+(?:conclude|infer|determine|deduce)\b", "no"),
    # the same in the reply's language
    (
        r"\bnon\s+si\s+può\s+(?:dedurre|inferire|concludere)|\bno\s+se\s+puede\s+(?:inferir|deducir|concluir)"
        r"|\bon\s+ne\s+peut\s+pas\s+(?:en\s+)?(?:déduire|inférer|conclure)|\bnão\s+(?:se\s+)?pode(?:mos)?\s+"
        r"(?:inferir|deduzir|concluir)|\bkann\s+(?:man\s+)?nicht\s+(?:gefolgert|abgeleitet|geschlossen|folgern|ableiten)"
        r"|\blässt\s+sich\s+nicht\s+(?:ableiten|folgern)|\bkan\s+niet\s+(?:worden\s+)?(?:afgeleid|geconcludeerd)",
        "no",
    ),
)
"""LogicAsker asks "Can we infer …?": "we cannot infer it", "it cannot be inferred", "it does not follow", "not
necessarily" answer no (#38), in English and in the reply's language."""

YES_STATEMENTS: tuple[tuple[str, str], ...] = (
    # "Thus, we can infer that …": only as a conclusion, since reasoning says "we can infer" of every step on the way
    (r"\b(?:so|thus|therefore|hence|consequently)\s*,?\s+(?:we|one|you)\s+can\s+(?:validly\s+|logically\s+)?"
     r"(?:infer|conclude|deduce)\b", "yes"),
    (r"(?m)^\W*(?:we|one|you)\s+can\s+(?:validly\s+|logically\s+)?(?:infer|conclude|deduce)\s+(?:it|this|that)\b",
     "yes"),
    (r"(?<!\bof\s)(?<!\bof\sthe\s)\bconclusion\s+(?:can|could)\s+be\s+(?:validly\s+|logically\s+)?"
     r"(?:inferred|deduced|derived)\b", "yes"),
    (r"(?m)^\W*it\s+(?:logically\s+|necessarily\s+)?follows\s+from\s+the\s+premises\b", "yes"),
    (r"\bs[ií]\s+se\s+puede\s+(?:inferir|deducir|concluir)\b", "yes"),
)  # fmt: skip
"""What yes means, said as a conclusion: "Thus, we can infer that …", "It follows from the premises" (#38)."""

NOT_YES_NO: tuple[tuple[str, str], ...] = (
    (r"\b(?:is\s+not|isn't|cannot\s+be|can't\s+be|can\s+not\s+be)\s+[*_`]*yes\b", "is no"),
    (r"\b(?:is\s+not|isn't|cannot\s+be|can't\s+be|can\s+not\s+be)\s+[*_`]*no\b", "is yes"),
)
"""With two labels, "the answer is not yes" (or "cannot be yes") names the other one (#38)."""

TRUTH_ECHOES: tuple[str, ...] = (
    # LGMT's zero-shot CoT example (solvers/prompts.ZERO_SHOT_COT) and the few-shot CoT demonstrations' answers
    '{"reasoning": "Step 1: ...", "label": "Unknown"}',
    *LGMT_COT_DEMO_ANSWERS,
    # LGMT's format rules (direct and CoT)
    'The value for "label" must be exactly one of the following strings: "True", "False", or "Unknown".',
    '"label" (string): Must be exactly one of: "True", "False", or "Unknown".',
    # QMFOL's answer line and its definitions of the labels (solvers/qmfol.QMFOL_TEMPLATE)
    '{"label": "True"}, {"label": "False"} or {"label": "Unknown"}',
    "True: the conclusion follows from the premises.",
    "False: the negation of the conclusion follows from the premises.",
    "Unknown: neither the conclusion nor its negation follows from the premises.",
)
"""The example answers and format lines of the three-valued prompts (LGMT, lexical, QMFOL): never an answer.

The bare examples (`{"label": "True"}` after "Example:", the direct demonstrations' answers) are also what a real
answer looks like, so they are not here: an object introduced as an example is set aside wherever it appears."""

YES_NO_ECHOES: tuple[str, ...] = ("Answer yes or no:", "yes or no:", "yes or no?")
"""LogicAsker's question ends "Answer yes or no: <conclusion>" (`lgmt_tasks/logicasker/english.QUESTION_TEMPLATE`)."""

CHOICE_ECHOES: tuple[str, ...] = (
    "You need to answer in the form of 'Answer: <A/B/C/D>' without explanation.",
    "Answer: <A/B/C/D>",
)
"""DivLogicEval's instruction (`solvers/divlogiceval.INSTRUCTION`) and the answer form it quotes."""

# A word keeps inner hyphens and apostrophes, so that `yes-men`, `don't` and `Unknowns` are single tokens that are
# not labels. Anything else that is not white space is a one-character token.
_WORD = re.compile(r"[^\W_]+(?:['’\-][^\W_]+)*")
_TOKEN = re.compile(r"[^\W_]+(?:['’\-][^\W_]+)*|\S")
# Characters that decorate a label without changing it: markdown emphasis, quotes, brackets, highlight marks.
_DECORATION = frozenset("*_`\"'“”‘’=#~()[]{}<>-•$")
_CLOSERS = frozenset("*_`\"'”’)]}>=~$")
_EMPHASIS_CLOSERS = frozenset("*_`=~")
_TERMINATORS = frozenset(".!?:;,")
_OPENING_CLOSERS = frozenset(".!:;,(—–-，。！：")  # what closes a label opening a reply (`No, ...`; not `?`)
_CONNECTORS = frozenset({"or", "and", "nor", "vs", "versus", "/", ",", "&", "|", "+"})
_HEDGES = frozenset({"either", "both", "neither"})
_QUOTES = "\"'“”‘’`"
_WINDOW = 200  # characters after a cue in which its label run must lie
_CONTEXT = 300  # characters around a statement in which its sentence is looked for
_RUN_TOKENS = 16  # tokens after a cue in which a label run (`**True** or **False**`) must fit

_KEYS = (
    r"final[ _-]?answer|answer|label|verdict|prediction|conclusion|result|option|choice"
    r"|答案|回答|答え|答|结论|結論|respuesta|antwort|réponse|reponse|risposta|resposta|antwoord|ответ"
    r"|ergebnis|resultado|résultat|risultato|resultaat"
    # a self-correction's own key: "Revised: Unknown", "Corrected answer: B", "Updated label - False"
    r"|(?:revised|corrected|updated|amended)(?:[ _-]?(?:final[ _-]?)?(?:answer|label|verdict|conclusion))?"
)
_ADVERB = r"(?:\s*\b(?:clearly|definitely|certainly|indeed|simply|obviously|undoubtedly|plainly|therefore|thus))?"
_KEY_VALUE_CUE = re.compile(
    rf"""(?<![\w-])(?P<quote>["'])?(?P<key>{_KEYS})(?(quote)(?P=quote))"""
    # a short qualifier before the colon: "Answer (after re-reading): C", "Revised answer after checking premise 4:"
    r"(?:\s*\([^()\n]{1,40}\)|\s+(?:after|for|to|of|on|from|based)\b[^:：\n]{1,40}?)?"
    r"\**\s*(?:[:=：]|\s[-–—]\s|→|->)",
    re.IGNORECASE,
)
_COPULA_CUE = re.compile(
    r"(?<![\w-])(?:(?:the|my|our)\s+)?(?:(?:final|correct|right|best)\s+)?(?:answer|label|verdict|option|choice)"
    r"(?:\s+to\s+(?:the|this)\s+question)?\s+(?:is|would\s+be|should\s+be|will\s+be|must\s+be)\b\s*:?"
    rf"{_ADVERB}(?:\s*(?:option|choice|letter)\b)?",
    re.IGNORECASE,
)
_ABROAD_COPULA_CUE = re.compile(  # la respuesta es Falso; die Antwort ist Ja; la réponse est Vrai
    r"(?<![\w-])(?:la\s+respuesta(?:\s+correcta)?\s+es|la\s+réponse(?:\s+correcte)?\s+est|die\s+(?:richtige\s+)?"
    r"antwort\s+(?:ist|lautet)|la\s+risposta(?:\s+corretta)?\s+è|a\s+resposta(?:\s+correta)?\s+é"
    r"|het\s+(?:juiste\s+)?antwoord\s+is|la\s+conclusión\s+es|la\s+conclusion\s+est|die\s+schlussfolgerung\s+ist"
    r"|la\s+conclusione\s+è|a\s+conclusão\s+é|por\s+(?:lo\s+)?tanto|par\s+conséquent|donc|daher|somit|quindi"
    r"|pertanto|portanto|dus|also(?=\s*:))\b\s*[:,]?"
    r"(?:\s*(?:la|el|le|o|a|die|der|het|de)(?=\s+\w))?",  # "la respuesta es la C", "a resposta é a C"
    re.IGNORECASE,
)
_CJK_CUE = re.compile(  # 所以答案是D; 结论为假; 结论“李娜是画家”为假
    r"(?:答案|结论|結論|回答|答え)(?:\s*[“「『\"][^”」』\"\n]{1,80}[”」』\"])?\s*(?:是|为|為|は|：|:)\s*"
)
_VERDICT_CUE = re.compile(  # the conclusion is False; the conclusion, Kiki is a bird, is False
    r"(?<![\w-])(?:the\s+)?(?:truth(?:\s+value)?\s+of\s+the\s+)?(?:conclusion|statement|claim|hypothesis)"
    r"(?:\s*,[^,.\n]{1,100},|\s+[\"“'][^\"”'\n]{1,200}[\"”']|\s+that\s+[^,.;:\n]{1,100}?(?=\s+is\b))?"
    rf"\s+(?:is|would\s+be|should\s+be|must\s+be)\b\s*:?{_ADVERB}",
    re.IGNORECASE,
)
_CONCLUSION_CUE = re.compile(  # so it's False; Therefore, no.; So D.
    r"(?<![\w-])(?:so|therefore|thus|hence|consequently|in\s+conclusion|overall|finally|which\s+means|this\s+means)"
    r"\b[,:]?\s+(?:we\s+can\s+(?:conclude|say|infer)\s*:?\s*)?"
    r"(?:(?:it's|it\s+is|it\s+must\s+be|it\s+should\s+be|it\s+would\s+be|this\s+is|that\s+is)\s+)?",
    re.IGNORECASE,
)
_CORRECTION_CUE = re.compile(  # Wait, yes; Actually, no:
    r"(?<![\w-])(?:wait|actually|hmm|correction|no\s+wait|on\s+second\s+thought)\b[,:!.]?\s*(?:[—–-]\s*)?"
    r"(?:(?:it's|it\s+is|the\s+answer\s+is)\s+)?",
    re.IGNORECASE,
)
_POSSIBILITY_CUE = re.compile(  # it might be D: a possibility, not an answer (a hedge if it comes last)
    r"(?<![\w-])(?:it|this|that|the\s+answer|the\s+conclusion|the\s+label|the\s+correct\s+(?:answer|option))"
    r"\s+(?:might|could|may)\s+(?:also\s+|well\s+)?be\b\s*:?",
    re.IGNORECASE,
)
_CHOICE_CUE = re.compile(  # I think it's C; I'd go with C
    r"(?<![\w-])(?:I\s+think|I\s+believe|I'd\s+say|I\s+would\s+say|I'd\s+go\s+with|I'll\s+go\s+with|I\s+choose"
    r"|I\s+pick|I\s+select|I\s+lean\s+towards?|I\s+would\s+(?:pick|choose|select|go\s+with)|I'd\s+(?:pick|choose|select))\s+(?:that\s+)?(?:(?:it's|it\s+is|the\s+answer\s+is|option|choice)\s+)?",
    re.IGNORECASE,
)
_IS_THE_ANSWER = re.compile(  # C is the answer; Option A is correct
    r"(?<![\w(*_-])(?:(?:option|choice)\s+)?[(*_]*(?P<label>[^\W_]+)[)*_]*\s+is\s+(?:the\s+)?"
    r"(?:(?:(?:correct|right|best|final)\s+)?(?:answer|option|choice)|correct|right)\b",
    re.IGNORECASE,
)
_BOXED = re.compile(r"\\boxed\{\s*(?:\\(?:text|mathrm|textbf|mathbf)\{)?([^{}\n]*)\}?\s*\}")
_OPTION_LINE = re.compile(r"^\s*\(?(?P<letter>[^\W\d_])\)(?:\s|$)")
_OPTION_ITEM = re.compile(r"^\s*[*_`]*\(?[A-Za-z][.)][*_`]*(?:\s|$)")
_OPTION_WORD_LINE = re.compile(r"^\W*(?:option|choice)\s+\(?(?P<letter>[A-Za-z])\)?\W*$", re.IGNORECASE)
_BULLET = re.compile(r"^\s*(?:[-•+]|\*(?!\*)|\d+[.)])\s")
_FIRST_WORD = re.compile(  # the first word after decoration (and a hedge): where a label run must start
    r"[\s*_`\"'“”‘’=#~()\[\]{}<>\-•$:]*(?:(?:either|both|neither)\b[\s*_`\"'“”‘’=#~()\[\]{}<>\-•$]*)?"
    r"([^\W_]+(?:['’\-][^\W_]+)*)",
    re.IGNORECASE,
)
_JSON_START = re.compile(r"\{\s*[\"}]")
_UNTERMINATED_VALUE = re.compile(r"\"[^\"\n]{1,40}\"\s*:\s*\"")

# What may follow a label that ends a statement: the end, punctuation, or a word that starts a reason.
_CLAUSE_END = re.compile(
    r"[*_`\"'”’)\]}>=~$]*\s*(?:$|[.,;:!?\n)(—–]|-\s|\s(?:because|since|as|given|from|so|based|according|we|it|i)\b)",
    re.IGNORECASE,
)
_FILLER = re.compile(
    r"\s*(?:let\s+me|let's|let\s+us|i\s+can|i'll|i\s+will|i'd|i\s+would|here|sure|of\s+course|i\s+understand"
    r"|i\s+see|thanks|thank\s+you|happy|glad"
    # the same in the reply's language: "Ja, ich gehe das durch", "Oui, je vais vérifier", "Sí, vamos a ver"
    r"|ich\s+(?:gehe|werde|prüfe|schaue)|lass(?:t)?\s+(?:mich|uns)|gerne|natürlich|je\s+vais|allons|bien\s+sûr"
    r"|avec\s+plaisir|voy\s+a|vamos|claro|por\s+supuesto|vou|vamos|certo|vediamo|ik\s+ga|laat\s+me|давайте)\b",
    re.IGNORECASE,
)
_EXAMPLE_LEAD = re.compile(
    r"(?:\bexamples?|\breference|\be\.g\.|\bfor\s+instance|\bsuch\s+as|\btemplate|\blooks?\s+like|\blike\s+this"
    r"|\blike\s+so|\bformat(?:\s+(?:is|would\s+be|should\s+be))?)\W*$",
    re.IGNORECASE,
)
_HYPOTHETICAL_LEAD = re.compile(r"\bwould\s+(?:be|answer|say|output|give|write|read|look\s+like)\W*$", re.IGNORECASE)
_JSON_ALTERNATIVES = re.compile(r"\s*(?:,|/|\bor\b|\band\b)(?:\s*\bor\b)?\s*")
_CORRECTION = re.compile(
    r"\b(?:wait|actually|correction|on\s+second\s+thought|on\s+reflection|i\s+made\s+a\s+mistake|i\s+misread"
    r"|let\s+me\s+correct|scratch\s+that|sorry|re-?reading|revised|reconsider\w*)\b",
    re.IGNORECASE,
)
_WITHDRAWAL = re.compile(  # a correction that takes the answer back: unparsed if no new answer follows
    r"\b(?:I\s+(?:need|have|ought)\s+to|I\s+must|I\s+should)\s+(?:revise|correct|change|fix|redo)\b"
    r"|\b(?:that|this)(?:'s|\s+is|\s+was)\s+(?:wrong|incorrect|a\s+mistake)\b|\bscratch\s+that\b",
    re.IGNORECASE,
)
_SENTENCE_END = re.compile(r"[.!?;](?=\s|$)|\n")
_CLAUSE_BREAK = re.compile(r"[,(:—–]")
_CONDITION_IN_CLAUSE = re.compile(
    r"\b(?:if|unless|whether|when|suppose|supposing|assuming|assume|provided|in\s+case)\b", re.IGNORECASE
)
_CONDITION_AFTER = re.compile(
    r"[*_`\"'”’)\]}]*\s*,?\s*(?:[^\W\d_]+\s+){0,2}?(?:only\s+)?(?:if|unless|provided|assuming|supposing|otherwise"
    r"|in\s+case|only\s+then|in\s+that\s+case|(?:sólo|solo|só|seulement|nur|alleen)\s+(?:si|se|wenn|falls|als))\b",
    re.IGNORECASE,
)
_CONDITION_IN_SENTENCE = re.compile(
    r"\b(?:if|unless|otherwise|suppose|supposing|assuming|provided|in\s+(?:that\s+)?case)\b|^\W*(?:were|had)\b"
    r"|\bunder\s+(?:an?|the)\s+(?:[\w-]+\s+){0,3}?(?:assumption|reading|interpretation|view)\b",
    re.IGNORECASE,
)
_INVERTED_CONDITION = re.compile(r"^\W*(?:were|had)\s+(?!been\b)\w", re.IGNORECASE)
_SUBJUNCTIVE_IF = re.compile(r"\bif\b[^.;!?\n]*\b(?:were|had)\b", re.IGNORECASE)
_MODAL = re.compile(r"\b(?:would|could|might)\b", re.IGNORECASE)


def _echo_pattern(text: str) -> str:
    """A pattern for `text` repeated with any spacing and any quote characters (matched in any letter case)."""
    parts = []
    for token in re.findall(r"[^\W_]+|\S", text):
        parts.append(f"[{re.escape(_QUOTES)}]" if token in _QUOTES else re.escape(token))
    return r"\s*".join(parts)


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
    """The closed answer set of one suite, how its labels may be written, and what its prompt shows.

    Attributes:
        labels: The canonical labels (what the scorer compares with the gold target).
        aliases: Other spellings mapped to a canonical label (e.g. `Uncertain` → `Unknown`).
        keys: JSON keys that hold the answer, in order of preference.
        case_sensitive: Match labels in prose only with their exact case. Needed for letters, where `a` is an
            article; JSON values are always compared case-insensitively (there is no article in `{"answer": "c"}`).
            A lone letter (`b)`, `answer: d`) is read in either case.
        option_markers: Accept a final line starting with `C)` / `(C)` (multiple-choice answers).
        echoes: The prompt's example answers and format lines; text that repeats one (with any spacing, quotes or
            case) is never the answer.
        closing_lines: The prompt's line between its demonstrations and the question ("Now please answer the
            following question:"); a reply that repeats demonstrations and this line answers after it.
        question_openings: How a question or demonstration of the prompt opens a line ("Premises:"); a reply that
            answers and then opens one is inventing more examples, whose answers are not its own.
        demonstration_openings: How a demonstration of the prompt opens a line ("--- Example"); what follows it up to
            the prompt's closing line is a repeated demonstration, whose answer is not the reply's.
        demonstration_answer: How a demonstration's answer is written (a regular expression matching its whole
            text, `Answer: no. This is …`); a reply that is such a line and the closing line repeats the prompt.
        rewrites: Paraphrases of a label (regular expression, replacement; case-insensitive), rewritten before a
            reply is read (`UNKNOWN_PARAPHRASES`).
        statements: Sentences that state a label without naming it (regular expression, label; case-insensitive):
            each match is a statement of the label (`UNKNOWN_STATEMENTS`, `NO_STATEMENTS`).
    """

    labels: tuple[str, ...]
    aliases: Mapping[str, str] = field(default_factory=dict)
    keys: tuple[str, ...] = ("label", "answer")
    case_sensitive: bool = False
    option_markers: bool = False
    echoes: tuple[str, ...] = ()
    closing_lines: tuple[str, ...] = ()
    question_openings: tuple[str, ...] = ()
    demonstration_openings: tuple[str, ...] = ()
    demonstration_answer: str | None = None
    rewrites: tuple[tuple[str, str], ...] = ()
    statements: tuple[tuple[str, str], ...] = ()
    _spellings: dict[str, str] = field(init=False, repr=False, compare=False)
    _folded: dict[str, str] = field(init=False, repr=False, compare=False)
    _echo_pattern: re.Pattern[str] | None = field(init=False, repr=False, compare=False)
    _rewrites: tuple[tuple[re.Pattern[str], str], ...] = field(init=False, repr=False, compare=False)
    _statements: tuple[tuple[re.Pattern[str], str], ...] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        if not self.labels or len(set(self.labels)) != len(self.labels):
            raise ValueError(f"labels must be non-empty and distinct; got {self.labels!r}")
        unknown_targets = sorted(set(self.aliases.values()) - set(self.labels))
        if unknown_targets:
            raise ValueError(f"aliases map to {unknown_targets}, which are not among the labels {self.labels}")
        for word in (*self.labels, *self.aliases):
            if not _WORD.fullmatch(word):
                raise ValueError(f"label or alias {word!r} must be a single word")
        if any(not echo.strip() for echo in self.echoes):
            raise ValueError("echoes must be non-empty strings")

        spellings = {label: label for label in self.labels} | dict(self.aliases)
        folded = {word.casefold(): label for word, label in spellings.items()}
        if len(folded) != len(spellings):
            raise ValueError(f"labels and aliases must differ in more than case: {sorted(spellings)}")
        object.__setattr__(self, "_spellings", spellings)
        object.__setattr__(self, "_folded", folded)
        # longest first: at one place, "Answer yes or no:" is set aside whole, not only its "yes or no:"
        echoes = sorted(self.echoes, key=len, reverse=True)
        pattern = re.compile("|".join(f"(?:{_echo_pattern(e)})" for e in echoes), re.IGNORECASE) if echoes else None
        object.__setattr__(self, "_echo_pattern", pattern)
        rewrites = tuple((re.compile(pattern, re.IGNORECASE), replacement) for pattern, replacement in self.rewrites)
        object.__setattr__(self, "_rewrites", rewrites)
        unknown = sorted({label for _, label in self.statements} - set(self.labels))
        if unknown:
            raise ValueError(f"statements state {unknown}, which are not among the labels {self.labels}")
        statements = tuple((re.compile(pattern, re.IGNORECASE), label) for pattern, label in self.statements)
        object.__setattr__(self, "_statements", statements)

    def rewrite(self, text: str) -> str:
        """`text` with every paraphrase of a label (`rewrites`) replaced by the label."""
        for pattern, replacement in self._rewrites:
            text = pattern.sub(replacement, text)
        return text

    def lookup(self, word: str, *, ignore_case: bool = False) -> str | None:
        """Return the canonical label spelled by `word` (a label or an alias), or None."""
        if self.case_sensitive and not ignore_case:
            return self._spellings.get(word)
        return self._folded.get(word.casefold())


TRUTH_FORMAT = AnswerFormat(
    labels=TRUTH_LABELS,
    aliases=TRUTH_ALIASES,
    echoes=TRUTH_ECHOES,
    closing_lines=("Now please answer the following question:",),
    question_openings=("Premises:", "--- Example"),
    demonstration_openings=("--- Example",),
    rewrites=UNKNOWN_PARAPHRASES,
    statements=UNKNOWN_STATEMENTS + TRUE_FALSE_STATEMENTS,
)
YES_NO_FORMAT = AnswerFormat(
    labels=YES_NO_LABELS,
    aliases={word: label for label, words in YES_NO_WORDS_ABROAD.items() for word in words},
    echoes=YES_NO_ECHOES,
    closing_lines=("Now answer the following question:",),
    question_openings=("Consider the following premises:",),
    demonstration_answer=r"\s*Answer:\s*(?:yes|no)\.\s+This\s+is\b[^\n]*\s*$",
    rewrites=NOT_YES_NO,
    statements=NO_STATEMENTS + YES_STATEMENTS,
)
CHOICE_FORMAT = AnswerFormat(
    labels=tuple(OPTION_LETTERS), case_sensitive=True, option_markers=True, echoes=CHOICE_ECHOES
)


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

    start: int
    end: int  # character offset where the statement ends; the last statement wins
    strong: bool  # a JSON answer (or a quoted JSON key): the form the prompts ask for
    run: _Run | None  # None: a JSON answer whose value names no label (unparsed, with `kind` saying why)
    kind: str
    how: How = "lenient"
    keyed: bool = False  # after an answer key (`Answer:`, `Revised:`): beats a bare label line in either order
    bare: bool = False  # a line that is only a label (`**Yes**`)


def _tokens(text: str, limit: int | None = None) -> list[tuple[str, int]]:
    """The tokens of `text` with their end offsets (the first `limit` of them, if given)."""
    found = ((m.group(), m.end()) for m in _TOKEN.finditer(text))
    return list(found if limit is None else itertools.islice(found, limit))


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
    if not fmt.option_markers or run.end_token >= len(tokens) or tokens[run.end_token - 1][0] not in ("A", "a"):
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


def _blank(text: str, start: int, end: int) -> str:
    """`text` with `[start, end)` replaced by spaces (line breaks kept), so that offsets stay valid."""
    return text[:start] + re.sub(r"[^\n]", " ", text[start:end]) + text[end:]


def _json_objects(text: str) -> list[tuple[int, int, dict[str, Any]]]:
    """Every top-level JSON object in `text`, in order, with its span (objects nested in another are not top-level)."""
    decoder = json.JSONDecoder()
    objects: list[tuple[int, int, dict[str, Any]]] = []
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
            objects.append((start, end, value))
            resume = end
    return objects


def _lines(text: str) -> list[tuple[int, int]]:
    """The spans of the lines of `text` that hold more than white space."""
    return [(m.start(), m.end()) for m in re.finditer(r"[^\n]+", text) if not m.group().isspace()]


class _Sentences:
    """Where the sentences of a text end (found once), to find the sentence around a statement."""

    def __init__(self, text: str) -> None:
        self.text = text
        self.marks = [(m.start(), m.end(), m.group()) for m in _SENTENCE_END.finditer(text)]
        self.starts = [mark[0] for mark in self.marks]

    def around(self, start: int, end: int) -> tuple[int, int, str]:
        """The sentence around `[start, end)`, at most `_CONTEXT` characters either side: its span and last mark."""
        i = bisect.bisect_left(self.starts, start)
        s0 = max(self.marks[i - 1][1] if i else 0, start - _CONTEXT)
        j = bisect.bisect_left(self.starts, end)
        if j < len(self.marks) and self.marks[j][0] < end + _CONTEXT:
            return s0, self.marks[j][0], self.marks[j][2]
        return s0, min(len(self.text), end + _CONTEXT), ""


def _is_hypothetical(sentences: _Sentences, start: int, end: int, cue: str = "") -> bool:
    """Whether the statement at `[start, end)` is a question, inside an if-/whether-clause, or under a condition."""
    text = sentences.text
    s0, s1, mark = sentences.around(start, end)
    if mark == "?":
        return True
    sentence, head = text[s0:s1], text[s0:start]
    clause = head[max((m.end() for m in _CLAUSE_BREAK.finditer(head)), default=0) :]
    if _INVERTED_CONDITION.match(sentence) or _CONDITION_IN_CLAUSE.search(clause):
        return True  # "Were Bob a student, ...", "... whether the conclusion is True"
    if _CONDITION_AFTER.match(text, end, s1):
        return True  # "... is True only if A", "the answer would be False if ..."
    if (_MODAL.search(cue) or _MODAL.search(clause)) and _CONDITION_IN_SENTENCE.search(sentence):
        return True  # "If premise 2 said 'all', the answer would be True"
    return _SUBJUNCTIVE_IF.search(head) is not None  # "If Alice were not a manager, the label is False"


class _Reader:
    """The statements of one reply, and the one that is its answer."""

    def __init__(self, text: str, fmt: AnswerFormat, *, read_json: bool = True) -> None:
        self.text = text
        self.fmt = fmt
        masked = self._mask_echoes(text)
        masked = self._mask_repeated_demonstrations(masked)
        masked = self._mask_unterminated_string(masked)
        self.statements: list[_Statement] = []
        if read_json:
            masked = self._read_json(masked)
        self.prose = masked
        self._sentences = _Sentences(masked)
        self._read_cues()
        self._read_lines()
        self._question_starts = self._find_question_starts(masked)

    # ------------------------------------------------------------------------------------------ what is set aside

    def _mask_echoes(self, text: str) -> str:
        if self.fmt._echo_pattern is None:
            return text
        return self.fmt._echo_pattern.sub(lambda m: re.sub(r"[^\n]", " ", m.group()), text)

    def _opens_question(self, line: str) -> bool:
        bare = line.lstrip(" \t*_#>`").casefold()
        return any(bare.startswith(opening.casefold()) for opening in self.fmt.question_openings)

    def _mask_repeated_demonstrations(self, text: str) -> str:
        """A reply that repeats the demonstrations and the closing line answers after it (if anywhere)."""
        closings = [c.casefold() for c in self.fmt.closing_lines]
        if not closings:
            return text
        last = None
        for start, end in _lines(text):
            if text[start:end].strip(" \t*_#>`").casefold() in closings:
                last = (start, end)
        if last is None:
            return text
        answer_line = self.fmt.demonstration_answer
        repeated = not text[last[1] :].strip() and answer_line and re.match(answer_line, text[: last[0]], re.I)
        if repeated or any(self._opens_question(text[s:e]) for s, e in _lines(text[: last[0]])):
            # a demonstration's answer line and the closing line, and nothing after them: no answer of its own
            return _blank(text, 0, last[1])
        return text

    @staticmethod
    def _mask_unterminated_string(text: str) -> str:
        """A JSON string cut off by the end of the reply is reasoning that never reached its end."""
        last = None
        for match in _UNTERMINATED_VALUE.finditer(text):
            last = match
        if last is not None and '"' not in text[last.end() :]:
            return _blank(text, last.end(), len(text))
        return text

    # ---------------------------------------------------------------------------------------------------- JSON

    def _json_value(self, key: str, value: Any) -> tuple[_Run | None, How, str]:
        shown = json.dumps(value, ensure_ascii=False)
        if isinstance(value, bool):
            value = "true" if value else "false"
        if not isinstance(value, str):
            return None, "unparsed", f"JSON {key!r} is {shown}, not a string"
        label = self.fmt.lookup(value.strip(), ignore_case=True)
        if label is not None:
            return _Run((label,), 1, False), "strict", f"JSON {key!r}: {shown}"
        run = _exact_run(value, self.fmt, ignore_case=True)
        if run is not None and not run.ambiguous:
            return run, "lenient", f"JSON {key!r}: {shown} (decoration removed)"
        if run is not None:
            return None, "unparsed", f"JSON {key!r}: {shown} names several labels ({_describe(run)})"
        inner = _Reader(value, self.fmt, read_json=False).decide()
        if inner.label is not None:
            return _Run((inner.label,), 1, False), "lenient", f"JSON {key!r}: {shown} read as prose ({inner.detail})"
        return None, "unparsed", f"JSON {key!r}: {shown} is not one of {', '.join(self.fmt.labels)}"

    def _read_json(self, text: str) -> str:
        """Record the JSON answers; return `text` with every object holding an answer key blanked."""
        wanted = [key.casefold() for key in self.fmt.keys]
        found: list[tuple[int, int, _Run | None, How, str]] = []
        sentences = _Sentences(text)
        for start, end, obj in _json_objects(text):
            present = {str(key).casefold(): value for key, value in obj.items()}
            key = next((k for k in wanted if k in present), None)
            if key is None:
                continue
            lead = text[max(0, start - _CONTEXT) : start].rstrip()
            lead = lead[lead.rfind("\n") + 1 :]
            if _EXAMPLE_LEAD.search(lead):
                detail = "an example"
            elif _HYPOTHETICAL_LEAD.search(lead) or _is_hypothetical(sentences, start, end):
                detail = "hypothetical"
            else:
                detail = ""
            run, how, kind = self._json_value(key, present[key])
            found.append((start, end, run, how, kind if not detail else detail))
        # objects joined by "or" / "," are alternatives: one hedged statement
        groups: list[list[tuple[int, int, _Run | None, How, str]]] = []
        for item in found:
            if groups and _JSON_ALTERNATIVES.fullmatch(text, groups[-1][-1][1], item[0]):
                groups[-1].append(item)
            else:
                groups.append([item])
        for group in groups:
            counted = [item for item in group if item[4] not in ("an example", "hypothetical")]
            if len(counted) > 1:
                labels = tuple(label for item in counted if item[2] for label in item[2].labels)
                run = _Run(labels, 1, True)
                kind = "JSON objects offered as alternatives"
                self.statements.append(_Statement(group[0][0], group[-1][1], True, run, kind, "lenient"))
            elif counted:
                start, end, run, how, kind = counted[0]
                self.statements.append(_Statement(start, end, True, run, kind, how))
        for start, end, *_ in found:
            text = _blank(text, start, end)
        return text

    # ---------------------------------------------------------------------------------------------------- prose

    def _add(
        self, start: int, end: int, run: _Run, kind: str, *, strong: bool = False, cue: str = "", keyed: bool = False
    ) -> None:
        if _is_hypothetical(self._sentences, start, end, cue):
            return
        self.statements.append(_Statement(start, end, strong, run, kind, keyed=keyed))

    def _run_after(self, position: int, *, whole_clause: bool, lone_letter: bool = False) -> tuple[_Run, int] | None:
        """The label run right after a cue ending at `position`, and where it ends (closing decoration included)."""
        rest = self.prose[position : position + _WINDOW].split("\n", 1)[0]
        first = _FIRST_WORD.match(rest)  # most cues are followed by no label: say so without tokenizing
        if first is None or self.fmt.lookup(first.group(1), ignore_case=lone_letter) is None:
            return None
        tokens = _tokens(rest, _RUN_TOKENS)
        run = _label_run(tokens, self.fmt)
        if run is None and lone_letter and self.fmt.case_sensitive:
            run = _label_run(tokens, self.fmt, ignore_case=True)
            whole_clause = True  # `answer: d`, never `answer: a cat ...`
        if run is None or _letter_starts_a_phrase(tokens, run, self.fmt):
            return None
        end = position + tokens[run.end_token - 1][1]
        if whole_clause and not _CLAUSE_END.match(self.prose, end):
            return None
        closed = _skip(tokens, run.end_token, _CLOSERS)  # show a closing `**` or `)` with the statement
        return run, position + tokens[closed - 1][1]

    def _read_cues(self) -> None:
        text = self.prose
        for match in _KEY_VALUE_CUE.finditer(text):
            conclusion = match.group("key").casefold() == "conclusion"  # also the question's own heading
            found = self._run_after(match.end(), whole_clause=conclusion, lone_letter=True)
            if found:
                run, end = found
                strong = match.group("quote") is not None
                kind = f"key cue {text[match.start() : end].strip()!r}"
                self._add(match.start(), end, run, kind, strong=strong, keyed=True)
        for cue, name, whole in (
            (_COPULA_CUE, "copula cue", False),
            (_ABROAD_COPULA_CUE, "copula cue", True),
            (_CJK_CUE, "copula cue", False),
            (_VERDICT_CUE, "verdict", True),
            (_CONCLUSION_CUE, "conclusion", True),
            (_CHOICE_CUE, "choice", True),
            (_CORRECTION_CUE, "correction", True),
            (_POSSIBILITY_CUE, "possibility", True),
        ):
            for match in cue.finditer(text):
                found = self._run_after(match.end(), whole_clause=whole)
                if found:
                    run, end = found
                    if name == "possibility":
                        run = _Run(run.labels, run.end_token, True)  # "it might be D" commits to nothing
                    self._add(
                        match.start(), end, run, f"{name} {text[match.start() : end].strip()!r}", cue=match.group()
                    )
        for pattern, stated in self.fmt._statements:
            for match in pattern.finditer(text):
                said = f"{match.group()!r} ({stated})"
                self._add(match.start(), match.end(), _Run((stated,), 1, False), said, cue=match.group())
        for match in _IS_THE_ANSWER.finditer(text):
            label = self.fmt.lookup(match.group("label"))
            if label is not None:
                self._add(match.start(), match.end(), _Run((label,), 1, False), f"{match.group().strip()!r}")
        for match in _BOXED.finditer(text):
            boxed = _exact_run(match.group(1), self.fmt)
            if boxed is not None:
                self._add(match.start(), match.end(), boxed, f"boxed {match.group()!r}")

    def _is_option_item(self, line: str) -> bool:
        return self.fmt.option_markers and _OPTION_ITEM.match(line) is not None

    def _read_lines(self) -> None:
        text = self.prose
        lines = _lines(text)
        if not lines:
            return
        first_start, first_end = lines[0]
        final_start, final_end = lines[-1]
        first, final = text[first_start:first_end], text[final_start:final_end]
        # the reply's own opening: not a line left after something before it was set aside, not a list item
        original = _lines(self.text)
        opening = original[0][0] == first_start and not _BULLET.match(first)
        listing = len(lines) > 1 and self._is_option_item(first) and self._is_option_item(text[slice(*lines[1])])

        def add(start: int, end: int, run: _Run | None, kind: str) -> None:
            if run is not None:
                self.statements.append(_Statement(start, end, False, run, kind, bare=True))

        add(final_start, final_end, _exact_run(final, self.fmt), f"final line {final.strip()!r}")
        if len(lines) == 1 and self.fmt.case_sensitive:  # a lone letter in either case: `b)`
            add(final_start, final_end, _exact_run(final, self.fmt, ignore_case=True), f"lone {final.strip()!r}")
        sentences = re.split(r"(?<=[.!?])\s+", final.strip())
        if len(sentences) > 1 and sentences[-1][-1:] in ("!", "."):  # "C" after "B contradicts it." may be cut off
            add(final_start, final_end, _exact_run(sentences[-1], self.fmt), f"final sentence {sentences[-1]!r}")
        if opening and not listing:
            if len(lines) > 1:
                add(first_start, first_end, _exact_run(first, self.fmt), f"first line {first.strip()!r}")
            tokens = _tokens(first)
            run = _label_run(tokens, self.fmt)
            closed = _skip(tokens, run.end_token, _EMPHASIS_CLOSERS) if run else 0  # `==no==.`, not `False",`
            if run is not None and closed < len(tokens) and tokens[closed][0] in _OPENING_CLOSERS:
                after = first_start + tokens[closed][1]
                end = first_start + tokens[run.end_token - 1][1]
                if not _FILLER.match(text, after) and not _CONDITION_AFTER.match(text, end, first_end):
                    add(first_start, end, run, f"reply opens with {first[: tokens[closed][1]].strip()!r}")
        if self.fmt.option_markers:
            option = _OPTION_LINE.match(final) or _OPTION_WORD_LINE.match(final)
            above = len(lines) > 1 and self._is_option_item(text[slice(*lines[-2])])
            label = self.fmt.lookup(option.group("letter"), ignore_case=True) if option else None
            if label is not None and not above:
                add(final_start, final_end, _Run((label,), 1, False), f"final line {final.strip()!r}")

    def _in_demonstration(self, position: int) -> bool:
        """Whether `position` lies in a demonstration the reply repeats: its answer is the prompt's, not the reply's.

        That is after a `--- Example` heading and the demonstration's question (`Premises:`), before the prompt's
        closing line.
        """
        if not self.fmt.demonstration_openings:
            return False
        heading = closing = question = -1
        for start, end in _lines(self.prose[:position]):
            line = self.prose[start:end].lstrip(" \t*_#>`").casefold()
            if any(line.startswith(o.casefold()) for o in self.fmt.demonstration_openings):
                heading = start
            elif line.strip(" \t*_#>`") in (c.casefold() for c in self.fmt.closing_lines):
                closing = start
            elif self._opens_question(line):
                question = start
        return question > heading > closing

    def _find_question_starts(self, text: str) -> list[int]:
        """Where the reply opens a question of its own (a question opening, or a question with options A-D)."""
        starts = [start for start, end in _lines(text) if self._opens_question(text[start:end])]
        if self.fmt.option_markers:
            lines = _lines(text)
            for k in range(len(lines) - 2):
                question = text[slice(*lines[k])].rstrip()
                if question.endswith("?") and all(
                    self._is_option_item(text[slice(*ln)]) for ln in lines[k + 1 : k + 3]
                ):
                    paragraph = text.rfind("\n\n", 0, lines[k][0])
                    starts.append(paragraph + 2 if paragraph >= 0 else lines[k][0])
        return sorted(starts)

    # ---------------------------------------------------------------------------------------------------- decide

    def decide(self) -> ParsedAnswer:
        statements = self.statements
        if not statements:
            return ParsedAnswer(None, "unparsed", "no JSON answer and no explicit answer statement")
        cut = None
        starts = self._question_starts
        if starts and starts[0] <= min(s.start for s in statements):
            # the reply opens with a question of the prompt (repeating the prompt, or restating the problem): its
            # answer follows the last question
            statements = [s for s in statements if s.start >= starts[-1]]
            if not statements:
                return ParsedAnswer(None, "unparsed", "the reply repeats the prompt's questions and answers none")
        else:
            # an answer, then a question of its own: the model is inventing more examples
            first = min(s.end for s in statements)
            cut = next((start for start in starts if start >= first), None)
            if cut is not None:
                statements = [s for s in statements if s.start < cut]
        statements = [s for s in statements if not self._in_demonstration(s.start)]
        if not statements:
            return ParsedAnswer(None, "unparsed", "the reply repeats a demonstration and answers nothing of its own")
        end = cut if cut is not None else len(self.prose)
        strong = [s for s in statements if s.strong]
        final = max(strong or statements, key=_last)
        if strong:
            correction = _CORRECTION.search(self.prose, final.end, end)
            # "Final answer (revised): Unknown" holds its own cue
            later = [s for s in statements if not s.strong and correction and s.end > correction.start()]
            later = [s for s in later if s.start >= final.end]
            if later:
                final = max(later, key=_last)
            elif _WITHDRAWAL.search(self.prose, final.end, end):
                return ParsedAnswer(None, "unparsed", f"the reply withdraws its answer ({final.kind}) and gives none")
        if final.bare:  # an answer key beats a bare label line, unless a correction comes between them
            keyed = [s for s in statements if s.keyed and s.end <= final.start]
            if keyed and not _CORRECTION.search(self.prose, keyed[-1].end, final.start):
                final = max(keyed, key=_last)
        if final.run is None:
            return ParsedAnswer(None, "unparsed", final.kind)
        if final.run.ambiguous:
            return ParsedAnswer(
                None, "unparsed", f"final statement names several labels ({_describe(final.run)}): {final.kind}"
            )
        return ParsedAnswer(final.run.labels[0], final.how, final.kind)


def _last(statement: _Statement) -> tuple[int, bool]:
    """Order of statements: the one that ends last, an ambiguous one after a plain one ending at the same place."""
    return statement.end, statement.run is not None and statement.run.ambiguous


def parse_answer(text: str, fmt: AnswerFormat) -> ParsedAnswer:
    """Read the answer of one completion as a careful grader would, else unparsed (see the module docstring).

    Args:
        text: The model's completion.
        fmt: The closed answer set, how it may be written, and what the prompt shows.

    Returns:
        The parsed answer; never raises on any text.
    """
    return _Reader(fmt.rewrite(text), fmt).decide()


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
    fmt = (
        YES_NO_FORMAT
        if labels == YES_NO_LABELS
        else AnswerFormat(
            labels=labels,
            echoes=YES_NO_FORMAT.echoes,
            closing_lines=YES_NO_FORMAT.closing_lines,
            question_openings=YES_NO_FORMAT.question_openings,
            aliases={word: labels[YES_NO_LABELS.index(label)] for word, label in YES_NO_FORMAT.aliases.items()},
            statements=tuple(
                (pattern, labels[YES_NO_LABELS.index(label)]) for pattern, label in YES_NO_FORMAT.statements
            ),
        )
    )
    return parse_answer(text, fmt)


def parse_choice(text: str, letters: str = OPTION_LETTERS) -> ParsedAnswer:
    """Parse a multiple-choice letter (DivLogicEval): `Answer: C`, `(C)`, `C)`, a lone `C`.

    Letters are matched in upper case only in prose (a lower-case `a` is an article), except a lone letter
    (`b)`, `answer: d`); JSON values in any case.

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

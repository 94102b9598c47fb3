"""Checks that a topic lexicon has no hidden dependencies and no dominating predicate family.

Why. The rules of a task are the only links between its predicates. If two phrases are linked in the real world (one
implies or excludes the other: "is a perfect square" / "is a sum of two squares", "is served hot" / "is served
cold"), a model's world knowledge can contradict the stated rules, and the task then measures that conflict rather
than reasoning. And if one phrase template dominates a lexicon (the former Mathematics list was 89 % "is a multiple
of ⟨prime⟩"), tasks in that topic read alike and predicates blur together.

The rule, for every topic: any two predicates P, Q of a lexicon are *independent*: each of P∧Q, P∧¬Q, ¬P∧Q, ¬P∧¬Q
holds of some real entity of the domain; and no *family* (a phrase template or attribute, the `family` field of each
phrase) holds more than `MAX_FAMILY_SHARE` of the phrases.

How it is checked.

- Mathematics is checked by computation: every phrase carries a `spec` (`multiple:7`, `digit:5:3`, `bit:6`, …)
  that `math_predicate` evaluates over the natural numbers 1 … `MATH_LIMIT`, and every pair must realise all four
  combinations there (`math_dependencies`). `build_mathematics` chose the phrases greedily under this check.
- Food, Animal and University cannot be computed. Their phrases carry a `family` naming the attribute they set
  (cooking method, habitat, diet, …); a family holds *at most one* phrase whenever its values exclude or include
  each other (`exclusive` families: one cooking method, one size, one diet), which rules out antonyms ("served hot"
  / "served cold") and hyponyms ("is a mammal" / "is a dog") by construction; independent attributes of one kind
  (which ingredients a dish contains) are separate families. `family_problems` checks the share and the
  one-per-exclusive-family rule; the families themselves were assigned by reading every phrase.
"""

from __future__ import annotations

import json
import math
from collections import Counter
from collections.abc import Callable, Iterable, Sequence
from importlib import resources
from typing import Any

import numpy as np

MATH_LIMIT = 1 << 17
"""Mathematics phrases are evaluated on 1 … 131,072 (every combination must occur there)."""

MAX_FAMILY_SHARE = 0.25
"""No family may hold more than this share of a lexicon's phrases."""

NumberTest = Callable[[np.ndarray], np.ndarray]

BASE_WORDS = {
    2: "two",
    3: "three",
    5: "five",
    6: "six",
    7: "seven",
    10: "ten",
    11: "eleven",
    12: "twelve",
    13: "thirteen",
}
"""Bases by name. Powers of one another (2, 4, 8; 3, 9) are left out: their digits determine each other."""


def _digits(n: np.ndarray, base: int) -> list[np.ndarray]:
    """The digits of every number in a base, least significant first (0 past a number's length)."""
    out, rest = [], n.copy()
    while rest.any():
        out.append(rest % base)
        rest = rest // base
    return out


def _length(n: np.ndarray, base: int) -> np.ndarray:
    length = np.zeros_like(n)
    rest = n.copy()
    while rest.any():
        length += rest > 0
        rest = rest // base
    return length


def _is_square(n: np.ndarray) -> np.ndarray:
    root = np.floor(np.sqrt(n.astype(np.float64))).astype(np.int64)
    root += (root + 1) * (root + 1) <= n
    return root * root == n


def _palindrome(n: np.ndarray, base: int) -> np.ndarray:
    digits = _digits(n, base)
    length = _length(n, base)
    reverse = np.zeros_like(n)
    for k in range(len(digits)):
        reverse = np.where(k < length, reverse * base + digits[k], reverse)
    return reverse == n


def _happy(n: np.ndarray) -> np.ndarray:
    value = n.copy()
    for _ in range(40):
        value = np.sum([d * d for d in _digits(value, 10)], axis=0)
    return value == 1


def _abundant(n: np.ndarray) -> np.ndarray:
    limit = int(n.max())
    sigma = np.zeros(limit + 1, dtype=np.int64)
    for d in range(1, limit // 2 + 1):
        sigma[2 * d :: d] += d
    return sigma[n] > n


def math_predicate(spec: str) -> NumberTest:
    """The test of a Mathematics phrase, vectorised over an array of natural numbers.

    Specs: `multiple:p`, `aftermultiple:p` (one more than a multiple of p), `digit:b:d` (digit d in base b),
    `block:ab` (the decimal digits ab in a row), `bit:k` (a one in the 2^k place), `digitsum:b:m` (base-b digit sum
    divisible by m), `evenlength:b`, and `square`, `triangular`, `pentagonal`, `palindrome:b`, `happy`, `abundant`.

    Raises:
        ValueError: On an unknown spec (the message lists the kinds).
    """
    kind, *args = spec.split(":")
    a = [int(x) for x in args if x.isdigit()]
    tests: dict[str, NumberTest] = {
        "multiple": lambda n: n % a[0] == 0,
        "aftermultiple": lambda n: n % a[0] == 1,
        "digit": lambda n: np.any([d == a[1] for d in _digits(n, a[0])], axis=0),
        "block": lambda n: np.array([args[0] in str(int(v)) for v in n]),
        "bit": lambda n: (n >> a[0]) & 1 == 1,
        "digitsum": lambda n: np.sum(_digits(n, a[0]), axis=0) % a[1] == 0,
        "evenlength": lambda n: _length(n, a[0]) % 2 == 0,
        "square": _is_square,
        "triangular": lambda n: _is_square(8 * n + 1),
        "pentagonal": lambda n: _is_square(24 * n + 1) & (np.floor(np.sqrt(24 * n + 1.0)).astype(np.int64) % 6 == 5),
        "palindrome": lambda n: _palindrome(n, a[0]),
        "happy": _happy,
        "abundant": _abundant,
    }
    if kind not in tests:
        raise ValueError(f"spec={spec!r}: unknown kind; expected one of {', '.join(tests)}")
    return tests[kind]


def _bitmask(values: np.ndarray) -> int:
    """A boolean vector as a Python integer (bit i = entry i), for fast pairwise AND and popcount."""
    return int.from_bytes(np.packbits(values.astype(np.uint8), bitorder="little").tobytes(), "little")


def math_masks(specs: Iterable[str], limit: int = MATH_LIMIT) -> dict[str, int]:
    """Each spec's set of numbers in 1 … limit, as a bitmask."""
    n = np.arange(1, limit + 1, dtype=np.int64)
    return {spec: _bitmask(math_predicate(spec)(n)) for spec in specs}


def _independent(a: int, b: int, everything: int) -> bool:
    """All four combinations of two bitmasks are non-empty."""
    return bool(a & b) and bool(a & ~b & everything) and bool(~a & b & everything) and bool(~(a | b) & everything)


def math_dependencies(specs: Sequence[str], limit: int = MATH_LIMIT) -> list[tuple[str, str]]:
    """The pairs of specs that lack a combination among 1 … limit (empty: pairwise independent there)."""
    masks = math_masks(specs, limit)
    everything = (1 << limit) - 1
    return [
        (p, q) for i, p in enumerate(specs) for q in specs[i + 1 :] if not _independent(masks[p], masks[q], everything)
    ]


def _phrase(spec: str) -> tuple[str, str, str]:
    """(phrase, negation, family) of a Mathematics spec."""
    kind, *args = spec.split(":")
    if kind == "multiple":
        return f"is a multiple of {args[0]}", f"is not a multiple of {args[0]}", "multiple of a prime"
    if kind == "aftermultiple":
        text = f"one more than a multiple of {args[0]}"
        return f"is {text}", f"is not {text}", "one more than a multiple"
    if kind == "digit":
        where = "decimal expansion" if args[0] == "10" else f"base-{BASE_WORDS[int(args[0])]} expansion"
        return f"has the digit {args[1]} in its {where}", f"does not have the digit {args[1]} in its {where}", "digit"
    if kind == "block":
        text = f"the digits {args[0][0]} {args[0][1]} in a row in its decimal expansion"
        return f"has {text}", f"does not have {text}", "decimal digit block"
    if kind == "bit":
        text = f"a one in the 2^{args[0]} place of its binary expansion"
        return f"has {text}", f"does not have {text}", "binary place"
    if kind == "digitsum":
        where = "decimal" if args[0] == "10" else f"base-{BASE_WORDS[int(args[0])]}"
        text = f"a {where} digit sum divisible by {args[1]}"
        return f"has {text}", f"does not have {text}", "digit sum"
    if kind == "evenlength":
        text = f"an even number of digits in base {BASE_WORDS[int(args[0])]}"
        return f"has {text}", f"does not have {text}", "number of digits"
    if kind == "palindrome":
        text = f"a palindrome in base {BASE_WORDS[int(args[0])]}"
        return f"is {text}", f"is not {text}", "palindrome"
    names = {
        "square": "a perfect square",
        "triangular": "a triangular number",
        "pentagonal": "a pentagonal number",
        "happy": "a happy number",
        "abundant": "an abundant number",
    }
    return f"is {names[kind]}", f"is not {names[kind]}", names[kind]


def _primes(count: int) -> list[int]:
    out: list[int] = []
    k = 3
    while len(out) < count:
        if all(k % p for p in range(2, math.isqrt(k) + 1)):
            out.append(k)
        k += 2
    return out


def mathematics_candidates() -> list[str]:
    """Candidate specs, interleaved across families so that greedy selection keeps every family represented."""
    families = [
        [f"multiple:{p}" for p in _primes(60)],
        [f"aftermultiple:{p}" for p in _primes(90)[60:]],
        [f"digit:{b}:{d}" for b in (3, 5, 6, 7, 11, 12, 13) for d in range(1, b)],
        [f"block:{a}{b}" for a in range(1, 10) for b in range(10) if a != b],
        [f"bit:{k}" for k in range(1, 17)],
        [
            f"digitsum:{b}:{m}"
            for b, ms in (
                (2, (3, 5, 7)),
                (3, (3, 5, 7)),
                (5, (3, 7)),
                (7, (5, 7)),
                (10, (4, 5, 7, 11, 13)),
                (11, (3, 7)),
                (12, (5, 7)),
                (13, (5, 7)),
            )
            for m in ms
        ],
        [f"evenlength:{b}" for b in (2, 3, 5, 6, 7, 10, 11, 12, 13)],
        ["square", "triangular", "pentagonal", "palindrome:10", "palindrome:2", "happy", "abundant"],
    ]
    order: list[str] = []
    for k in range(max(len(f) for f in families)):
        order += [f[k] for f in families if k < len(f)]
    return order


def build_mathematics(size: int, limit: int = MATH_LIMIT) -> list[dict[str, str]]:
    """Choose `size` Mathematics phrases greedily, under the independence and family-share rules.

    A candidate is kept if it is independent of every kept one and its family stays within `MAX_FAMILY_SHARE` of
    `size`.

    Raises:
        ValueError: If the candidates run out first.
    """
    candidates = mathematics_candidates()
    masks = math_masks(candidates, limit)
    everything = (1 << limit) - 1
    kept: list[str] = []
    per_family: Counter[str] = Counter()
    cap = int(MAX_FAMILY_SHARE * size)
    for spec in candidates:
        family = _phrase(spec)[2]
        if per_family[family] >= cap:
            continue
        if all(_independent(masks[spec], masks[other], everything) for other in kept):
            kept.append(spec)
            per_family[family] += 1
        if len(kept) == size:
            break
    if len(kept) < size:
        raise ValueError(f"only {len(kept)} independent Mathematics phrases; {size} requested")
    return [{"phrase": p, "negation": n, "family": f, "spec": s} for s in kept for p, n, f in [_phrase(s)]]


def load_raw(topic: str) -> dict[str, Any]:
    """A topic's data file as stored (with its `family`, `exclusive` and `spec` fields)."""
    text = resources.files("lgmt_tasks.qmfol").joinpath("data", f"{topic.lower()}.json").read_text(encoding="utf-8")
    data: dict[str, Any] = json.loads(text)
    return data


def family_problems(raw: dict[str, Any]) -> list[str]:
    """A lexicon's family problems (empty when it passes).

    A phrase without a family, a family over its share, or an exclusive family (the `exclusive` list of the data
    file) with more than one phrase.
    """
    phrases = raw["phrases"]
    problems = [f"{p['phrase']!r} has no family" for p in phrases if not p.get("family")]
    counts = Counter(p.get("family") for p in phrases)
    for family, n in sorted(counts.items(), key=lambda kv: str(kv[0])):
        if n > MAX_FAMILY_SHARE * len(phrases):
            problems.append(f"family {family!r} holds {n} of {len(phrases)} phrases (over {MAX_FAMILY_SHARE:.0%})")
        if family in raw.get("exclusive", ()) and n > 1:
            problems.append(f"exclusive family {family!r} holds {n} phrases (at most one)")
    return problems

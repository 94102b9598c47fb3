"""Constant phrases as a word trie: how the reader finds a constant's words, and what the ambiguity check walks."""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable
from dataclasses import dataclass

from lgmt_tasks.logic.phrasing import fold


@dataclass(frozen=True)
class ConstantTrie:
    """Constant phrases as a word trie (node 0 is the root); `ends[n]` names the constant ending at `n`."""

    children: tuple[dict[str, int], ...]
    ends: tuple[str | None, ...]
    folded_root: dict[str, tuple[int, ...]]

    @staticmethod
    def build(constants: Iterable[tuple[str, tuple[str, ...]]]) -> ConstantTrie:
        """The trie of `(name, words)` pairs; sentence-initial lookups go through the root's folded words."""
        children: list[dict[str, int]] = [{}]
        ends: list[str | None] = [None]
        for name, words in constants:
            node = 0
            for w in words:
                nxt = children[node].get(w)
                if nxt is None:
                    nxt = len(children)
                    children[node][w] = nxt
                    children.append({})
                    ends.append(None)
                node = nxt
            ends[node] = name
        folded: dict[str, list[int]] = defaultdict(list)
        for w, child in children[0].items():
            folded[fold(w)].append(child)
        return ConstantTrie(tuple(children), tuple(ends), {k: tuple(v) for k, v in folded.items()})

    def step(self, node: int, word: str, *, first: bool) -> tuple[int, ...]:
        """Children of `node` reached by `word` (sentence-initial words compare folded)."""
        if first and node == 0:
            return self.folded_root.get(fold(word), ())
        child = self.children[node].get(word)
        return () if child is None else (child,)

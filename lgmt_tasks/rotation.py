"""Circular evaluation's rotations: which original option sits at which position in rotation r.

Pure arithmetic shared by DivLogicEval's solver (which shows the rotated options), its scorer (which maps answers
back) and its lm-eval utils. It imports nothing of ours and sits at the bottom, beside `vocabulary.py`, so that
solvers and scorers need not import each other nor the suite they serve.
"""

from __future__ import annotations

ROTATIONS = 4
"""Options per instance, and so rotations per instance."""


def rotation_order(rotation: int, size: int = ROTATIONS) -> list[int]:
    """The original option indices shown at positions 0..size−1 in a rotation (rotation 0 is the original order)."""
    return [(rotation + k) % size for k in range(size)]


def to_original(position: int, rotation: int, size: int = ROTATIONS) -> int:
    """The original index of the option at `position` in `rotation`."""
    return (rotation + position) % size


def to_position(original: int, rotation: int, size: int = ROTATIONS) -> int:
    """The position of original option `original` in `rotation` (the gold letter of a rotation)."""
    return (original - rotation) % size

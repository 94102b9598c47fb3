"""Circular evaluation's rotations: which original option sits at which position in rotation r.

Pure arithmetic shared by the solver (which shows the rotated options), the scorer (which maps answers back) and the
builder; it lives in the suite so that solvers and scorers need not import each other.
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

"""Recursion headroom for the recursive IR walkers.

IR nesting depth is bounded by what users write (Python itself caps source
indentation at 100 levels) or by generated IR; every recursive walker
(equality, hash, printer, visitor, passes) runs under ``deep_recursion()`` so a
few hundred nested regions never end in ``RecursionError``.
"""

from __future__ import annotations

import sys

_DEEP_LIMIT = 60_000


class deep_recursion:  # noqa: N801 -- used like the function it replaces
    """``with deep_recursion():`` raises the recursion limit to ``limit`` for the block.

    A class rather than ``@contextmanager``: walkers enter it once per call, some
    once per outlined region, and a generator-based manager costs several times more.
    """

    __slots__ = ("limit", "old")

    def __init__(self, limit: int = _DEEP_LIMIT) -> None:
        self.limit = limit
        self.old = 0

    def __enter__(self) -> None:
        old = sys.getrecursionlimit()
        if old < self.limit:
            self.old = old
            sys.setrecursionlimit(self.limit)

    def __exit__(self, *exc: object) -> None:
        if self.old:
            sys.setrecursionlimit(self.old)
            self.old = 0

"""Recursion headroom for the recursive IR walkers.

IR nesting depth is bounded by what users write (Python itself caps source
indentation at 100 levels) or by generated IR; every recursive walker
(equality, hash, printer, visitor, passes) runs under ``deep_recursion()`` so a
few hundred nested regions never end in ``RecursionError``.
"""

from __future__ import annotations

import sys
from contextlib import contextmanager
from typing import Iterator

_DEEP_LIMIT = 60_000


@contextmanager
def deep_recursion(limit: int = _DEEP_LIMIT) -> Iterator[None]:
    old = sys.getrecursionlimit()
    if old >= limit:
        yield
        return
    sys.setrecursionlimit(limit)
    try:
        yield
    finally:
        sys.setrecursionlimit(old)

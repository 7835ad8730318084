"""Integer helpers with PyPTO's names (floor semantics, as the IR's ``//`` and ``%``)."""

from __future__ import annotations

import math

__all__ = ["floordiv", "floormod", "gcd", "lcm", "extended_euclidean"]


def _ints(owner: str, *values: int) -> None:
    for value in values:
        if isinstance(value, bool) or not isinstance(value, int):
            raise TypeError(f"{owner} expects ints, got {type(value).__name__}")


def floordiv(x: int, y: int) -> int:
    """``x // y`` rounded towards negative infinity."""
    _ints("floordiv", x, y)
    if y == 0:
        raise ZeroDivisionError("floordiv by zero")
    return x // y


def floormod(x: int, y: int) -> int:
    """``x - floordiv(x, y) * y``: the sign of ``y``."""
    _ints("floormod", x, y)
    if y == 0:
        raise ZeroDivisionError("floormod by zero")
    return x % y


def gcd(a: int, b: int) -> int:
    _ints("gcd", a, b)
    return math.gcd(a, b)


def lcm(a: int, b: int) -> int:
    _ints("lcm", a, b)
    return abs(a * b) // math.gcd(a, b) if a and b else 0


def extended_euclidean(a: int, b: int) -> tuple[int, int, int]:
    """``(g, x, y)`` with ``a * x + b * y == g == gcd(a, b)``."""
    _ints("extended_euclidean", a, b)
    old_r, r, old_x, x, old_y, y = a, b, 1, 0, 0, 1
    while r:
        q = old_r // r
        old_r, r = r, old_r - q * r
        old_x, x = x, old_x - q * x
        old_y, y = y, old_y - q * y
    if old_r < 0:
        old_r, old_x, old_y = -old_r, -old_x, -old_y
    return old_r, old_x, old_y

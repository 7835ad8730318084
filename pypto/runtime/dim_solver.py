"""Declared extents that are expressions of dims (``pl.Tensor[[M * 2 + 4, 16], ...]``).

A plain dim ``M`` is bound by the argument's extent.  A dim that a function's params
use only inside expressions is bound by solving one of them: an extent that reads
exactly one unbound dim, and reads it *affinely* (sums, differences, negation and
products with terms free of it -- ``M * 2 + 4``, ``K * M - 1`` once ``K`` is known),
is ``a * M + b`` for numbers found by evaluating it at ``M = 0`` and ``M = 1``; then
``M = (extent - b) / a``.  A value that is not an integer, or is negative, is refused
by name, and every solved extent is evaluated again with the value found, so a dim is
never bound to a value its own extent contradicts.  Extents read in other ways
(``M // 2``, ``M * M``, ``pl.min(M, 8)``) cannot be solved and are only checked, once
some other extent has bound what they read.
"""

from __future__ import annotations

from typing import Any, Callable

from ..ir import expr as E
from ..ir.node import Expr
from ..ir.walk import expr_children, var_uses
from .values import UNSET

__all__ = ["CompositeDim", "DimMismatch", "settle"]

Frame = list


class DimMismatch(Exception):
    """An extent that cannot hold, or cannot be solved; the detail for the message."""


def _nonlinear(expr: Expr) -> set[E.Var]:
    """The dims of ``expr`` that it does not read affinely."""
    if isinstance(expr, (E.Add, E.Sub)):
        return _nonlinear(expr.left) | _nonlinear(expr.right)
    if isinstance(expr, E.Mul):
        both = set(var_uses(expr.left)) & set(var_uses(expr.right))
        return _nonlinear(expr.left) | _nonlinear(expr.right) | both
    if isinstance(expr, E.Neg) or (isinstance(expr, E.Cast) and expr.dtype.is_int()):
        return _nonlinear(expr.operand)
    if isinstance(expr, (E.Var, E.ConstInt)):
        return set()
    return {var for child in expr_children(expr) for var in var_uses(child)}


class CompositeDim:
    """One extent of one parameter that is an expression of dims."""

    __slots__ = ("param", "axis", "text", "evaluate", "reads", "solvable")

    def __init__(self, param: str, axis: int, dim: Expr,
                 evaluate: Callable[[Frame], Any], slot_of: Callable[[E.Var], int]) -> None:
        self.param = param
        self.axis = axis
        self.text = str(dim)
        self.evaluate = evaluate
        reads = list(dict.fromkeys(var_uses(dim)))
        self.reads = [(slot_of(var), var.name_hint) for var in reads]
        nonlinear = _nonlinear(dim)
        self.solvable = {slot_of(var) for var in reads if var not in nonlinear}

    def where(self) -> str:
        return f"dim {self.axis} of argument '{self.param}'"

    def check(self, frame: Frame, actual: int, origins: dict[int, str]) -> None:
        expected = self.evaluate(frame)
        if expected != actual:
            values = ", ".join(f"{name} = {frame[slot]}{origins.get(slot, '')}"
                               for slot, name in self.reads)
            raise DimMismatch(f"{self.where()} is {actual}, but its declared extent "
                              f"{self.text} evaluates to {expected}"
                              + (f" ({values})" if values else ""))

    def solve(self, frame: Frame, slot: int, name: str, actual: int,
              origins: dict[int, str]) -> None:
        """Bind the dim in ``slot`` so that this extent is ``actual``."""
        frame[slot] = 0
        offset = self.evaluate(frame)
        frame[slot] = 1
        scale = self.evaluate(frame) - offset
        frame[slot] = UNSET
        if scale == 0:
            raise DimMismatch(f"{self.where()} ({self.text}) does not depend on '{name}', "
                              f"so its extent {actual} cannot give '{name}' a value")
        value, remainder = divmod(actual - offset, scale)
        if remainder:
            raise DimMismatch(f"{self.where()} is {actual}, but {self.text} is not {actual} "
                              f"for any integer '{name}'")
        if value < 0:
            raise DimMismatch(f"{self.where()} is {actual}, which would make dynamic dim "
                              f"'{name}' of {self.text} negative ({value})")
        frame[slot] = value
        self.check(frame, actual, origins)
        origins[slot] = f", solved from {self.where()}"


def _unbound(dim: CompositeDim, frame: Frame) -> list[tuple[int, str]]:
    return [(slot, name) for slot, name in dim.reads if frame[slot] is UNSET]


def settle(frame: Frame, pending: list[tuple[CompositeDim, int]]) -> None:
    """Check every composite extent, solving for the dims only they bind."""
    waiting = pending
    origins: dict[int, str] = {}  # slot of a solved dim -> where its value came from
    while waiting:
        left = []
        for dim, actual in waiting:
            unbound = _unbound(dim, frame)
            if not unbound:
                dim.check(frame, actual, origins)
            elif len(unbound) == 1 and unbound[0][0] in dim.solvable:
                dim.solve(frame, unbound[0][0], unbound[0][1], actual, origins)
            else:
                left.append((dim, actual))
        if len(left) == len(waiting):
            raise DimMismatch(_unsolvable(left, frame))
        waiting = left


def _unsolvable(left: list[tuple[CompositeDim, int]], frame: Frame) -> str:
    dim = left[0][0]
    names = [name for _, name in _unbound(dim, frame)]
    quoted = ", ".join(f"'{name}'" for name in names)
    if len(names) > 1:
        why = f"it reads {len(names)} dims ({quoted}) that no other extent binds"
    else:
        why = (f"it does not read '{names[0]}' as a sum of multiples of it, so the "
               "extent cannot be solved for it")
    return (f"dynamic dim {quoted} is bound by no parameter's extent of its own: "
            f"{dim.where()} is {dim.text}, and {why}; declare a dim '{names[0]}' alone "
            "in some parameter's shape")

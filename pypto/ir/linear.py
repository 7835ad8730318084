"""Integer expressions as linear forms: ``sum(coefficient * atom) + constant``.

Enough to see that ``(k0 + 16) - k0`` is 16 or that ``(i + n) - i`` is ``n``: slice
extents are written as ``upper - lower`` and should stay static (or a single dim)
when the two bounds share their variable part.  Atoms are Vars (by identity) and any
other subexpression (by structure); only ``+``, ``-``, unary ``-`` and products with
a constant are looked through, so the rewrite never changes what an expression
computes, only how much of it is left to compute.
"""

from __future__ import annotations

from typing import Optional, cast

from . import expr as E
from .node import Expr
from .structural import structural_equal, structural_hash
from .types import ScalarType

__all__ = ["LinearForm", "linear_form", "simplify_difference"]


class _Atom:
    """A non-linear part, compared by identity for Vars and by structure otherwise."""

    __slots__ = ("expr", "_hash")

    def __init__(self, expr: Expr) -> None:
        self.expr = expr
        self._hash = id(expr) if isinstance(expr, E.Var) else structural_hash(expr)

    def __hash__(self) -> int:
        return self._hash

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, _Atom):
            return NotImplemented
        if isinstance(self.expr, E.Var) or isinstance(other.expr, E.Var):
            return self.expr is other.expr
        return structural_equal(self.expr, other.expr)


class LinearForm:
    """``terms`` maps atoms to non-zero integer coefficients, in first-seen order."""

    __slots__ = ("terms", "constant")

    def __init__(self, terms: dict[_Atom, int], constant: int) -> None:
        self.terms = {atom: c for atom, c in terms.items() if c}
        self.constant = constant

    def scaled(self, factor: int) -> "LinearForm":
        return LinearForm({a: c * factor for a, c in self.terms.items()}, self.constant * factor)

    def plus(self, other: "LinearForm") -> "LinearForm":
        terms = dict(self.terms)
        for atom, c in other.terms.items():
            terms[atom] = terms.get(atom, 0) + c
        return LinearForm(terms, self.constant + other.constant)


def linear_form(expr: Expr) -> LinearForm:
    """The linear form of an integer scalar expression."""
    if isinstance(expr, E.ConstInt):
        return LinearForm({}, expr.value)
    if isinstance(expr, (E.Add, E.Sub)):
        right = linear_form(expr.right)
        return linear_form(expr.left).plus(right if isinstance(expr, E.Add) else right.scaled(-1))
    if isinstance(expr, E.Neg):
        return linear_form(expr.operand).scaled(-1)
    if isinstance(expr, E.Mul):
        if isinstance(expr.right, E.ConstInt):
            return linear_form(expr.left).scaled(expr.right.value)
        if isinstance(expr.left, E.ConstInt):
            return linear_form(expr.right).scaled(expr.left.value)
    return LinearForm({_Atom(expr): 1}, 0)


def _is_int(expr: Expr) -> bool:
    dtype = getattr(expr.type, "dtype", None)
    return dtype is not None and dtype.is_int()


def simplify_difference(upper: Expr, lower: Expr) -> Optional[Expr]:
    """``upper - lower`` when it reduces to a constant or to one of its atoms, else None.

    The constant keeps ``upper``'s dtype; an atom is returned as written, so a slice
    ``x[:, i:i + n]`` has the extent ``n`` itself (the same Var, not a copy)."""
    if not (_is_int(upper) and _is_int(lower)):
        return None
    diff = linear_form(upper).plus(linear_form(lower).scaled(-1))
    if not diff.terms:
        return E.ConstInt(diff.constant, cast(ScalarType, upper.type).dtype, upper.span)
    if diff.constant == 0 and len(diff.terms) == 1:
        (atom, coefficient), = diff.terms.items()
        if coefficient == 1 and atom.expr.type == upper.type:
            return atom.expr
    return None

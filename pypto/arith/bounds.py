"""What is known about integer expressions: constant bounds (``ConstIntBound``),
intervals (``IntSet``) and residues (``ModularSet``), computed over the IR's scalar
expressions from what a ``Facts`` holds about variables.

``Facts`` is the knowledge one analyzer (or one ``Analyzer`` and its parts) has:
variables bound to an expression or to a range, narrowed by entered constraints.
"""

from __future__ import annotations

import math
from typing import Any, Callable, cast

from ..ir import expr as E
from ..ir.dtype import DataType
from ..ir.node import Expr

__all__ = ["ConstIntBound", "IntSet", "ModularSet", "Facts", "const_int_bound", "modular_set",
           "NEG_INF", "POS_INF"]

POS_INF = 2 ** 63 - 1
NEG_INF = -POS_INF


def _clamp(value: int) -> int:
    return POS_INF if value >= POS_INF else NEG_INF if value <= NEG_INF else value


def _add(a: int, b: int) -> int:
    if a in (POS_INF, NEG_INF):
        return a
    if b in (POS_INF, NEG_INF):
        return b
    return _clamp(a + b)


def _mul(a: int, b: int) -> int:
    if a == 0 or b == 0:
        return 0
    if a in (POS_INF, NEG_INF) or b in (POS_INF, NEG_INF):
        return POS_INF if (a > 0) == (b > 0) else NEG_INF
    return _clamp(a * b)


class ConstIntBound:
    """``min_value <= x <= max_value``; ``kNegInf``/``kPosInf`` stand for unbounded."""

    kNegInf = NEG_INF
    kPosInf = POS_INF

    def __init__(self, min_value: int, max_value: int) -> None:
        self._min, self._max = _clamp(int(min_value)), _clamp(int(max_value))

    min_value = property(lambda self: self._min)
    max_value = property(lambda self: self._max)

    def is_const(self) -> bool:
        return self._min == self._max

    def is_everything(self) -> bool:
        return self._min == NEG_INF and self._max == POS_INF

    def is_non_negative(self) -> bool:
        return self._min >= 0

    def is_positive(self) -> bool:
        return self._min > 0

    def __eq__(self, other: object) -> bool:
        return isinstance(other, ConstIntBound) and \
            (other._min, other._max) == (self._min, self._max)

    def __hash__(self) -> int:
        return hash((self._min, self._max))

    def __repr__(self) -> str:
        return f"ConstIntBound[{_text(self._min)}, {_text(self._max)}]"


def _text(value: int) -> str:
    return "+inf" if value == POS_INF else "-inf" if value == NEG_INF else str(value)


EVERYTHING = ConstIntBound(NEG_INF, POS_INF)


class IntSet:
    """The integers ``min_value .. max_value`` (both included); ``min > max`` is empty."""

    def __init__(self, min_value: int, max_value: int) -> None:
        self._min, self._max = _clamp(int(min_value)), _clamp(int(max_value))

    min_value = property(lambda self: self._min)
    max_value = property(lambda self: self._max)

    @staticmethod
    def everything() -> "IntSet":
        return IntSet(NEG_INF, POS_INF)

    @staticmethod
    def interval(min_value: int, max_value: int) -> "IntSet":
        return IntSet(min_value, max_value)

    @staticmethod
    def single_point(val: int) -> "IntSet":
        return IntSet(val, val)

    def is_everything(self) -> bool:
        return self._min == NEG_INF and self._max == POS_INF

    def is_nothing(self) -> bool:
        return self._min > self._max

    def is_single_point(self) -> bool:
        return self._min == self._max

    def __eq__(self, other: object) -> bool:
        return isinstance(other, IntSet) and (other._min, other._max) == (self._min, self._max)

    def __hash__(self) -> int:
        return hash(("IntSet", self._min, self._max))

    def __repr__(self) -> str:
        return f"IntSet[{_text(self._min)}, {_text(self._max)}]"


class ModularSet:
    """``{coeff * k + base}`` for every integer ``k``; coeff 0 is the single value base,
    coeff 1 is every integer."""

    def __init__(self, coeff: int, base: int) -> None:
        coeff = abs(int(coeff))
        self._coeff = coeff
        self._base = int(base) % coeff if coeff else int(base)

    coeff = property(lambda self: self._coeff)
    base = property(lambda self: self._base)

    def is_everything(self) -> bool:
        return self._coeff == 1

    def is_exact(self) -> bool:
        return self._coeff == 0

    def __eq__(self, other: object) -> bool:
        return isinstance(other, ModularSet) and (other._coeff, other._base) == (self._coeff,
                                                                                 self._base)

    def __hash__(self) -> int:
        return hash(("ModularSet", self._coeff, self._base))

    def __repr__(self) -> str:
        return f"ModularSet(coeff={self._coeff}, base={self._base})"


class Facts:
    """Per-variable knowledge: an equal expression, a bound, a residue."""

    def __init__(self) -> None:
        self.exprs: dict[E.Var, Expr] = {}
        self.bounds: dict[E.Var, ConstIntBound] = {}
        self.residues: dict[E.Var, ModularSet] = {}

    def bind_range(self, var: E.Var, min_val: int, max_val_exclusive: int,
                   allow_override: bool = True) -> None:
        _need_var(var)
        if not allow_override and var in self.bounds:
            raise ValueError(f"variable '{var.name_hint}' is already bound")
        self.bounds[var] = ConstIntBound(min_val, max_val_exclusive - 1)

    def bind_expr(self, var: E.Var, expr: Expr, allow_override: bool = False) -> None:
        _need_var(var)
        if not allow_override and var in self.exprs and self.exprs[var] is not expr:
            raise ValueError(f"variable '{var.name_hint}' is already bound to an expression")
        self.exprs[var] = expr

    def unbind(self, var: E.Var) -> None:
        self.exprs.pop(var, None)
        self.bounds.pop(var, None)
        self.residues.pop(var, None)

    def narrow(self, var: E.Var, bound: ConstIntBound) -> Callable[[], None]:
        """Intersect ``var``'s bound with ``bound``; the returned function undoes it."""
        had, old = var in self.bounds, self.bounds.get(var)
        current = old or EVERYTHING
        self.bounds[var] = ConstIntBound(max(current.min_value, bound.min_value),
                                         min(current.max_value, bound.max_value))

        def restore() -> None:
            if had:
                self.bounds[var] = old  # type: ignore[assignment]
            else:
                self.bounds.pop(var, None)
        return restore

    def enter_constraint(self, constraint: Expr) -> Callable[[], None]:
        """Assume ``constraint`` (comparisons of a variable with a constant, joined by
        ``and``); the returned function forgets it again."""
        undo = [self.narrow(var, bound) for var, bound in _constraint_bounds(constraint, self)]

        def exit_scope() -> None:
            for step in reversed(undo):
                step()
        return exit_scope


def _need_var(var: Any) -> None:
    if not isinstance(var, E.Var):
        raise TypeError(f"expected an ir.Var, got {type(var).__name__}")


_SWAP = {E.Lt: E.Gt, E.Le: E.Ge, E.Gt: E.Lt, E.Ge: E.Le, E.Eq: E.Eq}


def _constraint_bounds(cond: Expr, facts: Facts) -> list[tuple[E.Var, ConstIntBound]]:
    if isinstance(cond, E.And):
        return _constraint_bounds(cond.left, facts) + _constraint_bounds(cond.right, facts)
    kind = type(cond)
    if kind not in _SWAP:
        return []
    comparison = cast(E.BinaryExpr, cond)  # a key of _SWAP
    left, right = comparison.left, comparison.right
    if not isinstance(left, E.Var):
        left, right, kind = right, left, _SWAP[kind]
    if not isinstance(left, E.Var):
        return []
    limit = const_int_bound(right, facts)
    if kind is E.Lt:
        return [(left, ConstIntBound(NEG_INF, _add(limit.max_value, -1)))]
    if kind is E.Le:
        return [(left, ConstIntBound(NEG_INF, limit.max_value))]
    if kind is E.Gt:
        return [(left, ConstIntBound(_add(limit.min_value, 1), POS_INF))]
    if kind is E.Ge:
        return [(left, ConstIntBound(limit.min_value, POS_INF))]
    return [(left, limit)]


def _is_int(expr: Expr) -> bool:
    dtype = getattr(expr, "dtype", None)
    return isinstance(dtype, DataType) and (dtype.is_int() or dtype is DataType.INDEX)


def const_int_bound(expr: Expr, facts: Facts, depth: int = 0) -> ConstIntBound:
    """Interval arithmetic over ``expr``."""
    if isinstance(expr, E.ConstInt):
        return ConstIntBound(expr.value, expr.value)
    if isinstance(expr, E.ConstBool):
        return ConstIntBound(int(expr.value), int(expr.value))
    if isinstance(expr, E.Var):
        bound = facts.bounds.get(expr, EVERYTHING)
        if expr in facts.exprs and depth < 32:
            other = const_int_bound(facts.exprs[expr], facts, depth + 1)
            bound = ConstIntBound(max(bound.min_value, other.min_value),
                                  min(bound.max_value, other.max_value))
        dtype = getattr(expr.type, "dtype", None)  # a Var has no ``dtype`` of its own
        if isinstance(dtype, DataType) and dtype.is_unsigned_int():
            bound = ConstIntBound(max(bound.min_value, 0), bound.max_value)
        return bound
    if isinstance(expr, (E.Lt, E.Le, E.Gt, E.Ge, E.Eq, E.Ne, E.And, E.Or, E.Not)):
        return ConstIntBound(0, 1)
    if isinstance(expr, E.Neg):
        inner = const_int_bound(expr.operand, facts, depth)
        return ConstIntBound(_mul(inner.max_value, -1), _mul(inner.min_value, -1))
    if isinstance(expr, E.Cast) and _is_int(expr):
        return const_int_bound(expr.operand, facts, depth)
    if not isinstance(expr, E.BinaryExpr):
        return EVERYTHING
    a = const_int_bound(expr.left, facts, depth)
    b = const_int_bound(expr.right, facts, depth)
    kind = type(expr)
    if kind is E.Add:
        return ConstIntBound(_add(a.min_value, b.min_value), _add(a.max_value, b.max_value))
    if kind is E.Sub:
        return ConstIntBound(_add(a.min_value, _mul(b.max_value, -1)),
                             _add(a.max_value, _mul(b.min_value, -1)))
    if kind is E.Mul:
        corners = [_mul(x, y) for x in (a.min_value, a.max_value)
                   for y in (b.min_value, b.max_value)]
        return ConstIntBound(min(corners), max(corners))
    if kind is E.Min:
        return ConstIntBound(min(a.min_value, b.min_value), min(a.max_value, b.max_value))
    if kind is E.Max:
        return ConstIntBound(max(a.min_value, b.min_value), max(a.max_value, b.max_value))
    if kind is E.FloorDiv and b.is_const() and b.min_value > 0:
        d = b.min_value
        lo = a.min_value if a.min_value == NEG_INF else a.min_value // d
        hi = a.max_value if a.max_value == POS_INF else a.max_value // d
        return ConstIntBound(lo, hi)
    if kind is E.FloorMod and b.min_value > 0 and b.max_value != POS_INF:
        if a.min_value >= 0 and a.max_value < b.min_value:
            return a
        return ConstIntBound(0, b.max_value - 1)
    return EVERYTHING


def modular_set(expr: Expr, facts: Facts, depth: int = 0) -> ModularSet:
    """The residue class ``expr`` is known to lie in."""
    if isinstance(expr, E.ConstInt):
        return ModularSet(0, expr.value)
    if isinstance(expr, E.Var):
        if expr in facts.residues:
            return facts.residues[expr]
        if expr in facts.exprs and depth < 32:
            return modular_set(facts.exprs[expr], facts, depth + 1)
        bound = facts.bounds.get(expr)
        if bound is not None and bound.is_const():
            return ModularSet(0, bound.min_value)
        return ModularSet(1, 0)
    if isinstance(expr, E.Neg):
        inner = modular_set(expr.operand, facts, depth)
        return ModularSet(inner.coeff, -inner.base)
    if not isinstance(expr, (E.Add, E.Sub, E.Mul, E.FloorMod)):
        return ModularSet(1, 0)
    a = modular_set(expr.left, facts, depth)
    b = modular_set(expr.right, facts, depth)
    if isinstance(expr, E.Add):
        return ModularSet(math.gcd(a.coeff, b.coeff), a.base + b.base)
    if isinstance(expr, E.Sub):
        return ModularSet(math.gcd(a.coeff, b.coeff), a.base - b.base)
    if isinstance(expr, E.Mul):
        return ModularSet(math.gcd(math.gcd(a.coeff * b.coeff, a.coeff * b.base),
                                   b.coeff * a.base), a.base * b.base)
    if b.is_exact() and b.base > 0 and a.coeff % b.base == 0:  # FloorMod by a constant
        return ModularSet(0, a.base % b.base)
    return ModularSet(1, 0)

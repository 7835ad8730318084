"""Simplification of scalar integer expressions.

``fold_const`` evaluates an expression made of constants.  ``simplify`` rewrites an
integer expression into a sum of distinct terms times coefficients plus a constant
(``k0 + 16 - k0`` is ``16``, ``2 * i + i`` is ``i * 3``), folds what the known bounds
decide (``i // 16`` is ``0`` when ``0 <= i < 16``; ``i < 20`` is ``True`` then), and
leaves everything it cannot decide as it was, with its parts simplified.  Variables
bound to an expression are replaced by it first.  Results keep the input's dtype.
"""

from __future__ import annotations

import operator
from typing import Any, Callable, cast

from ..ir import expr as E
from ..ir.dtype import DataType
from ..ir.node import Expr
from ..ir.structural import structural_equal
from ..ir.types import ScalarType
from .bounds import Facts, const_int_bound, modular_set

__all__ = ["fold_const", "simplify"]

_INT_FOLD: dict[type, Callable[[int, int], Any]] = {
    E.Add: operator.add, E.Sub: operator.sub, E.Mul: operator.mul, E.Min: min, E.Max: max,
    E.FloorDiv: lambda a, b: a // b if b else None, E.FloorMod: lambda a, b: a % b if b else None,
    E.BitAnd: operator.and_, E.BitOr: operator.or_, E.BitXor: operator.xor,
}
_COMPARE: dict[type[E.BinaryExpr], Callable[[Any, Any], bool]] = {
    E.Lt: operator.lt, E.Le: operator.le, E.Gt: operator.gt, E.Ge: operator.ge,
    E.Eq: operator.eq, E.Ne: operator.ne,
}
_COMPARE_CLASSES = tuple(_COMPARE)
_FLOAT_FOLD: dict[type, Callable[[float, float], Any]] = {
    E.Add: operator.add, E.Sub: operator.sub, E.Mul: operator.mul, E.Min: min, E.Max: max,
    E.FloatDiv: lambda a, b: a / b if b else None,
}


def _value(expr: Expr) -> Any:
    if isinstance(expr, (E.ConstInt, E.ConstFloat, E.ConstBool)):
        return expr.value
    return None


def _const(value: Any, like: Expr) -> Expr | None:
    dtype = like.type.dtype if hasattr(like.type, "dtype") else None
    if isinstance(value, bool) or dtype is DataType.BOOL:
        return E.ConstBool(bool(value), like.span)
    if isinstance(value, int) and dtype is not None and not dtype.is_float():
        return E.ConstInt(value, dtype, like.span)
    if isinstance(value, (int, float)) and dtype is not None and dtype.is_float():
        return E.ConstFloat(float(value), dtype, like.span)
    return None


def fold_const(expr: Expr) -> Expr | None:
    """The constant ``expr`` evaluates to, or ``None`` when it is not made of constants
    only (or divides by zero)."""
    if isinstance(expr, (E.ConstInt, E.ConstFloat, E.ConstBool)):
        return expr
    if isinstance(expr, E.BinaryExpr):
        left, right = fold_const(expr.left), fold_const(expr.right)
        if left is None or right is None:
            return None
        a, b = _value(left), _value(right)
        kind = type(expr)
        if kind in _COMPARE:
            return E.ConstBool(_COMPARE[kind](a, b), expr.span)
        if kind in (E.And, E.Or):
            return E.ConstBool(bool(a and b) if kind is E.And else bool(a or b), expr.span)
        table = _FLOAT_FOLD if isinstance(a, float) or isinstance(b, float) else _INT_FOLD
        fold = table.get(kind)
        value = fold(a, b) if fold is not None else None
        return None if value is None else _const(value, expr)
    if isinstance(expr, E.UnaryExpr):
        inner = fold_const(expr.operand)
        if inner is None:
            return None
        value = _value(inner)
        if isinstance(expr, E.Neg):
            return _const(-value, expr)
        if isinstance(expr, E.Not):
            return E.ConstBool(not value, expr.span)
        if isinstance(expr, E.Abs):
            return _const(abs(value), expr)
        if isinstance(expr, E.Cast):
            dtype = expr.dtype
            if dtype is DataType.BOOL:
                return E.ConstBool(bool(value), expr.span)
            return _const(float(value) if dtype.is_float() else int(value), expr)
    return None


def _is_int(expr: Expr) -> bool:
    dtype = getattr(expr.type, "dtype", None)
    return isinstance(dtype, DataType) and dtype is not DataType.BOOL and not dtype.is_float()


class _Linear:
    """``sum(coeff * term) + const`` over distinct terms, in first-seen order."""

    def __init__(self, terms: list[list] | None = None, const: int = 0) -> None:
        self.terms: list[list] = terms or []  # [term, coeff]
        self.const = const

    def add(self, other: "_Linear", scale: int = 1) -> "_Linear":
        out = _Linear([list(t) for t in self.terms], self.const + scale * other.const)
        for term, coeff in other.terms:
            for entry in out.terms:
                if entry[0] is term or (not isinstance(term, E.Var)
                                        and structural_equal(entry[0], term)):
                    entry[1] += scale * coeff
                    break
            else:
                out.terms.append([term, scale * coeff])
        out.terms = [t for t in out.terms if t[1] != 0]
        return out

    def scale(self, factor: int) -> "_Linear":
        if factor == 0:
            return _Linear()
        return _Linear([[t, c * factor] for t, c in self.terms], self.const * factor)

    def constant(self) -> int | None:
        return None if self.terms else self.const


class Simplifier:
    """Simplifies with the knowledge in ``facts``."""

    def __init__(self, facts: Facts) -> None:
        self.facts = facts

    def __call__(self, expr: Expr) -> Expr:
        return self.simplify(expr)

    def simplify(self, expr: Expr) -> Expr:
        if not isinstance(expr, Expr):
            raise TypeError(f"simplify expects an ir.Expr, got {type(expr).__name__}")
        if _is_int(expr):
            return self._rebuild(self._linear(expr, 0), expr)
        return self._other(expr, 0)

    # -- integers: the linear form ---------------------------------------------------
    def _linear(self, expr: Expr, depth: int) -> _Linear:
        if isinstance(expr, E.ConstInt):
            return _Linear(const=expr.value)
        if isinstance(expr, E.Var):
            bound = self.facts.exprs.get(expr)
            if bound is not None and depth < 32 and _is_int(bound):
                return self._linear(bound, depth + 1)
            known = const_int_bound(expr, self.facts)
            if known.is_const():
                return _Linear(const=known.min_value)
            return _Linear([[expr, 1]])
        if isinstance(expr, (E.Add, E.Sub)):
            left, right = self._linear(expr.left, depth), self._linear(expr.right, depth)
            return left.add(right, 1 if isinstance(expr, E.Add) else -1)
        if isinstance(expr, E.Neg):
            return self._linear(expr.operand, depth).scale(-1)
        if isinstance(expr, E.Mul):
            left, right = self._linear(expr.left, depth), self._linear(expr.right, depth)
            if left.constant() is not None:
                return right.scale(left.const)
            if right.constant() is not None:
                return left.scale(right.const)
            return self._term(E.Mul(self._rebuild(left, expr.left),
                                    self._rebuild(right, expr.right), expr.dtype, expr.span))
        if isinstance(expr, (E.FloorDiv, E.FloorMod)):
            return self._division(expr, depth)
        if isinstance(expr, (E.Min, E.Max)):
            return self._min_max(expr, depth)
        return self._term(self._other(expr, depth))

    def _term(self, expr: Expr) -> _Linear:
        folded = fold_const(expr)
        if isinstance(folded, E.ConstInt):
            return _Linear(const=folded.value)
        return _Linear([[expr, 1]])

    def _division(self, expr: E.BinaryExpr, depth: int) -> _Linear:
        left = self._linear(expr.left, depth)
        right = self._linear(expr.right, depth)
        divisor = right.constant()
        is_div = isinstance(expr, E.FloorDiv)
        if divisor is not None and divisor > 0:
            if left.constant() is not None:
                return _Linear(const=left.const // divisor if is_div else left.const % divisor)
            if all(c % divisor == 0 for _, c in left.terms):
                # (divisor * rest + const) // divisor == rest + const // divisor
                if is_div:
                    return _Linear([[t, c // divisor] for t, c in left.terms],
                                   left.const // divisor)
                return _Linear(const=left.const % divisor)
            rebuilt = self._rebuild(left, expr.left)
            bound = const_int_bound(rebuilt, self.facts)
            if 0 <= bound.min_value and bound.max_value < divisor:
                return _Linear() if is_div else left
            residue = modular_set(rebuilt, self.facts)
            if not is_div and residue.coeff and residue.coeff % divisor == 0:
                return _Linear(const=residue.base % divisor)
        return self._term(type(expr)(self._rebuild(left, expr.left),
                                     self._rebuild(right, expr.right), expr.dtype, expr.span))

    def _min_max(self, expr: E.BinaryExpr, depth: int) -> _Linear:
        left, right = self._linear(expr.left, depth), self._linear(expr.right, depth)
        difference = left.add(right, -1)
        d = const_int_bound(self._rebuild(difference, expr), self.facts)
        is_min = isinstance(expr, E.Min)
        if d.min_value >= 0:  # left >= right
            return right if is_min else left
        if d.max_value <= 0:  # left <= right
            return left if is_min else right
        return self._term(type(expr)(self._rebuild(left, expr.left),
                                     self._rebuild(right, expr.right), expr.dtype, expr.span))

    def _rebuild(self, form: _Linear, like: Expr) -> Expr:
        dtype, span = cast(ScalarType, like.type).dtype, like.span  # integer scalars only
        result: Expr | None = None
        for term, coeff in form.terms:
            if result is None:
                result = term if coeff == 1 else E.Mul(term, E.ConstInt(coeff, dtype, span),
                                                       dtype, span)
            elif coeff > 0:
                piece = term if coeff == 1 else E.Mul(term, E.ConstInt(coeff, dtype, span),
                                                      dtype, span)
                result = E.Add(result, piece, dtype, span)
            else:
                piece = term if coeff == -1 else E.Mul(term, E.ConstInt(-coeff, dtype, span),
                                                       dtype, span)
                result = E.Sub(result, piece, dtype, span)
        if result is None:
            return E.ConstInt(form.const, dtype, span)
        if form.const > 0:
            return E.Add(result, E.ConstInt(form.const, dtype, span), dtype, span)
        if form.const < 0:
            return E.Sub(result, E.ConstInt(-form.const, dtype, span), dtype, span)
        return result

    # -- everything else: comparisons, logic, casts ------------------------------------
    def _other(self, expr: Expr, depth: int) -> Expr:
        if isinstance(expr, _COMPARE_CLASSES) and _is_int(expr.left) and _is_int(expr.right):
            return self._compare(expr)
        if isinstance(expr, (E.And, E.Or)):
            left, right = self.simplify(expr.left), self.simplify(expr.right)
            a, b = _value(left), _value(right)
            if isinstance(expr, E.And):
                if a is False or b is False:
                    return E.ConstBool(False, expr.span)
                if a is True:
                    return right
                if b is True:
                    return left
            else:
                if a is True or b is True:
                    return E.ConstBool(True, expr.span)
                if a is False:
                    return right
                if b is False:
                    return left
            return _same(expr, left, right)
        if isinstance(expr, E.BinaryExpr):
            left, right = self.simplify(expr.left), self.simplify(expr.right)
            return _folded(_same(expr, left, right))
        if isinstance(expr, E.UnaryExpr):
            operand = self.simplify(expr.operand)
            return _folded(expr if operand is expr.operand else expr.replace(operand=operand))
        return expr

    def _compare(self, expr: E.BinaryExpr) -> Expr:
        kind = type(expr)
        dtype = cast(ScalarType, expr.left.type).dtype
        difference = self.simplify(E.Sub(expr.left, expr.right, dtype, expr.span))
        bound = const_int_bound(difference, self.facts)
        lo, hi = bound.min_value, bound.max_value
        decided = {E.Lt: (hi < 0, lo >= 0), E.Le: (hi <= 0, lo > 0), E.Gt: (lo > 0, hi <= 0),
                   E.Ge: (lo >= 0, hi < 0), E.Eq: (lo == hi == 0, lo > 0 or hi < 0),
                   E.Ne: (lo > 0 or hi < 0, lo == hi == 0)}[kind]
        if decided[0]:
            return E.ConstBool(True, expr.span)
        if decided[1]:
            return E.ConstBool(False, expr.span)
        return _same(expr, self.simplify(expr.left), self.simplify(expr.right))


def _folded(expr: Expr) -> Expr:
    folded = fold_const(expr)
    return expr if folded is None else folded


def _same(expr: E.BinaryExpr, left: Expr, right: Expr) -> Expr:
    if left is expr.left and right is expr.right:
        return expr
    return expr.replace(left=left, right=right)


def simplify(expr: Expr, facts: Facts | None = None) -> Expr:
    return Simplifier(facts or Facts()).simplify(expr)

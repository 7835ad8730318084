"""PyPTO's analyzers: ``Analyzer`` and the parts it shares its knowledge with
(``const_int_bound``, ``int_set``, ``modular_set``, ``rewrite_simplify``,
``transitive_cmp``).  A part made on its own has knowledge of its own; the parts of an
``Analyzer`` see every ``bind`` and constraint made through any of them."""

from __future__ import annotations

import enum
from typing import Any, Callable, cast

from .._core_enum import CoreEnumRepr
from ..ir import expr as E
from ..ir.node import Expr
from ..ir.types import ScalarType
from .bounds import (ConstIntBound, Facts, IntSet, ModularSet, NEG_INF, POS_INF,
                     const_int_bound, modular_set)
from .simplify import Simplifier

__all__ = ["Analyzer", "CanonicalSimplifier", "CompareResult", "ConstIntBoundAnalyzer",
           "ConstraintContext", "IntSetAnalyzer", "ModularSetAnalyzer", "RewriteSimplifier",
           "TransitiveComparisonAnalyzer"]


class CompareResult(CoreEnumRepr, enum.IntEnum):
    kInconsistent = 0
    kEQ = 1
    kLT = 2
    kLE = 3
    kGT = 4
    kGE = 5
    kNE = 6
    kUnknown = 7


class _Part:
    def __init__(self) -> None:
        self._facts = Facts()

    @classmethod
    def _sharing(cls, facts: Facts) -> "Any":
        """A part seeing ``facts`` (an ``Analyzer``'s), not knowledge of its own."""
        part = cls()
        part._facts = facts
        return part

    def enter_constraint(self, constraint: Expr) -> Callable[[], None]:
        """Assume ``constraint``; call the returned function to forget it."""
        return self._facts.enter_constraint(constraint)


class ConstIntBoundAnalyzer(_Part):
    """``analyzer(expr)``: the ``ConstIntBound`` of an integer expression."""

    def __call__(self, expr: Expr) -> ConstIntBound:
        return const_int_bound(expr, self._facts)

    def bind(self, var: E.Var, min_val: int, max_val_exclusive: int) -> None:
        self._facts.bind_range(var, min_val, max_val_exclusive)

    def update(self, var: E.Var, bound: ConstIntBound) -> None:
        if not isinstance(bound, ConstIntBound):
            raise TypeError(f"update expects a ConstIntBound, got {type(bound).__name__}")
        self._facts.bounds[var] = bound

    def unbind(self, var: E.Var) -> None:
        self._facts.bounds.pop(var, None)


class IntSetAnalyzer(_Part):
    """``analyzer(expr)``: the ``IntSet`` an integer expression ranges over."""

    def __call__(self, expr: Expr) -> IntSet:
        bound = const_int_bound(expr, self._facts)
        return IntSet(bound.min_value, bound.max_value)

    def bind(self, var: E.Var, min_val: Expr, max_val_exclusive: Expr) -> None:
        lo = const_int_bound(_as_expr(min_val), self._facts).min_value
        hi = const_int_bound(_as_expr(max_val_exclusive), self._facts).max_value
        self._facts.bounds[var] = ConstIntBound(lo, hi if hi in (NEG_INF, POS_INF) else hi - 1)

    def update(self, var: E.Var, int_set: IntSet) -> None:
        if not isinstance(int_set, IntSet):
            raise TypeError(f"update expects an IntSet, got {type(int_set).__name__}")
        self._facts.bounds[var] = ConstIntBound(int_set.min_value, int_set.max_value)


class ModularSetAnalyzer(_Part):
    """``analyzer(expr)``: the ``ModularSet`` (residue class) of an integer expression."""

    def __call__(self, expr: Expr) -> ModularSet:
        return modular_set(expr, self._facts)

    def update(self, var: E.Var, info: ModularSet) -> None:
        if not isinstance(info, ModularSet):
            raise TypeError(f"update expects a ModularSet, got {type(info).__name__}")
        self._facts.residues[var] = info

    def unbind(self, var: E.Var) -> None:
        self._facts.residues.pop(var, None)


class _Simplifying(_Part):
    def __call__(self, expr: Expr) -> Expr:
        return Simplifier(self._facts).simplify(expr)

    def update(self, var: E.Var, new_expr: Expr | None) -> None:
        """Replace ``var`` by ``new_expr`` from now on (``None``: stop)."""
        if new_expr is None:
            self._facts.exprs.pop(var, None)
        else:
            self._facts.bind_expr(var, new_expr, allow_override=True)


class RewriteSimplifier(_Simplifying):
    """``simplifier(expr)``: ``expr`` simplified (see ``pypto/arith/simplify.py``)."""


class CanonicalSimplifier(_Simplifying):
    """``simplifier(expr)``: ``expr`` in canonical form, a sum of distinct terms."""


class TransitiveComparisonAnalyzer(_Part):
    def bind(self, var: E.Var, expr: Any, allow_override: Any = False, *rest: Any) -> None:
        """As ``Analyzer.bind``."""
        _bind(self._facts, var, expr, allow_override, rest)

    def unbind(self, var: E.Var) -> None:
        self._facts.unbind(var)

    def try_compare(self, lhs: Expr, rhs: Expr,
                    propagate_inequalities: bool = True) -> CompareResult:
        """How ``lhs`` relates to ``rhs``, from the bound of their difference."""
        lhs, rhs = _as_expr(lhs), _as_expr(rhs)
        dtype = cast(ScalarType, lhs.type).dtype
        difference = Simplifier(self._facts).simplify(E.Sub(lhs, rhs, dtype, lhs.span))
        bound = const_int_bound(difference, self._facts)
        lo, hi = bound.min_value, bound.max_value
        if lo > hi:
            return CompareResult.kInconsistent
        if lo == hi == 0:
            return CompareResult.kEQ
        if hi < 0:
            return CompareResult.kLT
        if lo > 0:
            return CompareResult.kGT
        if hi == 0:
            return CompareResult.kLE
        if lo == 0:
            return CompareResult.kGE
        return CompareResult.kUnknown


def _as_expr(value: Any) -> Expr:
    if isinstance(value, Expr):
        return value
    if isinstance(value, int) and not isinstance(value, bool):
        from ..ir.dtype import DataType
        return E.ConstInt(value, DataType.INDEX)
    raise TypeError(f"expected an ir.Expr or int, got {type(value).__name__}")


def _bind(facts: Facts, var: E.Var, expr: Any, third: Any, rest: tuple) -> None:  # noqa: ARG001
    """PyPTO's two forms of ``bind``: ``(var, expr, allow_override=False)`` and ``(var,
    min_val, max_val_exclusive, allow_override=False)``: an int third argument is the
    exclusive upper bound of the second form."""
    if isinstance(third, int) and not isinstance(third, bool):
        facts.bind_range(var, int(expr), third)
    else:
        facts.bind_expr(var, _as_expr(expr), bool(third))


class ConstraintContext:
    """A constraint in force until ``exit_scope()`` (or the end of a ``with`` block)."""

    def __init__(self, exit_function: Callable[[], None]) -> None:
        self._exit: Callable[[], None] | None = exit_function

    def exit_scope(self) -> None:
        if self._exit is not None:
            self._exit()
            self._exit = None

    def __enter__(self) -> "ConstraintContext":
        return self

    def __exit__(self, *exc: Any) -> None:
        self.exit_scope()


class Analyzer:
    """Bounds, residues, comparisons and simplification sharing one body of facts."""

    def __init__(self) -> None:
        facts = self._facts = Facts()
        self._parts = (ConstIntBoundAnalyzer._sharing(facts), IntSetAnalyzer._sharing(facts),
                       ModularSetAnalyzer._sharing(facts), RewriteSimplifier._sharing(facts),
                       TransitiveComparisonAnalyzer._sharing(facts))

    const_int_bound = property(lambda self: self._parts[0])
    int_set = property(lambda self: self._parts[1])
    modular_set = property(lambda self: self._parts[2])
    rewrite_simplify = property(lambda self: self._parts[3])
    transitive_cmp = property(lambda self: self._parts[4])

    def bind(self, var: E.Var, expr: Any, allow_override: Any = False, *rest: Any) -> None:
        """``bind(var, expr)``: ``var`` equals ``expr``; ``bind(var, lo, hi)``: ``lo <= var
        < hi`` (a range may always be narrowed again)."""
        _bind(self._facts, var, expr, allow_override, rest)

    def unbind(self, var: E.Var) -> None:
        self._facts.unbind(var)

    def simplify(self, expr: Expr, steps: int = 2) -> Expr:
        simplifier = Simplifier(self._facts)
        for _ in range(max(1, int(steps))):
            simpler = simplifier.simplify(expr)
            if simpler is expr:
                break
            expr = simpler
        return expr

    def can_prove(self, cond: Expr) -> bool:
        result = self.simplify(_as_expr(cond))
        return isinstance(result, E.ConstBool) and result.value is True

    def can_prove_equal(self, lhs: Expr, rhs: Expr) -> bool:
        return self.transitive_cmp.try_compare(lhs, rhs) is CompareResult.kEQ

    def can_prove_greater_equal(self, expr: Expr, lower_bound: int) -> bool:
        return self.const_int_bound(self.simplify(expr)).min_value >= lower_bound

    def can_prove_less(self, expr: Expr, upper_bound: int) -> bool:
        return self.const_int_bound(self.simplify(expr)).max_value < upper_bound

    def constraint_context(self, constraint: Expr) -> ConstraintContext:
        return ConstraintContext(self._facts.enter_constraint(constraint))

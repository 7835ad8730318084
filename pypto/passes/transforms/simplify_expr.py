"""The expression rewriting of the Simplify pass: scalar expressions folded and put in
a normal form without changing what they compute (docs/guide/passes.md, "Simplify").

The meaning kept is the executor's: every operator's result is normalised to the node's
dtype (integers wrap around, FP32/FP16 round), floor division and modulo floor, and a
division by zero is an error.  Hence:

* An integer expression is read as a linear form ``sum(coefficient * atom) + constant``
  only through ``+``, ``-``, unary ``-`` and products with a constant whose dtype is the
  root's: wrapping after every node or once at the end gives the same value (wrapping
  is a ring homomorphism), so the form may be reordered, merged and rebuilt freely.  A
  node of another dtype is an atom of its own.
* Division, modulo, min, max and comparisons are decided only from intervals that are
  proven not to wrap: loop variables of constant-bound loops have their range, every
  other atom the range of its dtype.
* A subexpression is dropped (``x * 0``, ``x - x``, ``False and x``) only when it cannot
  fail (no division by a non-constant, no call).
* Floats are folded only where the result is exactly the executor's (FP32, FP16), and
  rewritten only by identities exact for every value (``x * 1.0``, ``x - 0.0``,
  ``x / 1.0``; never ``x + 0.0``, which turns ``-0.0`` into ``0.0``).
"""

from __future__ import annotations

import math
import operator
from typing import Any, Callable, Optional, cast

from ...ir import expr as E
from ...ir.dtype import DataType
from ...ir.node import Expr
from ...ir.structural import structural_equal, structural_hash
from .scalar_values import const_value, dtype_range, float_packer, int_width, make_const, wrap

__all__ = ["ExprSimplifier", "Interval", "fold_constant_node"]

Interval = tuple[int, int]
Width = tuple[int, bool]

_FOLD: dict[type, Callable[[Any, Any], Any]] = {
    E.Add: operator.add, E.Sub: operator.sub, E.Mul: operator.mul, E.Min: min, E.Max: max,
    E.Eq: operator.eq, E.Ne: operator.ne, E.Lt: operator.lt, E.Le: operator.le,
    E.Gt: operator.gt, E.Ge: operator.ge, E.BitAnd: operator.and_, E.BitOr: operator.or_,
    E.BitXor: operator.xor, E.And: lambda a, b: bool(a) and bool(b),
    E.Or: lambda a, b: bool(a) or bool(b), E.Xor: lambda a, b: bool(a) != bool(b),
}
_DIVISIONS: dict[type, Callable[[Any, Any], Any]] = {
    E.FloorDiv: operator.floordiv, E.FloorMod: operator.mod, E.FloatDiv: operator.truediv,
}
_UNARY_FOLD: dict[type, Callable[[Any], Any]] = {
    E.Abs: abs, E.Neg: operator.neg, E.Not: operator.not_, E.BitNot: operator.invert,
}
_COMPARES = (E.Eq, E.Ne, E.Lt, E.Le, E.Gt, E.Ge)
_LINEAR = (E.Add, E.Sub, E.Neg, E.Mul)
# Operators that never fail on scalar values (division is checked per divisor).
_TOTAL = (E.Var, E.ConstInt, E.ConstFloat, E.ConstBool, E.Add, E.Sub, E.Mul, E.Min, E.Max,
          E.Neg, E.Abs, E.Not, E.BitNot, E.BitAnd, E.BitOr, E.BitXor, E.And, E.Or, E.Xor,
          *_COMPARES)


def _dtype(expr: Expr) -> Any:
    return getattr(expr.type, "dtype", None)


def cannot_fail(expr: Expr) -> bool:
    """True when evaluating ``expr`` can raise nothing (so dropping it changes nothing)."""
    stack = [expr]
    while stack:
        node = stack.pop()
        if isinstance(node, (E.FloorDiv, E.FloorMod)):
            if const_value(node.right) in (None, 0):
                return False
        elif isinstance(node, E.Cast):
            source = _dtype(node.operand)
            if source is not None and source.is_float() and int_width(node.dtype) is not None:
                return False  # NaN / infinity cannot become an integer
        elif not isinstance(node, _TOTAL):
            return False
        if isinstance(node, E.BinaryExpr):
            stack += (node.left, node.right)
        elif isinstance(node, E.UnaryExpr):
            stack.append(node.operand)
    return True


class _Form:
    """``sum(coefficient * atom) + constant`` over one integer width; atoms are keyed by
    identity for Vars and by structure otherwise, in first-seen order."""

    __slots__ = ("terms", "constant", "dropped")

    def __init__(self) -> None:
        self.terms: list[list[Any]] = []  # [atom, coefficient]
        self.constant = 0
        self.dropped = False  # some atom that may fail lost its last occurrence

    def add_atom(self, atom: Expr, coefficient: int) -> None:
        is_var = isinstance(atom, E.Var)
        key = None if is_var else structural_hash(atom)
        for entry in self.terms:
            other = entry[0]
            if other is atom or (not is_var and not isinstance(other, E.Var)
                                 and entry[2] == key and structural_equal(other, atom)):
                entry[1] += coefficient
                return
        self.terms.append([atom, coefficient, key])

    def merge(self, other: "_Form", scale: int) -> None:
        self.constant += scale * other.constant
        self.dropped = self.dropped or other.dropped
        for atom, coefficient, _ in other.terms:
            self.add_atom(atom, scale * coefficient)

    def normalised(self, width: Width) -> "_Form":
        out = _Form()
        out.constant = wrap(self.constant, width)
        out.dropped = self.dropped
        for atom, coefficient, key in self.terms:
            c = wrap(coefficient, width)
            if c:
                out.terms.append([atom, c, key])
            elif not cannot_fail(atom):
                out.dropped = True
        return out


class ExprSimplifier:
    """Simplifies scalar expressions.  ``visit_atom`` rewrites what is not scalar
    arithmetic (a Var the caller remaps, a call); ``bounds`` gives known ranges of Vars."""

    def __init__(self, visit_atom: Callable[[Expr], Expr],
                 bounds: Optional[dict[E.Var, Interval]] = None) -> None:
        self._visit_atom = visit_atom
        self.bounds: dict[E.Var, Interval] = bounds if bounds is not None else {}

    # -- entry -----------------------------------------------------------------------
    def simplify(self, expr: Expr) -> Expr:
        width = int_width(_dtype(expr))
        if width is not None and isinstance(expr, _LINEAR):
            return self._linear_root(expr, width)
        if isinstance(expr, E.BinaryExpr):
            return self._binary(expr)
        if isinstance(expr, E.UnaryExpr):
            return self._unary(expr)
        return self._visit_atom(expr)

    # -- integers: linear forms --------------------------------------------------------
    def _linear_root(self, expr: Expr, width: Width) -> Expr:
        form = self._form(expr, width).normalised(width)
        if form.dropped:
            return self._rebuilt_children(expr)
        rebuilt = self._rebuild(form, expr, width)
        if rebuilt is None:
            return self._rebuilt_children(expr)
        return expr if structural_equal(rebuilt, expr) else rebuilt

    def _rebuilt_children(self, expr: Expr) -> Expr:
        if isinstance(expr, E.BinaryExpr):
            return _same(expr, self.simplify(expr.left), self.simplify(expr.right))
        operand = self.simplify(cast(E.UnaryExpr, expr).operand)
        return expr if operand is cast(E.UnaryExpr, expr).operand else \
            cast(E.UnaryExpr, expr).replace(operand=operand)

    def _form(self, expr: Expr, width: Width, rewrite: bool = True) -> _Form:
        """The linear form of ``expr``, looking through linear nodes of ``width``'s dtype.
        ``rewrite``: atoms are simplified (else ``expr`` is already simplified and only
        analysed)."""
        form = _Form()
        if isinstance(expr, _LINEAR) and int_width(_dtype(expr)) == width:
            if isinstance(expr, (E.Add, E.Sub)):
                form.merge(self._form(expr.left, width, rewrite), 1)
                form.merge(self._form(expr.right, width, rewrite),
                           1 if isinstance(expr, E.Add) else -1)
                return form
            if isinstance(expr, E.Neg):
                form.merge(self._form(expr.operand, width, rewrite), -1)
                return form
            mul = expr
            # (normalised: a side whose terms cancelled, ``0 * x``, is the constant it is)
            left = self._form(mul.left, width, rewrite).normalised(width)
            right = self._form(mul.right, width, rewrite).normalised(width)
            for constant, other in ((left, right), (right, left)):
                if not constant.terms:  # a constant side (maybe one whose parts dropped)
                    form.merge(other, constant.constant)
                    form.dropped = (form.dropped or constant.dropped
                                    or (constant.constant == 0 and _may_fail(other)))
                    return form
            product = mul if not rewrite else E.Mul(
                self._rebuild_or_keep(left, mul.left, width),
                self._rebuild_or_keep(right, mul.right, width), mul.dtype, mul.span)
            form.add_atom(product, 1)
            return form
        atom = self.simplify(expr) if rewrite else expr
        if rewrite and atom is not expr and isinstance(atom, _LINEAR) \
                and int_width(_dtype(atom)) == width:
            # simplifying it made it linear (``cast(-x)`` to x's own dtype is ``-x``)
            form.merge(self._form(atom, width, False), 1)
            return form
        value = const_value(atom)
        if isinstance(value, int) and not isinstance(value, bool):
            form.constant = value
        else:
            form.add_atom(atom, 1)
        return form

    def _rebuild_or_keep(self, form: _Form, original: Expr, width: Width) -> Expr:
        normal = form.normalised(width)
        rebuilt = None if normal.dropped else self._rebuild(normal, original, width)
        return rebuilt if rebuilt is not None else self._rebuilt_children(original)

    def _rebuild(self, form: _Form, like: Expr, width: Width) -> Optional[Expr]:
        """``form`` as an expression of ``like``'s dtype, or None if it would change type."""
        dtype = cast(DataType, _dtype(like))
        span = like.span
        bits, is_signed = width

        def signed(c: int) -> int:  # an unsigned 2**bits - 1 is written as -1
            return c - (1 << bits) if not is_signed and c >= 1 << (bits - 1) else c

        result: Optional[Expr] = None
        for atom, coefficient, _ in form.terms:
            c = signed(coefficient)
            magnitude = abs(c) if result is not None else c
            piece = atom if magnitude == 1 else E.Mul(atom, E.ConstInt(magnitude, dtype, span),
                                                      dtype, span)
            if result is None:
                result = E.Neg(atom, dtype, span) if c == -1 else piece
            else:
                result = (E.Add if c > 0 else E.Sub)(result, piece, dtype, span)
        constant = signed(form.constant)
        if result is None:
            return E.ConstInt(constant, dtype, span)
        if constant:
            result = (E.Add if constant > 0 else E.Sub)(result, E.ConstInt(abs(constant), dtype,
                                                                          span), dtype, span)
        return result if _dtype(result) is dtype else None

    # -- intervals -----------------------------------------------------------------------
    def interval(self, expr: Expr) -> Optional[Interval]:
        """A range holding every value of integer ``expr``, or None if unknown."""
        width = int_width(_dtype(expr))
        if width is None:
            return None
        value = const_value(expr)
        if isinstance(value, int):
            return value, value
        whole = dtype_range(width)
        if isinstance(expr, E.Var):
            known = self.bounds.get(expr)
            return known if known is not None else whole
        if isinstance(expr, _LINEAR):
            form = self._form(expr, width, False).normalised(width)
            if any(atom is expr for atom, _, _ in form.terms):  # a product of two non-constants
                return self._product_interval(cast(E.Mul, expr), width) or whole
            found = self._form_interval(form, width)
            return found if found is not None else whole
        if isinstance(expr, (E.Min, E.Max)):
            a, b = self.interval(expr.left), self.interval(expr.right)
            if a is not None and b is not None:
                pick = min if isinstance(expr, E.Min) else max
                return _fit((pick(a[0], b[0]), pick(a[1], b[1])), width) or whole
        return whole

    def _product_interval(self, expr: E.Mul, width: Width) -> Optional[Interval]:
        a, b = self.interval(expr.left), self.interval(expr.right)
        if a is None or b is None:
            return None
        corners = [x * y for x in a for y in b]
        return _fit((min(corners), max(corners)), width)

    def _form_interval(self, form: _Form, width: Optional[Width]) -> Optional[Interval]:
        low = high = form.constant if width is None else _as_signed(form.constant, width)
        for atom, coefficient, _ in form.terms:
            c = coefficient if width is None else _as_signed(coefficient, width)
            part = self.interval(atom)
            if part is None:
                return None
            a, b = c * part[0], c * part[1]
            low, high = low + min(a, b), high + max(a, b)
        return (low, high) if width is None else _fit((low, high), width)

    def _difference(self, left: Expr, right: Expr) -> Optional[Interval]:
        """The range of ``left - right`` as exact integers (no wrap), when both sides are
        proven not to wrap."""
        forms = []
        for side in (left, right):
            width = int_width(_dtype(side))
            if width is None:
                return None
            form = self._form(side, width, False).normalised(width)
            if self._form_interval(form, width) is None:
                return None  # this side may wrap: its value is not the form's
            signed_form = _Form()
            signed_form.constant = _as_signed(form.constant, width)
            for atom, coefficient, key in form.terms:
                signed_form.terms.append([atom, _as_signed(coefficient, width), key])
            forms.append(signed_form)
        forms[0].merge(forms[1], -1)
        return self._form_interval(forms[0], None)

    # -- other binary operators -------------------------------------------------------------
    def _binary(self, expr: E.BinaryExpr) -> Expr:
        left, right = self.simplify(expr.left), self.simplify(expr.right)
        kind, dtype = type(expr), expr.dtype
        a, b = const_value(left), const_value(right)
        if a is not None and b is not None:
            folded = self._fold(kind, dtype, a, b, expr)
            if folded is not None:
                return folded
        decided = self._decide(expr, kind, dtype, left, right, a, b)
        return decided if decided is not None else _same(expr, left, right)

    def _fold(self, kind: type, dtype: DataType, a: Any, b: Any, like: Expr) -> Optional[Expr]:
        if int_width(dtype) is None and float_packer(dtype) is None and dtype is not DataType.BOOL:
            return None
        if kind in _DIVISIONS:
            if b == 0:
                return None  # the executor fails here: keep the failure
            return make_const(_DIVISIONS[kind](a, b), dtype, like)
        fn = _FOLD.get(kind)
        return make_const(fn(a, b), dtype, like) if fn is not None else None

    def _decide(self, expr: E.BinaryExpr, kind: type, dtype: DataType, left: Expr, right: Expr,
                a: Any, b: Any) -> Optional[Expr]:
        if kind in _COMPARES and int_width(_dtype(left)) and int_width(_dtype(right)):
            return self._compare(kind, left, right, expr)
        if kind in (E.And, E.Or) and dtype is DataType.BOOL:
            return _logic(kind, left, right, a, b, expr)
        width = int_width(dtype)
        if width is not None and kind in (E.FloorDiv, E.FloorMod):
            return self._division(kind, left, right, b, width, expr)
        if width is not None and kind in (E.Min, E.Max):
            difference = self._difference(left, right)
            if difference is not None:
                pick_left = (difference[1] <= 0) if kind is E.Min else (difference[0] >= 0)
                pick_right = (difference[0] >= 0) if kind is E.Min else (difference[1] <= 0)
                for chosen, other, ok in ((left, right, pick_left), (right, left, pick_right)):
                    if ok and _dtype(chosen) is dtype and cannot_fail(other):
                        return chosen
            return None
        if float_packer(dtype) is not None and _dtype(left) is dtype:
            exact_identity = ((kind is E.Mul and b == 1.0) or (kind is E.FloatDiv and b == 1.0)
                              or (kind is E.Sub and b == 0.0 and not _is_negative_zero(b)))
            if exact_identity and isinstance(b, float):
                return left
        if float_packer(dtype) is not None and _dtype(right) is dtype:
            if kind is E.Mul and a == 1.0 and isinstance(a, float):
                return right
        return None

    def _compare(self, kind: type, left: Expr, right: Expr, like: Expr) -> Optional[Expr]:
        difference = self._difference(left, right)
        if difference is None:
            return None
        low, high = difference
        truths: dict[type, tuple[bool, bool]] = {E.Lt: (high < 0, low >= 0), E.Le: (high <= 0, low > 0),
                 E.Gt: (low > 0, high <= 0), E.Ge: (low >= 0, high < 0),
                 E.Eq: (low == high == 0, low > 0 or high < 0),
                 E.Ne: (low > 0 or high < 0, low == high == 0)}
        truth = truths[kind]
        if truth[0] or truth[1]:
            if not (cannot_fail(left) and cannot_fail(right)):
                return None
            return E.ConstBool(bool(truth[0]), like.span)
        return None

    def _division(self, kind: type, left: Expr, right: Expr, divisor: Any, width: Width,
                  like: Expr) -> Optional[Expr]:
        if not isinstance(divisor, int) or isinstance(divisor, bool) or divisor <= 0:
            return None
        same_dtype = _dtype(left) is _dtype(like)
        is_div = kind is E.FloorDiv
        if divisor == 1:
            if is_div and same_dtype:
                return left
            return E.ConstInt(0, cast(DataType, _dtype(like)), like.span) \
                if not is_div and cannot_fail(left) else None
        numerator = self.interval(left)
        if numerator is not None and 0 <= numerator[0] and numerator[1] < divisor:
            if is_div and cannot_fail(left):
                return E.ConstInt(0, cast(DataType, _dtype(like)), like.span)
            if not is_div and same_dtype:
                return left
        return None

    # -- unary operators ---------------------------------------------------------------------
    def _unary(self, expr: E.UnaryExpr) -> Expr:
        operand = self.simplify(expr.operand)
        value = const_value(operand)
        if isinstance(expr, E.Cast):
            if _dtype(operand) is expr.dtype:
                return operand  # a cast to the operand's own dtype changes no value
            if value is not None:
                folded = make_const(value, expr.dtype, expr)
                if folded is not None:
                    return folded
        elif value is not None and (int_width(expr.dtype) is not None
                                    or float_packer(expr.dtype) is not None
                                    or expr.dtype is DataType.BOOL):
            fn = _UNARY_FOLD[type(expr)]
            folded = make_const(fn(value), expr.dtype, expr)
            if folded is not None:
                return folded
        if isinstance(expr, E.Not) and isinstance(operand, E.Not) \
                and _dtype(operand.operand) is DataType.BOOL:
            return operand.operand
        return expr if operand is expr.operand else expr.replace(operand=operand)


def _may_fail(form: _Form) -> bool:
    return form.dropped or any(not cannot_fail(atom) for atom, _, _ in form.terms)


def _as_signed(value: int, width: Width) -> int:
    """The representative of ``value`` (mod 2**bits) in the dtype's own range."""
    return wrap(value, width)


def _fit(interval: Interval, width: Width) -> Optional[Interval]:
    low, high = dtype_range(width)
    return interval if low <= interval[0] and interval[1] <= high else None


def _is_negative_zero(value: Any) -> bool:
    return isinstance(value, float) and value == 0.0 and math.copysign(1.0, value) < 0


def _logic(kind: type, left: Expr, right: Expr, a: Any, b: Any, like: Expr) -> Optional[Expr]:
    absorbing = kind is E.Or  # True absorbs Or, False absorbs And
    for value, other in ((a, right), (b, left)):
        if value is None or not isinstance(value, bool):
            continue
        if value == absorbing:
            return E.ConstBool(absorbing, like.span) if cannot_fail(other) else None
        if _dtype(other) is DataType.BOOL:
            return other  # the neutral element
    return None


def _same(expr: E.BinaryExpr, left: Expr, right: Expr) -> Expr:
    if left is expr.left and right is expr.right:
        return expr
    return expr.replace(left=left, right=right)


_IDENTITY_SIMPLIFIER = ExprSimplifier(lambda e: e)


def fold_constant_node(expr: Expr) -> Expr:
    """``expr`` folded if it is a scalar operator whose operands are constants (as the
    executor would compute it), else ``expr`` itself."""
    if isinstance(expr, E.BinaryExpr):
        operands: tuple[Expr, ...] = (expr.left, expr.right)
    elif isinstance(expr, E.UnaryExpr):
        operands = (expr.operand,)
    else:
        return expr
    if any(const_value(o) is None for o in operands):
        return expr
    folded = _IDENTITY_SIMPLIFIER.simplify(expr)
    return folded if isinstance(folded, (E.ConstInt, E.ConstFloat, E.ConstBool)) else expr

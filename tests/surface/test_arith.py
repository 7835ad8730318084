"""``pypto.arith``: bounds, residues, comparisons and simplification of scalar IR."""

from __future__ import annotations

import pytest

from pypto import arith, ir
from pypto.pypto_core import arith as core_arith

IDX = ir.DataType.INDEX


def var(name):
    return ir.Var(name, ir.ScalarType(IDX))


def c(value):
    return ir.ConstInt(value, IDX)


def text(expr):
    return ir.python_print(expr)


def test_core_mirror_and_enum_values():
    assert core_arith is arith
    assert [(m.name, m.value) for m in arith.CompareResult] == [
        ("kInconsistent", 0), ("kEQ", 1), ("kLT", 2), ("kLE", 3), ("kGT", 4), ("kGE", 5),
        ("kNE", 6), ("kUnknown", 7)]


def test_integer_helpers():
    assert (arith.floordiv(-7, 2), arith.floormod(-7, 2)) == (-4, 1)
    assert (arith.gcd(12, 18), arith.lcm(4, 6), arith.lcm(0, 5)) == (6, 12, 0)
    g, x, y = arith.extended_euclidean(240, 46)
    assert g == 2 and 240 * x + 46 * y == 2
    with pytest.raises(ZeroDivisionError):
        arith.floordiv(1, 0)


def test_fold_const():
    folded = arith.fold_const(c(3) * 4 + 1)
    assert isinstance(folded, ir.ConstInt) and folded.value == 13 and folded.dtype is IDX
    assert arith.fold_const(var("n") + 1) is None
    assert arith.fold_const(c(7) // c(0)) is None
    assert arith.fold_const(ir.Lt(c(1), c(2), ir.DataType.BOOL)).value is True


def test_simplify_cancels_and_collects_terms():
    a, k0, i = arith.Analyzer(), var("k0"), var("i")
    assert text(a.simplify(k0 + 16 - k0)) == "16"
    assert text(a.simplify(2 * i + i + 3)) == "i * 3 + 3"
    assert text(a.simplify((k0 * 8 + 4) // 4)) == "k0 * 2 + 1"
    assert text(a.simplify((k0 * 8 + 4) % 4)) == "0"
    assert text(a.simplify(i - k0)) == "i - k0"
    assert text(a.simplify(ir.min_(k0, k0 + 1))) == "k0"


def test_bounds_decide_divisions_and_comparisons():
    a, i = arith.Analyzer(), var("i")
    a.bind(i, 0, 16)  # 0 <= i < 16
    assert text(a.simplify(i // 16)) == "0" and text(a.simplify(i % 16)) == "i"
    assert a.can_prove(i < 16) and not a.can_prove(i < 15)
    assert a.can_prove_greater_equal(i, 0) and a.can_prove_less(i * 2, 31)
    bound = a.const_int_bound(i * 2 + 1)
    assert (bound.min_value, bound.max_value) == (1, 31)
    assert a.int_set(i + 4) == arith.IntSet(4, 19)
    assert a.transitive_cmp.try_compare(i, c(16)) is arith.CompareResult.kLT
    assert a.transitive_cmp.try_compare(i, c(0)) is arith.CompareResult.kGE
    assert a.can_prove_equal(i + 1 - 1, i)


def test_bound_expressions_are_substituted():
    a, n, m = arith.Analyzer(), var("n"), var("m")
    a.bind(n, m * 2)
    assert text(a.simplify(n - m)) == "m"
    with pytest.raises(ValueError, match="already bound"):
        a.bind(n, m)
    a.bind(n, m, True)  # allow_override
    assert text(a.simplify(n - m)) == "0"
    a.unbind(n)
    assert text(a.simplify(n - m)) == "n - m"


def test_constraints_hold_inside_their_scope_only():
    a, k = arith.Analyzer(), var("k")
    with a.constraint_context(ir.And(k >= 0, k < 5, ir.DataType.BOOL)):
        assert (a.const_int_bound(k).min_value, a.const_int_bound(k).max_value) == (0, 4)
        assert a.can_prove(k < 8)
    assert a.const_int_bound(k).is_everything()
    ctx = a.constraint_context(k > 3)
    assert a.const_int_bound(k).min_value == 4
    ctx.exit_scope()
    assert a.const_int_bound(k).is_everything()


def test_modular_sets():
    a, i = arith.Analyzer(), var("i")
    m = a.modular_set(i * 4 + 2)
    assert (m.coeff, m.base) == (4, 2) and not m.is_everything()
    assert a.modular_set(c(5)).is_exact()
    assert a.modular_set(i).is_everything()


def test_standalone_parts_have_their_own_knowledge():
    i = var("i")
    bounds = arith.ConstIntBoundAnalyzer()
    bounds.bind(i, 2, 10)
    assert bounds(i * 3) == arith.ConstIntBound(6, 27)
    bounds.update(i, arith.ConstIntBound(0, 1))
    assert bounds(i).max_value == 1
    simplifier = arith.RewriteSimplifier()
    simplifier.update(i, c(4))
    assert text(simplifier(i * 2)) == "8"
    undo = arith.CanonicalSimplifier().enter_constraint(i < 3)
    undo()
    assert arith.ConstIntBound.kPosInf == 2 ** 63 - 1 == -arith.ConstIntBound.kNegInf


def test_an_unsigned_variable_is_never_negative():
    # (found by mypy: the bound read a ``dtype`` that a Var does not have, so it was unbounded)
    a = arith.Analyzer()
    u = ir.Var("u", ir.ScalarType(ir.DataType.UINT32))
    s = ir.Var("s", ir.ScalarType(ir.DataType.INT32))
    bound = a.const_int_bound(u)
    assert (bound.min_value, bound.max_value) == (0, arith.ConstIntBound.kPosInf)
    assert a.can_prove_greater_equal(u, 0) and not a.can_prove_greater_equal(s, 0)
    assert a.const_int_bound(s).is_everything()

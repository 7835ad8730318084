"""Simplify: scalar expressions folded and normalised, never changing what they compute
(the executor's meaning: results wrap to their dtype, FP32/FP16 round, division by zero
fails)."""

from __future__ import annotations

import math
import random

import pytest

import pypto.language as pl
from pypto import ir, passes
from pypto.ir import DataType as DT
from pypto.passes.transforms.simplify_expr import ExprSimplifier
from pypto.runtime.dtypes import scalar_coercer
from pypto.runtime.errors import OpFailure
from pypto.runtime.scalar_semantics import binary_semantics, cast_semantics, UNARY_SEMANTICS


def simplified(program: ir.Program) -> ir.Program:
    return passes.simplify()(program)


def test_identities_constants_and_linear_forms_everywhere():
    @pl.program
    class Before:
        @pl.function
        def main(self, x: pl.Tensor[[64, 64], pl.FP32], n: pl.Scalar[pl.INDEX],
                 m: pl.Scalar[pl.INDEX]) -> pl.Tensor[[64, 64], pl.FP32]:
            a: pl.Scalar[pl.INDEX] = n + 0
            b: pl.Scalar[pl.INDEX] = a * 1 + 2 * n - n
            c: pl.Scalar[pl.INDEX] = (3 + 4 * 2) // 2
            d: pl.Scalar[pl.INDEX] = m * 2 + n - m - m
            for k in pl.range(0, n * 1 + 0, 1 + 0):
                t: pl.Tensor[[16, 16], pl.FP32] = pl.slice(x, [16, 16], [k + 0, 16 - 16])
            return x

    @pl.program
    class Expected:
        @pl.function
        def main(self, x: pl.Tensor[[64, 64], pl.FP32], n: pl.Scalar[pl.INDEX],
                 m: pl.Scalar[pl.INDEX]) -> pl.Tensor[[64, 64], pl.FP32]:
            a: pl.Scalar[pl.INDEX] = n
            b: pl.Scalar[pl.INDEX] = a + n
            c: pl.Scalar[pl.INDEX] = 5
            d: pl.Scalar[pl.INDEX] = n
            for k in pl.range(0, n, 1):
                t: pl.Tensor[[16, 16], pl.FP32] = pl.slice(x, [16, 16], [k, 0])
            return x

    ir.assert_structural_equal(simplified(Before), Expected)


def test_loop_ranges_decide_division_modulo_and_comparisons():
    @pl.program
    class Before:
        @pl.function
        def main(self, n: pl.Scalar[pl.INDEX]) -> pl.Scalar[pl.INDEX]:
            s: pl.Scalar[pl.INDEX] = 0
            for i in pl.range(16):
                q: pl.Scalar[pl.INDEX] = i // 16
                r: pl.Scalar[pl.INDEX] = i % 16
                lt: pl.Scalar[pl.BOOL] = i < 20
                ge: pl.Scalar[pl.BOOL] = i + 1 > i
                lo: pl.Scalar[pl.INDEX] = pl.min(i, 15)
                keep: pl.Scalar[pl.INDEX] = i // 8
                s = s + q + r
            return s

    @pl.program
    class Expected:
        @pl.function
        def main(self, n: pl.Scalar[pl.INDEX]) -> pl.Scalar[pl.INDEX]:
            s: pl.Scalar[pl.INDEX] = 0
            for i in pl.range(16):
                q: pl.Scalar[pl.INDEX] = 0
                r: pl.Scalar[pl.INDEX] = i
                lt: pl.Scalar[pl.BOOL] = True
                ge: pl.Scalar[pl.BOOL] = True
                lo: pl.Scalar[pl.INDEX] = i
                keep: pl.Scalar[pl.INDEX] = i // 8
                s = s + q + r
            return s

    ir.assert_structural_equal(simplified(Before), Expected)


def test_what_could_wrap_or_fail_is_kept():
    @pl.program
    class Kept:
        @pl.function
        def main(self, n: pl.Scalar[pl.INDEX], k: pl.Scalar[pl.INDEX],
                 f: pl.Scalar[pl.FP32]) -> pl.Scalar[pl.INDEX]:
            wraps: pl.Scalar[pl.BOOL] = n + 1 > n          # n may be the largest INDEX
            halves: pl.Scalar[pl.INDEX] = n * 2 // 2       # n * 2 may wrap
            by_zero: pl.Scalar[pl.INDEX] = n // 0          # fails at run time
            dropped: pl.Scalar[pl.INDEX] = n // k * 0      # n // k fails when k == 0
            signed_zero: pl.Scalar[pl.FP32] = f + 0.0      # -0.0 + 0.0 is 0.0
            return n

    out = simplified(Kept)
    assert out is Kept  # nothing rewritten: the very same program


def test_float_identities_exact_for_every_value():
    @pl.program
    class Before:
        @pl.function
        def main(self, f: pl.Scalar[pl.FP32]) -> pl.Scalar[pl.FP32]:
            a: pl.Scalar[pl.FP32] = f * 1.0
            b: pl.Scalar[pl.FP32] = a - 0.0
            c: pl.Scalar[pl.FP32] = b / 1.0
            return c

    @pl.program
    class Expected:
        @pl.function
        def main(self, f: pl.Scalar[pl.FP32]) -> pl.Scalar[pl.FP32]:
            a: pl.Scalar[pl.FP32] = f
            b: pl.Scalar[pl.FP32] = a
            c: pl.Scalar[pl.FP32] = b
            return c

    ir.assert_structural_equal(simplified(Before), Expected)
    f = ir.Var("f", ir.ScalarType(DT.FP32))
    tenth = ir.Mul(ir.ConstFloat(0.1, DT.FP32), ir.ConstFloat(3.0, DT.FP32), DT.FP32)
    folded = ExprSimplifier(lambda e: e).simplify(ir.Add(f, tenth, DT.FP32)).right
    assert folded.value == scalar_coercer(DT.FP32)(0.1 * 3.0) != 0.1 * 3.0


def test_fixed_width_constants_wrap_like_the_executor():
    x = ir.Var("x", ir.ScalarType(DT.INT8))
    c = ir.ConstInt(100, DT.INT8)
    s = ExprSimplifier(lambda e: e)
    # 100 + 100 wraps to -56 in INT8
    assert s.simplify(ir.Add(c, c, DT.INT8)).value == -56
    # x + 200 - 200 is x (the ring is modulo 2**8) ...
    expr = ir.Sub(ir.Add(x, ir.ConstInt(200, DT.INT8), DT.INT8), ir.ConstInt(200, DT.INT8), DT.INT8)
    assert s.simplify(expr) is x
    # ... but x + 1 > x is not decided
    assert isinstance(s.simplify(ir.Gt(ir.Add(x, ir.ConstInt(1, DT.INT8), DT.INT8), x,
                                       DT.BOOL)), ir.Gt)


def test_simplify_keeps_a_node_of_another_dtype_whole():
    x = ir.Var("x", ir.ScalarType(DT.INT32))
    inner = ir.Add(x, ir.ConstInt(0, DT.INT32), DT.INT32)  # x + 0 at INT32 is x
    outer = ir.Add(inner, ir.ConstInt(0, DT.INDEX), DT.INDEX)  # but x itself is INT32
    out = ExprSimplifier(lambda e: e).simplify(outer)
    assert out.type == ir.ScalarType(DT.INDEX)


def test_simplify_is_a_registered_stand_alone_pass():
    p = passes.simplify()
    assert p.get_name() == "Simplify"
    assert passes.build_pipeline("simplify").get_pass_names() == ["Simplify"]
    assert "Simplify" not in passes.PassManager.get_strategy(
        passes.OptimizationStrategy.Default).get_pass_names() \
        if hasattr(passes, "PassManager") else True


# -- the meaning is kept: random expressions evaluated before and after -------------------

_INT_DTYPES = (DT.INT8, DT.UINT8, DT.INT32, DT.INDEX)
_BINARY = (ir.Add, ir.Sub, ir.Mul, ir.FloorDiv, ir.FloorMod, ir.Min, ir.Max, ir.Lt, ir.Ge,
           ir.Eq, ir.BitAnd)


def _evaluate(expr: ir.Expr, env: dict) -> object:
    """What the executor computes (the same semantics tables and normalisation)."""
    if isinstance(expr, ir.Var):
        return env[expr]
    if isinstance(expr, (ir.ConstInt, ir.ConstFloat, ir.ConstBool)):
        return scalar_coercer(expr.type.dtype)(expr.value)
    if isinstance(expr, ir.BinaryExpr):
        fn = binary_semantics(type(expr), expr.dtype)
        return scalar_coercer(expr.dtype)(fn(_evaluate(expr.left, env), _evaluate(expr.right, env)))
    if isinstance(expr, ir.Cast):
        fn = cast_semantics(expr.operand.type.dtype, expr.dtype)
        return scalar_coercer(expr.dtype)(fn(_evaluate(expr.operand, env)))
    fn = UNARY_SEMANTICS[type(expr)]
    return scalar_coercer(expr.dtype)(fn(_evaluate(expr.operand, env)))


def _random_expr(rng: random.Random, atoms: list, dtype: DT, depth: int) -> ir.Expr:
    if depth == 0 or rng.random() < 0.25:
        if rng.random() < 0.5:
            return rng.choice([a for a in atoms if a.type.dtype is dtype] or atoms[:1])
        return ir.ConstInt(rng.choice([0, 1, -1, 2, 3, 16, 100, 127, 128, 255, 2 ** 40]), dtype)
    if rng.random() < 0.15:
        return ir.Neg(_random_expr(rng, atoms, dtype, depth - 1), dtype)
    if rng.random() < 0.1:
        source = rng.choice(_INT_DTYPES)
        return ir.Cast(_random_expr(rng, atoms, source, depth - 1), dtype)
    cls = rng.choice(_BINARY)
    left = _random_expr(rng, atoms, dtype, depth - 1)
    right = _random_expr(rng, atoms, dtype, depth - 1)
    if cls in (ir.Lt, ir.Ge, ir.Eq):
        return ir.Cast(cls(left, right, DT.BOOL), dtype)
    return cls(left, right, dtype)


@pytest.mark.parametrize("seed", range(6))
def test_random_integer_expressions_compute_the_same_after_simplify(seed):
    rng = random.Random(seed)
    atoms = [ir.Var(f"v{i}", ir.ScalarType(d)) for i, d in enumerate(_INT_DTYPES)]
    loop = ir.Var("i", ir.ScalarType(DT.INDEX))
    atoms.append(loop)
    simplifier = ExprSimplifier(lambda e: e, {loop: (0, 15)})
    checked = 0
    for _ in range(150):
        dtype = rng.choice(_INT_DTYPES)
        expr = _random_expr(rng, atoms, dtype, 4)
        out = simplifier.simplify(expr)
        assert out.type == expr.type
        assert ir.structural_equal(simplifier.simplify(out), out)  # one run does it all
        for _ in range(8):
            env = {a: scalar_coercer(a.type.dtype)(rng.choice(
                [0, 1, -1, 2, 15, 127, -128, 255, 2 ** 31 - 1, 2 ** 63 - 1, rng.randrange(-999, 999)]))
                for a in atoms}
            env[loop] = rng.randrange(0, 16)
            try:
                before = _evaluate(expr, env)
            except OpFailure:
                with pytest.raises(OpFailure):
                    _evaluate(out, env)
                continue
            assert _evaluate(out, env) == before, (ir.python_print(expr), ir.python_print(out))
            checked += 1
    assert checked > 500


def test_float_constant_folding_matches_the_executor_bit_for_bit():
    rng = random.Random(7)
    for dtype in (DT.FP32, DT.FP16):
        s = ExprSimplifier(lambda e: e)
        for _ in range(200):
            a = ir.ConstFloat(rng.uniform(-1e3, 1e3), dtype)
            b = ir.ConstFloat(rng.choice([rng.uniform(-10, 10), 0.1, 3.0, 1e-3]), dtype)
            for cls in (ir.Add, ir.Sub, ir.Mul, ir.FloatDiv):
                expr = cls(a, b, dtype)
                out = s.simplify(expr)
                assert isinstance(out, ir.ConstFloat)
                expected = _evaluate(expr, {})
                assert out.value == expected or (math.isnan(out.value) and math.isnan(expected))
    bf = ir.Add(ir.ConstFloat(0.1, DT.BF16), ir.ConstFloat(0.2, DT.BF16), DT.BF16)
    assert ExprSimplifier(lambda e: e).simplify(bf) is bf  # BF16 rounding is not reproduced


def test_shapes_in_types_are_simplified_and_their_vars_reminted():
    N = pl.dynamic("N")

    @pl.program
    class Before:
        @pl.function
        def main(self, x: pl.Tensor[[N, 64], pl.FP32],
                 n: pl.Scalar[pl.INDEX]) -> pl.Tensor[[16, 64], pl.FP32]:
            k: pl.Scalar[pl.INDEX] = n * 1
            t: pl.Tensor[[k + 0, 64], pl.FP32] = pl.slice(x, [k + 0, 64], [0, 0])
            u: pl.Tensor[[16, 64], pl.FP32] = pl.slice(t, [16, 64], [k * 2 - k, 0])
            return u

    @pl.program
    class Expected:
        @pl.function
        def main(self, x: pl.Tensor[[N, 64], pl.FP32],
                 n: pl.Scalar[pl.INDEX]) -> pl.Tensor[[16, 64], pl.FP32]:
            k: pl.Scalar[pl.INDEX] = n
            t: pl.Tensor[[k, 64], pl.FP32] = pl.slice(x, [k, 64], [0, 0])
            u: pl.Tensor[[16, 64], pl.FP32] = pl.slice(t, [16, 64], [k, 0])
            return u

    out = simplified(Before)
    ir.assert_structural_equal(out, Expected)
    t_before = Before.functions["main"].body.stmts[1].var
    t_after = out.functions["main"].body.stmts[1].var
    assert t_after is not t_before  # a new type: a new Var, and its use follows
    assert out.functions["main"].body.stmts[2].value.args[0] is t_after


def test_a_loop_variable_defined_twice_gets_no_range():
    """Two loops over one name (non-SSA input): after the inner loop, ``i`` holds the
    inner loop's last value, so the outer range says nothing about it."""
    i = ir.Var("i", ir.ScalarType(DT.INDEX))
    s = ir.Var("s", ir.ScalarType(DT.INDEX))
    q = ir.Var("q", ir.ScalarType(DT.INDEX))
    inner = ir.ForStmt(i, 100, 102, 1, [], ir.AssignStmt(s, i), [])
    read = ir.AssignStmt(q, ir.FloorDiv(i, ir.ConstInt(16, DT.INDEX), DT.INDEX))
    outer = ir.ForStmt(i, 0, 4, 1, [], ir.SeqStmts([inner, read]), [])
    func = ir.Function("main", [], [], ir.SeqStmts([ir.AssignStmt(s, ir.ConstInt(0, DT.INDEX)),
                                                    outer, ir.ReturnStmt()]))
    program = ir.Program([func], "P")
    with passes.PassContext([]):  # (non-SSA on purpose)
        out = simplified(program)
    assert out is program  # i // 16 is 6 there, not 0

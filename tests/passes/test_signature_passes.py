"""CanonicalizeIOOrder, NormalizeReturnOrder and ClassifyIterArgCarry."""

from __future__ import annotations

import pypto.language as pl
from pypto import ir, passes

P = passes.IRProperty


@pl.program
class Mixed:
    @pl.function(type=pl.FunctionType.InCore)
    def kernel(self, c: pl.Out[pl.Tensor[[16], pl.FP32]], a: pl.Tensor[[16], pl.FP32],
               b: pl.InOut[pl.Tensor[[16], pl.FP32]], n: pl.Scalar[pl.INDEX]
               ) -> tuple[pl.Tensor[[16], pl.FP32], pl.Tensor[[16], pl.FP32]]:
        return c, b

    @pl.function(type=pl.FunctionType.Orchestration)
    def main(self, x: pl.Tensor[[16], pl.FP32], y: pl.Out[pl.Tensor[[16], pl.FP32]],
             z: pl.Out[pl.Tensor[[16], pl.FP32]]) -> pl.Tensor[[16], pl.FP32]:
        r1, r2 = self.kernel(y, x, z, 4)
        return r1


@pl.program
class Canonical:
    @pl.function(type=pl.FunctionType.InCore)
    def kernel(self, a: pl.Tensor[[16], pl.FP32], n: pl.Scalar[pl.INDEX],
               b: pl.InOut[pl.Tensor[[16], pl.FP32]], c: pl.Out[pl.Tensor[[16], pl.FP32]]
               ) -> tuple[pl.Tensor[[16], pl.FP32], pl.Tensor[[16], pl.FP32]]:
        return c, b

    @pl.function(type=pl.FunctionType.Orchestration)
    def main(self, x: pl.Tensor[[16], pl.FP32], y: pl.Out[pl.Tensor[[16], pl.FP32]],
             z: pl.Out[pl.Tensor[[16], pl.FP32]]) -> pl.Tensor[[16], pl.FP32]:
        r1, r2 = self.kernel(x, 4, z, y)
        return r1


def test_canonicalize_io_order_puts_inputs_inouts_then_outputs_and_rewrites_calls():
    out = passes.canonicalize_io_order()(Mixed)
    ir.assert_structural_equal(out, Canonical)
    assert passes.canonicalize_io_order()(out) is out
    # the entry's own signature is the user's: it stays as written
    assert [p.name_hint for p in out.functions["main"].params] == ["x", "y", "z"]


def test_canonicalize_io_order_carries_recorded_directions_along():
    directed = passes.derive_call_directions()(Mixed)
    out = passes.canonicalize_io_order()(directed)
    call = out.functions["main"].body.stmts[0].value
    assert call.arg_directions == [ir.ArgDirection.Input, ir.ArgDirection.Scalar,
                                   ir.ArgDirection.InOut, ir.ArgDirection.OutputExisting]


def test_normalize_return_order_follows_parameter_order_and_permutes_the_readers():
    @pl.program
    class Expected:
        @pl.function(type=pl.FunctionType.InCore)
        def kernel(self, a: pl.Tensor[[16], pl.FP32], n: pl.Scalar[pl.INDEX],
                   b: pl.InOut[pl.Tensor[[16], pl.FP32]], c: pl.Out[pl.Tensor[[16], pl.FP32]]
                   ) -> tuple[pl.Tensor[[16], pl.FP32], pl.Tensor[[16], pl.FP32]]:
            return b, c

        @pl.function(type=pl.FunctionType.Orchestration)
        def main(self, x: pl.Tensor[[16], pl.FP32], y: pl.Out[pl.Tensor[[16], pl.FP32]],
                 z: pl.Out[pl.Tensor[[16], pl.FP32]]) -> pl.Tensor[[16], pl.FP32]:
            t: pl.Tuple[pl.Tensor[[16], pl.FP32], pl.Tensor[[16], pl.FP32]] = \
                self.kernel(x, 4, z, y)
            r1: pl.Tensor[[16], pl.FP32] = t[1]
            r2: pl.Tensor[[16], pl.FP32] = t[0]
            return r1

    props = passes.IRPropertySet([P.ReturnParamsExplicit])
    assert [d.rule_name for d in passes.PropertyVerifierRegistry.verify(props, Canonical)] == \
        ["ReturnParamsExplicit"]
    out = passes.normalize_return_order()(Canonical)
    ir.assert_structural_equal(out, Expected)
    assert passes.PropertyVerifierRegistry.verify(props, out) == []
    assert passes.normalize_return_order()(out) is out


def test_normalize_return_order_leaves_a_function_whose_result_tuple_is_used_whole():
    @pl.program
    class Whole:
        @pl.function(type=pl.FunctionType.InCore)
        def kernel(self, b: pl.Out[pl.Tensor[[16], pl.FP32]],
                   c: pl.Out[pl.Tensor[[16], pl.FP32]]
                   ) -> tuple[pl.Tensor[[16], pl.FP32], pl.Tensor[[16], pl.FP32]]:
            return c, b

        @pl.function(type=pl.FunctionType.Orchestration)
        def main(self, y: pl.Out[pl.Tensor[[16], pl.FP32]], z: pl.Out[pl.Tensor[[16], pl.FP32]]
                 ) -> tuple[pl.Tensor[[16], pl.FP32], pl.Tensor[[16], pl.FP32]]:
            t: pl.Tuple[pl.Tensor[[16], pl.FP32], pl.Tensor[[16], pl.FP32]] = self.kernel(y, z)
            return t

    with passes.PassContext([]):  # ReturnParamsExplicit exempts it, so nothing to verify
        assert passes.normalize_return_order()(Whole) is Whole
    assert passes.PropertyVerifierRegistry.verify(
        passes.IRPropertySet([P.ReturnParamsExplicit]), Whole) == []


def test_classify_iter_arg_carry_marks_carried_and_escaping_iter_args():
    @pl.program
    class Loop:
        @pl.function
        def main(self, x: pl.Tensor[[16], pl.FP32], n: pl.Scalar[pl.INDEX]
                 ) -> pl.Tensor[[16], pl.FP32]:
            acc: pl.Tensor[[16], pl.FP32] = pl.add(x, x)
            last: pl.Tensor[[16], pl.FP32] = pl.add(x, x)
            for i in pl.range(n):
                acc = pl.add(acc, x)
                last = pl.mul(x, x)
            y: pl.Tensor[[16], pl.FP32] = pl.add(acc, last)
            return y

    ssa = passes.convert_to_ssa()(Loop)
    props = passes.IRPropertySet([P.IterArgCarryClassified])
    assert [d.rule_name for d in passes.PropertyVerifierRegistry.verify(props, ssa)] == \
        ["IterArgCarryClassified"]
    out = passes.classify_iter_arg_carry()(ssa)
    loop = out.functions["main"].body.stmts[2]
    assert [a.name_hint.split("__")[0] for a in loop.iter_args] == ["acc", "last"]
    assert loop.attrs["iter_arg_carry"] == ["carry", "escape"]
    assert passes.PropertyVerifierRegistry.verify(props, out) == []
    assert passes.classify_iter_arg_carry()(out) is out
    ir.assert_structural_equal(pl.parse(ir.python_print(out)), out)


def test_the_three_passes_are_declared_with_their_properties():
    for factory, name, produced in (("canonicalize_io_order", "CanonicalizeIOOrder", "{}"),
                                    ("normalize_return_order", "NormalizeReturnOrder",
                                     "{ReturnParamsExplicit}"),
                                    ("classify_iter_arg_carry", "ClassifyIterArgCarry",
                                     "{IterArgCarryClassified}")):
        p = getattr(passes, factory)()
        assert (p.get_name(), str(p.get_produced_properties())) == (name, produced)
    assert str(passes.classify_iter_arg_carry().get_required_properties()) == "{SSAForm}"

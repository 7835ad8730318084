"""DeriveCallDirections: calls of program functions record per-argument directions read
off the callee's parameters."""

from __future__ import annotations

import pytest

import pypto.language as pl
from pypto import ir, passes

AD = ir.ArgDirection


@pl.program
class Calls:
    @pl.function(type=pl.FunctionType.InCore)
    def kernel(self, a: pl.Tensor[[16], pl.FP32], n: pl.Scalar[pl.INDEX],
               b: pl.InOut[pl.Tensor[[16], pl.FP32]],
               c: pl.Out[pl.Tensor[[16], pl.FP32]]) -> pl.Tensor[[16], pl.FP32]:
        return c

    @pl.function(type=pl.FunctionType.Orchestration)
    def main(self, x: pl.Tensor[[16], pl.FP32],
             y: pl.Out[pl.Tensor[[16], pl.FP32]]) -> pl.Tensor[[16], pl.FP32]:
        t: pl.Tensor[[16], pl.FP32] = pl.create_tensor([16], dtype=pl.FP32)
        r: pl.Tensor[[16], pl.FP32] = self.kernel(x, 4, x, t)
        r2: pl.Tensor[[16], pl.FP32] = self.kernel(x, 4, r, y)
        return r2


def test_directions_follow_the_callee_and_where_an_out_buffer_comes_from():
    @pl.program
    class Expected:
        @pl.function(type=pl.FunctionType.InCore)
        def kernel(self, a: pl.Tensor[[16], pl.FP32], n: pl.Scalar[pl.INDEX],
                   b: pl.InOut[pl.Tensor[[16], pl.FP32]],
                   c: pl.Out[pl.Tensor[[16], pl.FP32]]) -> pl.Tensor[[16], pl.FP32]:
            return c

        @pl.function(type=pl.FunctionType.Orchestration)
        def main(self, x: pl.Tensor[[16], pl.FP32],
                 y: pl.Out[pl.Tensor[[16], pl.FP32]]) -> pl.Tensor[[16], pl.FP32]:
            t: pl.Tensor[[16], pl.FP32] = pl.create_tensor([16], dtype=pl.FP32)
            r: pl.Tensor[[16], pl.FP32] = self.kernel(x, 4, x, t, attrs={"arg_directions": [
                pl.adir.input, pl.adir.scalar, pl.adir.inout, pl.adir.output]})
            r2: pl.Tensor[[16], pl.FP32] = self.kernel(x, 4, r, y, attrs={"arg_directions": [
                pl.adir.input, pl.adir.scalar, pl.adir.inout, pl.adir.output_existing]})
            return r2

    out = passes.derive_call_directions()(Calls)
    ir.assert_structural_equal(out, Expected)
    assert passes.derive_call_directions()(out) is out  # recorded directions are kept


def test_a_recorded_no_dep_is_kept_and_a_contradiction_refused_at_the_call():
    @pl.program
    class Given:
        @pl.function(type=pl.FunctionType.InCore)
        def kernel(self, a: pl.Tensor[[16], pl.FP32],
                   c: pl.Out[pl.Tensor[[16], pl.FP32]]) -> pl.Tensor[[16], pl.FP32]:
            return c

        @pl.function(type=pl.FunctionType.Orchestration)
        def main(self, x: pl.Tensor[[16], pl.FP32],
                 y: pl.Out[pl.Tensor[[16], pl.FP32]]) -> pl.Tensor[[16], pl.FP32]:
            r: pl.Tensor[[16], pl.FP32] = self.kernel(x, y, attrs={"arg_directions": [
                pl.adir.no_dep, pl.adir.output_existing]})
            r2: pl.Tensor[[16], pl.FP32] = self.kernel(x, r, attrs={"arg_directions": [
                pl.adir.input, pl.adir.input]})
            return r2

    with pytest.raises(passes.PassError) as info:
        passes.derive_call_directions()(Given)
    err = info.value
    assert err.code is passes.PassErrorCode.CALL_DIRECTION_CONFLICT
    assert "records argument 1 ('c') as Input, but the parameter is an Out tensor" in err.message
    assert err.span.begin_line == Given.functions["main"].body.stmts[1].span.begin_line


def test_call_directions_resolved_verifier():
    props = passes.IRPropertySet([passes.IRProperty.CallDirectionsResolved])
    found = passes.PropertyVerifierRegistry.verify(props, Calls)
    assert [d.error_code for d in found] == [0, 0]
    assert "the call of 'kernel' in function 'main' records no argument directions" \
        in found[0].message
    assert passes.PropertyVerifierRegistry.verify(
        props, passes.derive_call_directions()(Calls)) == []


def test_a_call_without_arguments_records_nothing_and_verifies():
    @pl.program
    class NoArgs:
        @pl.function(type=pl.FunctionType.InCore)
        def kernel(self):
            b: pl.Scalar[pl.INDEX] = pl.tile.get_block_idx()

        @pl.function(type=pl.FunctionType.Orchestration)
        def main(self, x: pl.Tensor[[4], pl.FP32]):
            self.kernel()

    assert passes.derive_call_directions()(NoArgs) is NoArgs
    assert passes.PropertyVerifierRegistry.verify(
        passes.IRPropertySet([passes.IRProperty.CallDirectionsResolved]), NoArgs) == []

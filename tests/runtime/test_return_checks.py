"""The executor checks a function's tensor results against its declared return types,
as it checks arguments: a wrong-shaped result fails at the function's return, so the
error is the same before and after outlining moves the call into a new function.
Found by the salted semantic mutations (a kernel's `return acc` swapped for
`return x`, accepted because x's rows are a dynamic dim)."""

from __future__ import annotations

import numpy as np
import pytest

import pypto.language as pl
import pypto.runtime as runtime
from pypto import ir

TEXT = '''
import pypto.language as pl

M = pl.dynamic("M")


@pl.program
class P:
    @pl.function(type=pl.FunctionType.InCore)
    def kern(self, x: pl.Tensor[[M, 16], pl.FP32], acc: pl.InOut[pl.Tensor[[16, 16], pl.FP32]]) -> pl.Tensor[[16, 16], pl.FP32]:
        t = pl.load(x, [0, 0], [16, 16])
        acc = pl.store(t, [0, 0], acc)
        return x

    @pl.function
    def main(self, x: pl.Tensor[[M, 16], pl.FP32], acc: pl.InOut[pl.Tensor[[16, 16], pl.FP32]]) -> pl.Tensor[[16, 16], pl.FP32]:
        with pl.cluster():
            acc = self.kern(x, acc)
        with pl.at(level=pl.Level.CORE_GROUP):
            t = pl.load(acc, [0, 0], [16, 16])
            acc = pl.store(pl.exp(t), [0, 0], acc)
        return acc
'''


def _error(program: ir.Program, rows: int) -> runtime.ExecutionError:
    x = np.ones((rows, 16), np.float32)
    with pytest.raises(runtime.ExecutionError) as info:
        runtime.execute(program, x, np.zeros((16, 16), np.float32), entry="main")
    return info.value


def test_a_wrong_shaped_result_fails_at_the_return_before_and_after_the_pipeline():
    program = pl.parse(TEXT)
    compiled = ir.PassManager.get_strategy(ir.OptimizationStrategy.Default).run_passes(program)
    before, after = _error(program, 64), _error(compiled, 64)
    assert before.what == "return value 0 of 'kern'"
    assert "expected shape pl.Tensor[[16, 16], pl.FP32], got [64, 16]" in before.detail
    assert (after.what, after.detail) == (before.what, before.detail)


def test_a_result_of_the_declared_shape_passes():
    program = pl.parse(TEXT)
    out = runtime.execute(program, np.ones((16, 16), np.float32),
                          np.zeros((16, 16), np.float32), entry="main")
    assert out.shape == (16, 16)

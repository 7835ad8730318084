"""A dynamic dim that a function's params use only inside expressions is solved from
an argument's extent (``M * 2 + 4`` -> ``M = (extent - 4) / 2``), or refused by name
(``pypto/runtime/dim_solver.py``)."""

from __future__ import annotations

import numpy as np
import pytest

import pypto
import pypto.language as pl
from pypto import ir
from pypto.runtime import ExecutionError

def program(params: str, returns: str = "M", dims: str = "M") -> ir.Program:
    header = "\n".join(f'{d} = pl.dynamic("{d}")' for d in dims.split())
    return pl.parse(f'''
import pypto.language as pl
{header}

@pl.program
class P:
    @pl.function
    def main(self, {params}) -> pl.Scalar[pl.INDEX]:
        return {returns}
''')


def zeros(*shape: int) -> np.ndarray:
    return np.zeros(shape, np.float32)


@pytest.mark.parametrize("extent, rows, value", [
    ("M * 2", 6, 3), ("M * 2 + 4", 10, 3), ("4 + M", 9, 5), ("8 - M", 5, 3),
    ("-(M) + 8", 8, 0), ("(M + 1) * 3", 12, 3), ("M * 2 - 2", 0, 1)])
def test_an_affine_extent_gives_its_dim_a_value(extent, rows, value):
    p = program(f"x: pl.Tensor[[{extent}, 3], pl.FP32]")
    assert pypto.run(p, zeros(rows, 3)) == value


def test_a_dim_solved_from_one_param_is_checked_against_the_others():
    p = program("x: pl.Tensor[[M * 2, 4], pl.FP32], z: pl.Tensor[[4 + M], pl.FP32]")
    assert pypto.run(p, zeros(6, 4), zeros(7)) == 3
    with pytest.raises(ExecutionError) as info:
        pypto.run(p, zeros(6, 4), zeros(8))
    assert info.value.what == "call of 'main'"
    assert info.value.span.begin_line == 8  # the function
    assert info.value.detail == ("dim 0 of argument 'z' is 8, but its declared extent 4 + M "
                                 "evaluates to 7 (M = 3, solved from dim 0 of argument 'x')")


def test_dims_are_solved_in_the_order_they_become_solvable():
    # x reads M and N, and only z binds N: z first, then x; w is checked last.
    p = program("x: pl.Tensor[[M + N], pl.FP32], z: pl.Tensor[[N * 2, K], pl.FP32], "
                "w: pl.Tensor[[K * M], pl.FP32]", returns="M * 100 + N * 10 + K",
                dims="M N K")
    assert pypto.run(p, zeros(5), zeros(4, 3), zeros(9)) == 3 * 100 + 2 * 10 + 3


def test_a_scalar_param_is_a_known_coefficient():
    p = program("n: pl.Scalar[pl.INDEX], x: pl.Tensor[[n * M + 1], pl.FP32]")
    assert pypto.run(p, 4, zeros(13)) == 3


def test_an_extent_no_integer_dim_gives_is_refused_by_name():
    p = program("x: pl.Tensor[[M * 2, 4], pl.FP32]")
    with pytest.raises(ExecutionError) as info:
        pypto.run(p, zeros(7, 4))
    assert info.value.detail == ("dim 0 of argument 'x' is 7, but M * 2 is not 7 for any "
                                 "integer 'M'")


def test_a_negative_solution_is_refused():
    p = program("x: pl.Tensor[[M + 4], pl.FP32]")
    with pytest.raises(ExecutionError) as info:
        pypto.run(p, zeros(2))
    assert info.value.detail == ("dim 0 of argument 'x' is 2, which would make dynamic dim "
                                 "'M' of M + 4 negative (-2)")


def test_an_extent_that_cannot_be_solved_says_why():
    p = program("x: pl.Tensor[[M // 2], pl.FP32]")
    with pytest.raises(ExecutionError) as info:
        pypto.run(p, zeros(4))
    assert info.value.detail == (
        "dynamic dim 'M' is bound by no parameter's extent of its own: dim 0 of argument "
        "'x' is M // 2, and it does not read 'M' as a sum of multiples of it, so the extent "
        "cannot be solved for it; declare a dim 'M' alone in some parameter's shape")
    p = program("x: pl.Tensor[[M * M], pl.FP32]")
    with pytest.raises(ExecutionError, match="does not read 'M' as a sum of multiples"):
        pypto.run(p, zeros(4))
    p = program("x: pl.Tensor[[M * N], pl.FP32]", dims="M N")
    with pytest.raises(ExecutionError) as info:
        pypto.run(p, zeros(4))
    assert "it reads 2 dims ('M', 'N') that no other extent binds" in info.value.detail


def test_an_extent_that_does_not_depend_on_its_dim():
    p = program("x: pl.Tensor[[M - M + 3], pl.FP32]")
    with pytest.raises(ExecutionError, match=r"\(M - M \+ 3\) does not depend on 'M'"):
        pypto.run(p, zeros(3))


def test_a_plain_dim_still_wins_and_the_expression_is_only_checked():
    p = program("x: pl.Tensor[[M * 2], pl.FP32], y: pl.Tensor[[M], pl.FP32]")
    assert pypto.run(p, zeros(8), zeros(4)) == 4
    with pytest.raises(ExecutionError, match=r"declared extent M \* 2 evaluates to 6 \(M = 3\)$"):
        pypto.run(p, zeros(8), zeros(3))


def test_a_dim_only_an_orchestration_reads_runs_before_and_after_the_pipeline():
    # M is bound by no plain dim; the body reads it to create a tensor.
    p = pl.parse('''
import pypto.language as pl
M = pl.dynamic("M")

@pl.program
class P:
    @pl.function(type=pl.FunctionType.InCore)
    def copy(self, a: pl.Tensor[[M * 2, 4], pl.FP32],
             out: pl.Out[pl.Tensor[[M * 2, 4], pl.FP32]]) -> pl.Tensor[[M * 2, 4], pl.FP32]:
        t = pl.load(a, [0, 0], [M * 2, 4])
        out = pl.store(t, [0, 0], out)
        return out

    @pl.function(type=pl.FunctionType.Orchestration)
    def main(self, x: pl.Tensor[[M * 2, 4], pl.FP32]) -> pl.Tensor[[M * 2, 4], pl.FP32]:
        t = pl.create_tensor([M * 2, 4], dtype=pl.FP32)
        t = self.copy(x, t)
        return t
''')
    compiled = ir.PassManager.get_strategy(ir.OptimizationStrategy.Default).run_passes(p)
    x = np.arange(24, dtype=np.float32).reshape(6, 4)
    for version in (p, compiled):
        assert np.array_equal(pypto.run(version, x, entry="main"), x)

"""A task graph: kernels submitted as tasks with explicit dependencies.  Two
independent producers fill a scratch tensor; the consumer waits for both
(deps=[...]) and combines them; a last region depends on the consumer by name.

    python examples/scripts/task_graph.py [--numpy]
"""
# pl.Tensor[[64], pl.FP32] takes dims and a dtype, not types: docs/guide/typing.md
# pyright: reportInvalidTypeArguments=false

import numpy as np

import pypto.language as pl
from pypto.runtime import RunConfig

from _arrays import check, numpy_of, randn, zeros

ROWS, COLS = 16, 64


@pl.jit.incore
def square_rows(x: pl.Tensor, out: pl.Out[pl.Tensor], row: pl.Scalar[pl.INDEX]) -> pl.Tensor:
    t = pl.load(x, [row, 0], [ROWS, COLS])
    out = pl.store(pl.mul(t, t), [row, 0], out)
    return out


@pl.jit.incore
def combine(scratch: pl.Tensor, y: pl.Out[pl.Tensor]) -> pl.Tensor:
    top = pl.load(scratch, [0, 0], [ROWS, COLS])
    bottom = pl.load(scratch, [ROWS, 0], [ROWS, COLS])
    y = pl.store(pl.add(top, bottom), [0, 0], y)
    return y


@pl.jit
def graph(x: pl.Tensor, scratch: pl.Out[pl.Tensor], y: pl.Out[pl.Tensor]) -> tuple[pl.Tensor, pl.Tensor]:
    scratch, first = pl.submit(square_rows, x, scratch, 0)
    scratch, second = pl.submit(square_rows, x, scratch, ROWS)
    y, combined = pl.submit(combine, scratch, y, deps=[first, second])
    with pl.at(level=pl.Level.CORE_GROUP, name_hint="finish", deps=[combined]):
        t = pl.load(y, [0, 0], [ROWS, COLS])
        y = pl.store(pl.sqrt(t), [0, 0], y)
    return scratch, y


def main() -> None:
    x = randn(2 * ROWS, COLS)
    scratch, y = zeros(2 * ROWS, COLS), zeros(ROWS, COLS)
    graph(x, scratch, y, config=RunConfig())
    squares = numpy_of(x) ** 2
    check("task_graph[scratch]", scratch, squares)
    check("task_graph[y]", y, np.sqrt(squares[:ROWS] + squares[ROWS:]))


if __name__ == "__main__":
    main()

"""Row softmax: max, subtract, exp, sum and divide along each row of a 16-row block.

    python examples/scripts/softmax.py [--numpy]
"""
# pl.Tensor[[64], pl.FP32] takes dims and a dtype, not types: docs/guide/typing.md
# pyright: reportInvalidTypeArguments=false

import numpy as np

import pypto.language as pl
from pypto.runtime import RunConfig

from _arrays import check, numpy_of, randn, zeros

ROWS, COLS, BLOCK = 64, 64, 16


@pl.jit.incore
def softmax_rows(x: pl.Tensor, y: pl.Out[pl.Tensor], row: pl.Scalar[pl.INDEX]) -> pl.Tensor:
    t = pl.load(x, [row, 0], [BLOCK, COLS])
    tmp = pl.create_tile([BLOCK, COLS], dtype=pl.FP32, target_memory=pl.MemorySpace.Vec)
    peak = pl.row_max(t, tmp)
    e = pl.exp(pl.row_expand_sub(t, peak))
    total = pl.row_sum(e, tmp)
    y = pl.store(pl.row_expand_div(e, total), [row, 0], y)
    return y


@pl.jit
def softmax(x: pl.Tensor, y: pl.Out[pl.Tensor]) -> pl.Tensor:
    for b in pl.range(ROWS // BLOCK):
        y = softmax_rows(x, y, b * BLOCK)
    return y


def main() -> None:
    x = randn(ROWS, COLS, scale=3.0)
    y = zeros(ROWS, COLS)
    softmax(x, y, config=RunConfig())
    ref = numpy_of(x)
    ref = np.exp(ref - ref.max(axis=1, keepdims=True))
    check("softmax", y, ref / ref.sum(axis=1, keepdims=True))


if __name__ == "__main__":
    main()

"""Elementwise: a fused chain (x * 2 + y, then exp) in an InCore kernel, dispatched
once per 16-row block by the orchestrator.

    python examples/scripts/elementwise.py [--numpy]
"""
# pl.Tensor[[64], pl.FP32] takes dims and a dtype, not types: docs/guide/typing.md
# pyright: reportInvalidTypeArguments=false

import numpy as np

import pypto.language as pl
from pypto.runtime import RunConfig

from _arrays import check, numpy_of, randn, zeros

ROWS, COLS, BLOCK = 64, 128, 16


@pl.jit.incore
def fused_kernel(x: pl.Tensor, y: pl.Tensor, out: pl.Out[pl.Tensor], row: pl.Scalar[pl.INDEX]) -> pl.Tensor:
    tx = pl.load(x, [row, 0], [BLOCK, COLS])
    ty = pl.load(y, [row, 0], [BLOCK, COLS])
    t = pl.add(pl.mul(tx, 2.0), ty)
    out = pl.store(pl.exp(t), [row, 0], out)
    return out


@pl.jit
def fused(x: pl.Tensor, y: pl.Tensor, out: pl.Out[pl.Tensor]) -> pl.Tensor:
    for b in pl.range(ROWS // BLOCK):
        out = fused_kernel(x, y, out, b * BLOCK)
    return out


def main() -> None:
    x, y = randn(ROWS, COLS, scale=0.5), randn(ROWS, COLS, scale=0.5)
    out = zeros(ROWS, COLS)
    fused(x, y, out, config=RunConfig(platform="a2a3sim"))
    check("elementwise", out, np.exp(numpy_of(x) * 2 + numpy_of(y)))

if __name__ == "__main__":
    main()

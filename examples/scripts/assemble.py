"""Assemble: a kernel builds a tile piece by piece with pl.tile.assemble (columns
interleaved from two sources), and the orchestrator gives each kernel call its own
half of the output, a pl.slice view of it.

    python examples/scripts/assemble.py [--numpy]
"""
# pl.Tensor[[64], pl.FP32] takes dims and a dtype, not types: docs/guide/typing.md
# pyright: reportInvalidTypeArguments=false

import numpy as np

import pypto.language as pl
from pypto.runtime import RunConfig

from _arrays import check, numpy_of, randn, zeros

ROWS, HALF, PIECE = 16, 32, 4


@pl.jit.incore
def interleave(left: pl.Tensor, right: pl.Tensor, out: pl.Out[pl.Tensor],
               row: pl.Scalar[pl.INDEX]) -> pl.Tensor:
    a = pl.load(left, [row, 0], [ROWS, HALF])
    b = pl.load(right, [row, 0], [ROWS, HALF])
    tile = pl.create_tile([ROWS, 2 * HALF], dtype=pl.FP32, target_memory=pl.MemorySpace.Vec)
    for r in pl.range(ROWS // PIECE):
        tile = pl.tile.assemble(tile, pl.slice(a, [PIECE, HALF], [r * PIECE, 0]),
                                [r * PIECE, 0])
        tile = pl.tile.assemble(tile, pl.neg(pl.slice(b, [PIECE, HALF], [r * PIECE, 0])),
                                [r * PIECE, HALF])
    out = pl.store(tile, [0, 0], out)
    return out


@pl.jit
def stitch(left: pl.Tensor, right: pl.Tensor, out: pl.Out[pl.Tensor]) -> pl.Tensor:
    for h in pl.range(2):
        half = pl.slice(out, [ROWS, 2 * HALF], [h * ROWS, 0])
        half = interleave(left, right, half, h * ROWS)
    return out


def main() -> None:
    left, right = randn(2 * ROWS, HALF), randn(2 * ROWS, HALF)
    out = zeros(2 * ROWS, 2 * HALF)
    stitch(left, right, out, config=RunConfig())
    check("assemble", out, np.concatenate([numpy_of(left), -numpy_of(right)], axis=1))


if __name__ == "__main__":
    main()

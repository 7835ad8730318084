"""RMS normalization with a learned scale: y = x / sqrt(mean(x^2) + eps) * gamma.

    python examples/scripts/normalization.py [--numpy]
"""
# pl.Tensor[[64], pl.FP32] takes dims and a dtype, not types: docs/guide/typing.md
# pyright: reportInvalidTypeArguments=false

import numpy as np

import pypto.language as pl
from pypto.runtime import RunConfig

from _arrays import check, numpy_of, randn, zeros

ROWS, HIDDEN, BLOCK, EPS = 32, 128, 16, 1e-6


@pl.jit.incore
def rms_norm_block(x: pl.Tensor, gamma: pl.Tensor, y: pl.Out[pl.Tensor],
                   row: pl.Scalar[pl.INDEX]) -> pl.Tensor:
    t = pl.load(x, [row, 0], [BLOCK, HIDDEN])
    g = pl.load(gamma, [0, 0], [BLOCK, HIDDEN])
    tmp = pl.create_tile([BLOCK, HIDDEN], dtype=pl.FP32, target_memory=pl.MemorySpace.Vec)
    square_sum = pl.row_sum(pl.mul(t, t), tmp)
    inv = pl.rsqrt(pl.add(pl.mul(square_sum, 1.0 / HIDDEN), EPS))
    y = pl.store(pl.mul(pl.row_expand_mul(t, inv), g), [row, 0], y)
    return y


@pl.jit
def rms_norm(x: pl.Tensor, gamma: pl.Tensor, y: pl.Out[pl.Tensor]) -> pl.Tensor:
    for b in pl.range(ROWS // BLOCK):
        y = rms_norm_block(x, gamma, y, b * BLOCK)
    return y


def main() -> None:
    x = randn(ROWS, HIDDEN)
    gamma_row = randn(1, HIDDEN)
    gamma = zeros(BLOCK, HIDDEN)
    gamma[:] = gamma_row  # the scale, broadcast over a block's rows
    y = zeros(ROWS, HIDDEN)
    rms_norm(x, gamma, y, config=RunConfig())
    ref = numpy_of(x)
    ref = ref / np.sqrt((ref * ref).mean(axis=1, keepdims=True) + EPS) * numpy_of(gamma_row)
    check("normalization", y, ref, rtol=1e-3, atol=1e-3)


if __name__ == "__main__":
    main()

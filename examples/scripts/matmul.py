"""Matmul with a K loop: the first K block with pl.matmul, the others accumulated with
pl.matmul_acc, one InCore kernel per 32x32 output tile.

    python examples/scripts/matmul.py [--numpy]
"""
# pl.Tensor[[64], pl.FP32] takes dims and a dtype, not types: docs/guide/typing.md
# pyright: reportInvalidTypeArguments=false


import pypto.language as pl
from pypto.runtime import RunConfig

from _arrays import check, numpy_of, randn, zeros

M, K, N, TILE, KB = 64, 128, 64, 32, 32


@pl.jit.incore
def matmul_tile(a: pl.Tensor, b: pl.Tensor, c: pl.Out[pl.Tensor],
                row: pl.Scalar[pl.INDEX], col: pl.Scalar[pl.INDEX]) -> pl.Tensor:
    a0 = pl.load(a, [row, 0], [TILE, KB], target_memory=pl.MemorySpace.Mat)
    b0 = pl.load(b, [0, col], [KB, TILE], target_memory=pl.MemorySpace.Mat)
    acc = pl.matmul(pl.move(a0, target_memory=pl.MemorySpace.Left),
                    pl.move(b0, target_memory=pl.MemorySpace.Right))
    for k in pl.range(1, K // KB):
        ak = pl.load(a, [row, k * KB], [TILE, KB], target_memory=pl.MemorySpace.Mat)
        bk = pl.load(b, [k * KB, col], [KB, TILE], target_memory=pl.MemorySpace.Mat)
        acc = pl.matmul_acc(acc, pl.move(ak, target_memory=pl.MemorySpace.Left),
                            pl.move(bk, target_memory=pl.MemorySpace.Right))
    c = pl.store(acc, [row, col], c)
    return c


@pl.jit
def matmul(a: pl.Tensor, b: pl.Tensor, c: pl.Out[pl.Tensor]) -> pl.Tensor:
    for i in pl.range(M // TILE):
        for j in pl.range(N // TILE):
            c = matmul_tile(a, b, c, i * TILE, j * TILE)
    return c


def main() -> None:
    a, b = randn(M, K), randn(K, N)
    c = zeros(M, N)
    matmul(a, b, c, config=RunConfig())
    check("matmul", c, numpy_of(a) @ numpy_of(b), rtol=1e-3, atol=1e-3)


if __name__ == "__main__":
    main()

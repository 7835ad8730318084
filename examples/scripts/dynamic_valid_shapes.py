"""Dynamic shapes and valid shapes: the row count is a dynamic dim (one program for
every size), and the last 16-row block of a ragged tensor loads and stores only its
valid rows.  The second call, at another row count, reuses the compiled program.

    python examples/scripts/dynamic_valid_shapes.py [--numpy]
"""
# pl.Tensor[[64], pl.FP32] takes dims and a dtype, not types: docs/guide/typing.md
# pyright: reportInvalidTypeArguments=false


import pypto.language as pl
from pypto.runtime import RunConfig

from _arrays import check, numpy_of, randn, zeros

COLS, BLOCK = 64, 16
M = pl.dynamic("M")


@pl.jit.incore
def scale_block(x: pl.Tensor[[M, COLS], pl.FP32], y: pl.Out[pl.Tensor[[M, COLS], pl.FP32]],
                row: pl.Scalar[pl.INDEX], valid: pl.Scalar[pl.INDEX]) -> pl.Tensor:
    t = pl.load(x, [row, 0], [BLOCK, COLS], valid_shape=[valid, COLS])
    y = pl.store(pl.add(pl.mul(t, 3.0), 1.0), [row, 0], y, [valid, COLS])
    return y


@pl.jit
def scale_rows(x: pl.Tensor, y: pl.Out[pl.Tensor]) -> pl.Tensor:
    x.bind_dynamic(0, M)
    y.bind_dynamic(0, M)
    rows = x.shape[0]
    for b in pl.range((rows + BLOCK - 1) // BLOCK):
        row = b * BLOCK
        y = scale_block(x, y, row, pl.min(rows - row, BLOCK))
    return y


def main() -> None:
    for rows in (40, 72):  # 2 full blocks + 8 rows, then 4 full blocks + 8 rows
        x = randn(rows, COLS)
        y = zeros(rows, COLS)
        scale_rows(x, y, config=RunConfig())
        check(f"dynamic_valid_shapes[{rows} rows]", y, numpy_of(x) * 3 + 1)
    info = scale_rows.cache_info()
    assert (info.misses, info.hits) == (1, 1), info  # one program for both sizes
    print(f"compiled once for both row counts: {info}")


if __name__ == "__main__":
    main()

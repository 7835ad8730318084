"""A standalone function (no program), with a tuple-typed value and a typed view."""

import pypto.language as pl

K = pl.dynamic("K")


@pl.function(type=pl.FunctionType.Orchestration, strict_ssa=True)
def standalone(
    x: pl.Tensor[[K, 16], pl.FP32, pl.TensorView(stride=[16, 1], layout=pl.TensorLayout.NZ)],
    t: pl.Tile[[16, 16], pl.FP32, pl.MemRef("mem_vec_0", pl.const(0, pl.INT64), 1024), pl.Mem.Vec, pl.TileView(valid_shape=[8, 16])],
) -> pl.Tuple[pl.Tensor[[K, 16], pl.FP32], pl.Scalar[pl.INDEX]]:
    n = pl.dim(x, 0)
    pair = (x, n)
    return pair

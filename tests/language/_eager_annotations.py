"""Programs whose annotations Python evaluates when it runs the ``def`` (no
``from __future__ import annotations`` here, as in most users' files): every IR
constructor inside an annotation must accept what the DSL allows there."""

import pypto.language as pl

N = pl.dynamic("N")


@pl.program
class DynamicView:
    @pl.function
    def main(self, x: pl.Tensor[[16, N], pl.FP32, pl.TensorView(valid_shape=[16, N])]
             ) -> pl.Tensor[[16, N], pl.FP32]:
        y = pl.add(x, x)
        return y


@pl.program
class DynamicTileView:
    @pl.function(type=pl.FunctionType.InCore)
    def main(self, x: pl.Tensor[[16, N], pl.FP32], out: pl.Out[pl.Tensor[[16, N], pl.FP32]]
             ) -> pl.Tensor[[16, N], pl.FP32]:
        t: pl.Tile[[16, 16], pl.FP32, pl.Mem.Vec, pl.TileView(valid_shape=[16, N])] = \
            pl.load(x, [0, 0], [16, 16], valid_shape=[16, N])
        out = pl.store(t, [0, 0], out)
        return out

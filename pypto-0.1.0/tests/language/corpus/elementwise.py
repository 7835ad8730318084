"""Tile kernels with every memory space, driven by an orchestration function."""

import pypto.language as pl

ROWS = 16
COLS = 32


@pl.program
class Elementwise:
    @pl.function(type=pl.FunctionType.InCore)
    def scale_add(
        x: pl.Tensor[[ROWS, COLS], pl.FP32],
        y: pl.Tensor[[ROWS, COLS], pl.FP32],
        out: pl.Out[pl.Tensor[[ROWS, COLS], pl.FP32]],
    ) -> pl.Tensor[[ROWS, COLS], pl.FP32]:
        """out = exp(x) * 0.5 + y"""
        # load both operands into vector memory
        tx = pl.load(x, [0, 0], [ROWS, COLS])
        ty = pl.load(y, [0, 0], [ROWS, COLS])
        e = pl.exp(tx)
        half = pl.mul(e, 0.5)
        total = pl.add(half, ty)
        clipped = pl.maximum(total, ty)
        shifted = pl.sub(clipped, 1.0)
        ratio = pl.div(shifted, ty)
        r = pl.relu(ratio)
        out = pl.store(r, [0, 0], out)
        return out

    @pl.function(type=pl.FunctionType.InCore)
    def cube(
        a: pl.Tensor[[16, 16], pl.FP32],
        b: pl.Tensor[[16, 16], pl.FP32],
        c: pl.InOut[pl.Tensor[[16, 16], pl.FP32]],
    ) -> pl.Tensor[[16, 16], pl.FP32]:
        ta = pl.load(a, [0, 0], [16, 16], target_memory=pl.Mem.Mat)
        tb = pl.load(b, [0, 0], [16, 16], target_memory=pl.Mem.Mat)
        left = pl.move(ta, pl.Mem.Left)
        right = pl.move(tb, target_memory=pl.Mem.Right)
        acc = pl.matmul(left, right)
        acc2 = pl.matmul_acc(acc, left, right)
        c = pl.store(acc2, [0, 0], c)
        return c

    @pl.function(type=pl.FunctionType.AIV)
    def vector_only(x: pl.Tile[[16, 16], pl.FP32, pl.Mem.Vec]) -> pl.Tile[[16, 16], pl.FP32, pl.Mem.Vec]:
        y = pl.sqrt(x)
        z = pl.rsqrt(y)
        w = pl.recip(z)
        v = pl.log(w)
        u = pl.neg(v)
        t = pl.abs(u)
        s = pl.minimum(t, x)
        return s

    @pl.function(type=pl.FunctionType.Orchestration)
    def main(
        self,
        x: pl.Tensor[[ROWS, COLS], pl.FP32],
        y: pl.Tensor[[ROWS, COLS], pl.FP32],
    ) -> tuple[pl.Tensor[[ROWS, COLS], pl.FP32], pl.Tensor[[16, 16], pl.FP32]]:
        out = pl.create_tensor([ROWS, COLS], pl.FP32)
        out = self.scale_add(x, y, out)
        a = pl.create_tensor([16, 16], pl.FP32)
        c = pl.full([16, 16], pl.FP32, 0.0)
        c = self.cube(a, a, c)
        # two results
        return out, c

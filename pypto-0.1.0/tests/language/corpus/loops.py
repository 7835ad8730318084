"""Every loop kind, both carry shapes, while loops, ifs with return vars."""

import pypto.language as pl

STEPS = 4


@pl.program
class Loops:
    @pl.function
    def sums(self, n: pl.Scalar[pl.INDEX], m: pl.Scalar[pl.INT64]) -> pl.Scalar[pl.INDEX]:
        acc = 0
        for i in pl.range(n):
            acc = acc + i
        for i in pl.range(2, n):
            if i > 5:
                break
            acc = acc + 1
        for i in pl.range(0, n, 2):
            if i == 3:
                continue
            acc = acc - i
        for k in pl.range(m):
            big = k * 2
        for p in pl.parallel(STEPS):
            q = p + acc
        for u in pl.unroll(STEPS):
            acc = acc + u
        for s in pl.pipeline(n, stage=2):
            acc = acc // 2
        for h in pl.range(n, attrs={"hint": "hot"}):
            acc = acc % 7
        return acc

    @pl.function
    def carried(self, n: pl.Scalar[pl.INDEX], x: pl.Tensor[[8], pl.FP32]) -> pl.Tensor[[8], pl.FP32]:
        for i, (t, c) in pl.range(n, init_values=(x, 0)):
            t2 = pl.add(t, t)
            c2 = c + 1
            t_out, c_out = pl.yield_(t2, c2)
        for j, (acc,) in pl.range(1, 10, 3, init_values=(c_out,)):
            nxt = acc * j
            acc_out: pl.Scalar[pl.INDEX] = pl.yield_(nxt)
        for (a, b) in pl.while_(init_values=(acc_out, pl.const(0, pl.INT32))):
            pl.cond(a > 0)
            a2, b2 = pl.yield_(a - 1, b + pl.const(1, pl.INT32))
        k = 0
        while k < a2:
            k = k + 1
        if k > 3:
            r, z = pl.yield_(t_out, k)
        else:
            r, z = pl.yield_(x, 0)
        if z == 0:
            w: pl.Tensor[[8], pl.FP32] = pl.yield_(r)
        else:
            w: pl.Tensor[[8], pl.FP32] = pl.yield_(pl.mul(r, 2.0))
        if n > 1:
            w = pl.add(w, w)
        return w

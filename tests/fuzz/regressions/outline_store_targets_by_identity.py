# expect: compiled
# The outliner's store-target lists were searched with `in`, which compares Vars with
# `==` and so builds IR: with a loop result (acc16) stored into by the kernel region
# and the region's own store target (acc) both exported, 'Operator ==: left operand
# must be a scalar' came out of OutlineIncoreScopes as the refusal of a valid program.
# Found by the salted semantic mutations (hunt7j), reduced.
import pypto.language as pl


@pl.program
class Random:
    @pl.function(auto_scope=False)
    def helper_1(self, x: pl.Tensor[[M, 16], pl.FP32], acc: pl.InOut[pl.Tensor[[16, 16], pl.FP32]], m: pl.Scalar[pl.INDEX]) -> tuple[pl.Tensor[[16, 16], pl.FP32], pl.Tensor[[M, 16], pl.FP32]]:
        k0 = 0
        for i13 in pl.parallel(3):
            for j14, (c15,) in pl.range(1, init_values=(acc,)):
                acc16 = pl.yield_(c15)
            with pl.at(level=pl.Level.CORE_GROUP):
                t21 = pl.load(x, [m, 0], [16, 16])
                a22 = pl.load(acc, [0, 0], [16, 16])
                r23 = pl.abs(pl.mul(pl.sub(t21, a22), 2.0))
                pl.store(r23, [0, 0], acc16)
                t24 = pl.load(x, [k0, 0], [16, 16])
                a25 = pl.load(acc, [0, 0], [16, 16])
                acc = pl.store(pl.add(t24, a25), [0, 0], acc)
        return acc, x

# expect: compiled
# A store target renamed by a region inside an if, then written in place by a kernel
# (in one branch, or in the other): the if-carry yielded the consumed name.
import pypto.language as pl


@pl.program
class P:
    @pl.function(type=pl.FunctionType.InCore)
    def kern(x: pl.Tensor[[64, 16], pl.FP32], acc: pl.InOut[pl.Tensor[[16, 16], pl.FP32]]) -> pl.Tensor[[16, 16], pl.FP32]:
        t = pl.load(x, [0, 0], [16, 16])
        a = pl.load(acc, [0, 0], [16, 16])
        acc = pl.store(pl.add(t, a), [0, 0], acc)
        return acc

    @pl.function
    def main(self, x: pl.Tensor[[64, 16], pl.FP32], acc: pl.InOut[pl.Tensor[[16, 16], pl.FP32]], n: pl.Scalar[pl.INDEX]) -> pl.Tensor[[16, 16], pl.FP32]:
        if n < 0:
            with pl.at(level=pl.Level.CORE_GROUP):
                t1 = pl.load(x, [0, 0], [16, 16])
                a2 = pl.load(acc, [0, 0], [16, 16])
                pl.store(pl.add(t1, a2), [0, 0], acc)
            acc = self.kern(x, acc)
        else:
            acc = self.kern(x, acc)
        for i in pl.range(n):
            acc = self.kern(x, acc)
            with pl.at(level=pl.Level.CORE_GROUP):
                t3 = pl.load(x, [0, 0], [16, 16])
                a3 = pl.load(acc, [0, 0], [16, 16])
                pl.store(pl.add(t3, a3), [0, 0], acc)
            acc = self.kern(x, acc)
        return acc

# expect: compiled
# One branch launches a kernel that writes acc in place inside pl.spmd, a nested
# branch stores into acc in a region: the carry yielded the consumed name.
import pypto.language as pl


@pl.program
class P:
    @pl.function(type=pl.FunctionType.InCore)
    def kern(x: pl.Tensor[[64, 16], pl.FP32], acc: pl.InOut[pl.Tensor[[16, 16], pl.FP32]]) -> pl.Tensor[[16, 16], pl.FP32]:
        t = pl.load(x, [0, 0], [16, 16])
        a = pl.load(acc, [0, 0], [16, 16])
        acc = pl.store(pl.add(t, a), [0, 0], acc)
        return acc

    @pl.function(type=pl.FunctionType.Orchestration)
    def main(self, x: pl.Tensor[[64, 16], pl.FP32], acc: pl.InOut[pl.Tensor[[16, 16], pl.FP32]], n: pl.Scalar[pl.INDEX]) -> pl.Tensor[[16, 16], pl.FP32]:
        k0 = 0
        if n <= 1:
            if n > 2:
                with pl.spmd(1):
                    acc = self.kern(x, acc)
                r1 = pl.yield_(acc)
            else:
                if k0 < 2:
                    r2 = pl.yield_(acc)
                else:
                    with pl.at(level=pl.Level.CORE_GROUP):
                        t = pl.load(x, [3, 0], [16, 16])
                        a = pl.load(acc, [0, 0], [16, 16])
                        acc = pl.store(pl.sub(t, a), [0, 0], acc)
                    r2 = pl.yield_(acc)
                r1 = pl.yield_(r2)
            acc = r1
        return acc

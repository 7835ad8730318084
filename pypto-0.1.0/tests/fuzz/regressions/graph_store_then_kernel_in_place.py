# expect: compiled
# A graph region stores into acc in a kernel region, then passes acc to a kernel that
# writes it in place.  OutlineIncoreScopes renamed the Graph function's returned param
# to the region's result, which the kernel had consumed (InOutUseValid).
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
        with pl.graph("g1"):
            with pl.at(level=pl.Level.CORE_GROUP):
                t1 = pl.load(x, [0, 0], [16, 16])
                a2 = pl.load(acc, [0, 0], [16, 16])
                pl.store(pl.add(t1, a2), [0, 0], acc)
            acc = self.kern(x, acc)
        return acc

# expect: compiled
# Two kernel regions in a pl.at(GLOBAL) region store into the same buffer, the second
# through the first one's post-store alias: the second call consumed the name the
# param-explicit return was renamed to.
import pypto.language as pl


@pl.program
class P:
    @pl.function
    def main(self, x: pl.Tensor[[64, 16], pl.FP32], acc: pl.InOut[pl.Tensor[[16, 16], pl.FP32]], n: pl.Scalar[pl.INDEX]) -> pl.Tensor[[16, 16], pl.FP32]:
        with pl.at(level=pl.Level.GLOBAL):
            with pl.at(level=pl.Level.CORE_GROUP):
                t1 = pl.load(x, [0, 0], [16, 16])
                a2 = pl.load(acc, [0, 0], [16, 16])
                acc = pl.store(pl.add(t1, a2), [0, 0], acc)
            with pl.at(level=pl.Level.CORE_GROUP):
                t3 = pl.load(x, [0, 0], [16, 16])
                a4 = pl.load(acc, [0, 0], [16, 16])
                pl.store(pl.add(t3, a4), [0, 0], acc)
        return acc

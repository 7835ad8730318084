# expect: compiled
# A loop whose whole body is a pl.scope() holding a kernel region: the store-target
# carry appended no yield after the runtime scope (MISSING_YIELD).
import pypto.language as pl


@pl.program
class P:
    @pl.function(auto_scope=False)
    def main(self, x: pl.Tensor[[64, 16], pl.FP32], acc: pl.InOut[pl.Tensor[[16, 16], pl.FP32]], n: pl.Scalar[pl.INDEX]) -> pl.Tensor[[16, 16], pl.FP32]:
        for i in pl.range(2):
            with pl.scope():
                with pl.at(level=pl.Level.CORE_GROUP):
                    t = pl.load(x, [0, 0], [16, 16])
                    a = pl.load(acc, [0, 0], [16, 16])
                    pl.store(pl.add(t, a), [0, 0], acc)
        return acc

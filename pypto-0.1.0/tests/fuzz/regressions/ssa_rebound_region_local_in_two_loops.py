# expect: compiled
# ConvertToSSA raised IndexError (ScopedBindings.bind on a stack emptied by a lookup)
# when a name defined inside a region in one loop was defined again in a later loop.
import pypto.language as pl


@pl.program
class P:
    @pl.function(type=pl.FunctionType.Orchestration)
    def main(self, x: pl.Tensor[[64, 16], pl.FP32], acc: pl.InOut[pl.Tensor[[16, 16], pl.FP32]], n: pl.Scalar[pl.INDEX]) -> pl.Tensor[[16, 16], pl.FP32]:
        for i in pl.range(4):
            with pl.at(level=pl.Level.CORE_GROUP):
                band = pl.load(x, [0, 0], [16, 16])
                acc = pl.store(band, [0, 0], acc)
        for i in pl.range(4):
            with pl.at(level=pl.Level.CORE_GROUP):
                band = pl.load(x, [0, 0], [16, 16])
                acc = pl.store(band, [0, 0], acc)
        return acc

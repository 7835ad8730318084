"""A kernel region whose scalar escapes: the pipeline refuses it."""
import pypto.language as pl

T = pl.Tensor[[64], pl.FP32]


@pl.program
class ScalarEscape:
    @pl.function
    def main(self, x: T, out: pl.Out[T]) -> T:
        with pl.at(level=pl.Level.CORE_GROUP):
            t = pl.load(x, [0], [64])
            first = pl.read(t, [0])
        y = pl.store(pl.expands(t, first), [0], out)
        return y

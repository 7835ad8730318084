"""A model with three independent mistakes, for the diagnostics guide."""
import pypto.language as pl

T = pl.Tensor[[64], pl.FP32]


@pl.program
class Model:
    @pl.function
    def helper(self, x: T) -> T:
        y = pl.add(x, bias)
        z = pl.mul(y, y)
        return z

    @pl.function
    def main(self, x: T) -> T:
        a = self.helper(x)
        for i in range(4):
            a = pl.add(a, a)
        return result

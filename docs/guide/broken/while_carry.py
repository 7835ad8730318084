"""A while condition that reads a loop-carried value through an op: the pipeline refuses it."""
import pypto.language as pl

T = pl.Tensor[[64], pl.FP32]


@pl.program
class CarriedCondition:
    @pl.function
    def main(self, x: T) -> T:
        k = 0
        while pl.tensor.read(x, [k]) > 0.0:
            k = k + 1
        y = pl.tensor.adds(x, k)
        return y

# expect: parse-error
# A return inside an if of an Inline function: InternalError in InlineFunctions.
import pypto.language as pl


@pl.program
class P:
    @pl.function(type=pl.FunctionType.Inline)
    def helper(self, x: pl.Tensor[[16], pl.FP32], n: pl.Scalar[pl.INDEX]) -> pl.Tensor[[16], pl.FP32]:
        if n > 1:
            return x
        return x

    @pl.function(type=pl.FunctionType.Orchestration)
    def main(self, x: pl.Tensor[[16], pl.FP32], n: pl.Scalar[pl.INDEX]) -> pl.Tensor[[16], pl.FP32]:
        y = self.helper(x, n)
        return y

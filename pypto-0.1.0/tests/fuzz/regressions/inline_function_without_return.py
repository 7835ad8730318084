# expect: parse-error
# An Inline function declaring a result but not returning one reached InlineFunctions,
# which raised InternalError ("uses the value of Inline function ..., which returns nothing").
import pypto.language as pl


@pl.program
class P:
    @pl.function(type=pl.FunctionType.Inline)
    def helper(self, x: pl.Tensor[[16], pl.FP32]) -> pl.Tensor[[16], pl.FP32]:
        y = pl.add(x, x)

    @pl.function(type=pl.FunctionType.Orchestration)
    def main(self, x: pl.Tensor[[16], pl.FP32]) -> pl.Tensor[[16], pl.FP32]:
        y = self.helper(x)
        return y

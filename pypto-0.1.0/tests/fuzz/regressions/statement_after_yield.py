# expect: parse-error
# Statements after pl.yield_ in a branch: ConvertToSSA raised InternalError
# ("a yield is not the last statement of its body").
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
        if n > 2:
            r = pl.yield_(acc)
        else:
            r = pl.yield_(acc)
            with pl.spmd(4):
                r = self.kern(x, r)
        return r

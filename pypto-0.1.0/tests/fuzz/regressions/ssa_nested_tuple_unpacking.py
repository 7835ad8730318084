# expect: compiled
# Every tuple unpacking has its own parser temporary named _tuple_tmp; ConvertToSSA
# numbered versions per Var, so a nested unpacking minted a second _tuple_tmp__ssa_v0
# and the SSA verifier reported NAME_SHADOWING.
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
    def pair(self, x: pl.Tensor[[64, 16], pl.FP32], acc: pl.InOut[pl.Tensor[[16, 16], pl.FP32]]) -> tuple[pl.Tensor[[16, 16], pl.FP32], pl.Tensor[[64, 16], pl.FP32]]:
        acc = self.kern(x, acc)
        return acc, x

    @pl.function(type=pl.FunctionType.Orchestration)
    def main(self, x: pl.Tensor[[64, 16], pl.FP32], acc: pl.InOut[pl.Tensor[[16, 16], pl.FP32]], n: pl.Scalar[pl.INDEX]) -> pl.Tensor[[16, 16], pl.FP32]:
        for j in pl.range(2):
            acc, o1 = self.pair(x, acc)
            for i in pl.range(n):
                acc, o2 = self.pair(x, acc)
        return acc

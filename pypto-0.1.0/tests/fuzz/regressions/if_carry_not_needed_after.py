# expect: compiled
# A region in an inner if renames the loop-carried buffer; only the sibling branch of
# an enclosing if reads the old name later.  The carry treated that read as "after"
# and yielded a name a nested region had consumed (InOutUseValid).
import pypto.language as pl


@pl.program
class P:
    @pl.function(type=pl.FunctionType.Orchestration)
    def main(self, x: pl.Tensor[[64, 16], pl.FP32], acc: pl.InOut[pl.Tensor[[16, 16], pl.FP32]], n: pl.Scalar[pl.INDEX]) -> pl.Tensor[[16, 16], pl.FP32]:
        for (w, c) in pl.while_(init_values=(0, acc)):
            pl.cond(w < 2)
            if n == 1:
                if n > 4:
                    r1 = pl.yield_(c)
                else:
                    with pl.at(level=pl.Level.CORE_GROUP):
                        t1 = pl.load(x, [0, 0], [16, 16])
                        a1 = pl.load(c, [0, 0], [16, 16])
                        c = pl.store(pl.exp(pl.sub(t1, a1)), [0, 0], c)
                    if n == 3:
                        with pl.at(level=pl.Level.CORE_GROUP):
                            t2 = pl.load(x, [w, 0], [16, 16])
                            a2 = pl.load(c, [0, 0], [16, 16])
                            c = pl.store(pl.maximum(t2, a2), [0, 0], c)
                    r1 = pl.yield_(c)
            w2, acc2 = pl.yield_(w + 1, c)
        return acc2

# expect: pass-error
# An Inline helper holding a pl.graph, called inside pl.at(level=GLOBAL): spliced
# there, the graph stood where the parser refuses one (graph x distributed), and the
# program compiled to text that did not read back (found by the random-program property
# run, PYPTO_PROPERTY_EXAMPLES=600).  InlineFunctions now refuses the call (P103).
import pypto.language as pl


@pl.program
class Random:
    @pl.function(type=pl.FunctionType.InCore)
    def kern_0(x: pl.Tensor[[64, 16], pl.FP32], acc: pl.InOut[pl.Tensor[[16, 16], pl.FP32]]) -> pl.Tensor[[16, 16], pl.FP32]:
        t = pl.load(x, [0, 0], [16, 16])
        a = pl.load(acc, [0, 0], [16, 16])
        acc = pl.store(pl.add(t, a), [0, 0], acc)
        return acc

    @pl.function(type=pl.FunctionType.Inline)
    def helper_1(self, x: pl.Tensor[[64, 16], pl.FP32], acc: pl.InOut[pl.Tensor[[16, 16], pl.FP32]], m: pl.Scalar[pl.INDEX]) -> tuple[pl.Tensor[[16, 16], pl.FP32], pl.Tensor[[64, 16], pl.FP32]]:
        k0 = 0
        if m < 0:
            with pl.graph("g1"):
                with pl.at(level=pl.Level.CORE_GROUP):
                    t2 = pl.load(x, [m, 0], [16, 16])
                    a3 = pl.load(acc, [0, 0], [16, 16])
                    pl.store(pl.exp(pl.mul(pl.add(t2, a3), 0.5)), [0, 0], acc)
            acc1 = pl.yield_(acc)
        else:
            acc1 = pl.yield_(acc)
        with pl.cluster():
            with pl.at(level=pl.Level.CORE_GROUP):
                t8 = pl.load(x, [0, 0], [16, 16])
                a9 = pl.load(acc1, [0, 0], [16, 16])
                pl.store(pl.add(t8, a9), [0, 0], acc1)
        return acc1, x

    @pl.function(auto_scope=False)
    def main(self, x: pl.Tensor[[64, 16], pl.FP32], acc: pl.InOut[pl.Tensor[[16, 16], pl.FP32]], n: pl.Scalar[pl.INDEX], m: pl.Scalar[pl.INDEX]) -> tuple[pl.Tensor[[16, 16], pl.FP32], pl.Scalar[pl.INDEX]]:
        k0 = 0
        with pl.at(level=pl.Level.GLOBAL):
            with pl.manual_scope():
                acc, o14 = self.helper_1(x, acc, n)
        return acc, k0

# expect: compiled
# OutlineIncoreScopes carried 'acc' (stored by the kernel region) through the j12 loop,
# renaming it inside; reading the loop's own iter_arg c13 (whose init is acc) later in
# the body, its renamer re-derived c13 from that init and made a fresh IterArg nothing
# defined: the output read a free variable (printed c13__iter_v0_1__FREE_VAR) and did
# not read back.  A read of an iter_arg is now only renamed, never re-derived from its
# init (only a loop header is).  Found by the semantic mutations with the extended
# generator (a swapped store target, reduced by hand).
import pypto.language as pl


@pl.program
class Random:
    @pl.function
    def main(self, x: pl.Tensor[[64, 16], pl.FP32], acc: pl.InOut[pl.Tensor[[16, 16], pl.FP32]], n: pl.Scalar[pl.INDEX], m: pl.Scalar[pl.INDEX]) -> tuple[pl.Tensor[[16, 16], pl.FP32], pl.Scalar[pl.INDEX]]:
        with pl.scope(mode=pl.ScopeMode.MANUAL):
            for j2, (c3,) in pl.range(m, init_values=(acc,)):
                acc4 = pl.yield_(c3)
        for j12, (c13, k15) in pl.range(2, init_values=(acc, 1)):
            if n > 3:
                for (w19, c20) in pl.while_(init_values=(0, c13)):
                    pl.cond(w19 < 2)
                    wr21, acc22 = pl.yield_(w19 + 1, c20)
                if wr21 == 1:
                    with pl.at(level=pl.Level.CORE_GROUP):
                        t25 = pl.load(x, [n, 0], [16, 16])
                        a26 = pl.load(acc22, [0, 0], [16, 16])
                        pl.store(pl.sub(t25, a26), [0, 0], acc)
                        a33 = pl.load(c13, [0, 0], [16, 16])
                        pl.store(pl.exp(a33), [0, 0], c13)
            acc14, kr16 = pl.yield_(c13, k15 + j12)
        return acc14, kr16

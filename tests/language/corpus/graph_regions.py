"""Graph regions, Graph/Inline functions and task submission."""

import pypto.language as pl

LAYERS = 3
ROWS = 8


@pl.program
class GraphRegions:
    @pl.function(type=pl.FunctionType.InCore)
    def band(w: pl.Tensor[[32, 16], pl.FP32], acc: pl.InOut[pl.Tensor[[8, 16], pl.FP32]]) -> pl.Tensor[[8, 16], pl.FP32]:
        t = pl.load(w, [0, 0], [ROWS, 16])
        a = pl.load(acc, [0, 0], [ROWS, 16])
        acc = pl.store(pl.add(a, t), [0, 0], acc)
        return acc

    @pl.function(type=pl.FunctionType.Graph)
    def layer(self, w: pl.Tensor[[32, 16], pl.FP32], acc: pl.Tensor[[8, 16], pl.FP32]) -> pl.Tensor[[8, 16], pl.FP32]:
        acc = self.band(w, acc)
        return acc

    @pl.function(type=pl.FunctionType.Inline)
    def helper(self, w: pl.Tensor[[32, 16], pl.FP32], acc: pl.Tensor[[8, 16], pl.FP32]) -> pl.Tensor[[8, 16], pl.FP32]:
        with pl.graph("inlined_region"):
            acc = self.band(w, acc)
        return acc

    @pl.function(type=pl.FunctionType.Orchestration)
    def entry(self, w: pl.Tensor[[32, 16], pl.FP32], acc: pl.InOut[pl.Tensor[[8, 16], pl.FP32]], go: pl.Scalar[pl.BOOL]) -> pl.Tensor[[8, 16], pl.FP32]:
        for i in pl.range(LAYERS):
            with pl.graph("accumulate_band"):
                base = i * ROWS
                with pl.at(level=pl.Level.CORE_GROUP):
                    band = pl.load(w, [base, 0], [ROWS, 16])
                    cur = pl.load(acc, [0, 0], [ROWS, 16])
                    acc = pl.store(pl.add(cur, band), [0, 0], acc)
        with pl.graph("accumulate_band", dumps=[acc]):
            with pl.manual_scope():
                out, tid = pl.submit(self.band, w, acc)
                out2, tid2 = pl.submit(self.band, w, out, deps=[tid, None], dumps=[out])
                out3, tid3 = pl.spmd_submit(self.band, w, out2, core_num=4, sync_start=True, deps=[tid2])
                flag = go and go
                out4, tid4 = pl.submit(self.band, w, out3, allow_early_resolve=True, predicate=flag)
        acc = self.layer(w, out4)
        acc = self.helper(w, acc)
        return acc

    @pl.function
    def walkthrough(self, x: pl.Tensor[[8, 16], pl.FP32]) -> pl.Tensor[[8, 16], pl.FP32]:
        # 03-passes.md section 16: a HOST region beside the graph (never around it).
        with pl.at(level=pl.Level.HOST):
            y = pl.add(x, x)
        with pl.graph("g"):
            scale = 2
            with pl.at(level=pl.Level.CORE_GROUP):
                t = pl.load(x, [0, 0], [8, 16])
                u = pl.mul(t, 2.0)
                x = pl.store(u, [0, 0], x)
        return x

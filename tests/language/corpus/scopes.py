"""Every scope kind with every option."""

import pypto.language as pl


@pl.program
class Scopes:
    @pl.function(type=pl.FunctionType.InCore)
    def kernel(x: pl.Tensor[[64], pl.FP32]) -> pl.Tensor[[64], pl.FP32]:
        return x

    @pl.function(type=pl.FunctionType.AIV)
    def vector_half(x: pl.Tensor[[64], pl.FP32], out: pl.Out[pl.Tensor[[64], pl.FP32]]
                    ) -> pl.Tensor[[64], pl.FP32]:
        for lane in pl.split_aiv(2, mode=pl.SplitMode.LEFT_RIGHT):
            t = pl.load(x, [lane * 32], [32])
            out = pl.store(t, [lane * 32], out)
        for _ in pl.split_aiv(4, mode=pl.SplitMode.UP_DOWN, name_hint="quarters"):
            out = pl.add(out, x)
        return out

    @pl.function(auto_scope=False)
    def main(self, x: pl.Tensor[[64], pl.FP32], n: pl.Scalar[pl.INDEX]) -> pl.Tensor[[64], pl.FP32]:
        t0 = pl.system.task_invalid()
        with pl.at(level=pl.Level.CORE_GROUP):
            a = pl.add(x, x)
        with pl.at(
            level=pl.Level.CORE_GROUP,
            optimizations=[pl.split(pl.SplitMode.UP_DOWN), pl.cross_core_slot(slot_num=2)],
            name_hint="fused",
            deps=[t0],
            no_dep_args=[x],
            dumps=[a],
            allow_early_resolve=True,
            predicate=n > 0,
        ) as tid:
            b = pl.mul(a, 2.0)
        with pl.at(level=pl.Level.CORE_GROUP, optimizations=[pl.split(pl.SplitMode.LEFT_RIGHT)]):
            b = pl.add(b, a)
        with pl.at(level=pl.Level.GLOBAL, role=pl.Role.Orchestrator, name_hint="world"):
            with pl.at(level=pl.Level.HOST, role=pl.Role.Orchestrator):
                c = pl.add(b, b)
        with pl.at(pl.Level.POD):
            d = pl.add(c, x)
        with pl.at(level=pl.Level.AIV, deps=[tid]):
            d = pl.sub(d, x)
        with pl.cluster(name_hint="pair"):
            with pl.spmd(2):
                e = self.kernel(d)
        with pl.cluster(dumps=[e]):
            e = pl.add(e, e)
        with pl.spmd(8, sync_start=True, name_hint="blocks"):
            i = pl.tile.get_block_idx()
            f = pl.add(e, e)
        for j in pl.spmd(n, name_hint="rows"):
            g = pl.add(f, f)
        for j2 in pl.spmd(4, optimizations=[pl.split(pl.SplitMode.UP_DOWN)]):
            g = pl.sub(g, f)
        with pl.spmd(4, deps=[tid], allow_early_resolve=True, predicate=n > 1) as tid2:
            with pl.at(level=pl.Level.CORE_GROUP, optimizations=[pl.split(pl.SplitMode.UP_DOWN)]):
                k = pl.tile.get_block_idx()
                h = pl.add(g, g)
        with pl.spmd(4) as tid3:
            h = self.kernel(h)
        with pl.scope():
            s = pl.add(h, h)
        with pl.scope(mode=pl.ScopeMode.MANUAL, name_hint="manual"):
            s = pl.add(s, s)
        with pl.manual_scope():
            s = pl.sub(s, h)
        return s

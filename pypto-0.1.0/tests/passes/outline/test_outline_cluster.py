"""OutlineClusterScopes, including standalone pl.spmd (03-passes.md §14)."""

from __future__ import annotations

import pytest

import pypto.language as pl
from pypto import ir, passes

T = pl.Tensor[[64], pl.FP32]


def outline(program: ir.Program) -> ir.Program:
    return passes.outline_cluster_scopes()(program)


@pl.program
class Kernels:
    @pl.function(type=pl.FunctionType.InCore)
    def k1(x: T, o: pl.Out[T]) -> T:
        t = pl.load(x, [0], [64])
        r = pl.store(t, [0], o)
        return r

    @pl.function(type=pl.FunctionType.InCore)
    def k2(x: T, o: pl.Out[T]) -> T:
        t = pl.load(x, [0], [64])
        r = pl.store(t, [0], o)
        return r


def test_spec_example_cluster_and_standalone_spmd():
    @pl.program
    class Before:
        @pl.function(type=pl.FunctionType.InCore)
        def k1(x: T, o: pl.Out[T]) -> T:
            t = pl.load(x, [0], [64])
            r = pl.store(t, [0], o)
            return r

        @pl.function(type=pl.FunctionType.InCore)
        def k2(x: T, o: pl.Out[T]) -> T:
            t = pl.load(x, [0], [64])
            r = pl.store(t, [0], o)
            return r

        @pl.function(type=pl.FunctionType.Orchestration)
        def run(self, x: T, o1: pl.Out[T], o2: pl.Out[T], n: pl.Scalar[pl.INDEX]) -> T:
            with pl.cluster():
                o1_1 = self.k1(x, o1)
                o2_1 = self.k2(o1_1, o2)
            with pl.spmd(n, sync_start=True):
                o2_2 = self.k1(o2_1, o1_1)
            return o2_2

    @pl.program
    class After:
        @pl.function(type=pl.FunctionType.InCore)
        def k1(x: T, o: pl.Out[T]) -> T:
            t = pl.load(x, [0], [64])
            r = pl.store(t, [0], o)
            return r

        @pl.function(type=pl.FunctionType.InCore)
        def k2(x: T, o: pl.Out[T]) -> T:
            t = pl.load(x, [0], [64])
            r = pl.store(t, [0], o)
            return r

        @pl.function(type=pl.FunctionType.Group)   # prints without self (SubWorker)
        def run_cluster_0(x: T, o1: pl.Out[T], o2: pl.Out[T]) -> tuple[T, T]:
            o1_1 = self.k1(x, o1)
            o2_1 = self.k2(o1_1, o2)
            return o1, o2                           # both trace to params through the callees

        @pl.function(type=pl.FunctionType.Spmd)
        def run_spmd_0(self, o2: T, o1: pl.Out[T]) -> T:
            o2_2 = self.k1(o2, o1)
            return o1

        @pl.function(type=pl.FunctionType.Orchestration)
        def run(self, x: T, o1: pl.Out[T], o2: pl.Out[T], n: pl.Scalar[pl.INDEX]) -> T:
            ret = self.run_cluster_0(x, o1, o2)
            o1_1 = ret[0]
            o2_1 = ret[1]
            o2_2 = self.run_spmd_0(o2_1, o1_1, attrs={"core_num": n, "sync_start": True})
            return o2_2

    ir.assert_structural_equal(outline(Before), After)


def test_spmd_inside_a_cluster_is_unwrapped_and_its_launch_spec_moves_to_the_call():
    @pl.program
    class Before:
        @pl.function(type=pl.FunctionType.InCore)
        def k1(x: T, o: pl.Out[T]) -> T:
            t = pl.load(x, [0], [64])
            r = pl.store(t, [0], o)
            return r

        @pl.function(type=pl.FunctionType.Orchestration)
        def run(self, x: T, o: pl.Out[T], n: pl.Scalar[pl.INDEX]) -> T:
            blocks = n * 2
            with pl.cluster():
                with pl.spmd(blocks, sync_start=True):
                    r = self.k1(x, o)
            return r

    result = outline(Before)
    group = result["run_cluster_0"]
    assert group.func_type is ir.FunctionType.Group
    assert group.attrs["spmd_unwrapped"] is True
    assert not any(isinstance(s, ir.SpmdScopeStmt) for s in [group.body])
    call = result["run"].body.stmts[1].value
    assert call.op.name == "run_cluster_0"
    assert call.attrs["core_num"] is result["run"].body.stmts[0].var  # `blocks` of the caller
    assert call.attrs["sync_start"] is True
    assert "run_spmd_0" not in result.functions


def test_block_count_computed_inside_the_cluster_is_rejected():
    @pl.program
    class Before:
        @pl.function(type=pl.FunctionType.InCore)
        def k1(x: T, o: pl.Out[T]) -> T:
            t = pl.load(x, [0], [64])
            r = pl.store(t, [0], o)
            return r

        @pl.function(type=pl.FunctionType.Orchestration)
        def run(self, x: T, o: pl.Out[T], n: pl.Scalar[pl.INDEX]) -> T:
            with pl.cluster():
                inner = n * 2
                with pl.spmd(inner):
                    r = self.k1(x, o)
            return r

    with passes.PassContext([]):
        with pytest.raises(ValueError, match=r"pl\.spmd\(\) block count references 'inner', "
                                             r"which is defined inside the enclosing "
                                             r"pl\.cluster\(\)"):
            outline(Before)


def test_for_spmd_after_incore_outlining_gives_a_spmd_function():
    @pl.program
    class Before:
        @pl.function
        def main(self, a: T, out: pl.Out[T]) -> T:
            for i in pl.spmd(4):
                t = pl.load(a, [i * 16], [16])
                pl.store(t, [i * 16], out)
            return out

    incore = passes.outline_incore_scopes()(Before)
    result = outline(incore)
    spmd = result["main_spmd_0"]
    assert spmd.func_type is ir.FunctionType.Spmd
    assert [p.name_hint for p in spmd.params] == ["a", "out"]
    call = result["main"].body.stmts[0].value
    assert call.op.name == "main_spmd_0"
    assert call.attrs["core_num"] == 4
    assert "sync_start" not in call.attrs  # only when true
    # the launch spec rides on the call, never on the callee
    assert "core_num" not in spmd.attrs


def test_parent_type_is_never_changed():
    @pl.program
    class Before:
        @pl.function(type=pl.FunctionType.InCore)
        def k1(x: T, o: pl.Out[T]) -> T:
            t = pl.load(x, [0], [64])
            r = pl.store(t, [0], o)
            return r

        @pl.function
        def run(self, x: T, o: pl.Out[T]) -> T:
            with pl.cluster():
                r = self.k1(x, o)
            return r

    assert outline(Before)["run"].func_type is ir.FunctionType.Opaque


def test_cluster_outlined_verifier():
    @pl.program
    class Before:
        @pl.function(type=pl.FunctionType.InCore)
        def k1(x: T, o: pl.Out[T]) -> T:
            t = pl.load(x, [0], [64])
            r = pl.store(t, [0], o)
            return r

        @pl.function(type=pl.FunctionType.Orchestration)
        def run(self, x: T, o: pl.Out[T]) -> T:
            with pl.cluster():
                r = self.k1(x, o)
            return r

    props = passes.IRPropertySet([passes.IRProperty.ClusterOutlined])
    assert [d.message for d in passes.PropertyVerifierRegistry.verify(props, Before)] == [
        "Cluster ScopeStmt found in non-Group function"]
    assert passes.PropertyVerifierRegistry.verify(props, outline(Before)) == []

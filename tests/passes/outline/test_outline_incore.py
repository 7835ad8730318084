"""OutlineIncoreScopes (03-passes.md §13)."""

from __future__ import annotations

import pytest

import pypto
import pypto.language as pl
from pypto import ir, passes

T = pl.Tensor[[128, 32], pl.FP32]
V = pl.Tensor[[64], pl.FP32]


def outline(program: ir.Program) -> ir.Program:
    return passes.outline_incore_scopes()(program)


def test_spec_example_store_target_carried_through_the_loop():
    @pl.program
    class Before:
        @pl.function
        def blend(self, a: T, out: pl.Out[T]) -> T:
            for r in pl.range(4):
                with pl.at(level=pl.Level.CORE_GROUP):
                    t = pl.load(a, [r * 32, 0], [32, 32])
                    e = pl.exp(t)
                    pl.store(e, [r * 32, 0], out)
            return out

    @pl.program
    class After:
        @pl.function(type=pl.FunctionType.InCore)
        def blend_incore_0(a: T, r: pl.Scalar[pl.INDEX], out: pl.Out[T]) -> T:
            t = pl.load(a, [r * 32, 0], [32, 32])
            e = pl.exp(t)
            out__store = pl.store(e, [r * 32, 0], out)
            return out

        @pl.function(type=pl.FunctionType.Orchestration)  # promoted from Opaque
        def blend(self, a: T, out: pl.Out[T]) -> T:
            for r, (out_it,) in pl.range(4, init_values=(out,)):
                out_1 = self.blend_incore_0(a, r, out_it)
                out_rv = pl.yield_(out_1)
            return out_rv

    result = outline(Before)
    ir.assert_structural_equal(result, After)
    loop = result["blend"].body.stmts[0]
    assert loop.iter_args[0].name_hint == "out__iter_v0"
    assert loop.return_vars[0].name_hint == "out__rv_v0"


def test_the_call_result_for_a_carried_target_is_named_as_an_ssa_value():
    # The caller's new Var for a store into an iter_arg is a plain SSA value; it used to
    # be minted from the iter_arg's name (``acc__iter_v0``), which reads as a carried value.
    @pl.program
    class Before:
        @pl.function(type=pl.FunctionType.Orchestration)
        def main(self, x: pl.Tensor[[16, 16], pl.FP32], acc: pl.InOut[pl.Tensor[[16, 16], pl.FP32]]
                 ) -> pl.Tensor[[16, 16], pl.FP32]:
            for i in pl.range(4):
                with pl.at(level=pl.Level.CORE_GROUP):
                    band = pl.load(x, [0, 0], [16, 16])
                    acc = pl.store(band, [0, 0], acc)
            return acc

    loop = outline(passes.convert_to_ssa()(Before))["main"].body.stmts[0]
    call, yield_ = loop.body.stmts
    assert loop.iter_args[0].name_hint == "acc__iter_v1"
    assert call.var.name_hint == "acc__ssa_v1"
    assert yield_.value[0] is call.var


def test_store_bindings_are_named_per_outlined_function():
    # Each kernel binds its own ``out__store``; a second store into the same target in
    # one kernel is ``out__store_v0`` (PyPTO's names, conformance 0561 and 0826).  Names
    # used to be unique across the whole parent, so the second kernel said
    # ``out__ssa_v1 = ...``.
    @pl.program
    class Before:
        @pl.function(type=pl.FunctionType.Orchestration)
        def main(self, a: V, out: pl.Out[V]) -> V:
            with pl.at(level=pl.Level.CORE_GROUP):
                t = pl.load(a, [0], [64])
                pl.store(t, [0], out)
                pl.store(pl.add(t, t), [0], out)
            with pl.at(level=pl.Level.CORE_GROUP):
                u = pl.load(out, [0], [64])
                pl.store(pl.exp(u), [0], out)
            return out

    result = outline(passes.convert_to_ssa()(Before))

    def bindings(name):
        return [s.var.name_hint for s in result[name].body.stmts
                if isinstance(s, ir.AssignStmt) and s.var.name_hint.startswith("out__store")]

    assert bindings("main_incore_0") == ["out__store", "out__store_v0"]
    assert bindings("main_incore_1") == ["out__store"]


def test_a_loop_result_computed_afresh_is_returned_not_the_buffer_it_started_from():
    # Found by the corpus check (a swap mutant of 0450): the loop's result was taken for
    # its initial value (the lineage followed result -> iter_arg -> init whatever the
    # body yielded), so the kernel returned its input and `main` returned x.
    @pl.program
    class Before:
        @pl.function
        def main(self, x: V) -> V:
            acc: V = x
            with pl.at(level=pl.Level.CORE_GROUP):
                for i, (acc_it,) in pl.range(4, init_values=(acc,)):
                    acc_next: V = pl.tensor.add(acc_it, x)
                    acc_rv: V = pl.yield_(acc_next)
            return acc_rv

    @pl.program
    class After:
        @pl.function(type=pl.FunctionType.InCore)
        def main_incore_0(acc: V, x: V) -> V:
            for i, (acc_it,) in pl.range(4, init_values=(acc,)):
                acc_next: V = pl.tensor.add(acc_it, x)
                acc_rv: V = pl.yield_(acc_next)
            return acc_rv

        @pl.function(type=pl.FunctionType.Orchestration)
        def main(self, x: V) -> V:
            acc: V = x
            acc_rv: V = self.main_incore_0(acc, x)
            return acc_rv

    result = outline(Before)
    ir.assert_structural_equal(result, After)
    np = pytest.importorskip("numpy")
    x = np.arange(64, dtype=np.float32)
    assert (pypto.run(result, x) == 5 * x).all()


def test_two_outputs_give_a_tuple_and_projections():
    @pl.program
    class Before:
        @pl.function
        def main(self, x: V) -> V:
            with pl.at(level=pl.Level.CORE_GROUP):
                y = pl.add(x, x)
                z = pl.mul(x, x)
            w = pl.sub(y, z)
            return w

    @pl.program
    class After:
        @pl.function(type=pl.FunctionType.InCore)
        def main_incore_0(x: V) -> tuple[V, V]:
            y = pl.add(x, x)
            z = pl.mul(x, x)
            return y, z

        @pl.function(type=pl.FunctionType.Orchestration)
        def main(self, x: V) -> V:
            ret = self.main_incore_0(x)
            y = ret[0]
            z = ret[1]
            w = pl.sub(y, z)
            return w

    result = outline(Before)
    ir.assert_structural_equal(result, After)
    assert result["main"].body.stmts[0].var.name_hint == "ret__tmp_v0"


@pytest.mark.parametrize("parent_type", [pl.FunctionType.Orchestration, pl.FunctionType.Graph])
def test_orchestration_like_parents_keep_their_type(parent_type):
    x = ir.Var("x", ir.TensorType([64], ir.DataType.FP32))
    y = ir.Var("y", x.type)
    scope = ir.InCoreScopeStmt(body=ir.AssignStmt(y, ir.create_op_call("tensor.add", [x, x])))
    func = ir.Function("main", [x], [x.type], [scope, ir.ReturnStmt([y])], type=parent_type)
    result = outline(ir.Program([func], "P"))
    assert result["main"].func_type is parent_type
    assert result["main_incore_0"].func_type is ir.FunctionType.InCore


def test_dims_of_dynamic_tensors_fold_in_opaque_parents():
    M = pl.dynamic("M")

    @pl.program
    class Before:
        @pl.function
        def main(self, x: pl.Tensor[[M, 32], pl.FP32], out: pl.Out[pl.Tensor[[M, 32], pl.FP32]]
                 ) -> pl.Tensor[[M, 32], pl.FP32]:
            m = pl.tensor.dim(x, 0)
            with pl.at(level=pl.Level.CORE_GROUP):
                t = pl.load(x, [0, 0], [8, 32])
                pl.store(t, [m - 8, 0], out)
            return out

    result = outline(Before)
    text = result.as_python()
    assert "tensor.dim" not in text
    callee = result["main_incore_0"]
    # M is a dynamic dim: it stays a free Var of the kernel instead of becoming a param
    # (PyPTO passes it as one: conformance 0439, docs/guide/differences.md)
    assert [p.name_hint for p in callee.params] == ["x", "out"]


def test_live_out_scalar_is_returned_by_the_kernel():
    """As PyPTO does (conformance 0515): the kernel computes the scalar and returns it,
    before the store-target output; nothing is recomputed by the caller."""
    @pl.program
    class Before:
        @pl.function
        def main(self, x: V, out: pl.Out[V], n: pl.Scalar[pl.INDEX]) -> V:
            with pl.at(level=pl.Level.CORE_GROUP):
                offset = n * 2
                t = pl.load(x, [offset], [8])
                pl.store(t, [0], out)
            y = pl.add(out, out)
            total = offset + 1
            return y

    @pl.program
    class After:
        @pl.function(type=pl.FunctionType.InCore)
        def main_incore_0(n: pl.Scalar[pl.INDEX], x: V, out: pl.Out[V]
                          ) -> tuple[pl.Scalar[pl.INDEX], V]:
            offset = n * 2
            t = pl.load(x, [offset], [8])
            out__store = pl.store(t, [0], out)
            return offset, out

        @pl.function(type=pl.FunctionType.Orchestration)
        def main(self, x: V, out: pl.Out[V], n: pl.Scalar[pl.INDEX]) -> V:
            ret = self.main_incore_0(n, x, out)
            offset = ret[0]
            out_1 = ret[1]
            y = pl.add(out_1, out_1)
            total = offset + 1
            return y

    ir.assert_structural_equal(outline(Before), After)


def test_scalar_from_device_data_is_returned_by_the_kernel():
    """A scalar read from a tile (conformance 0286): the kernel's return value."""
    @pl.program
    class Before:
        @pl.function
        def main(self, x: V) -> pl.Scalar[pl.FP32]:
            with pl.at(level=pl.Level.CORE_GROUP):
                t = pl.load(x, [0], [8])
                s = pl.tile.read(t, [0])
            return s

    @pl.program
    class After:
        @pl.function(type=pl.FunctionType.InCore)
        def main_incore_0(x: V) -> pl.Scalar[pl.FP32]:
            t = pl.load(x, [0], [8])
            s = pl.tile.read(t, [0])
            return s

        @pl.function(type=pl.FunctionType.Orchestration)
        def main(self, x: V) -> pl.Scalar[pl.FP32]:
            s = self.main_incore_0(x)
            return s

    ir.assert_structural_equal(outline(Before), After)


def test_store_targets_through_an_if_get_a_return_var():
    @pl.program
    class Before:
        @pl.function
        def main(self, x: V, out: pl.Out[V], flag: pl.Scalar[pl.BOOL]) -> V:
            if flag:
                with pl.at(level=pl.Level.CORE_GROUP):
                    t = pl.load(x, [0], [64])
                    pl.store(t, [0], out)
            return out

    @pl.program
    class After:
        @pl.function(type=pl.FunctionType.InCore)
        def main_incore_0(x: V, out: pl.Out[V]) -> V:
            t = pl.load(x, [0], [64])
            out__store = pl.store(t, [0], out)
            return out

        @pl.function(type=pl.FunctionType.Orchestration)
        def main(self, x: V, out: pl.Out[V], flag: pl.Scalar[pl.BOOL]) -> V:
            if flag:
                out_1 = self.main_incore_0(x, out)
                out_rv = pl.yield_(out_1)
            else:
                out_rv = pl.yield_(out)
            return out_rv

    ir.assert_structural_equal(outline(Before), After)


def test_returns_are_reordered_by_param_index():
    @pl.program
    class Before:
        @pl.function
        def main(self, x: V, a: pl.InOut[V], b: pl.Out[V]) -> tuple[V, V]:
            with pl.at(level=pl.Level.CORE_GROUP):
                u = pl.load(a, [0], [64])  # a is captured (read) before b
                t = pl.load(x, [0], [64])
                pl.store(t, [0], b)        # ... but stored after it
                pl.store(u, [0], a)
            return a, b

    result = outline(Before)
    callee = result["main_incore_0"]
    assert [p.name_hint for p in callee.params] == ["a", "x", "b"]
    returned = callee.body.stmts[-1].value
    assert [r.name_hint for r in returned] == ["a", "b"]  # param order, not store order
    projections = result["main"].body.stmts[1:3]
    assert [s.var.name_hint for s in projections] == ["a__ssa_v0", "b__ssa_v0"]


def test_split_and_slot_num_become_function_attrs_and_print():
    @pl.program
    class Before:
        @pl.function
        def main(self, x: V, out: pl.Out[V]) -> V:
            with pl.at(level=pl.Level.CORE_GROUP,
                       optimizations=[pl.split(pl.SplitMode.UP_DOWN),
                                      pl.cross_core_slot(slot_num=2)]):
                t = pl.load(x, [0], [64])
                pl.store(t, [0], out)
            return out

    callee = outline(Before)["main_incore_0"]
    assert callee.split is ir.SplitMode.UP_DOWN
    assert callee.attrs == {"split": ir.SplitMode.UP_DOWN, "slot_num": 2}


def test_dumps_and_no_dep_args_become_call_attrs():
    @pl.program
    class Before:
        @pl.function
        def main(self, x: V, y: V, out: pl.Out[V]) -> V:
            with pl.at(level=pl.Level.CORE_GROUP, no_dep_args=[y], dumps=[x]):
                t = pl.load(x, [0], [64])
                u = pl.load(y, [0], [64])
                pl.store(pl.add(t, u), [0], out)
            return out

    call = outline(Before)["main"].body.stmts[0].value
    assert list(call.attrs) == ["dump_vars", "arg_direction_overrides"]
    assert call.attrs["arg_direction_overrides"] == [1]


def test_task_id_scope_becomes_a_submit():
    @pl.program
    class Before:
        @pl.function
        def main(self, x: V, out: pl.Out[V]) -> V:
            with pl.at(level=pl.Level.CORE_GROUP) as tid:
                t = pl.load(x, [0], [64])
                pl.store(t, [0], out)
            with pl.at(level=pl.Level.CORE_GROUP, deps=[tid]):
                u = pl.load(out, [0], [64])
                pl.store(u, [0], out)
            return out

    result = outline(Before)
    stmts = result["main"].body.stmts
    submits = [s.value for s in stmts if isinstance(s, ir.AssignStmt)
               and isinstance(s.value, ir.Submit)]
    assert len(submits) == 2
    assert submits[1].deps[0].name_hint == "tid"
    # the parser's task-id placeholder is gone: tid is defined by the first submit
    assert not any(isinstance(s, ir.AssignStmt) and isinstance(s.value, ir.Call)
                   and s.value.op.name == "system.task_invalid" for s in stmts)


def test_incore_inside_spmd_is_outlined_in_place():
    @pl.program
    class Before:
        @pl.function
        def main(self, a: V, out: pl.Out[V]) -> V:
            for i in pl.spmd(4):
                t = pl.load(a, [i * 16], [16])
                pl.store(t, [i * 16], out)
            return out

    result = outline(Before)
    spmd = result["main"].body.stmts[0]
    assert isinstance(spmd, ir.SpmdScopeStmt)
    call = spmd.body
    assert isinstance(call, ir.AssignStmt) and call.value.op.name == "main_incore_0"


def test_produced_properties_and_the_split_verifier():
    p = passes.outline_incore_scopes()
    assert p.get_produced_properties().to_list() == [
        passes.IRProperty.SSAForm, passes.IRProperty.SplitIncoreOrch,
        passes.IRProperty.AivSplitValid]


def test_no_dep_args_naming_a_tensor_the_scope_does_not_use_is_an_error():
    @pl.program
    class Before:
        @pl.function
        def main(self, x: V, y: V, out: pl.Out[V]) -> V:
            with pl.at(level=pl.Level.CORE_GROUP, no_dep_args=[y]):
                t = pl.load(x, [0], [64])
                pl.store(t, [0], out)
            return out

    with passes.PassContext([]):
        with pytest.raises(ValueError, match="OutlineIncoreScopes: no_dep_args names 'y', which "
                                             "the scope outlined as 'main_incore_0' does not use"):
            outline(Before)


M = pl.Tensor[[4, 8], pl.FP32]


@pl.program
class _CallsWritingKernels:
    """A kernel region passing ``out`` to an ``Out`` slot and ``acc`` to an ``InOut`` one."""

    @pl.function(type=pl.FunctionType.InCore)
    def fill(self, x: M, out: pl.Out[M]) -> M:
        t = pl.load(x, [0, 0], [4, 8])
        out = pl.store(pl.add(t, t), [0, 0], out)
        return out

    @pl.function(type=pl.FunctionType.InCore)
    def bump(self, x: M, acc: pl.InOut[M]) -> M:
        t = pl.load(x, [0, 0], [4, 8])
        a = pl.load(acc, [0, 0], [4, 8])
        acc = pl.store(pl.add(t, a), [0, 0], acc)
        return acc

    @pl.function
    def main(self, x: M, out: pl.Out[M], acc: pl.InOut[M]) -> M:
        with pl.at(level=pl.Level.CORE_GROUP):
            o = self.fill(x, out)
            r = self.bump(x, acc)
        return r


def test_a_capture_a_called_kernel_writes_takes_the_callee_slot_direction():
    # The outlined kernel writes ``out`` and ``acc`` through its callees, so its params
    # are Out and InOut (03-passes.md §10.5 rule 4).  It used to read no callee
    # directions and gave both as In: a launch that writes a tensor it declares
    # read-only (a missing dependency for whatever schedules by directions).  With the
    # callees known, a result that is a callee's written param is returned as that
    # param (§10.3 step 9), like OutlineGraphScopes and OutlineClusterScopes do.
    @pl.program
    class After:
        @pl.function(type=pl.FunctionType.InCore)
        def fill(self, x: M, out: pl.Out[M]) -> M:
            t = pl.load(x, [0, 0], [4, 8])
            out = pl.store(pl.add(t, t), [0, 0], out)
            return out

        @pl.function(type=pl.FunctionType.InCore)
        def bump(self, x: M, acc: pl.InOut[M]) -> M:
            t = pl.load(x, [0, 0], [4, 8])
            a = pl.load(acc, [0, 0], [4, 8])
            acc = pl.store(pl.add(t, a), [0, 0], acc)
            return acc

        @pl.function(type=pl.FunctionType.InCore)
        def main_incore_0(self, x: M, out: pl.Out[M], acc: pl.InOut[M]) -> M:
            o = self.fill(x, out)
            r = self.bump(x, acc)
            return acc

        @pl.function(type=pl.FunctionType.Orchestration)
        def main(self, x: M, out: pl.Out[M], acc: pl.InOut[M]) -> M:
            r = self.main_incore_0(x, out, acc)
            return r

    before = passes.convert_to_ssa()(_CallsWritingKernels)
    result = outline(before)
    ir.assert_structural_equal(result, passes.convert_to_ssa()(After))
    kernel = result["main_incore_0"]
    assert list(kernel.param_directions) == [ir.ParamDirection.In, ir.ParamDirection.Out,
                                             ir.ParamDirection.InOut]


def test_outlining_a_region_that_calls_writing_kernels_computes_the_same():
    np = pytest.importorskip("numpy")
    rng = np.random.default_rng(7)
    x = rng.standard_normal((4, 8)).astype(np.float32)
    acc0 = rng.standard_normal((4, 8)).astype(np.float32)
    results = []
    for program in (_CallsWritingKernels, ir.PassManager().run_passes(_CallsWritingKernels)):
        out, acc = np.zeros((4, 8), np.float32), acc0.copy()
        returned = pypto.run(program, x, out, acc)
        results.append((np.asarray(returned), out, acc))
    (r0, out0, a0), (r1, out1, a1) = results
    np.testing.assert_array_equal(out0, 2 * x)
    np.testing.assert_array_equal(a0, acc0 + x)
    for before, after in ((r0, r1), (out0, out1), (a0, a1)):
        np.testing.assert_array_equal(before, after)

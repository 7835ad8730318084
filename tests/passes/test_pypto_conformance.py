"""One minimal program per divergence kind of the PyPTO conformance corpus.

``../shared/reference/conformance/run.py`` diffs pypto's pass outputs against
PyPTO's recorded ones.  Each test here pins pypto's answer for one kind of
divergence (the example id is the corpus program it came from): where PyPTO is
right pypto matches it; where PyPTO is wrong pypto keeps its answer and
``docs/guide/differences.md`` ("Pass outputs") says why.
"""

from __future__ import annotations

import numpy as np

import pypto
import pypto.language as pl
from pypto import ir, passes

V = pl.Tensor[[64], pl.FP32]
C = pl.Tensor[[1], pl.INT64]


def front(program: ir.Program) -> ir.Program:
    for make in (passes.convert_to_ssa, passes.flatten_call_expr):
        program = make()(program)
    return program


# -- kept: a parent at another level is not promoted (0381, 0489, 0606) -----------------------

def test_host_level_parent_of_a_kernel_stays_opaque_at_its_level():
    """PyPTO makes it the (CHIP) Orchestration function: its level changes, and as the
    sole Orchestration function it becomes the program's entry instead of ``main``."""

    @pl.program
    class Before:
        @pl.function(level=pl.Level.HOST)
        def main_host_0(self, x: V, out: pl.Out[V]) -> V:
            with pl.at(level=pl.Level.CORE_GROUP):
                t = pl.load(x, [0], [64])
                pl.store(t, [0], out)
            return out

    @pl.program
    class After:
        @pl.function(type=pl.FunctionType.InCore)
        def main_host_0_incore_0(x: V, out: pl.Out[V]) -> V:
            t = pl.load(x, [0], [64])
            out__store = pl.store(t, [0], out)
            return out

        @pl.function(level=pl.Level.HOST)
        def main_host_0(self, x: V, out: pl.Out[V]) -> V:
            out_1 = self.main_host_0_incore_0(x, out)
            return out_1

    result = passes.outline_incore_scopes()(Before)
    ir.assert_structural_equal(result, After)
    assert result["main_host_0"].func_type is ir.FunctionType.Opaque


def test_a_host_parent_stays_opaque_so_the_entry_and_its_result_stay_main_0489():
    """Promoted as PyPTO promotes it, ``main_host_0`` would be the sole Orchestration
    function and so the entry a runner picks (PyPTO's backend takes the first one; so
    does ``pypto.run``): 0489's would return nothing where ``main`` returns ``out``, and
    0826's would take two arguments where ``main`` takes three."""
    @pl.program
    class Before:
        @pl.function(level=pl.Level.HOST)
        def main_host_0(self, x: V, out: pl.Out[V]):
            with pl.at(level=pl.Level.CORE_GROUP):
                t = pl.load(x, [0], [64])
                pl.store(t, [0], out)

        @pl.function
        def main(self, x: V, out: pl.Out[V], n: pl.Scalar[pl.INDEX]) -> V:
            self.main_host_0(x, out)
            y = pl.tensor.adds(out, n)
            return y

    compiled = ir.PassManager.get_strategy().run_passes(Before)
    assert compiled["main_host_0"].func_type is ir.FunctionType.Opaque
    assert compiled["main_host_0"].level is ir.Level.HOST
    x = np.arange(64, dtype=np.float32)
    before, after = _run_before_and_after(Before, x, np.zeros(64, np.float32), 2)
    assert np.array_equal(before[0], after[0]) and np.array_equal(after[0], x + 2)


# -- kept: a written capture is never In --------------------------------------------------------

def test_store_into_a_loop_carried_tensor_makes_it_out_0751():
    """PyPTO declares a captured IterArg ``In`` even when the kernel stores into it
    (and binds no ``__store``): its callers would miss the write."""

    @pl.program
    class Before:
        @pl.function
        def main(self, x: V, acc: pl.InOut[V]) -> V:
            for i in pl.range(4):
                with pl.at(level=pl.Level.CORE_GROUP):
                    t = pl.load(x, [0], [64])
                    acc = pl.store(t, [0], acc)
            return acc

    @pl.program
    class After:
        @pl.function(type=pl.FunctionType.InCore)
        def main_incore_0(x: V, acc: pl.Out[V]) -> V:
            t = pl.load(x, [0], [64])
            acc_1 = pl.store(t, [0], acc)
            acc__store = acc_1
            return acc

        @pl.function(type=pl.FunctionType.Orchestration)
        def main(self, x: V, acc: pl.InOut[V]) -> V:
            for i, (acc_it,) in pl.range(4, init_values=(acc,)):
                acc_1 = self.main_incore_0(x, acc_it)
                acc_rv = pl.yield_(acc_1)
            return acc_rv

    result = passes.outline_incore_scopes()(front(Before))
    ir.assert_structural_equal(result, After)


def test_tensor_write_makes_the_tensor_inout_0560():
    """PyPTO does not count ``tensor.write`` as a write: ``counts`` stays ``In``."""

    @pl.program
    class Before:
        @pl.function(type=pl.FunctionType.Orchestration)
        def main(self, counts: pl.InOut[C]) -> C:
            with pl.cluster():
                seen = pl.tensor.read(counts, [0])
                pl.tensor.write(counts, [0], seen + 1)
            return counts

    @pl.program
    class After:
        @pl.function(type=pl.FunctionType.Group)
        def main_cluster_0(counts: pl.InOut[C]):
            seen = pl.tensor.read(counts, [0])
            pl.tensor.write(counts, [0], seen + 1)

        @pl.function(type=pl.FunctionType.Orchestration)
        def main(self, counts: pl.InOut[C]) -> C:
            self.main_cluster_0(counts)
            return counts

    result = passes.outline_cluster_scopes()(front(Before))
    ir.assert_structural_equal(result, After)


def test_callee_write_through_a_loop_carried_tensor_makes_it_inout_0948():
    """PyPTO drops the callee's ``InOut`` when the captured value is an IterArg."""

    @pl.program
    class Before:
        @pl.function(type=pl.FunctionType.InCore)
        def kern(x: V, acc: pl.InOut[V]) -> V:
            t = pl.load(acc, [0], [64])
            acc_1 = pl.store(t, [0], acc)
            return acc_1

        @pl.function(type=pl.FunctionType.Orchestration)
        def main(self, x: V, acc: pl.InOut[V]) -> V:
            for i in pl.range(2):
                with pl.spmd(2):
                    acc = self.kern(x, acc)
            return acc

    @pl.program
    class After:
        @pl.function(type=pl.FunctionType.InCore)
        def kern(x: V, acc: pl.InOut[V]) -> V:
            t = pl.load(acc, [0], [64])
            acc_1 = pl.store(t, [0], acc)
            return acc_1

        @pl.function(type=pl.FunctionType.Spmd)
        def main_spmd_0(self, x: V, acc_it: pl.InOut[V]) -> V:
            acc_1 = self.kern(x, acc_it)
            return acc_it

        @pl.function(type=pl.FunctionType.Orchestration)
        def main(self, x: V, acc: pl.InOut[V]) -> V:
            for i, (acc_it,) in pl.range(2, init_values=(acc,)):
                acc_1 = self.main_spmd_0(x, acc_it, attrs={"core_num": 2})
                acc_rv = pl.yield_(acc_1)
            return acc_rv

    result = passes.outline_cluster_scopes()(front(Before))
    ir.assert_structural_equal(result, After)


def test_hierarchy_function_storing_into_a_capture_declares_it_out_0314():
    """PyPTO declares every param of a Hierarchy function ``In``, also one it stores
    into; pypto's directions say what the body does (03-passes.md §10.5.3)."""

    @pl.program
    class Before:
        @pl.function
        def main(self, x: V, out: pl.Out[V]) -> V:
            with pl.at(level=pl.Level.HOST):
                t = pl.load(x, [0], [64])
                pl.store(t, [0], out)
            return out

    @pl.program
    class After:
        @pl.function(level=pl.Level.HOST)
        def main_host_0(self, x: V, out: pl.Out[V]):
            t = pl.load(x, [0], [64])
            pl.store(t, [0], out)

        @pl.function
        def main(self, x: V, out: pl.Out[V]) -> V:
            self.main_host_0(x, out)
            return out

    result = passes.outline_hierarchy_scopes()(front(Before))
    ir.assert_structural_equal(result, After)


# -- matched: a store already bound to a ``__store`` name gets the binding too (0786) ----------

def test_store_bound_to_a_store_name_is_bound_again_0786():
    """``v = store(.., t)`` keeps ``v`` and adds ``t__store = v`` (§10.3 step 7),
    whatever ``v`` is called -- also ``t__store`` itself, which an earlier outliner
    (OutlineGraphScopes) may have made."""

    @pl.program
    class Before:
        @pl.function(type=pl.FunctionType.Orchestration)
        def main(self, x: V, acc: pl.Out[V]) -> V:
            with pl.at(level=pl.Level.CORE_GROUP):
                t = pl.load(x, [0], [64])
                acc__store = pl.store(t, [0], acc)
            return acc

    @pl.program
    class After:
        @pl.function(type=pl.FunctionType.InCore)
        def main_incore_0(x: V, acc: pl.Out[V]) -> V:
            t = pl.load(x, [0], [64])
            stored = pl.store(t, [0], acc)
            acc__store = stored
            return acc

        @pl.function(type=pl.FunctionType.Orchestration)
        def main(self, x: V, acc: pl.Out[V]) -> V:
            acc_1 = self.main_incore_0(x, acc)
            return acc_1

    ir.assert_structural_equal(passes.outline_incore_scopes()(Before), After)


# -- matched at parse: rebinding a carried name in its loop body makes a new Var (0783) -------

def _loop_body_assigns(program: ir.Program) -> list[ir.AssignStmt]:
    loop = program["main"].body.stmts[0]
    return [s for s in loop.body.stmts if isinstance(s, ir.AssignStmt)], loop


def test_rebinding_an_iter_arg_at_the_body_level_makes_a_new_var_0783():
    @pl.program
    class P:
        @pl.function
        def main(self, x: V) -> V:
            for i, (c,) in pl.range(4, init_values=(x,)):
                c = pl.add(c, x)
                r = pl.yield_(c)
            return r

    assigns, loop = _loop_body_assigns(P)
    assert type(assigns[0].var) is ir.Var and assigns[0].var is not loop.iter_args[0]
    assert assigns[0].value.args[0] is loop.iter_args[0]
    assert loop.body.stmts[-1].value[0] is assigns[0].var  # the yield hands on the new Var
    ir.assert_structural_equal(pl.parse(ir.python_print(P)), P)


def test_rebinding_an_iter_arg_inside_a_branch_keeps_the_iter_arg_0828():
    """PyPTO makes a new Var in the branch too, and its trailing yield then hands on the
    value the iteration started with: the update is lost.  pypto keeps one variable,
    and ConvertToSSA merges the branch's version into the carry."""

    @pl.program
    class P:
        @pl.function
        def main(self, x: V, n: pl.Scalar[pl.INDEX]) -> V:
            for i, (c,) in pl.range(4, init_values=(x,)):
                if n > 0:
                    c = pl.add(c, x)
                r = pl.yield_(c)
            return r

    loop = P["main"].body.stmts[0]
    branch = loop.body.stmts[0]
    assert branch.then_body.var is loop.iter_args[0]
    ssa = passes.convert_to_ssa()(P)
    ssa_loop = ssa["main"].body.stmts[0]
    phi = ssa_loop.body.stmts[0].return_vars[0]
    assert ssa_loop.body.stmts[-1].value[0] is phi  # the merged value is carried


# -- matched at the parse stage -----------------------------------------------------------------

def test_default_layout_annotation_is_a_plain_tensor_0007():
    """``pl.ND`` is the default layout: PyPTO reads the annotation as no view at all."""
    with_layout = pl.parse("""
import pypto.language as pl
@pl.program
class f:
    @pl.function
    def f(self, x: pl.Tensor[[4, 4], pl.FP32, pl.ND]):
        return
""")
    plain = pl.parse("""
import pypto.language as pl
@pl.program
class f:
    @pl.function
    def f(self, x: pl.Tensor[[4, 4], pl.FP32]):
        return
""")
    ir.assert_structural_equal(with_layout, plain)


_LOOP_RESULT_REBINDS = """
import pypto.language as pl
@pl.program
class Before:
    @pl.function
    def main(self, x: pl.Tensor[[64], pl.FP32]) -> pl.Tensor[[64], pl.FP32]:
        acc: pl.Tensor[[64], pl.FP32] = x
        for i, (a,) in pl.range(4, init_values=(acc,)):
            b: pl.Tensor[[64], pl.FP32] = pl.tensor.add(a, a)
            %s: pl.Tensor[[64], pl.FP32] = pl.yield_(b)
        return %s
"""


def test_a_loop_result_bound_to_an_existing_name_is_a_new_var_0306():
    """At the function body's level a loop result that rebinds a name is a new Var, as in
    PyPTO (printed ``acc_1``); nothing there could tell it from the old one."""
    rebound = pl.parse(_LOOP_RESULT_REBINDS % ("acc", "acc"))
    ir.assert_structural_equal(rebound, pl.parse(_LOOP_RESULT_REBINDS % ("acc_1", "acc_1")))
    first, loop = rebound["main"].body.stmts[:2]
    assert loop.return_vars[0] is not first.var
    assert loop.return_vars[0].name_hint == "acc"
    assert "acc_1: pl.Tensor[[64], pl.FP32] = pl.yield_(b)" in rebound.as_python()
    ir.assert_structural_equal(pl.parse(rebound.as_python()), rebound)


def test_a_loop_result_rebinding_a_name_inside_a_loop_stays_that_variable():
    """Inside another loop the result is the same Var: the outer loop carries it.  A new
    Var there would leave the outer loop handing on the value it started with."""
    text = """
import pypto.language as pl
@pl.program
class P:
    @pl.function
    def main(self, x: pl.Tensor[[64], pl.FP32]) -> pl.Tensor[[64], pl.FP32]:
        acc: pl.Tensor[[64], pl.FP32] = x
        for j in pl.range(2):
            for i, (a,) in pl.range(2, init_values=(acc,)):
                b: pl.Tensor[[64], pl.FP32] = pl.tensor.add(a, a)
                acc: pl.Tensor[[64], pl.FP32] = pl.yield_(b)
        return acc
"""
    program = pl.parse(text)
    first, outer = program["main"].body.stmts[:2]
    assert outer.body.return_vars[0] is first.var  # the sole statement of its body
    x = np.ones(64, np.float32)
    before, after = _run_before_and_after(program, x)
    assert np.array_equal(before[0], after[0]) and np.array_equal(after[0], x * 16)


def test_mutually_recursive_methods_parse_in_class_order_0246():
    """The later method's call of the earlier one is typed, and a ``pl.UnknownType``
    annotation takes the call's type, as PyPTO reads it."""
    text = """
import pypto.language as pl
@pl.program
class P:
    @pl.function
    def a(self, x: pl.Tensor[[4], pl.FP32]) -> pl.Tensor[[4], pl.FP32]:
        y: pl.Tensor[[4], pl.FP32] = self.b(x)
        return y
    @pl.function
    def b(self, x: pl.Tensor[[4], pl.FP32]) -> pl.Tensor[[4], pl.FP32]:
        z: %s = self.a(x)
        return z
"""
    ir.assert_structural_equal(pl.parse(text % "pl.UnknownType"),
                               pl.parse(text % "pl.Tensor[[4], pl.FP32]"))


def test_name_bound_to_a_dynamic_dim_in_an_orchestration_body_is_the_dim_0277():
    """PyPTO's parser binds no statement for ``a = M`` at the top of an Orchestration
    body: ``a`` is the dim itself (OutlineIncoreScopes folds ``pl.dim`` alike)."""
    text = """
import pypto.language as pl
M = pl.dynamic("M")
@pl.program
class orch:
    @pl.function(type=pl.FunctionType.Orchestration)
    def orch(self, x: pl.Tensor[[M, 8], pl.FP32]) -> pl.Scalar[pl.INDEX]:
        %s
        c: pl.Scalar[pl.INDEX] = pl.tensor.dim(x, 1)
        return %s + c
"""
    ir.assert_structural_equal(pl.parse(text % ("a: pl.Scalar[pl.INDEX] = M", "a")),
                               pl.parse(text % ("", "M")))


# -- matched: a kernel returns its live-out scalars (0515, 0286, 0456) ---------------------------

def _run_before_and_after(program: ir.Program, *args: object) -> list[object]:
    """The executor's results (returned value, then the arrays) before and after the
    default pipeline; the passes must not change them."""
    results = []
    for version in (program, ir.PassManager.get_strategy().run_passes(program)):
        arrays = [np.array(a, copy=True) if isinstance(a, np.ndarray) else a for a in args]
        returned = pypto.run(version, *arrays)
        results.append([returned, *[a for a in arrays if isinstance(a, np.ndarray)]])
    return results


def test_a_scalar_read_from_device_data_is_returned_by_the_kernel_0456():
    """PyPTO returns it from the kernel; pypto refused the program (a kernel returning
    a scalar).  Nothing about that output is wrong, so pypto matches it."""
    @pl.program
    class Before:
        @pl.function
        def main(self, x: V, out: pl.Out[V]) -> V:
            with pl.at(level=pl.Level.CORE_GROUP):
                t = pl.load(x, [0], [64])
                first = pl.read(t, [0])
            y = pl.store(pl.expands(t, first), [0], out)
            return y

    @pl.program
    class After:
        @pl.function(type=pl.FunctionType.InCore)
        def main_incore_0(x: V) -> tuple[pl.Tile[[64], pl.FP32, pl.Mem.Vec], pl.Scalar[pl.FP32]]:
            t = pl.load(x, [0], [64])
            first = pl.read(t, [0])
            return t, first

        @pl.function(type=pl.FunctionType.Orchestration)
        def main(self, x: V, out: pl.Out[V]) -> V:
            ret = self.main_incore_0(x)
            t = ret[0]
            first = ret[1]
            y = pl.store(pl.expands(t, first), [0], out)
            return y

    ir.assert_structural_equal(passes.outline_incore_scopes()(front(Before)), front(After))
    x = np.arange(64, dtype=np.float32) + 3
    before, after = _run_before_and_after(Before, x, np.zeros(64, np.float32))
    assert all(np.array_equal(b, a) for b, a in zip(before, after))
    assert np.array_equal(after[0], np.full(64, 3.0, np.float32))


def test_a_scalar_computed_from_inputs_is_returned_not_recomputed_0515():
    @pl.program
    class Before:
        @pl.function
        def main(self, x: V, out: pl.Out[V], n: pl.Scalar[pl.INDEX]) -> pl.Scalar[pl.INDEX]:
            with pl.at(level=pl.Level.CORE_GROUP):
                offset = n * 2
                t = pl.load(x, [offset], [8])
                pl.store(t, [0], out)
            total = offset + 1
            return total

    result = passes.outline_incore_scopes()(front(Before))
    kernel = result["main_incore_0"]
    assert [p.name_hint for p in kernel.params] == ["n__ssa_v0", "x__ssa_v0", "out__ssa_v0"]
    assert len(kernel.return_types) == 2 and isinstance(kernel.return_types[0], ir.ScalarType)
    x = np.arange(64, dtype=np.float32)
    before, after = _run_before_and_after(Before, x, np.zeros(64, np.float32), 5)
    assert before[0] == after[0] == 11
    assert np.array_equal(before[2], after[2]) and np.array_equal(after[2][:8], x[10:18])


def test_in_a_graph_a_scalar_from_the_inputs_is_still_recomputed_by_the_caller():
    """A recorded graph replays without the scalars one task would hand to the next
    (seed: a derived scalar has no argument slot), so in a Graph parent the chain is
    recomputed before the call, and LegalizeGraphBoundary lifts it to the graph's call
    site.  PyPTO has no pl.graph: the seed and the spec rule here."""
    @pl.program
    class Before:
        @pl.function(type=pl.FunctionType.Graph)
        def g(self, x: V, out: pl.InOut[V], n: pl.Scalar[pl.INDEX]) -> V:
            with pl.at(level=pl.Level.CORE_GROUP):
                offset = n * 2
                t = pl.load(x, [offset], [8])
                out = pl.store(t, [0], out)
            with pl.at(level=pl.Level.CORE_GROUP):
                t2 = pl.load(x, [offset + 8], [8])
                out = pl.store(t2, [8], out)
            return out

    @pl.program
    class After:
        @pl.function(type=pl.FunctionType.InCore)
        def g_incore_0(x: V, offset: pl.Scalar[pl.INDEX], out: pl.Out[V]) -> V:
            t = pl.load(x, [offset], [8])
            out_1 = pl.store(t, [0], out)
            out__store = out_1
            return out

        @pl.function(type=pl.FunctionType.InCore)
        def g_incore_1(x: V, offset: pl.Scalar[pl.INDEX], out_1: pl.Out[V]) -> V:
            t2 = pl.load(x, [offset + 8], [8])
            out_2 = pl.store(t2, [8], out_1)
            out__store = out_2
            return out_1

        @pl.function(type=pl.FunctionType.Graph)
        def g(self, x: V, out: pl.InOut[V], n: pl.Scalar[pl.INDEX]) -> V:
            offset = n * 2
            out_3 = self.g_incore_0(x, offset, out)
            out_5 = self.g_incore_1(x, offset, out_3)
            return out_5

    ir.assert_structural_equal(passes.outline_incore_scopes()(front(Before)), front(After))

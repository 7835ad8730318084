"""Buffers handed on through copies and loop carries (03-passes.md §10.3 step 9, §10.5).

A loop carry starts as its initial value: a kernel storing into ``c`` of
``init_values=(acc,)`` writes ``acc``, so the outlined function must not take ``acc``
``In`` (it did: the write was recorded against the carry, which is no parameter).  And
a loop whose every iteration hands on the buffer its carry started as returns that
buffer: a graph whose loop yields its own InOut tensor returns only its parameter,
which LegalizeGraphBoundary accepts (it refused it as returning a non-parameter).
"""

from __future__ import annotations

import numpy as np
import pytest

import pypto
import pypto.language as pl
from pypto import ir, passes

V = pl.Tensor[[64], pl.FP32]


def default_pipeline(program: ir.Program) -> ir.Program:
    return ir.PassManager.get_strategy(ir.OptimizationStrategy.Default).run_passes(program)


def run_both(program: ir.Program) -> tuple[np.ndarray, np.ndarray]:
    """``acc`` after running ``program`` and its compiled form on the same inputs."""
    compiled = default_pipeline(program)
    x = np.arange(64, dtype=np.float32) / 64
    results = []
    for version in (program, compiled):
        acc = np.full(64, 0.5, np.float32)
        pypto.run(version, x, acc)
        results.append(acc)
    return results[0], results[1]


def test_a_kernel_storing_into_a_loop_carry_of_a_param_takes_the_param_inout():
    @pl.program
    class Before:
        @pl.function
        def main(self, x: V, acc: pl.InOut[V]) -> V:
            with pl.at(level=pl.Level.CORE_GROUP):
                for i, (c,) in pl.range(4, init_values=(acc,)):
                    t = pl.load(x, [0], [64])
                    u = pl.load(c, [0], [64])
                    s = pl.add(t, u)
                    c2 = pl.store(s, [0], c)
                    e = pl.yield_(c2)
            return e

    @pl.program
    class After:
        @pl.function(type=pl.FunctionType.InCore)
        def main_incore_0(acc: pl.InOut[V], x: V) -> V:
            for i, (c,) in pl.range(4, init_values=(acc,)):
                t = pl.load(x, [0], [64])
                u = pl.load(c, [0], [64])
                s = pl.add(t, u)
                c2 = pl.store(s, [0], c)
                e = pl.yield_(c2)
            return acc

        @pl.function(type=pl.FunctionType.Orchestration)
        def main(self, x: V, acc: pl.InOut[V]) -> V:
            e = self.main_incore_0(acc, x)
            return e

    ir.assert_structural_equal(passes.outline_incore_scopes()(Before), After)


def test_a_hierarchy_region_whose_kernel_writes_a_carry_takes_the_param_inout():
    @pl.program
    class Before:
        @pl.function
        def main(self, x: V, acc: pl.InOut[V]) -> V:
            with pl.at(level=pl.Level.HOST):
                for i, (c,) in pl.range(4, init_values=(acc,)):
                    with pl.at(level=pl.Level.CORE_GROUP):
                        t = pl.load(x, [0], [64])
                        u = pl.load(c, [0], [64])
                        c2 = pl.store(pl.add(t, u), [0], c)
                    e = pl.yield_(c2)
            return e

    result = default_pipeline(Before)
    host = result["main_host_0"]
    assert [p.name_hint for p in host.params] == ["acc__ssa_v0", "x__ssa_v0"]
    assert host.param_directions == (ir.ParamDirection.InOut, ir.ParamDirection.In)
    # the kernel takes the carry InOut; the host function returns the buffer it wrote
    assert result["main_host_0_incore_0"].param_directions[1] is ir.ParamDirection.InOut
    assert host.body.stmts[-1].value[0] is host.params[0]


def test_a_store_through_a_copy_of_a_param_writes_the_param():
    @pl.program
    class Before:
        @pl.function
        def main(self, x: V, acc: pl.InOut[V]) -> V:
            with pl.at(level=pl.Level.CORE_GROUP):
                b = acc
                t = pl.load(x, [0], [64])
                pl.store(t, [0], b)
            return acc

    kernel = passes.outline_incore_scopes()(passes.convert_to_ssa()(Before))["main_incore_0"]
    assert [p.name_hint for p in kernel.params] == ["acc__ssa_v0", "x__ssa_v0"]
    # written through ``b``; the copy counts as a read, so InOut (never In: the write
    # would go unseen by whoever orders tasks on ``acc``)
    assert kernel.param_directions == (ir.ParamDirection.InOut, ir.ParamDirection.In)


def kernel_directions(program: ir.Program) -> tuple:
    outlined = passes.outline_incore_scopes()(passes.convert_to_ssa()(program))
    kernel = outlined["main_incore_0"]
    return tuple((p.name_hint.split("__")[0], d) for p, d in
                 zip(kernel.params, kernel.param_directions))


def test_a_store_into_a_loop_result_that_is_the_carried_buffer_writes_the_param():
    @pl.program
    class P:
        @pl.function
        def main(self, x: V, acc: pl.InOut[V]) -> V:
            with pl.at(level=pl.Level.CORE_GROUP):
                for i, (c,) in pl.range(2, init_values=(acc,)):
                    u = pl.load(c, [0], [64])
                    e = pl.yield_(c)
                t = pl.load(x, [0], [64])
                pl.store(t, [0], e)
            return acc

    assert kernel_directions(P) == (("acc", ir.ParamDirection.InOut),
                                    ("x", ir.ParamDirection.In))


def test_ping_pong_carries_write_both_buffers():
    # dst is b in the first iteration and a in the second: both are written.
    @pl.program
    class P:
        @pl.function
        def main(self, a: pl.InOut[V], b: pl.InOut[V]) -> V:
            with pl.at(level=pl.Level.CORE_GROUP):
                for i, (src, dst) in pl.range(4, init_values=(a, b)):
                    t = pl.load(src, [0], [64])
                    d2 = pl.store(t, [0], dst)
                    s2, d3 = pl.yield_(d2, src)
            return s2

    assert kernel_directions(P) == (("a", ir.ParamDirection.InOut),
                                    ("b", ir.ParamDirection.InOut))


_CHOSEN = """import pypto.language as pl
T = pl.Tensor[[64], pl.FP32]


@pl.program
class P:
    @pl.function
    def main(self, x: T, a: pl.InOut[T], b: pl.InOut[T], n: pl.Scalar[pl.INDEX]) -> T:
        with pl.at(level=pl.Level.CORE_GROUP):
            t = pl.load(x, [0], [64])
            if n > 0:
                dst = pl.yield_(a)
            else:
                dst = pl.yield_(OTHER)
            pl.store(t, [0], dst)
        return a
"""


@pytest.mark.parametrize("other, inout", [("a", ["a"]), ("b", ["a", "b"])])
def test_a_store_into_an_if_result_writes_what_either_branch_gives(other, inout):
    directions = kernel_directions(pl.parse(_CHOSEN.replace("OTHER", other)))
    assert directions == (("x", ir.ParamDirection.In), ("n", ir.ParamDirection.In),
                          *((name, ir.ParamDirection.InOut) for name in inout))


_MAYBE_INIT = """import pypto.language as pl
T = pl.Tensor[[64], pl.FP32]


@pl.program
class P:
    @pl.function
    def main(self, x: pl.InOut[T], acc: pl.InOut[T], n: pl.Scalar[pl.INDEX]) -> T:
        with pl.at(level=pl.Level.CORE_GROUP):
            t = pl.load(x, [0], [64])
            for i, (c,) in pl.range(TRIPS, init_values=(acc,)):
                e = pl.yield_(x)
            pl.store(t, [0], e)
        return acc
"""


@pytest.mark.parametrize("trips, acc_direction", [
    ("n", ir.ParamDirection.InOut),  # n may be 0: then e is acc, and the store writes acc
    ("2", ir.ParamDirection.In),     # two trips: e is x, acc is only read (the init)
])
def test_a_loop_result_is_its_initial_value_only_when_the_loop_may_not_run(trips,
                                                                           acc_direction):
    directions = dict(kernel_directions(pl.parse(_MAYBE_INIT.replace("TRIPS", trips))))
    assert directions["x"] is ir.ParamDirection.InOut
    assert directions["acc"] is acc_direction


# -- a graph whose loop yields the graph's own InOut tensor ---------------------------

_GRAPH_LOOP = """import pypto.language as pl
T = pl.Tensor[[64], pl.FP32]


@pl.program
class P:
    @pl.function(type=pl.FunctionType.Orchestration)
    def main(self, x: T, acc: pl.InOut[T]) -> T:
        with pl.graph("g"):
            for i, (c,) in pl.range(4, init_values=(INIT,)):
                with pl.at(level=pl.Level.CORE_GROUP):
                    t = pl.load(x, [0], [64])
                    u = pl.load(acc, [0], [64])
                    pl.store(pl.add(t, u), [0], acc)
                e = pl.yield_(acc)
        return e
"""


def test_outline_graph_returns_the_param_a_loop_hands_on():
    program = passes.convert_to_ssa()(pl.parse(_GRAPH_LOOP.replace("INIT", "acc")))

    @pl.program
    class After:
        @pl.function(type=pl.FunctionType.Graph)
        def g(self, acc: pl.InOut[V], x: V) -> tuple[V, V]:
            for i, (c,) in pl.range(4, init_values=(acc,)):
                with pl.at(level=pl.Level.CORE_GROUP):
                    t = pl.load(x, [0], [64])
                    u = pl.load(acc, [0], [64])
                    s = pl.add(t, u)
                    pl.store(s, [0], acc)
                e = pl.yield_(acc)
            # 'e' is 'acc' on every path (no trip: the init; each trip: acc itself)
            return acc, acc

        @pl.function(type=pl.FunctionType.Orchestration)
        def main(self, x: V, acc: pl.InOut[V]) -> V:
            ret = self.g(acc, x)
            e = ret[0]
            acc_1 = ret[1]
            return e

    flat = passes.flatten_call_expr()(passes.normalize_stmt_structure()(program))
    ir.assert_structural_equal(passes.outline_graph_scopes()(flat), After)


def test_a_graph_whose_loop_yields_its_own_inout_tensor_compiles_and_runs_the_same():
    program = pl.parse(_GRAPH_LOOP.replace("INIT", "acc"))
    compiled = default_pipeline(program)
    graph = compiled["g"]
    returned = graph.body.stmts[-1].value
    assert all(value is graph.params[0] for value in returned)
    assert graph.param_directions[0] is ir.ParamDirection.InOut
    before, after = run_both(program)
    assert np.array_equal(before, after)
    x = np.arange(64, dtype=np.float32) / 64
    assert np.allclose(after, 0.5 + 4 * x)


def test_a_loop_yielding_a_buffer_other_than_its_start_is_still_refused_at_the_read():
    # init 'x', yield 'acc': with no trip 'e' would be 'x', so it is no one parameter.
    text = _GRAPH_LOOP.replace("INIT", "x")
    with pytest.raises(passes.PassError) as info:
        default_pipeline(pl.parse(text, filename="carry.py"))
    err = info.value
    assert err.pass_name == "LegalizeGraphBoundary"
    assert err.span.begin_line == 16  # return e
    assert str(err).startswith(
        "LegalizeGraphBoundary: 'e' is defined inside pl.graph region 'g' and read after "
        "it; a graph returns only the tensors passed into it")
    assert err.hint == ("'e' is 'x' when the loop does not run and 'acc' after it runs; "
                        "start the loop from 'acc' (init_values=(acc, ...)) so that it is "
                        "'acc' on every path")


_LEAKY_KERNELS = '''
import pypto.language as pl

M = pl.dynamic("M")


@pl.program
class P:
    @pl.function(type=pl.FunctionType.InCore)
    def kern(self, x: pl.Tensor[[M, 16], pl.FP32], acc: pl.InOut[pl.Tensor[[16, 16], pl.FP32]]) -> pl.Tensor[[16, 16], pl.FP32]:
        return acc

    @pl.function(type=pl.FunctionType.InCore)
    def leak(self, x: pl.Tensor[[M, 16], pl.FP32], acc: pl.InOut[pl.Tensor[[16, 16], pl.FP32]]) -> pl.Tensor[[16, 16], pl.FP32]:
        return x

    @pl.function
    def main(self, x: pl.Tensor[[M, 16], pl.FP32], acc: pl.InOut[pl.Tensor[[16, 16], pl.FP32]]) -> pl.Tensor[[16, 16], pl.FP32]:
        with pl.graph("g"):
'''  # `leak` returns x where it declares acc's type (accepted: M is dynamic)


def _graph_boundary_refusal(body: str) -> passes.PassError:
    text = _LEAKY_KERNELS + body
    with pytest.raises(passes.PassError) as info:
        default_pipeline(pl.parse(text, filename="leak.py"))
    err = info.value
    assert err.pass_name == "LegalizeGraphBoundary"
    assert "'acc' is defined inside pl.graph region 'g' and read after it" in str(err)
    return err


def test_the_loop_result_hint_finds_the_loop_by_identity():
    # The hint looked the graph's result up with `in` / `.index` on return_vars, which
    # compare with `==` and so build IR: a non-scalar result raised the builder's
    # "Operator '==': left operand must be a scalar" as the refusal, with no line.
    # (Found by the salted semantic mutations: a kernel returning x, not acc.)
    err = _graph_boundary_refusal("""\
            for j in pl.range(3):
                acc = self.leak(x, acc)
            for i in pl.range(2):
                acc = self.leak(x, acc)
        return acc
""")
    assert err.span.begin_line == 24  # return acc


def test_a_graph_result_passed_to_a_user_kernel_is_blamed_at_the_call():
    # The read after the graph is the call: before, the blame followed the value into
    # the kernel and named a line of the kernel's body (found by salted mutations).
    err = _graph_boundary_refusal("""\
            acc = self.leak(x, acc)
        acc = self.kern(x, acc)
        return acc
""")
    assert err.span.begin_line == 21  # acc = self.kern(x, acc), not kern's `return acc`

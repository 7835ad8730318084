"""OutlineGraphScopes: the seed's example and test list (03-passes.md §12)."""

from __future__ import annotations

import pytest

import pypto.language as pl
from pypto import ir, passes

ROWS, COLS, LAYERS = 8, 16, 4
W = pl.Tensor[[LAYERS * ROWS, COLS], pl.FP32]
A = pl.Tensor[[ROWS, COLS], pl.FP32]
T = pl.Tensor[[64], pl.FP32]


def outline(program: ir.Program) -> ir.Program:
    return passes.outline_graph_scopes()(program)


@pl.program
class SeedBefore:
    @pl.function(type=pl.FunctionType.Orchestration)
    def entry(self, w: W, acc: pl.InOut[A]) -> A:
        for i in pl.range(LAYERS):
            with pl.graph("accumulate_band"):
                base = i * ROWS
                with pl.at(level=pl.Level.CORE_GROUP):
                    band = pl.load(w, [base, 0], [ROWS, COLS])
                    cur = pl.load(acc, [0, 0], [ROWS, COLS])
                    pl.store(pl.add(cur, band), [0, 0], acc)
        return acc


def test_seed_example_directly_after_the_pass():
    @pl.program
    class After:
        @pl.function(type=pl.FunctionType.Graph, level=pl.Level.CHIP, role=pl.Role.Orchestrator)
        def accumulate_band(self, i: pl.Scalar[pl.INDEX], w: W, acc: pl.InOut[A]) -> A:
            base = i * ROWS
            with pl.at(level=pl.Level.CORE_GROUP):
                band = pl.load(w, [base, 0], [ROWS, COLS])
                cur = pl.load(acc, [0, 0], [ROWS, COLS])
                # as in the seed: unbound; OutlineIncoreScopes binds it when it lifts the kernel
                pl.store(pl.add(cur, band), [0, 0], acc)
            return acc

        @pl.function(type=pl.FunctionType.Orchestration)
        def entry(self, w: W, acc: pl.InOut[A]) -> A:
            for i, (acc_it,) in pl.range(LAYERS, init_values=(acc,)):
                acc_1 = self.accumulate_band(i, w, acc_it)
                acc_rv = pl.yield_(acc_1)
            return acc_rv

    ir.assert_structural_equal(outline(SeedBefore), After)


def test_region_name_becomes_the_function_name_with_derived_metadata():
    result = outline(SeedBefore)
    graph = result["accumulate_band"]
    assert graph.func_type is ir.FunctionType.Graph
    assert (graph.level, graph.role) == (ir.Level.CHIP, ir.Role.Orchestrator)


def test_parent_type_is_unchanged():
    @pl.program
    class P:
        @pl.function
        def helper(self, x: T) -> T:
            with pl.graph("g"):
                y = pl.add(x, x)
            return y

    result = outline(P)
    assert result["helper"].func_type is ir.FunctionType.Opaque
    assert result["g"].func_type is ir.FunctionType.Graph


def test_same_name_regions_are_disambiguated_not_merged():
    @pl.program
    class P:
        @pl.function
        def main(self, x: T) -> T:
            with pl.graph("layer"):
                a = pl.add(x, x)
            with pl.graph("layer"):
                b = pl.mul(a, a)
            return b

    result = outline(P)
    assert sorted(result.functions) == ["layer", "layer_0", "main"]
    assert result["layer"].body is not result["layer_0"].body


def test_same_name_in_two_functions_takes_the_function_prefix():
    @pl.program
    class P:
        @pl.function
        def fn_a(self, x: T) -> T:
            with pl.graph("dup"):
                a = pl.add(x, x)
            return a

        @pl.function
        def fn_b(self, x: T) -> T:
            with pl.graph("dup"):
                a = pl.add(x, x)
            return a

    assert sorted(outline(P).functions) == ["dup", "fn_a", "fn_b", "fn_b_dup"]


def test_region_name_colliding_with_an_existing_function():
    @pl.program
    class P:
        @pl.function
        def layer(self, x: T) -> T:
            y = pl.add(x, x)
            return y

        @pl.function
        def main(self, x: T) -> T:
            with pl.graph("layer"):
                y = self.layer(x)
            return y

    assert sorted(outline(P).functions) == ["layer", "main", "main_layer"]


def test_callee_driven_directions():
    @pl.program
    class P:
        @pl.function(type=pl.FunctionType.InCore)
        def layer_kernel(h: T, w: T, acc: pl.InOut[T]) -> T:
            t = pl.load(h, [0], [64])
            r = pl.store(t, [0], acc)
            return r

        @pl.function(type=pl.FunctionType.Orchestration)
        def decoder(self, h: T, w: T, acc0: T) -> T:
            for layer, (acc,) in pl.range(8, init_values=(acc0,)):
                with pl.graph("decoder_layer"):
                    nxt = self.layer_kernel(h, w, acc)
                out = pl.yield_(nxt)
            return out

    result = outline(P)
    graph = result["decoder_layer"]
    assert graph.param_directions == (ir.ParamDirection.In, ir.ParamDirection.In,
                                      ir.ParamDirection.InOut)
    # it returns its acc param: the kernel returns the buffer it wrote
    assert graph.body.stmts[-1].value[0] is graph.params[2]


def test_write_only_capture_through_a_callee_is_out_not_inout():
    @pl.program
    class P:
        @pl.function(type=pl.FunctionType.InCore)
        def fill(x: T, dst: pl.Out[T]) -> T:
            t = pl.load(x, [0], [64])
            r = pl.store(t, [0], dst)
            return r

        @pl.function(type=pl.FunctionType.Orchestration)
        def main(self, x: T, dst: pl.Out[T]) -> T:
            with pl.graph("g"):
                r = self.fill(x, dst)
            return r

    assert outline(P)["g"].param_directions == (ir.ParamDirection.In, ir.ParamDirection.Out)


def test_functions_without_regions_are_returned_unchanged():
    @pl.program
    class P:
        @pl.function
        def a(self, x: T) -> T:
            y = pl.add(x, x)
            return y

        @pl.function
        def b(self, x: T) -> T:
            with pl.graph("g"):
                y = pl.add(x, x)
            return y

    result = outline(P)
    assert result["a"] is P["a"]
    program_without = ir.Program([P["a"]], "Q")
    assert outline(program_without) is program_without


def test_nested_regions_built_directly_are_rejected_naming_both_and_the_function():
    x = ir.Var("x", ir.TensorType([64], ir.DataType.FP32))
    y = ir.Var("y", x.type)
    inner = ir.GraphScopeStmt("inner", body=ir.AssignStmt(y, ir.create_op_call(
        "tensor.add", [x, x])))
    outer = ir.GraphScopeStmt("outer", body=inner)
    program = ir.Program([ir.Function("f", [x], [x.type], [outer, ir.ReturnStmt([y])])])
    with passes.PassContext([]):
        with pytest.raises(passes.PassError) as info:
            outline(program)
    assert info.value.code is passes.PassErrorCode.NESTED_GRAPH
    assert str(info.value) == (
        'OutlineGraphScopes: pl.graph("inner") is nested inside pl.graph("outer") in function \'f\'. The '
        "host_build_graph runtime cannot record a graph inside a graph, so keep the regions "
        "disjoint")


def _inline_holding_a_region() -> ir.Program:
    @pl.program
    class P:
        @pl.function(type=pl.FunctionType.Inline)
        def helper(self, x: T) -> T:
            with pl.graph("g"):
                y = pl.add(x, x)
            return y

        @pl.function(type=pl.FunctionType.Orchestration)
        def main(self, x: T) -> T:
            y = self.helper(x)
            return y
    return P


@pytest.mark.parametrize("instruments", ["none", "verification"])
def test_a_region_left_in_an_inline_function_is_an_error_not_a_skip(instruments):
    program = _inline_holding_a_region()
    active = [] if instruments == "none" else [
        passes.VerificationInstrument(passes.VerificationMode.AFTER)]
    with passes.PassContext(active):
        with pytest.raises(ValueError, match=(
                r"pl\.graph\(\.\.\.\) survives in function 'helper' \(func_type=Inline\), which "
                r"OutlineGraphScopes does not outline\. Run InlineFunctions before "
                r"OutlineGraphScopes")):
            outline(program)


def test_required_and_produced_properties():
    p = passes.outline_graph_scopes()
    assert p.get_required_properties().to_list() == [
        passes.IRProperty.SSAForm, passes.IRProperty.InlineFunctionsEliminated]
    assert p.get_produced_properties().to_list() == [
        passes.IRProperty.SSAForm, passes.IRProperty.GraphOutlined]


def test_graph_outlined_verifier_checks_every_function():
    @pl.program
    class P:
        @pl.function(type=pl.FunctionType.Graph)
        def g(self, x: T) -> T:
            with pl.graph("inner"):
                y = pl.add(x, x)
            return y

    props = passes.IRPropertySet([passes.IRProperty.GraphOutlined])
    diagnostics = passes.PropertyVerifierRegistry.verify(props, P)
    assert [d.message for d in diagnostics] == [
        "Graph ScopeStmt found in function (should have been outlined)"]
    assert passes.PropertyVerifierRegistry.verify(props, outline(P)) == []


def test_region_inside_a_graph_function_is_outlined_and_keeps_types():
    @pl.program
    class P:
        @pl.function(type=pl.FunctionType.Graph)
        def g(self, x: T) -> T:
            with pl.graph("inner"):
                y = pl.add(x, x)
            return y

    result = outline(P)
    assert result["g"].func_type is ir.FunctionType.Graph
    assert result["inner"].func_type is ir.FunctionType.Graph


def test_outlining_twice_finds_nothing_the_second_time():
    once = outline(SeedBefore)
    assert outline(once) is once


def test_a_graph_of_a_function_without_auto_scope_keeps_auto_scope_off():
    """PyPTO applies the AUTO-scope rule to Graph functions too (conformance 1646): a
    Graph function holding a hand-placed ``pl.scope()`` is printed with
    ``auto_scope=False``, so its text reads back (in PyPTO as well)."""

    @pl.program
    class Before:
        @pl.function(type=pl.FunctionType.Orchestration, auto_scope=False)
        def entry(self, x: T, out: pl.InOut[T]) -> T:
            with pl.graph("g"):
                with pl.scope():
                    with pl.at(level=pl.Level.CORE_GROUP):
                        t = pl.load(x, [0], [64])
                        pl.store(t, [0], out)
            return out

    after = outline(Before)
    assert after["g"].attrs == {"auto_scope": False}
    ir.assert_structural_equal(pl.parse(ir.python_print(after)), after)

"""The outliners inside the default pipeline: the seeds' end-to-end shapes, the
scope/decorator convergence, combined regions, and LegalizeGraphBoundary Step A."""

from __future__ import annotations

import numpy as np
import pytest

import pypto
import pypto.language as pl
from pypto import ir, passes
from pypto.ir.walk import iter_stmts

ROWS, COLS, LAYERS = 8, 16, 4
W = pl.Tensor[[LAYERS * ROWS, COLS], pl.FP32]
A = pl.Tensor[[ROWS, COLS], pl.FP32]
T = pl.Tensor[[64], pl.FP32]


def default_pipeline(program: ir.Program) -> ir.Program:
    return ir.PassManager.get_strategy(ir.OptimizationStrategy.Default).run_passes(program)


def ssa(program: ir.Program) -> ir.Program:
    return passes.convert_to_ssa()(program)


def scopes_left(program: ir.Program) -> list[str]:
    return [type(s).__name__ for f in program.functions.values()
            for s in iter_stmts(f.body) if isinstance(s, ir.ScopeStmt)
            and not isinstance(s, ir.RuntimeScopeStmt)
            and not (f.func_type is ir.FunctionType.Group and isinstance(s, ir.SpmdScopeStmt))]


@pl.program
class Seed:
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


def test_graph_seed_through_the_whole_pipeline_gives_the_seeds_after_shape():
    result = default_pipeline(Seed)
    graph = result["accumulate_band"]
    entry = result["entry"]
    assert graph.func_type is ir.FunctionType.Graph
    assert (graph.level, graph.role) == (ir.Level.CHIP, ir.Role.Orchestrator)
    # accumulate_band(self, i, w, acc, base): base appended by LegalizeGraphBoundary Step A
    assert [p.name_hint.split("__")[0] for p in graph.params] == ["i", "w", "acc", "base"]
    assert graph.param_directions[2] is ir.ParamDirection.InOut
    assert entry.func_type is ir.FunctionType.Orchestration
    loop = entry.body.stmts[0]
    call = loop.body.stmts[0].value
    assert call.op.name == "accumulate_band"
    # the caller passes the fully expanded expression over its own arguments: i * ROWS
    base_arg = call.args[3]
    assert isinstance(base_arg, ir.Mul) and base_arg.left is loop.loop_var
    assert base_arg.right.value == ROWS
    assert "accumulate_band_incore_0" in result.functions
    assert graph.body.stmts[-1].value[0] is graph.params[2]  # returns its acc param
    assert scopes_left(result) == []


def test_scope_form_and_decorator_form_converge():
    @pl.program
    class ScopeForm:
        @pl.function(type=pl.FunctionType.InCore)
        def layer_kernel(h: T, acc: pl.InOut[T]) -> T:
            t = pl.load(h, [0], [64])
            u = pl.load(acc, [0], [64])
            r = pl.store(pl.add(t, u), [0], acc)
            return acc

        @pl.function(type=pl.FunctionType.Orchestration)
        def decoder(self, h: T, acc0: T) -> T:
            for layer, (acc,) in pl.range(8, init_values=(acc0,)):
                with pl.graph("decoder_layer"):
                    nxt = self.layer_kernel(h, acc)
                out = pl.yield_(nxt)
            return out

    @pl.program
    class DecoratorForm:
        @pl.function(type=pl.FunctionType.InCore)
        def layer_kernel(h: T, acc: pl.InOut[T]) -> T:
            t = pl.load(h, [0], [64])
            u = pl.load(acc, [0], [64])
            r = pl.store(pl.add(t, u), [0], acc)
            return acc

        @pl.function(type=pl.FunctionType.Graph)
        def decoder_layer(self, h: T, acc: pl.InOut[T]) -> T:  # params in capture order
            nxt = self.layer_kernel(h, acc)
            return acc

        @pl.function(type=pl.FunctionType.Orchestration)
        def decoder(self, h: T, acc0: T) -> T:
            for layer, (acc,) in pl.range(8, init_values=(acc0,)):
                nxt = self.decoder_layer(h, acc)
                out = pl.yield_(nxt)
            return out

    outlined = passes.outline_graph_scopes()(ssa(ScopeForm))
    ir.assert_structural_equal(outlined, ssa(DecoratorForm))
    # and after the whole pipeline, too
    ir.assert_structural_equal(default_pipeline(ScopeForm), default_pipeline(DecoratorForm))


def test_host_region_beside_a_graph_holding_a_core_group_region_inside_a_loop():
    # 03-passes.md section 16: the HOST region sits beside the graph (never around it).
    @pl.program
    class Combined:
        @pl.function
        def main(self, x: T, acc0: T) -> T:
            for step, (acc,) in pl.range(4, init_values=(acc0,)):
                with pl.at(level=pl.Level.HOST):
                    h = pl.add(x, x)
                with pl.graph("g"):
                    scale = step * 2
                    with pl.at(level=pl.Level.CORE_GROUP):
                        t = pl.load(x, [scale], [8])
                        u = pl.load(acc, [0], [8])
                        pl.store(pl.add(t, u), [0], acc)
                nxt = pl.add(acc, x)
                out = pl.yield_(nxt)
            return out

    result = default_pipeline(Combined)
    kinds = {name: f.func_type for name, f in result.functions.items()}
    assert kinds == {"main": ir.FunctionType.Opaque, "main_host_0": ir.FunctionType.Opaque,
                     "g": ir.FunctionType.Graph, "g_incore_0": ir.FunctionType.InCore}
    assert result["main_host_0"].level is ir.Level.HOST
    assert scopes_left(result) == []
    # every verifier of the default set is satisfied, and the result round-trips
    passes.run_verifier()(result)
    text = ir.python_print(result, format=False)
    ir.assert_structural_equal(pl.parse(text), result)


def test_legalize_step_a_renames_are_substituted_not_hoisted():
    @pl.program
    class P:
        @pl.function(type=pl.FunctionType.InCore)
        def k(x: T, n: pl.Scalar[pl.INDEX], acc: pl.InOut[T]) -> T:
            t = pl.load(x, [n], [8])
            r = pl.store(t, [0], acc)
            return acc

        @pl.function(type=pl.FunctionType.Graph)
        def g(self, x: T, batch: pl.Scalar[pl.INDEX], acc: pl.InOut[T]) -> T:
            n = batch
            r = self.k(x, n, acc)
            return acc

        @pl.function(type=pl.FunctionType.Orchestration)
        def main(self, x: T, acc: T) -> T:
            r = self.g(x, 3, acc)
            return r

    result = passes.legalize_graph_boundary()(P)
    graph = result["g"]
    assert [p.name_hint for p in graph.params] == ["x", "batch", "acc"]  # nothing appended
    call = graph.body.stmts[0].value
    assert call.args[1] is graph.params[1]


@pytest.mark.parametrize("body,message", [
    ("s = pl.cast(pl.tensor.read(x, [0]), pl.INDEX)\n            r = self.k(x, s, acc)",
     "passes scalar 's' to task 'k', but it is neither a parameter nor replay-invariant"),
    ("r = self.k(x, batch + 1, acc)", "computes a scalar inline in a task argument"),
])
def test_legalize_rejects_scalars_the_replay_would_freeze(body, message):
    text = f'''
import pypto.language as pl
T = pl.Tensor[[64], pl.FP32]
@pl.program
class P:
    @pl.function(type=pl.FunctionType.InCore)
    def k(x: T, n: pl.Scalar[pl.INDEX], acc: pl.InOut[T]) -> T:
        t = pl.load(x, [n], [8])
        r = pl.store(t, [0], acc)
        return acc
    @pl.function(type=pl.FunctionType.Graph)
    def g(self, x: T, batch: pl.Scalar[pl.INDEX], acc: pl.InOut[T]) -> T:
            {body}
            return acc
'''
    text = text.replace("\n            ", "\n        ")
    program = pl.parse(text)
    with passes.PassContext([]):
        with pytest.raises(ValueError, match=message):
            passes.legalize_graph_boundary()(program)


# Lines 1-8 of the programs below: `main(x, acc)` of an Orchestration program.
_MAIN = """import pypto.language as pl


@pl.program
class P:
    @pl.function(type=pl.FunctionType.Orchestration)
    def main(self, x: pl.Tensor[[16, 16], pl.FP32],
             acc: pl.InOut[pl.Tensor[[16, 16], pl.FP32]]) -> pl.Tensor[[16, 16], pl.FP32]:
"""
_ESCAPE = _MAIN + """        with pl.graph("g1"):
            with pl.at(level=pl.Level.CORE_GROUP):
                t = pl.load(x, [0, 0], [16, 16])
                a = pl.load(acc, [0, 0], [16, 16])
                acc = pl.store(pl.add(t, a), [0, 0], acc)
        with pl.at(level=pl.Level.CORE_GROUP):
            a2 = pl.load(acc, [0, 0], [16, 16])
            acc = pl.store(pl.mul(t, a2), [0, 0], acc)
        return acc
"""


def test_a_value_escaping_a_graph_region_is_reported_where_it_is_read():
    # The tile 't' is defined inside the region and read two lines after it (line 16):
    # that read is the user's mistake, not the region's `with` line (9), where the
    # outlined Graph function returning a non-parameter used to be reported.
    program = pl.parse(_ESCAPE, filename="escape.py")
    with pytest.raises(passes.PassError) as info:
        default_pipeline(program)
    err = info.value
    assert err.pass_name == "LegalizeGraphBoundary"
    assert (err.span.begin_line, err.span.begin_column) == (16, 28)  # pl.mul(t, a2)
    assert str(err).startswith(
        "LegalizeGraphBoundary: 't' is defined inside pl.graph region 'g1' and read after "
        "it; a graph returns only the tensors passed into it")


def test_a_tile_passed_between_kernels_inside_a_graph_region_compiles():
    # The first kernel returns (t, acc); the Graph function's result is 'acc' through
    # that tuple.  The lineage through a tuple-valued call used to stop, so the graph
    # was refused as returning a non-parameter.
    text = _ESCAPE.replace("""        with pl.at(level=pl.Level.CORE_GROUP):
            a2""", """            with pl.at(level=pl.Level.CORE_GROUP):
                a2""").replace("""            acc = pl.store(pl.mul(t, a2), [0, 0], acc)
        return""", """                acc = pl.store(pl.mul(t, a2), [0, 0], acc)
        return""")
    program = pl.parse(text)
    compiled = default_pipeline(program)
    graph = compiled.get_function("g1")
    assert graph.body.stmts[-1].value[0] is graph.params[1]  # returns its 'acc' param
    x = np.arange(256, dtype=np.float32).reshape(16, 16) / 256
    results = []
    for version in (program, compiled):
        acc = np.full((16, 16), 0.5, np.float32)
        pypto.run(version, x, acc)
        results.append(acc)
    assert np.array_equal(results[0], results[1])
    assert np.array_equal(results[1], (x + 0.5) * x)


def test_a_tensor_a_graph_region_only_writes_is_reported_at_the_write():
    # 'c' is stored into (line 13) but never loaded inside the region: the Graph
    # function would take it Out.  The store is the statement to change.
    text = _MAIN + """        for j, (c,) in pl.range(3, init_values=(acc,)):
            with pl.graph("g1"):
                with pl.at(level=pl.Level.CORE_GROUP):
                    t = pl.load(x, [0, 0], [16, 16])
                    c = pl.store(pl.exp(t), [0, 0], c)
            r = pl.yield_(c)
        return r
"""
    with pytest.raises(passes.PassError) as info:
        default_pipeline(pl.parse(text, filename="out.py"))
    assert info.value.span.begin_line == 13
    assert "pl.graph region 'g1' writes tensor 'c' without reading it" in str(info.value)


def test_a_graph_returning_a_non_parameter_without_a_read_keeps_its_span():
    # Hand-built: the Graph function itself returns a local, no caller reads it.
    x = ir.Var("x", ir.TensorType([64], ir.DataType.FP32))
    y = ir.Var("y", x.type)
    span = ir.Span("hand.py", 4, 5)
    graph = ir.Function("g", [(x, ir.ParamDirection.InOut)], [x.type], ir.SeqStmts([
        ir.AssignStmt(y, ir.create_op_call("tensor.add", [x, x])),
        ir.ReturnStmt([y], span)]), span, type=ir.FunctionType.Graph)
    with pytest.raises(passes.PassError, match="Graph function 'g' returns 'y', which is not "
                                               "one of its parameters") as info:
        passes.legalize_graph_boundary()(ir.Program([graph], "P"))
    assert info.value.span.begin_line == 4


def test_program_without_graphs_is_returned_unchanged():
    @pl.program
    class P:
        @pl.function
        def main(self, x: T) -> T:
            y = pl.add(x, x)
            return y

    assert passes.legalize_graph_boundary()(P) is P


def test_every_outliner_is_idempotent_on_pipeline_output():
    result = default_pipeline(Seed)
    for factory in (passes.outline_hierarchy_scopes, passes.outline_graph_scopes,
                    passes.outline_incore_scopes, passes.outline_cluster_scopes):
        assert factory()(result) is result


def test_a_graph_boundary_message_names_an_inlined_local_as_the_user_wrote_it():
    # The region sits in an Inline function: after the splice its local is
    # 'scratch_inline0'; the message says 'scratch', the name in the user's file.
    text = """import pypto.language as pl


@pl.program
class P:
    @pl.function(type=pl.FunctionType.Inline)
    def band(self, x: pl.Tensor[[16, 16], pl.FP32]) -> pl.Tensor[[16, 16], pl.FP32]:
        scratch = pl.create_tensor([16, 16], dtype=pl.FP32)
        with pl.graph("g1"):
            with pl.at(level=pl.Level.CORE_GROUP):
                t = pl.load(x, [0, 0], [16, 16])
                scratch = pl.store(pl.exp(t), [0, 0], scratch)
        return scratch

    @pl.function(type=pl.FunctionType.Orchestration)
    def main(self, x: pl.Tensor[[16, 16], pl.FP32]) -> pl.Tensor[[16, 16], pl.FP32]:
        y = self.band(x)
        return y
"""
    with pytest.raises(passes.PassError) as info:
        default_pipeline(pl.parse(text, filename="inl.py"))
    assert "pl.graph region 'g1' writes tensor 'scratch' without reading it" in str(info.value)
    assert info.value.span.begin_line == 12


def test_source_name_strips_ssa_and_splice_suffixes_only():
    from pypto.passes.names import source_name
    assert source_name("scratch_inline0__ssa_v1") == "scratch"
    assert source_name("acc_inline12") == "acc"
    assert source_name("inline3") == "inline3" and source_name("t__ssa_v2") == "t"


# -- the seed's example against its after program (docs/seeds-audit.md G25, G3, G10) --

def test_graph_seed_example_compiles_to_the_seeds_after_program():
    # The seed's "after": accumulate_band(self, i, w, acc, base) returning acc, called
    # as acc = self.accumulate_band(i, w, acc, i * ROWS) in the loop; its pl.at region
    # is the kernel OutlineIncoreScopes lifts right after (the seed's related note).
    @pl.program
    class After:
        @pl.function(type=pl.FunctionType.InCore)
        def accumulate_band_incore_0(w: W, base: pl.Scalar[pl.INDEX], acc: pl.InOut[A]) -> A:
            band = pl.load(w, [base, 0], [ROWS, COLS])
            cur = pl.load(acc, [0, 0], [ROWS, COLS])
            t = pl.add(cur, band)
            acc__store = pl.store(t, [0, 0], acc)
            return acc

        @pl.function(type=pl.FunctionType.Graph, level=pl.Level.CHIP, role=pl.Role.Orchestrator)
        def accumulate_band(self, i: pl.Scalar[pl.INDEX], w: W, acc: pl.InOut[A],
                            base: pl.Scalar[pl.INDEX]) -> A:
            acc_1 = self.accumulate_band_incore_0(w, base, acc)
            return acc

        @pl.function(type=pl.FunctionType.Orchestration)
        def entry(self, w: W, acc: pl.InOut[A]) -> A:
            for i, (acc_it,) in pl.range(LAYERS, init_values=(acc,)):
                acc_1 = self.accumulate_band(i, w, acc_it, i * ROWS)
                acc_rv = pl.yield_(acc_1)
            return acc_rv

    compiled = default_pipeline(Seed)
    ir.assert_structural_equal(compiled, After)
    w = np.arange(LAYERS * ROWS * COLS, dtype=np.float32).reshape(LAYERS * ROWS, COLS) / 100
    results = []
    for version in (Seed, compiled):
        acc = np.ones((ROWS, COLS), np.float32)
        pypto.run(version, w, acc)
        results.append(acc)
    assert np.array_equal(results[0], results[1])
    assert np.allclose(results[1], 1 + w.reshape(LAYERS, ROWS, COLS).sum(axis=0))


def test_graph_pass_is_reached_through_the_core_module():
    from pypto.pypto_core import passes as core_passes
    outline = core_passes.outline_graph_scopes()
    assert outline.get_name() == "OutlineGraphScopes"
    result = outline(Seed)
    assert result["accumulate_band"].func_type is ir.FunctionType.Graph


def test_a_graph_declared_in_another_parameter_order_compiles_and_computes_alike():
    # The decorator form's boundary is a permutation of the scope form's (capture
    # order); nothing downstream reads params by position, so both compile and agree.
    @pl.program
    class Permuted:
        @pl.function(type=pl.FunctionType.Graph)
        def accumulate_band(self, acc: pl.InOut[A], w: W, i: pl.Scalar[pl.INDEX]) -> A:
            base = i * ROWS
            with pl.at(level=pl.Level.CORE_GROUP):
                band = pl.load(w, [base, 0], [ROWS, COLS])
                cur = pl.load(acc, [0, 0], [ROWS, COLS])
                pl.store(pl.add(cur, band), [0, 0], acc)
            return acc

        @pl.function(type=pl.FunctionType.Orchestration)
        def entry(self, w: W, acc: pl.InOut[A]) -> A:
            for i in pl.range(LAYERS):
                acc = self.accumulate_band(acc, w, i)
            return acc

    compiled = default_pipeline(Permuted)
    graph = compiled["accumulate_band"]
    assert [p.name_hint.split("__")[0] for p in graph.params] == ["acc", "w", "i", "base"]
    assert graph.param_directions[0] is ir.ParamDirection.InOut
    w = np.arange(LAYERS * ROWS * COLS, dtype=np.float32).reshape(LAYERS * ROWS, COLS) / 100
    results = []
    for version in (Seed, default_pipeline(Seed), Permuted, compiled):
        acc = np.ones((ROWS, COLS), np.float32)
        pypto.run(version, w, acc)
        results.append(acc)
    assert all(np.array_equal(results[0], r) for r in results[1:])

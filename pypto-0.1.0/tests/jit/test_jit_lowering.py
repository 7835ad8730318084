"""``lower()``: the OutlineGraphScopes design-note example, and the decorator and scope
forms of a Graph region converging (03-passes.md §12.7)."""

from __future__ import annotations

import pypto.language as pl
from pypto import ir

from _jit_helpers import f32

LAYERS = 4
ROWS = 16
COLS = 64


@pl.jit
def entry(w: pl.Tensor, acc: pl.InOut[pl.Tensor]):
    for i in pl.range(LAYERS):
        with pl.graph("accumulate_band"):
            base = i * ROWS
            with pl.at(level=pl.Level.CORE_GROUP):
                band = pl.load(w, [base, 0], [ROWS, COLS])
                cur = pl.load(acc, [0, 0], [ROWS, COLS])
                pl.store(pl.add(cur, band), [0, 0], acc)
    return acc


@pl.jit.graph
def accumulate_band(i: pl.Scalar[pl.INDEX], w: pl.Tensor, acc: pl.InOut[pl.Tensor],
                    base: pl.Scalar[pl.INDEX]):
    with pl.at(level=pl.Level.CORE_GROUP):
        band = pl.load(w, [base, 0], [ROWS, COLS])
        cur = pl.load(acc, [0, 0], [ROWS, COLS])
        pl.store(pl.add(cur, band), [0, 0], acc)
    return acc


def decorator_form():
    @pl.jit
    def entry(w: pl.Tensor, acc: pl.InOut[pl.Tensor]):
        for i in pl.range(LAYERS):
            acc = accumulate_band(i, w, acc, i * ROWS)
        return acc
    return entry


def calls_to(node: ir.IRNode, name: str) -> list[ir.Call]:
    found = []

    class Collect(ir.IRVisitor):
        def visit_call(self, op):
            if isinstance(op.op, ir.GlobalVar) and op.op.name == name:
                found.append(op)
            super().visit_call(op)

    Collect()(node)
    return found


def test_the_design_note_example_lowers_to_its_after_shape():
    program = entry.lower(f32(64, 64), f32(16, 64))
    graph = program.get_function("accumulate_band")
    assert graph is not None
    assert (graph.func_type, graph.level, graph.role) == (ir.FunctionType.Graph, ir.Level.CHIP,
                                                          ir.Role.Orchestrator)
    assert [p.name_hint.split("__")[0] for p in graph.params] == ["i", "w", "acc", "base"]
    orchestration = program.get_function("entry")
    assert orchestration.func_type is ir.FunctionType.Orchestration
    loops = [s for s in ir.flatten_to_stmts(orchestration.body) if isinstance(s, ir.ForStmt)]
    assert len(loops) == 1
    assert len(calls_to(loops[0], "accumulate_band")) == 1  # called inside the loop
    assert len(calls_to(orchestration, "accumulate_band")) == 1
    incore = [f for f in program.functions.values() if f.func_type is ir.FunctionType.InCore]
    assert len(incore) == 1


def test_decorator_and_scope_forms_lower_to_equal_programs():
    scope_form = entry.lower(f32(64, 64), f32(16, 64))
    decorated = decorator_form().lower(f32(64, 64), f32(16, 64))
    ir.assert_structural_equal(scope_form, decorated)


def test_lower_runs_the_pipeline_and_specialize_does_not():
    specialized = entry.specialize(f32(64, 64), f32(16, 64))
    assert list(specialized.functions) == ["entry"]
    lowered = entry.lower(f32(64, 64), f32(16, 64))
    assert "accumulate_band" in lowered.functions
    compiled = entry.compile(f32(64, 64), f32(16, 64))
    ir.assert_structural_equal(compiled.program, lowered)


def test_an_inline_dependency_is_spliced_by_the_pipeline():
    @pl.jit.inline
    def helper(a: pl.Tensor, out: pl.InOut[pl.Tensor]):
        with pl.at(level=pl.Level.CORE_GROUP):
            t = pl.load(a, [0, 0], [8, 8])
            pl.store(pl.add(t, t), [0, 0], out)
        return out

    @pl.jit
    def entry(x: pl.Tensor, y: pl.InOut[pl.Tensor]):
        y = helper(x, y)
        return y

    specialized = entry.specialize(f32(8, 8), f32(8, 8))
    assert specialized.get_function("helper").func_type is ir.FunctionType.Inline
    lowered = entry.lower(f32(8, 8), f32(8, 8))
    assert "helper" not in lowered.functions
    assert [f.func_type for f in lowered.functions.values()].count(ir.FunctionType.InCore) == 1

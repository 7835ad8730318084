"""Expression DAGs (a sub-expression shared by several operands, only hand-built IR has
them): analyses, verification, structural equality and hashing visit each distinct
node once; printing, which writes every use, refuses a DAG whose written-out form
passes ``MAX_EXPANDED_NODES``, and so does the pipeline before its first pass
(issue 15).  Budgets are generous (a shared 2-core machine) but far below the
exponential cost: 19 doublings written out are 2**19 terms."""

from __future__ import annotations

import time

import pytest

import pypto.language as pl
from pypto import ir, passes
from pypto.ir import DataType as D
from pypto.ir.depth import MAX_EXPANDED_NODES, NestingError

AT = ir.Span("dag.py", 4, 9)
INDEX = ir.ScalarType(D.INDEX)


def doubling(levels: int, leaf: ir.Expr) -> ir.Expr:
    """``e = leaf; e = e + e`` ``levels`` times: levels + 1 distinct nodes."""
    expr = leaf
    for _ in range(levels):
        expr = ir.Add(expr, expr, D.INDEX, AT)
    return expr


def program(levels: int) -> ir.Program:
    x = ir.Var("x", INDEX, AT)
    y = ir.Var("y", INDEX, AT)
    body = ir.SeqStmts([ir.AssignStmt(y, doubling(levels, x), AT), ir.ReturnStmt([y], AT)], AT)
    return ir.Program([ir.Function("main", [x], [INDEX], body, AT)], "Dag", AT)


def _verify(prog: ir.Program) -> None:
    with passes.PassContext([]):  # no round-trip instrument: it prints
        passes.run_verifier()(prog)


def seconds(run) -> float:
    start = time.perf_counter()
    run()
    return time.perf_counter() - start


@pytest.mark.parametrize("walk", [
    lambda p: ir.structural_hash(p),
    lambda p: ir.assert_structural_equal(p, program(40)),
    lambda p: _verify(p),
    lambda p: ir.depth.nesting_of(p),
    lambda p: ir.collect_def_vars(p["main"].body),
], ids=["hash", "equal", "verify", "nesting", "def-vars"])
def test_analyses_are_linear_in_distinct_nodes(walk):
    dag = program(40)  # 2**40 terms written out: only a linear walk finishes
    assert seconds(lambda: walk(dag)) < 2.0


def test_var_uses_and_calls_walk_each_distinct_node_once():
    x = ir.Var("x", INDEX, AT)
    dag = doubling(40, x)
    assert ir.walk.var_uses(dag) == [x, x]
    assert len(list(ir.walk.iter_exprs(dag))) == 42  # 40 Adds, the leaf under the last twice
    assert ir.walk.calls_in(dag) == []


def test_printing_a_huge_written_out_form_is_refused_at_the_expression():
    dag = program(19)
    elapsed = 0.0
    with pytest.raises(NestingError) as info:
        start = time.perf_counter()
        ir.python_print(dag)
    elapsed = time.perf_counter() - start
    assert elapsed < 1.0
    assert info.value.message == (
        f"an expression whose shared sub-expressions, written out, make more than "
        f"{MAX_EXPANDED_NODES} nodes (bind the shared parts to names)")
    assert info.value.span == AT


def test_the_pipeline_refuses_it_before_its_first_pass():
    with pytest.raises(passes.PassError) as info:
        ir.PassManager.get_strategy(ir.OptimizationStrategy.Default).run_passes(program(19))
    assert info.value.code is passes.PassErrorCode.NESTING_TOO_DEEP
    assert info.value.span == AT


def test_a_small_dag_prints_written_out_and_reads_back_equal():
    dag = program(6)
    text = ir.python_print(dag)
    assert text.count(" + ") == 2 ** 6 - 1
    again = pl.parse(text)
    ir.assert_structural_equal(dag, again)
    assert ir.structural_hash(dag) == ir.structural_hash(again)

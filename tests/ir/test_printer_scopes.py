"""Printer: scope statements and their attrs (02-ir.md §12.8)."""

from __future__ import annotations

import pytest

from pypto import ir
from pypto.errors import InternalError
from pypto.ir import DataType as DT

from ._printer_helpers import BOOL, INDEX, assert_valid_python, dedent, idx, op_call, scalar

n = scalar("n")
body = ir.EvalStmt(n)


def show(stmt: ir.Stmt, **options) -> str:
    text = ir.python_print(stmt, **options)
    assert_valid_python(text)
    return text


def header(stmt: ir.Stmt) -> str:
    return show(stmt).splitlines()[0]


def test_every_scope_kind():
    assert header(ir.InCoreScopeStmt(body=body)) == "with pl.at(level=pl.Level.CORE_GROUP):"
    assert header(ir.HierarchyScopeStmt(ir.Level.HOST, ir.Role.Orchestrator, body=body)) == \
        "with pl.at(level=pl.Level.HOST, role=pl.Role.Orchestrator):"
    assert header(ir.HierarchyScopeStmt(ir.Level.POD, body=body)) == \
        "with pl.at(level=pl.Level.CLUSTER_0):"
    assert header(ir.ClusterScopeStmt(body=body)) == "with pl.cluster():"
    assert header(ir.SpmdScopeStmt(8, body=body)) == "with pl.spmd(8):"
    assert header(ir.SpmdScopeStmt(n, True, body=body)) == "with pl.spmd(n, sync_start=True):"
    assert header(ir.RuntimeScopeStmt(body=body)) == "with pl.scope():"
    assert header(ir.RuntimeScopeStmt(True, body=body)) == "with pl.manual_scope():"
    assert header(ir.GraphScopeStmt("layer", body=body)) == 'with pl.graph("layer"):'


def test_scope_body_and_empty_body():
    assert show(ir.ClusterScopeStmt(body=body)) == "with pl.cluster():\n    n"
    assert show(ir.ClusterScopeStmt(body=ir.SeqStmts([]))) == "with pl.cluster():\n    pass"


def test_name_hints():
    assert header(ir.InCoreScopeStmt(name_hint="k", body=body)) == \
        'with pl.at(level=pl.Level.CORE_GROUP, name_hint="k"):'
    assert header(ir.HierarchyScopeStmt(ir.Level.HOST, ir.Role.SubWorker, "w", body=body)) == \
        'with pl.at(level=pl.Level.HOST, role=pl.Role.SubWorker, name_hint="w"):'
    assert header(ir.ClusterScopeStmt("c", body=body)) == 'with pl.cluster(name_hint="c"):'
    assert header(ir.SpmdScopeStmt(4, True, "s", body=body)) == \
        'with pl.spmd(4, sync_start=True, name_hint="s"):'
    assert header(ir.RuntimeScopeStmt(True, "r", body=body)) == \
        'with pl.manual_scope(name_hint="r"):'


def test_incore_optimizations():
    split = ir.InCoreScopeStmt(ir.SplitMode.UP_DOWN, body=body)
    assert header(split) == ("with pl.at(level=pl.Level.CORE_GROUP, "
                             "optimizations=[pl.split(pl.SplitMode.UP_DOWN)]):")
    both = ir.InCoreScopeStmt(ir.SplitMode.LEFT_RIGHT, "k", body=body, attrs={"slot_num": 4})
    assert header(both) == (
        "with pl.at(level=pl.Level.CORE_GROUP, optimizations=[pl.split(pl.SplitMode.LEFT_RIGHT),"
        ' pl.cross_core_slot(slot_num=4)], name_hint="k"):')
    slot_only = ir.InCoreScopeStmt(body=body, attrs={"slot_num": 2})
    assert header(slot_only) == ("with pl.at(level=pl.Level.CORE_GROUP, "
                                 "optimizations=[pl.cross_core_slot(slot_num=2)]):")


def test_every_scope_attr_in_canonical_order():
    t1, t2 = scalar("t1", DT.TASK_ID), scalar("t2", DT.TASK_ID)
    a, b = scalar("a"), scalar("b")
    pred = scalar("pred", BOOL)
    attrs = {"predicate": pred, "allow_early_resolve": True, "dump_vars": [a],
             "arg_direction_overrides_vars": [b], "manual_dep_edges": [t1, t2]}
    stmt = ir.InCoreScopeStmt(ir.SplitMode.UP_DOWN, "k", body=body, attrs=attrs)
    assert header(stmt) == (
        "with pl.at(level=pl.Level.CORE_GROUP, optimizations=[pl.split(pl.SplitMode.UP_DOWN)], "
        'name_hint="k", deps=[t1, t2], no_dep_args=[b], dumps=[a], allow_early_resolve=True, '
        "predicate=pred):")


def test_task_id_placeholder_is_folded_into_as():
    tid = scalar("tid", DT.TASK_ID)
    placeholder = ir.AssignStmt(tid, op_call("system.task_invalid", [],
                                             ir.ScalarType(DT.TASK_ID)))
    ir.attach_leading_comments(placeholder, ["launch"])
    scope = ir.InCoreScopeStmt(body=body, attrs={"task_id_var": tid})
    later = ir.EvalStmt(tid)
    assert show(ir.SeqStmts([placeholder, scope, later])) == dedent("""
        # launch
        with pl.at(level=pl.Level.CORE_GROUP) as tid:
            n
        tid
    """)


def test_task_invalid_assignment_not_followed_by_its_scope_is_printed():
    tid, other = scalar("tid", DT.TASK_ID), scalar("other", DT.TASK_ID)
    placeholder = ir.AssignStmt(tid, op_call("system.task_invalid", [],
                                             ir.ScalarType(DT.TASK_ID)))
    scope = ir.InCoreScopeStmt(body=body, attrs={"task_id_var": other})
    assert show(ir.SeqStmts([placeholder, scope])) == dedent("""
        tid: pl.Scalar[pl.TASK_ID] = pl.system.task_invalid()
        with pl.at(level=pl.Level.CORE_GROUP) as other:
            n
    """)


def test_spmd_with_as_and_deps():
    tid, dep = scalar("tid", DT.TASK_ID), scalar("dep", DT.TASK_ID)
    stmt = ir.SpmdScopeStmt(4, body=body, attrs={"manual_dep_edges": [dep],
                                                 "task_id_var": tid})
    assert header(stmt) == "with pl.spmd(4, deps=[dep]) as tid:"


def test_graph_scope_dumps():
    a = scalar("a")
    stmt = ir.GraphScopeStmt("layer_0", body=body, attrs={"dump_vars": [a, n]})
    assert header(stmt) == 'with pl.graph("layer_0", dumps=[a, n]):'
    assert header(ir.ClusterScopeStmt(body=body, attrs={"dump_vars": [a]})) == \
        "with pl.cluster(dumps=[a]):"


def block_index_carrier(name: str = "", incore_attrs=None, split=ir.SplitMode.NONE):
    i = scalar("i")
    get = ir.AssignStmt(i, op_call("tile.get_block_idx", [], ir.ScalarType(INDEX)))
    work = ir.EvalStmt(ir.Mul(i, idx(2), INDEX))
    return ir.InCoreScopeStmt(split, name, body=ir.SeqStmts([get, work]), attrs=incore_attrs)


def test_spmd_loop_form():
    stmt = ir.SpmdScopeStmt(8, body=block_index_carrier())
    assert show(stmt) == "for i in pl.spmd(8):\n    i * 2"
    named = ir.SpmdScopeStmt(n, True, "k_spmd", body=block_index_carrier("k"))
    assert show(named) == 'for i in pl.spmd(n, sync_start=True, name_hint="k"):\n    i * 2'


def test_spmd_loop_form_with_only_the_block_index():
    i = scalar("i")
    get = ir.AssignStmt(i, op_call("tile.get_block_idx", [], ir.ScalarType(INDEX)))
    stmt = ir.SpmdScopeStmt(2, body=ir.InCoreScopeStmt(body=get))
    assert show(stmt) == "for i in pl.spmd(2):\n    pass"


@pytest.mark.parametrize("spmd", [
    # names that the loop form cannot reproduce
    ir.SpmdScopeStmt(8, name_hint="s", body=block_index_carrier("k")),
    ir.SpmdScopeStmt(8, body=block_index_carrier("k")),
    # attrs on either scope, or a split on the carrier
    ir.SpmdScopeStmt(8, body=block_index_carrier(incore_attrs={"slot_num": 2})),
    ir.SpmdScopeStmt(8, body=block_index_carrier(split=ir.SplitMode.UP_DOWN)),
    ir.SpmdScopeStmt(8, body=block_index_carrier(),
                     attrs={"allow_early_resolve": True}),
])
def test_spmd_keeps_the_with_form_when_the_loop_form_would_lose_something(spmd):
    text = show(spmd)
    assert text.startswith("with pl.spmd(8")
    assert text.splitlines()[1].startswith("    with pl.at(level=pl.Level.CORE_GROUP")
    assert text.splitlines()[2] == "        i: pl.Scalar[pl.INDEX] = pl.tile.get_block_idx()"


def test_spmd_whose_body_does_not_start_with_the_block_index_uses_the_with_form():
    stmt = ir.SpmdScopeStmt(8, body=ir.InCoreScopeStmt(body=body))
    assert show(stmt) == dedent("""
        with pl.spmd(8):
            with pl.at(level=pl.Level.CORE_GROUP):
                n
    """)


def test_unknown_scope_attr_is_an_internal_error():
    stmt = ir.ClusterScopeStmt(body=body, attrs={"mystery": 1})
    with pytest.raises(InternalError, match="ClusterScopeStmt carries attr 'mystery'"):
        ir.python_print(stmt)


def test_spmd_index_of_another_dtype_keeps_the_with_form():
    i = scalar("i", DT.INT32)
    get = ir.AssignStmt(i, op_call("tile.get_block_idx", [], ir.ScalarType(DT.INT32)))
    stmt = ir.SpmdScopeStmt(2, body=ir.InCoreScopeStmt(body=get))
    assert show(stmt) == dedent("""
        with pl.spmd(2):
            with pl.at(level=pl.Level.CORE_GROUP):
                i: pl.Scalar[pl.INT32] = pl.tile.get_block_idx()
    """)


def test_a_comm_domain_scope_has_no_dsl_spelling_and_says_so():
    # Built only by PyPTO's backend lowering; a hand-built one is refused by name, not
    # reported as a printer bug.
    region = ir.CommDomainScopeStmt([0, 1], [4], body=ir.SeqStmts([]))
    for node in (region, ir.SeqStmts([region])):
        with pytest.raises(ValueError, match="CommDomainScopeStmt has no DSL spelling.*"
                                             "MaterializeCommDomainScopes"):
            ir.python_print(node)

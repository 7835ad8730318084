"""Scopes (01-language.md §9.1-§9.3, §9.5): pl.at, pl.cluster, pl.spmd, pl.scope."""

from __future__ import annotations

import pytest

import pypto.language as pl
from pypto import ir
from pypto.language.parser.diagnostics import (ParserSyntaxError, ParserTypeError,
                                               UnsupportedFeatureError)

from _parser_helpers import (INDEX, SPAN, expect_error, expect_text_error, scalar,
                             stmts, tensor)

T4 = tensor([4])
TASK = scalar(ir.DataType.TASK_ID)


def seq(*items):
    return ir.SeqStmts.flatten(list(items))


def scope_text(body: str, extra_methods: str = "") -> str:
    """A one-method program whose method ``f`` has ``body`` (lines already indented by 8)."""
    return f"""\
import pypto.language as pl
@pl.program
class P:
{extra_methods}    @pl.function
    def f(self, n: pl.Scalar[pl.INDEX], x: pl.Tensor[[4], pl.FP32]):
{body}
"""


KERNEL = """\
    @pl.function(type=pl.FunctionType.InCore)
    def k(x: pl.Tensor[[4], pl.FP32]) -> pl.Tensor[[4], pl.FP32]:
        return x
"""


# -- pl.at ------------------------------------------------------------------------------------

def test_at_core_group_is_an_incore_scope_and_names_leak():
    @pl.function
    def f(x: pl.Tensor[[4], pl.FP32]) -> pl.Tensor[[4], pl.FP32]:
        with pl.at(level=pl.Level.CORE_GROUP, name_hint="body"):
            y = pl.add(x, x)
        return y

    (x,) = f.params
    y = ir.Var("y", T4, SPAN)
    scope = ir.InCoreScopeStmt(ir.SplitMode.NONE, "body",
                               body=ir.AssignStmt(y, pl.add(x, x), SPAN), span=SPAN)
    expected = ir.Function("f", [x], [T4], seq(scope, ir.ReturnStmt([y], SPAN)), SPAN)
    ir.assert_structural_equal(f, expected)
    assert stmts(f)[0].scope_kind is ir.ScopeKind.InCore


@pytest.mark.parametrize("level", ["AIV", "AIC", "CHIP_DIE", "CHIP", "HOST", "CLUSTER_0",
                                   "CLUSTER_1", "CLUSTER_2", "GLOBAL", "L2CACHE", "PROCESSOR",
                                   "UMA", "NODE", "POD", "CLOS1", "CLOS2"])
def test_at_other_levels_are_hierarchy_scopes(level):
    f = pl.parse(f"""\
import pypto.language as pl
@pl.function
def f(x: pl.Tensor[[4], pl.FP32]):
    with pl.at(level=pl.Level.{level}):
        y = pl.add(x, x)
""")
    scope = stmts(f)[0]
    assert isinstance(scope, ir.HierarchyScopeStmt)
    assert scope.level is getattr(ir.Level, level) and scope.role is None
    assert scope.scope_kind is ir.ScopeKind.Hierarchy


def test_at_positional_level_and_role_including_upper_case_role():
    @pl.function
    def f(x: pl.Tensor[[4], pl.FP32]):
        with pl.at(pl.Level.HOST, pl.Role.Orchestrator, name_hint="host"):
            y = pl.add(x, x)
        with pl.at(level=pl.Level.GLOBAL, role=pl.Role.ORCHESTRATOR):
            with pl.at(level=pl.Level.HOST):
                z = pl.add(x, x)

    (x,) = f.params
    first, second = stmts(f)
    ir.assert_structural_equal(first, ir.HierarchyScopeStmt(
        ir.Level.HOST, ir.Role.Orchestrator, "host",
        body=ir.AssignStmt(ir.Var("y", T4, SPAN), pl.add(x, x), SPAN), span=SPAN))
    assert second.role is ir.Role.Orchestrator and second.body.level is ir.Level.HOST


def test_at_with_every_option_and_task_id():
    @pl.function
    def f(n: pl.Scalar[pl.INDEX], x: pl.Tensor[[4], pl.FP32]) -> pl.Tensor[[4], pl.FP32]:
        t0 = pl.system.task_invalid()
        with pl.at(level=pl.Level.CORE_GROUP,
                   optimizations=[pl.split(pl.SplitMode.UP_DOWN), pl.cross_core_slot(slot_num=2)],
                   name_hint="kern", deps=[t0], no_dep_args=[x], dumps=[x],
                   allow_early_resolve=True, predicate=n > 0) as tid:
            y = pl.add(x, x)
        return y

    n, x = f.params
    t0_assign, tid_assign, scope, _ = stmts(f)
    t0 = t0_assign.var
    tid = tid_assign.var
    assert tid.name_hint == "tid" and tid.type == TASK_ID_TYPE
    assert tid_assign.value.op.name == "system.task_invalid"
    assert isinstance(scope, ir.InCoreScopeStmt)
    assert scope.split is ir.SplitMode.UP_DOWN and scope.name_hint == "kern"
    attrs = scope.attrs
    assert list(attrs) == ["manual_dep_edges", "arg_direction_overrides_vars", "dump_vars",
                           "task_id_var", "allow_early_resolve", "predicate", "slot_num"]
    assert attrs["manual_dep_edges"][0] is t0
    assert attrs["arg_direction_overrides_vars"][0] is x and attrs["dump_vars"][0] is x
    assert attrs["task_id_var"] is tid and attrs["allow_early_resolve"] is True
    ir.assert_structural_equal(attrs["predicate"], ir.gt(n, 0))
    assert attrs["slot_num"] == 2


TASK_ID_TYPE = TASK


def test_at_allow_early_resolve_false_is_not_stored():
    @pl.function
    def f(x: pl.Tensor[[4], pl.FP32]):
        with pl.at(level=pl.Level.CORE_GROUP, allow_early_resolve=False):
            y = pl.add(x, x)

    assert stmts(f)[0].attrs == {}


@pytest.mark.parametrize("header, fragment, token", [
    ("pl.at()", "pl.at() requires a level argument", "pl.at"),
    ("pl.at(role=pl.Role.Orchestrator)", "pl.at() requires a level argument", "pl.at"),
    ("pl.at(pl.Level.HOST, pl.Role.Orchestrator, 3)", "takes at most 2 positional argument(s)",
     "pl.at"),
    ("pl.at(pl.Level.HOST, level=pl.Level.HOST)", "got multiple values for argument 'level'",
     "level="),
    ("pl.at(level=pl.Level.HOST, colour=1)", "Unknown keyword argument 'colour' in pl.at()",
     "colour"),
    ("pl.at(level=pl.Level.HOST, **OPTIONS)", "**kwargs is not supported in pl.at()", "**"),
    ("pl.at(level=LEVEL)", "Expected pl.Level.<name>, got 'LEVEL'", "LEVEL"),
    ("pl.at(level=pl.Level.MOON)", "Unknown Level value: MOON", "pl.Level.MOON"),
    ("pl.at(level=pl.Level.HOST, role=pl.Role.Boss)", "Unknown Role value: Boss", "pl.Role"),
    ("pl.at(level=pl.Level.HOST, optimizations=[pl.split(pl.SplitMode.UP_DOWN)])",
     "only supported with level=pl.Level.CORE_GROUP", "["),
    ("pl.at(level=pl.Level.CORE_GROUP, role=pl.Role.Orchestrator)",
     "role= is not supported with level=pl.Level.CORE_GROUP", "pl.Role"),
    ("pl.at(level=pl.Level.HOST, role=pl.Role.SubWorker)",
     "Inline 'with pl.at(level>=HOST, role=pl.Role.SubWorker)' is not supported", "pl.at"),
    ("pl.at(level=pl.Level.POD, role=pl.Role.SubWorker)",
     "Inline 'with pl.at(level>=HOST, role=pl.Role.SubWorker)' is not supported", "pl.at"),
    ("pl.at(level=pl.Level.CORE_GROUP, name_hint='for')", "valid non-keyword identifier",
     "'for'"),
    ("pl.at(level=pl.Level.CORE_GROUP, name_hint='a b')", "valid non-keyword identifier",
     "'a b'"),
    ("pl.at(level=pl.Level.CORE_GROUP, name_hint=NAME)", "name_hint must be a string literal",
     "NAME"),
    ("pl.at(level=pl.Level.CORE_GROUP, optimizations=[pl.vectorize()])",
     "Unsupported optimization 'pl.vectorize()'", "pl.vectorize"),
    ("pl.at(level=pl.Level.CORE_GROUP, optimizations=[pl.cross_core_slot(slot_num=0)])",
     "pl.cross_core_slot() takes slot_num=<positive int>", "pl.cross_core_slot"),
    ("pl.at(level=pl.Level.CORE_GROUP, deps=n)", "deps= must be a list of variables", "n)"),
    ("pl.at(level=pl.Level.CORE_GROUP, dumps=[n + 1])", "dumps= entries must be variables", "n +"),
    ("pl.at(level=pl.Level.CORE_GROUP, allow_early_resolve=1)",
     "allow_early_resolve= must be True or False", "1)"),
])
def test_at_rejections(header, fragment, token):
    text = f"""\
import pypto.language as pl
OPTIONS = {{"name_hint": "x"}}
LEVEL = pl.Level.HOST
NAME = "k"
@pl.function
def f(n: pl.Scalar[pl.INDEX], x: pl.Tensor[[4], pl.FP32]):
    with {header}:  # @at
        y = pl.add(x, x)
"""
    err = expect_text_error(text, ParserSyntaxError, fragment, "at", token)
    if "SubWorker" in fragment:
        assert "role=pl.Role.SubWorker" in err.hint and "@pl.function(level=" in err.hint


def test_at_predicate_must_be_bool():
    with expect_error(ParserTypeError, "predicate condition must be a Bool-typed scalar", "pred",
                      "n)"):
        @pl.function
        def f(n: pl.Scalar[pl.INDEX], x: pl.Tensor[[4], pl.FP32]):
            with pl.at(level=pl.Level.CORE_GROUP, predicate=n):  # @pred
                y = pl.add(x, x)


def test_at_checks_run_in_order():
    # optimizations (check 2) is reported before the SubWorker rule (check 4).
    with expect_error(ParserSyntaxError, "only supported with level=pl.Level.CORE_GROUP",
                      "order", "["):
        @pl.function
        def f(x: pl.Tensor[[4], pl.FP32]):
            with pl.at(level=pl.Level.HOST, role=pl.Role.SubWorker, optimizations=[pl.split(pl.SplitMode.UP_DOWN)]):  # @order
                pass


def test_nested_hierarchy_levels_are_accepted():
    @pl.function
    def f(x: pl.Tensor[[4], pl.FP32]):
        with pl.at(level=pl.Level.GLOBAL):
            with pl.at(level=pl.Level.HOST):
                with pl.at(level=pl.Level.CORE_GROUP):
                    y = pl.add(x, x)

    inner = stmts(f)[0].body.body
    assert isinstance(inner, ir.InCoreScopeStmt) and isinstance(inner.body, ir.AssignStmt)


# -- with-statement shape ------------------------------------------------------------------------

@pytest.mark.parametrize("header, cls, fragment, token", [
    ("pl.scope(), pl.scope()", ParserSyntaxError, "Only single context manager supported",
     "with"),
    ("pl.foo()", UnsupportedFeatureError, "Unsupported context manager in with statement",
     "pl.foo"),
    ("open('x')", UnsupportedFeatureError, "Unsupported context manager in with statement",
     "open"),
    ("pl.scope() as s", ParserSyntaxError, "`as ...:` is not supported", "s:"),
    ("pl.cluster() as s", ParserSyntaxError, "`as ...:` is not supported", "s:"),
    ("pl.manual_scope() as s", ParserSyntaxError, "`as ...:` is not supported", "s:"),
    ("pl.scope", ParserSyntaxError, "pl.scope must be called", "pl.scope"),
])
def test_with_statement_rejections(header, cls, fragment, token):
    expect_text_error(f"""\
import pypto.language as pl
@pl.function
def f(x: pl.Tensor[[4], pl.FP32]):
    with {header}:  # @with
        pass
""", cls, fragment, "with", token)


# -- pl.cluster ----------------------------------------------------------------------------------

def test_cluster_scope():
    @pl.function
    def f(x: pl.Tensor[[4], pl.FP32]) -> pl.Tensor[[4], pl.FP32]:
        with pl.cluster(name_hint="grp"):
            y = pl.add(x, x)
        with pl.cluster(dumps=[y]):
            pass
        return y

    (x,) = f.params
    first, second, _ = stmts(f)
    y = ir.Var("y", T4, SPAN)
    ir.assert_structural_equal(first, ir.ClusterScopeStmt(
        "grp", body=ir.AssignStmt(y, pl.add(x, x), SPAN), span=SPAN))
    assert second.attrs["dump_vars"][0] is first.body.var
    assert second.scope_kind is ir.ScopeKind.Cluster


@pytest.mark.parametrize("header, fragment, token", [
    ("pl.cluster(3)", "pl.cluster() takes at most 0 positional argument(s)", "pl.cluster"),
    ("pl.cluster(deps=[n])", "Unknown keyword argument 'deps' in pl.cluster()", "deps"),
])
def test_cluster_rejections(header, fragment, token):
    expect_text_error(f"""\
import pypto.language as pl
@pl.function
def f(n: pl.Scalar[pl.INDEX]):
    with {header}:  # @cluster
        pass
""", ParserSyntaxError, fragment, "cluster", token)


# -- pl.spmd -------------------------------------------------------------------------------------

def test_spmd_with_a_kernel_dispatch():
    p = pl.parse(scope_text("""\
        with pl.spmd(8, sync_start=True, name_hint="launch"):
            y = self.k(x)""", KERNEL))
    scope = stmts(p.get_function("f"))[0]
    assert isinstance(scope, ir.SpmdScopeStmt)
    assert scope.core_num.value == 8 and scope.sync_start is True
    assert scope.name_hint == "launch"
    assert isinstance(scope.body, ir.AssignStmt) and scope.body.value.op.name == "k"


def test_spmd_inline_block_is_wrapped_in_an_incore_scope():
    @pl.function
    def f(x: pl.Tensor[[4], pl.FP32]):
        with pl.spmd(4, name_hint="blk"):
            b = pl.tile.get_block_idx()
            y = pl.add(x, x)

    (x,) = f.params
    b, y = ir.Var("b", scalar(INDEX), SPAN), ir.Var("y", T4, SPAN)
    inner = ir.InCoreScopeStmt(ir.SplitMode.NONE, "blk", body=seq(
        ir.AssignStmt(b, pl.tile.get_block_idx(), SPAN),
        ir.AssignStmt(y, pl.add(x, x), SPAN)), span=SPAN)
    expected = ir.SpmdScopeStmt(4, False, "blk_spmd", body=inner, span=SPAN)
    ir.assert_structural_equal(stmts(f)[0], expected)


def test_spmd_for_form():
    @pl.function
    def f(x: pl.Tensor[[4], pl.FP32], n: pl.Scalar[pl.INDEX]):
        for i in pl.spmd(n, name_hint="k",
                         optimizations=[pl.split(pl.SplitMode.LEFT_RIGHT)]):
            y = pl.add(x, x)

    x, n = f.params
    i, y = ir.Var("i", scalar(INDEX), SPAN), ir.Var("y", T4, SPAN)
    inner = ir.InCoreScopeStmt(ir.SplitMode.LEFT_RIGHT, "k", body=seq(
        ir.AssignStmt(i, pl.tile.get_block_idx(), SPAN),
        ir.AssignStmt(y, pl.add(x, x), SPAN)), span=SPAN)
    expected = ir.SpmdScopeStmt(n, False, "k_spmd", body=inner, span=SPAN)
    ir.assert_structural_equal(stmts(f)[0], expected)


def test_spmd_unnamed_for_form_keeps_names_empty():
    @pl.function
    def f(x: pl.Tensor[[4], pl.FP32]):
        for i in pl.spmd(2):
            y = pl.add(x, x)

    scope = stmts(f)[0]
    assert scope.name_hint == "" and scope.body.name_hint == ""


def test_spmd_with_explicit_incore_carrier_and_task_id():
    @pl.function
    def f(x: pl.Tensor[[4], pl.FP32]):
        with pl.spmd(4) as tid:
            with pl.at(level=pl.Level.CORE_GROUP, optimizations=[pl.split(pl.SplitMode.UP_DOWN)]):
                b = pl.tile.get_block_idx()

    placeholder, scope = stmts(f)
    assert placeholder.var.type == TASK and scope.attrs["task_id_var"] is placeholder.var
    assert isinstance(scope.body, ir.InCoreScopeStmt) and scope.body.split is ir.SplitMode.UP_DOWN


def test_spmd_block_index_through_unified_op():
    @pl.function
    def f(x: pl.Tensor[[4], pl.FP32]):
        with pl.spmd(4):
            b = pl.get_block_idx()

    assert isinstance(stmts(f)[0].body, ir.InCoreScopeStmt)


@pytest.mark.parametrize("header, body, fragment, token", [
    ("pl.spmd()", ["b = pl.tile.get_block_idx()"], "pl.spmd() requires core_num", "pl.spmd"),
    ("pl.spmd(4, 2)", ["b = pl.tile.get_block_idx()"],
     "pl.spmd() takes at most 1 positional argument(s), got 2", "pl.spmd"),
    ("pl.spmd(2.5)", ["b = pl.tile.get_block_idx()"],
     "pl.spmd() core_num must be an integer expression", "2.5"),
    ("pl.spmd(x)", ["b = pl.tile.get_block_idx()"],
     "pl.spmd() core_num must be an integer expression", "x)"),
    ("pl.spmd(0)", ["b = pl.tile.get_block_idx()"], "pl.spmd() core_num must be positive, got 0",
     "0"),
    ("pl.spmd(-2)", ["b = pl.tile.get_block_idx()"],
     "pl.spmd() core_num must be positive, got -2", "-2"),
    ("pl.spmd(4, sync_start=n)", ["b = pl.tile.get_block_idx()"],
     "sync_start= must be True or False", "n)"),
    ("pl.spmd(4, role=1)", ["b = pl.tile.get_block_idx()"],
     "Unknown keyword argument 'role' in pl.spmd()", "role"),
    ("pl.spmd(4)", ["y = pl.add(x, x)"],
     "neither reads the per-block index nor dispatches a kernel", "with"),
    ("pl.spmd(4)", ["y = self.k(x)", "z = self.k(y)"], "launches 2 kernels", "with"),
    ("pl.spmd(4, optimizations=[pl.split(pl.SplitMode.UP_DOWN)])", ["y = self.k(x)"],
     "optimizations= belongs on the InCore scope", "["),
    ("pl.spmd(4, optimizations=[pl.split(pl.SplitMode.UP_DOWN)])",
     ["with pl.at(level=pl.Level.CORE_GROUP, optimizations=[pl.split(pl.SplitMode.UP_DOWN)]):",
      "    b = pl.tile.get_block_idx()"], "optimizations= specified twice", "["),
    ("pl.spmd(4, optimizations=[pl.split(pl.SplitMode.UP_DOWN)])",
     ["with pl.at(level=pl.Level.CORE_GROUP):", "    b = pl.tile.get_block_idx()"],
     "optimizations= belongs on the InCore scope", "["),
])
def test_spmd_rejections(header, body, fragment, token):
    lines = "\n".join("            " + line for line in body)
    expect_text_error(scope_text(f"""\
        with {header}:  # @spmd
{lines}""", KERNEL), ParserSyntaxError, fragment, "spmd", token)


@pytest.mark.parametrize("option", ["deps=[t0]", "allow_early_resolve=True", "predicate=n > 0"])
def test_spmd_dispatch_options_rejected_inside_cluster(option):
    key = option.split("=")[0]
    expect_text_error(scope_text(f"""\
        t0 = pl.system.task_invalid()
        with pl.cluster():
            with pl.spmd(4, {option}):  # @in-cluster
                b = pl.tile.get_block_idx()"""), ParserSyntaxError,
                      f"pl.spmd() inside pl.cluster() does not take {key}=", "in-cluster",
                      option.split("=", 1)[1])


def test_spmd_options_allowed_outside_cluster():
    p = pl.parse(scope_text("""\
        t0 = pl.system.task_invalid()
        with pl.spmd(4, deps=[t0], allow_early_resolve=True, predicate=n > 0):
            b = pl.tile.get_block_idx()"""))
    scope = stmts(p.get_function("f"))[1]
    assert list(scope.attrs) == ["manual_dep_edges", "allow_early_resolve", "predicate"]


def test_spmd_for_needs_a_single_name():
    expect_text_error(scope_text("""\
        for i, j in pl.spmd(4):  # @spmd-for
            pass"""), ParserSyntaxError, "`for <name> in pl.spmd(n):` needs a single name",
                      "spmd-for", "i, j")


# -- pl.scope / pl.manual_scope ---------------------------------------------------------------------

def test_runtime_scopes():
    @pl.function(auto_scope=False)
    def f(x: pl.Tensor[[4], pl.FP32]) -> pl.Tensor[[4], pl.FP32]:
        with pl.scope():
            y = pl.add(x, x)
        with pl.scope(mode=pl.ScopeMode.MANUAL, name_hint="m"):
            z = pl.add(y, x)
        with pl.scope(mode=pl.ScopeMode.AUTO):
            pass
        with pl.manual_scope():
            pass
        return z

    a, b, c, d, _ = stmts(f)
    assert [(s.manual, s.name_hint) for s in (a, b, c, d)] == [
        (False, ""), (True, "m"), (False, ""), (True, "")]
    assert all(s.scope_kind is ir.ScopeKind.Runtime for s in (a, b, c, d))
    assert stmts(f)[-1].value[0] is b.body.var


@pytest.mark.parametrize("header, fragment, token", [
    ("pl.scope(mode=MODE)", "Expected pl.ScopeMode.<name>", "MODE"),
    ("pl.scope(mode=pl.ScopeMode.LAZY)", "Unknown ScopeMode value: LAZY", "pl.ScopeMode"),
    ("pl.manual_scope(mode=pl.ScopeMode.AUTO)",
     "Unknown keyword argument 'mode' in pl.manual_scope()", "mode"),
    ("pl.scope(1, 2)", "pl.scope() takes at most 1 positional argument(s)", "pl.scope"),
    ("pl.scope(1)", "Expected pl.ScopeMode.<name>", "1"),
])
def test_runtime_scope_rejections(header, fragment, token):
    expect_text_error(f"""\
import pypto.language as pl
MODE = pl.ScopeMode.MANUAL
@pl.function
def f(x: pl.Tensor[[4], pl.FP32]):
    with {header}:  # @rt
        pass
""", ParserSyntaxError, fragment, "rt", token)


def test_hand_placed_scope_in_a_graph_function_needs_auto_scope_off():
    """As PyPTO (conformance 1646): a Graph function is an orchestration body too."""
    expect_text_error("""\
import pypto.language as pl
@pl.function(type=pl.FunctionType.Graph, level=pl.Level.CHIP, role=pl.Role.Orchestrator)
def g(x: pl.Tensor[[4], pl.FP32]) -> pl.Tensor[[4], pl.FP32]:
    with pl.scope():  # @scope
        y = pl.add(x, x)
    return y
""", ParserSyntaxError, "a hand-placed AUTO 'with pl.scope()' requires @pl.function(auto_scope=False)",
                      "scope", "with pl.scope():")
    text = """\
import pypto.language as pl
@pl.function(type=pl.FunctionType.Graph, level=pl.Level.CHIP, role=pl.Role.Orchestrator, auto_scope=False)
def g(x: pl.Tensor[[4], pl.FP32]) -> pl.Tensor[[4], pl.FP32]:
    with pl.scope():
        y = pl.add(x, x)
    return y
"""
    assert stmts(pl.parse(text))[0].scope_kind is ir.ScopeKind.Runtime

"""pypto.ir.utils: statement lists, definitions, yields, substitution, cloning (02-ir.md §16)."""

from __future__ import annotations

import pytest

from pypto import ir
from pypto.ir.utils import child_stmts

from .samples import BOOL, FP32, INDEX, SPAN, accumulate_function, const, op, scalar, seq, var


def ev(value=0):
    return ir.EvalStmt(const(value), SPAN)


class Collect(ir.IRVisitor):
    """Every Expr and Stmt object reachable from a node."""

    def __init__(self):
        self.nodes = []

    def visit_expr(self, op):
        self.nodes.append(op)
        super().visit_expr(op)

    def visit_stmt(self, op):
        self.nodes.append(op)
        super().visit_stmt(op)


def reachable(node):
    collector = Collect()
    collector(node)
    return collector.nodes


# -- flatten_to_stmts / child_stmts ------------------------------------------------------------

def test_flatten_to_stmts():
    a, b, c = ev(1), ev(2), ev(3)
    nested = ir.SeqStmts([a, ir.SeqStmts([b, ir.SeqStmts([c], SPAN)], SPAN)], SPAN)
    assert ir.flatten_to_stmts(nested) == [a, b, c]
    assert ir.flatten_to_stmts(a) == [a]
    assert ir.flatten_to_stmts(ir.SeqStmts([], SPAN)) == []
    assert ir.flatten_to_stmts(None) == []
    with pytest.raises(TypeError, match="flatten_to_stmts expects a Stmt, got Var"):
        ir.flatten_to_stmts(var())


def test_child_stmts_in_field_order():
    a, b = ev(1), ev(2)
    if_ = ir.IfStmt(var("c", BOOL), a, b, [], SPAN)
    assert child_stmts(if_) == [a, b]
    assert child_stmts(ir.SeqStmts([a, b], SPAN)) == [a, b]
    assert child_stmts(ir.GraphScopeStmt("g", body=a, span=SPAN)) == [a]
    assert child_stmts(a) == []


# -- collect_def_vars -------------------------------------------------------------------------

def test_collect_def_vars_pre_order():
    x, i, j, y, z, w, r1, r2, r3 = (var(n) for n in ("x", "i", "j", "y", "z", "w", "r1", "r2",
                                                     "r3"))
    acc = ir.IterArg("acc", scalar(), x, SPAN)
    wacc = ir.IterArg("wacc", scalar(), x, SPAN)
    inner = ir.ForStmt(j, 0, 2, 1, [], ir.AssignStmt(y, j, SPAN), [], SPAN)
    branch = ir.IfStmt(var("c", BOOL), ir.YieldStmt([x], SPAN), ir.YieldStmt([x], SPAN), [r2],
                       SPAN)
    outer = ir.ForStmt(i, 0, 4, 1, [acc], seq(inner, branch, ir.YieldStmt([acc], SPAN)), [r1],
                       SPAN)
    wloop = ir.WhileStmt(ir.Lt(wacc, const(3), BOOL, SPAN), [wacc],
                         seq(ir.AssignStmt(z, wacc, SPAN), ir.YieldStmt([z], SPAN)), [r3], SPAN)
    scope = ir.GraphScopeStmt("g", body=ir.AssignStmt(w, x, SPAN), span=SPAN)
    func = ir.Function("f", [x], [], seq(outer, wloop, scope), SPAN)
    assert ir.collect_def_vars(func) == [x, i, acc, j, y, r2, r1, wacc, z, r3, w]
    assert ir.collect_def_vars(outer) == [i, acc, j, y, r2, r1]
    assert ir.collect_def_vars(ev()) == []


def test_collect_def_vars_lists_a_redefined_var_once():
    x = var("x")
    block = seq(ir.AssignStmt(x, const(1), SPAN), ir.AssignStmt(x, const(2), SPAN))
    assert ir.collect_def_vars(block) == [x]
    with pytest.raises(TypeError, match="collect_def_vars expects a Stmt or Function, got Var"):
        ir.collect_def_vars(x)


# -- yields -------------------------------------------------------------------------------------

def test_last_yield_of_a_body():
    y = ir.YieldStmt([const(1)], SPAN)
    assert ir.get_last_yield_stmt(seq(ev(), y)) is y
    assert ir.find_yield_stmt(seq(ev(), y)) is y
    assert ir.get_last_yield_stmt(y) is y
    assert ir.get_last_yield_stmt(seq(ev(), ev())) is None
    assert ir.get_last_yield_stmt(None) is None and ir.find_yield_stmt(None) is None
    assert ir.get_last_yield_stmt(ir.SeqStmts([], SPAN)) is None


def test_runtime_scopes_are_transparent_other_scopes_and_control_flow_are_not():
    y = ir.YieldStmt([const(1)], SPAN)
    runtime = ir.RuntimeScopeStmt(body=seq(ev(), y), span=SPAN)
    assert ir.get_last_yield_stmt(seq(ev(), runtime)) is y
    assert ir.find_yield_stmt(seq(ev(), runtime)) is y
    graph = ir.GraphScopeStmt("g", body=y, span=SPAN)
    assert ir.get_last_yield_stmt(graph) is None and ir.find_yield_stmt(graph) is None
    nested_if = ir.IfStmt(var("c", BOOL), y, None, [], SPAN)
    assert ir.get_last_yield_stmt(seq(ev(), nested_if)) is None
    assert ir.find_yield_stmt(seq(ev(), nested_if)) is None
    loop = ir.ForStmt(var("i"), 0, 2, 1, [], y, [], SPAN)
    assert ir.find_yield_stmt(loop) is None


def test_find_reports_a_misplaced_yield():
    early, late = ir.YieldStmt([const(1)], SPAN), ir.YieldStmt([const(2)], SPAN)
    body = seq(early, ev())
    assert ir.find_yield_stmt(body) is early and ir.get_last_yield_stmt(body) is None
    assert ir.find_yield_stmt(seq(early, late)) is early
    assert ir.get_last_yield_stmt(seq(early, late)) is late


# -- substitution ---------------------------------------------------------------------------------

def test_substitute_expr_replaces_by_identity():
    x, y, z = var("x"), var("y"), var("z")
    one = const(1)
    expr = ir.Mul(ir.Add(x, one, INDEX, SPAN), ir.Add(y, const(1), INDEX, SPAN), INDEX, SPAN)
    out = ir.substitute_expr(expr, {x: z, one: const(9)})
    assert out.left.left is z and out.left.right.value == 9
    assert out.right is expr.right  # structurally equal `1` elsewhere is not replaced
    assert ir.substitute_expr(expr, [(var("other"), z)]) is expr


def test_substitution_is_simultaneous():
    x, y = var("x"), var("y")
    out = ir.substitute_expr(ir.Add(x, y, INDEX, SPAN), [(x, y), (y, x)])
    assert out.left is y and out.right is x


def test_substitute_whole_subexpressions():
    x = var("x")
    inner = ir.Add(x, const(1), INDEX, SPAN)
    replacement = var("t")
    out = ir.substitute_expr(ir.Mul(inner, inner, INDEX, SPAN), {inner: replacement})
    assert out.left is replacement and out.right is replacement


def test_substitute_stmt_replaces_uses_and_definitions():
    x, y, z, w = var("x"), var("y"), var("z"), var("w")
    block = seq(ir.AssignStmt(y, ir.Add(x, x, INDEX, SPAN), SPAN), ir.ReturnStmt([y], SPAN))
    out = ir.substitute_stmt(block, {x: z, y: w})
    assert out[0].var is w and out[0].value.left is z and out[1].value[0] is w
    assert block[0].var is y  # the input is untouched
    with pytest.raises(TypeError, match="AssignStmt field 'var' must hold Vars, but item 0 was "
                                        "mutated into a ConstInt"):
        ir.substitute_stmt(block, {y: const(3)})


def test_substituting_a_dim_remints_dependent_vars():
    n, m = var("n"), var("m")
    t = ir.Var("t", ir.TensorType([n, 8], FP32), SPAN)
    block = seq(ir.EvalStmt(ir.Call(op(), [t], SPAN), SPAN), ir.ReturnStmt([t], SPAN))
    out = ir.substitute_stmt(block, {n: m})
    fresh = out[0].expr.args[0]
    assert fresh is not t and fresh.type.shape[0] is m and out[1].value[0] is fresh


def test_substitute_rejects_bad_pairs():
    x = var("x")
    with pytest.raises(TypeError, match=r"substitute_expr: pairs\[0\] must map an Expr to an "
                                        r"Expr, got \(Var, int\)"):
        ir.substitute_expr(x, {x: 3})
    with pytest.raises(TypeError, match=r"substitute_stmt: pairs\[0\] must be an \(old, new\) "
                                        r"pair"):
        ir.substitute_stmt(ev(), [x])
    with pytest.raises(TypeError, match="substitute_expr expects an Expr, got EvalStmt"):
        ir.substitute_expr(ev(), {})
    with pytest.raises(TypeError, match="substitute_stmt expects a Stmt, got Var"):
        ir.substitute_stmt(x, {})


# -- deep_clone -------------------------------------------------------------------------------------

def test_deep_clone_shares_no_node_and_remints_definitions():
    func = accumulate_function()
    body = func.body
    clone, def_map = ir.deep_clone(body)
    ir.assert_structural_equal(clone, body)  # definitions bind, so strict mode holds
    old_ids = {id(n) for n in reachable(body)}
    free = {id(p) for p in func.params}
    shared = [n for n in reachable(clone) if id(n) in old_ids and id(n) not in free]
    assert shared == []
    defs = ir.collect_def_vars(body)
    assert list(def_map) == defs
    for old, new in def_map.items():
        assert new is not old and new.name_hint == old.name_hint and new.type == old.type
        assert type(new) is type(old)
    assert ir.collect_def_vars(clone) == [def_map[v] for v in defs]


def test_deep_clone_remints_iter_args_with_cloned_inits():
    x = var("x")
    acc = ir.IterArg("acc", scalar(), ir.Add(x, const(1), INDEX, SPAN), SPAN)
    loop = ir.ForStmt(var("i"), 0, 4, 1, [acc], ir.YieldStmt([acc], SPAN), [var("r")], SPAN)
    clone, def_map = ir.deep_clone(loop)
    new_acc = clone.iter_args[0]
    assert def_map[acc] is new_acc and new_acc.initValue is not acc.initValue
    assert new_acc.initValue.left is x  # the free var in the init is kept
    assert clone.body.value[0] is new_acc


def test_deep_clone_var_map_substitutes_uses():
    func = accumulate_function()
    (x,) = func.params
    arg = ir.Mul(var("a"), const(2), INDEX, SPAN)
    clone, def_map = ir.deep_clone(func.body, {x: arg})
    loop = clone[0]
    assert loop.iter_args[0].initValue is arg
    assert x not in def_map


def test_deep_clone_names_fresh_vars():
    func = accumulate_function()
    clone, def_map = ir.deep_clone(func.body, name_of=lambda v: f"{v.name_hint}_inline7")
    assert sorted(v.name_hint for v in def_map.values()) == [
        "acc_inline7", "acc_rv_inline7", "i_inline7", "nxt_inline7"]
    assert clone[1].value[0].name_hint == "acc_rv_inline7"


def test_deep_clone_reassigned_param_reads_the_argument_first():
    x = var("x")
    block = seq(ir.AssignStmt(x, ir.Add(x, const(1), INDEX, SPAN), SPAN),
                ir.ReturnStmt([x], SPAN))
    arg = const(41)
    clone, def_map = ir.deep_clone(block, [(x, arg)])
    fresh = def_map[x]
    assert clone[0].var is fresh and clone[0].value.left is arg
    assert clone[1].value[0] is fresh


def test_deep_clone_function_and_expr():
    func = accumulate_function()
    clone, def_map = ir.deep_clone(func)
    assert clone is not func and clone.params[0] is def_map[func.params[0]]
    ir.assert_structural_equal(clone, func)
    x = var("x")
    expr = ir.Add(x, const(1), INDEX, SPAN)
    expr_clone, expr_map = ir.deep_clone(expr)
    assert expr_clone is not expr and expr_clone.left is x and expr_map == {}
    assert expr_clone.right is not expr.right
    with pytest.raises(TypeError, match="deep_clone expects a Stmt, Expr or Function, got int"):
        ir.deep_clone(3)


def test_deep_clone_keeps_comments_spans_and_scope_fields():
    inner = ir.attach_leading_comments(ir.AssignStmt(var("y"), const(1), SPAN), ["keep me"])
    scope = ir.SpmdScopeStmt(4, True, "s", body=seq(inner, ir.BreakStmt(SPAN)), span=SPAN,
                             attrs={"slot_num": 2})
    clone, _ = ir.deep_clone(scope)
    assert (clone.name_hint, clone.sync_start, clone.attrs, clone.span) == ("s", True,
                                                                            {"slot_num": 2}, SPAN)
    assert clone.body[0].leading_comments == ("keep me",) and clone.body[0] is not inner
    assert clone.body[1] is not scope.body[1]

"""IRVisitor and IRMutator (02-ir.md §15)."""

from __future__ import annotations

import pytest

from pypto import ir
from pypto.ir.expr import BINARY_CLASSES, UNARY_CLASSES

from .samples import BOOL, FP32, INDEX, SPAN, accumulate_function, const, op, scalar, seq, var
from .test_nodes import sample_nodes

TASK = ir.DataType.TASK_ID


class Recorder(ir.IRVisitor):
    """Logs every node reaching visit_expr / visit_stmt, in order."""

    def __init__(self):
        self.log = []

    def visit_expr(self, op):
        self.log.append(op)
        super().visit_expr(op)

    def visit_stmt(self, op):
        self.log.append(op)
        super().visit_stmt(op)


def visit_order(node):
    rec = Recorder()
    rec(node)
    return rec.log


def same_objects(actual, expected):
    return len(actual) == len(expected) and all(a is b for a, b in zip(actual, expected))


# -- dispatch --------------------------------------------------------------------------------

@pytest.mark.parametrize("node", [n for n in sample_nodes()
                                  if not isinstance(n, (ir.Function, ir.Program))],
                         ids=lambda n: type(n).__name__)
def test_dispatch_uses_the_snake_case_class_hook(node):
    seen = []
    hook = type(node)._visit_name

    class V(ir.IRVisitor):
        pass

    def record(self, op):
        seen.append(op)
    setattr(V, hook, record)
    V()(node)
    assert seen and seen[0] is node

    class M(ir.IRMutator):
        pass
    replacement = ir.BreakStmt(SPAN) if isinstance(node, ir.Stmt) else const(7)
    setattr(M, hook, lambda self, op: replacement)
    assert M()(node) is replacement


def test_method_names_of_the_spec_exist():
    names = ("visit_program visit_function visit_expr visit_stmt visit_binary_expr "
             "visit_unary_expr visit_var visit_iter_arg visit_const_int visit_const_float "
             "visit_const_bool visit_call visit_submit visit_make_tuple "
             "visit_tuple_get_item_expr visit_assign_stmt visit_if_stmt visit_for_stmt "
             "visit_while_stmt visit_in_core_scope_stmt visit_cluster_scope_stmt "
             "visit_graph_scope_stmt visit_hierarchy_scope_stmt visit_spmd_scope_stmt "
             "visit_runtime_scope_stmt visit_seq_stmts visit_yield_stmt visit_return_stmt "
             "visit_eval_stmt visit_break_stmt visit_continue_stmt visit_inline_stmt").split()
    per_class = [c._visit_name for c in BINARY_CLASSES + UNARY_CLASSES]
    assert "visit_add" in per_class and "visit_cast" in per_class
    for name in names + per_class:
        assert callable(getattr(ir.IRVisitor, name)), name
        assert callable(getattr(ir.IRMutator, name)), name
    assert callable(ir.IRVisitor.visit_var_like)


def test_non_nodes_are_rejected_with_type_error():
    with pytest.raises(TypeError, match="IRVisitor cannot visit int"):
        ir.IRVisitor()(3)
    with pytest.raises(TypeError, match="Recorder.visit_expr: expected an IR Expr, got str"):
        Recorder().visit_expr("x")
    with pytest.raises(TypeError, match="IRMutator.visit_stmt: expected an IR Stmt, got NoneType"):
        ir.IRMutator().visit_stmt(None)


# -- group hooks and overrides at depth ----------------------------------------------------------

def test_group_hooks_see_every_binary_and_unary_class():
    x = var("x")
    exprs = [cls(x, x, INDEX, SPAN) for cls in BINARY_CLASSES]
    exprs += [cls(x, INDEX, SPAN) for cls in UNARY_CLASSES]
    seen = []

    class V(ir.IRVisitor):
        def visit_binary_expr(self, op):
            seen.append(("binary", type(op)))
            super().visit_binary_expr(op)

        def visit_unary_expr(self, op):
            seen.append(("unary", type(op)))
            super().visit_unary_expr(op)

    for expr in exprs:
        V()(expr)
    assert seen == [("binary", c) for c in BINARY_CLASSES] + [("unary", c) for c in UNARY_CLASSES]


def test_a_class_hook_overrides_its_group_hook():
    x = var("x")
    seen = []

    class V(ir.IRVisitor):
        def visit_binary_expr(self, op):
            seen.append("group")
            super().visit_binary_expr(op)

        def visit_add(self, op):
            seen.append("add")
            super().visit_add(op)

    V()(ir.Sub(ir.Add(x, x, INDEX, SPAN), x, INDEX, SPAN))
    assert seen == ["group", "add", "group"]


def test_scope_group_hook_covers_every_scope_kind():
    body = ir.EvalStmt(var(), SPAN)
    scopes = [ir.InCoreScopeStmt(body=body, span=SPAN), ir.ClusterScopeStmt(body=body, span=SPAN),
              ir.HierarchyScopeStmt(ir.Level.HOST, body=body, span=SPAN),
              ir.SpmdScopeStmt(2, body=body, span=SPAN), ir.RuntimeScopeStmt(body=body, span=SPAN),
              ir.GraphScopeStmt("g", body=body, span=SPAN)]
    seen = []

    class V(ir.IRVisitor):
        def visit_scope_stmt(self, op):
            seen.append(type(op))
            super().visit_scope_stmt(op)

    V()(seq(*scopes))
    assert seen == [type(s) for s in scopes]


def test_overrides_are_seen_at_every_depth():
    x = var("x")
    deep = ir.EvalStmt(ir.Call(op(), [ir.Add(x, const(1), INDEX, SPAN)], SPAN), SPAN)
    for _ in range(5):
        deep = ir.GraphScopeStmt("g", body=ir.ForStmt(var("i"), 0, 2, 1, [], deep, [], SPAN),
                                 span=SPAN)
    hits = []

    class V(ir.IRVisitor):
        def visit_var(self, op):
            hits.append(op)

    V()(deep)
    assert sum(1 for h in hits if h is x) == 1 and len(hits) == 6  # x and five loop vars

    class M(ir.IRMutator):
        def visit_const_int(self, op):
            return const(op.value + 100)

    result = M()(deep)
    inner = result
    for _ in range(5):
        inner = inner.body.body
    assert inner.expr.args[0].right.value == 101


# -- visit orders (§15.2) -------------------------------------------------------------------------

def test_program_visits_functions_in_name_order():
    fs = [accumulate_function(n) for n in ("zeta", "alpha", "mid")]
    seen = []

    class V(ir.IRVisitor):
        def visit_function(self, op):
            seen.append(op.name)

    V()(ir.Program(fs, "P", SPAN))
    assert seen == ["alpha", "mid", "zeta"]


def test_function_order_params_attr_exprs_body():
    x, y, n = var("x"), var("y"), var("n")
    body = ir.ReturnStmt([x], SPAN)
    func = ir.Function("f", [x, y], [], body, SPAN, attrs={"e": n, "k": 1})
    assert same_objects(visit_order(func), [x, y, n, body, x])


def test_var_like_order():
    n = var("n")
    t = ir.Var("t", ir.TensorType([n, 4], FP32), SPAN)
    log = visit_order(t)
    assert log[0] is t and log[1] is n and isinstance(log[2], ir.ConstInt) and len(log) == 3
    tile = ir.Var("u", ir.TileType([n], FP32), SPAN)
    assert same_objects(visit_order(tile), [tile])  # only TensorType dims are visited
    init = const(0)
    it = ir.IterArg("acc", ir.TensorType([n], FP32), init, SPAN)
    assert same_objects(visit_order(it), [it, n, init])


def test_expression_orders():
    a, b, c, d, p = var("a"), var("b"), var("c"), var("d"), var("p", BOOL)
    call = ir.Call(op(), [a, b], {}, {"dump_vars": [c, 1], "v": d}, scalar(), SPAN)
    assert same_objects(visit_order(call), [call, a, b, c, d])
    sub = ir.Submit(op(), [a], [b], ir.TupleType([scalar(TASK)]), SPAN, core_num=c, predicate=p,
                    attrs={"x": d})
    assert same_objects(visit_order(sub), [sub, a, b, c, p, d])
    tup = ir.MakeTuple([a, b], SPAN)
    get = ir.TupleGetItemExpr(tup, 1, SPAN)
    assert same_objects(visit_order(get), [get, tup, a, b])
    add = ir.Add(a, b, INDEX, SPAN)
    assert same_objects(visit_order(add), [add, a, b])
    neg = ir.Neg(a, INDEX, SPAN)
    assert same_objects(visit_order(neg), [neg, a])


def test_statement_orders():
    a, b, c, cond = var("a"), var("b"), var("c"), var("cond", BOOL)
    assign = ir.AssignStmt(a, b, SPAN)
    assert same_objects(visit_order(assign), [assign, a, b])
    then_, else_, rv = ir.YieldStmt([a], SPAN), ir.YieldStmt([b], SPAN), var("rv")
    if_ = ir.IfStmt(cond, then_, else_, [rv], SPAN)
    assert same_objects(visit_order(if_), [if_, cond, then_, a, else_, b, rv])
    i, start, stop, step = var("i"), var("s0"), var("s1"), var("s2")
    acc = ir.IterArg("acc", scalar(), c, SPAN)
    body, rv2 = ir.YieldStmt([acc], SPAN), var("rv2")
    loop = ir.ForStmt(i, start, stop, step, [acc], body, [rv2], SPAN)
    # every visit of an IterArg (definition or use) continues into its init
    assert same_objects(visit_order(loop),
                        [loop, i, start, stop, step, acc, c, body, acc, c, rv2])
    ret, ev = ir.ReturnStmt([a, b], SPAN), ir.EvalStmt(c, SPAN)
    block = seq(ret, ev)
    assert same_objects(visit_order(block), [block, ret, a, b, ev, c])


def test_while_order_is_condition_iter_args_body_return_vars():
    c = var("c")
    acc = ir.IterArg("acc", scalar(), c, SPAN)
    cond = ir.Lt(acc, const(3), BOOL, SPAN)
    body, rv = ir.YieldStmt([acc], SPAN), var("rv")
    loop = ir.WhileStmt(cond, [acc], body, [rv], SPAN)
    log = visit_order(loop)
    three = cond.right
    assert same_objects(log, [loop, cond, acc, c, three, acc, c, body, acc, c, rv])


def test_scope_orders():
    n, d, x = var("n"), var("d"), var("x")
    body = ir.EvalStmt(x, SPAN)
    spmd = ir.SpmdScopeStmt(n, body=body, span=SPAN, attrs={"dump_vars": [d]})
    assert same_objects(visit_order(spmd), [spmd, n, d, body, x])
    graph = ir.GraphScopeStmt("g", body=body, span=SPAN, attrs={"predicate": d})
    assert same_objects(visit_order(graph), [graph, d, body, x])


def test_leaves_visit_nothing_else():
    for leaf in (ir.BreakStmt(SPAN), ir.ContinueStmt(SPAN), ir.InlineStmt("x", ir.InlineLanguage.Python, SPAN),
                 const(1), ir.ConstFloat(1.0, FP32, SPAN), ir.ConstBool(True, SPAN)):
        assert same_objects(visit_order(leaf), [leaf])


# -- mutator copy-on-write --------------------------------------------------------------------------

@pytest.mark.parametrize("node", sample_nodes(), ids=lambda n: type(n).__name__)
def test_identity_mutator_returns_the_same_object(node):
    assert ir.IRMutator()(node) is node


def test_identity_mutator_on_a_program():
    prog = ir.Program([accumulate_function("a"), accumulate_function("b")], "P", SPAN)
    assert ir.IRMutator()(prog) is prog
    assert ir.IRMutator().visit_program(prog) is prog


class BumpConst(ir.IRMutator):
    def __init__(self, target):
        super().__init__()
        self.target = target

    def visit_const_int(self, op):
        return const(op.value + 1) if op is self.target else op


def test_only_the_changed_path_is_rebuilt():
    x = var("x")
    c = const(5)
    keep = ir.EvalStmt(x, SPAN)
    change = ir.attach_leading_comments(ir.EvalStmt(ir.Add(x, c, INDEX, SPAN), SPAN), ["note"])
    loop = ir.ForStmt(var("i"), 0, 4, 1, [], seq(keep, change), [], SPAN, ir.ForKind.Unroll,
                      {"k": 1})
    func = ir.Function("f", [x], [], loop, SPAN, type=ir.FunctionType.InCore,
                       attrs={"split": ir.SplitMode.UP_DOWN}, requires_runtime_binding=True)
    prog = ir.Program([func, accumulate_function("g")], "P", SPAN)
    new_prog = BumpConst(c)(prog)
    assert new_prog is not prog and new_prog["g"] is prog["g"]
    new_func = new_prog["f"]
    assert (new_func.name, new_func.func_type, new_func.level, new_func.role, new_func.attrs,
            new_func.requires_runtime_binding, new_func.param_directions) == (
        "f", func.func_type, func.level, func.role, func.attrs, True, func.param_directions)
    new_loop = new_func.body
    assert new_loop is not loop and new_loop.loop_var is loop.loop_var
    assert (new_loop.kind, new_loop.attrs, new_loop.span) == (ir.ForKind.Unroll, {"k": 1}, SPAN)
    assert new_loop.body[0] is keep
    new_change = new_loop.body[1]
    assert new_change.leading_comments == ("note",) and new_change.expr.left is x
    assert new_change.expr.right.value == 6


def test_var_remap_table():
    x, y = var("x"), var("y")
    stmt = seq(ir.EvalStmt(x + 1, SPAN), ir.ReturnStmt([x], SPAN))
    mut = ir.IRMutator()
    mut.var_remap[x] = y
    out = mut(stmt)
    assert out[0].expr.left is y and out[1].value[0] is y


def test_var_is_reminted_when_its_type_changes():
    n, m = var("n"), var("m")
    t = ir.Var("t", ir.TensorType([n], FP32), SPAN)
    stmt = seq(ir.EvalStmt(ir.Call(op(), [t], SPAN), SPAN), ir.ReturnStmt([t], SPAN))
    mut = ir.IRMutator()
    mut.var_remap[n] = m
    out = mut(stmt)
    fresh = out[0].expr.args[0]
    assert fresh is not t and fresh.name_hint == "t" and fresh.type.shape[0] is m
    assert out[1].value[0] is fresh  # remembered: every use gets the same new Var
    assert mut.var_remap[t] is fresh


def test_iter_arg_is_reminted_when_its_init_changes_and_mapped_in_the_body():
    x, y = var("x"), var("y")
    acc = ir.IterArg("acc", scalar(), x, SPAN)
    loop = ir.ForStmt(var("i"), 0, 4, 1, [acc], ir.YieldStmt([acc], SPAN), [var("r")], SPAN)
    mut = ir.IRMutator()
    mut.var_remap[x] = y
    out = mut(loop)
    new_acc = out.iter_args[0]
    assert new_acc is not acc and new_acc.initValue is y and new_acc.name_hint == "acc"
    assert out.body.value[0] is new_acc


def test_seq_stmts_results_are_reflattened():
    a, b, c = (ir.EvalStmt(const(i), SPAN) for i in range(3))

    class Expand(ir.IRMutator):
        def visit_eval_stmt(self, op):
            if op is b:
                return ir.SeqStmts([c, c], SPAN)
            if op is c:
                return ir.SeqStmts([], SPAN)
            return op

    out = Expand()(ir.SeqStmts([a, b, c], SPAN))
    assert isinstance(out, ir.SeqStmts) and same_objects(out.stmts, [a, c, c])
    single = Expand()(ir.SeqStmts([a, c], SPAN))
    assert single is a  # a single remaining statement is unwrapped


def test_definition_fields_must_stay_vars():
    x = var("x")

    class Bad(ir.IRMutator):
        def visit_var(self, op):
            return const(0) if op is x else op

    with pytest.raises(TypeError, match="AssignStmt field 'var' must hold Vars"):
        Bad()(ir.AssignStmt(x, const(1), SPAN))
    with pytest.raises(TypeError, match="ForStmt field 'loop_var' must hold Vars"):
        Bad()(ir.ForStmt(x, 0, 1, 1, [], ir.BreakStmt(SPAN), [], SPAN))
    with pytest.raises(TypeError, match="Function 'f' field 'params' must hold Vars"):
        Bad()(ir.Function("f", [x], [], ir.BreakStmt(SPAN), SPAN))


def test_spmd_core_num_is_mutated_before_the_scope_hook():
    n, m = var("n"), var("m")
    scope = ir.SpmdScopeStmt(n, body=ir.EvalStmt(n, SPAN), span=SPAN)
    seen = []

    class M(ir.IRMutator):
        def visit_scope_stmt(self, op):
            seen.append(op.core_num)
            return super().visit_scope_stmt(op)

    mut = M()
    mut.var_remap[n] = m
    out = mut(scope)
    assert seen == [m] and out.core_num is m and out.body.expr is m


def test_wrap_every_graph_region():
    inner = ir.GraphScopeStmt("layer", body=ir.EvalStmt(var(), SPAN), span=SPAN)
    func = ir.Function("f", [], [], seq(inner, ir.ReturnStmt(SPAN)), SPAN)

    class Wrap(ir.IRMutator):
        def visit_graph_scope_stmt(self, op):
            return ir.GraphScopeStmt("outer", body=op, span=op.span)

    out = Wrap()(func)
    wrapped = out.body[0]
    assert isinstance(wrapped, ir.GraphScopeStmt) and wrapped.name_hint == "outer"
    assert wrapped.body is inner and out.body[1] is func.body[1]
    assert out.name == "f"

"""IR node constructors, fields, immutability and validation (02-ir.md §1, §4-§9)."""

from __future__ import annotations

import pytest

from pypto import ir
from pypto.ir.expr import BINARY_CLASSES, UNARY_CLASSES
from pypto.ir.node import IRNode

from .samples import BOOL, FP16, FP32, INDEX, INT32, INT64, SPAN, accumulate_function, const, \
    op, scalar, var


ABSTRACT = {IRNode, ir.Expr, ir.Stmt, ir.BinaryExpr, ir.UnaryExpr, ir.ScopeStmt}


def all_node_classes():
    """Every concrete IRNode class defined by pypto (abstract bases excluded)."""
    out, stack = set(), [IRNode]
    while stack:
        cls = stack.pop()
        stack.extend(cls.__subclasses__())
        if cls not in ABSTRACT and cls.__module__.startswith("pypto."):
            out.add(cls)
    return sorted(out, key=lambda c: c.__name__)


def sample_nodes():
    """One instance of every concrete node class."""
    x = var("x")
    body = ir.EvalStmt(x, SPAN)
    nodes = [
        x, ir.IterArg("a", scalar(), x, SPAN), const(1), ir.ConstFloat(1.0, FP32, SPAN),
        ir.ConstBool(True, SPAN), ir.Call(op(), [x], SPAN), ir.MakeTuple([x], SPAN),
        ir.TupleGetItemExpr(ir.MakeTuple([x], SPAN), 0, SPAN),
        ir.Submit(op(), [x], [], ir.TupleType([scalar(DT_TASK)]), SPAN),
        ir.AssignStmt(var("y"), x, SPAN), body, ir.ReturnStmt([x], SPAN),
        ir.YieldStmt([x], SPAN), ir.SeqStmts([body, body], SPAN),
        ir.IfStmt(x, body, None, [], SPAN), ir.ForStmt(var("i"), 0, 4, 1, [], body, [], SPAN),
        ir.WhileStmt(x, [], body, [], SPAN), ir.BreakStmt(SPAN), ir.ContinueStmt(SPAN),
        ir.InlineStmt("pass", ir.InlineLanguage.Python, SPAN),
        ir.InCoreScopeStmt(body=body, span=SPAN), ir.ClusterScopeStmt(body=body, span=SPAN),
        ir.HierarchyScopeStmt(ir.Level.HOST, body=body, span=SPAN),
        ir.SpmdScopeStmt(4, body=body, span=SPAN), ir.RuntimeScopeStmt(body=body, span=SPAN),
        ir.GraphScopeStmt("g", body=body, span=SPAN),
        ir.SplitAivScopeStmt(ir.SplitMode.UP_DOWN, body=body, span=SPAN),
        ir.CommDomainScopeStmt([0, 1], [0], body=body, span=SPAN),
        ir.WindowBuffer("buf", 64, span=SPAN),
        ir.Function("f", [x], [], body, SPAN),
    ]
    nodes.append(ir.Program([nodes[-1]], "p", SPAN))
    nodes += [cls(x, x, INDEX, SPAN) for cls in BINARY_CLASSES]
    nodes += [cls(x, INDEX, SPAN) for cls in UNARY_CLASSES]
    return nodes


DT_TASK = ir.DataType.TASK_ID


# -- node basics -------------------------------------------------------------------------

def test_sample_nodes_cover_every_concrete_class():
    assert {type(n) for n in sample_nodes()} == set(all_node_classes())


@pytest.mark.parametrize("node", sample_nodes(), ids=lambda n: type(n).__name__)
def test_every_node_is_immutable(node):
    for name, _kind in type(node)._fields:
        with pytest.raises(AttributeError, match="is immutable"):
            setattr(node, name, None)
    with pytest.raises(AttributeError, match="is immutable"):
        node.span = SPAN
    with pytest.raises(AttributeError):
        node.brand_new_attribute = 1
    for name, _kind in type(node)._fields:
        value = getattr(node, name)
        assert not isinstance(value, list), f"{type(node).__name__}.{name} must be a tuple"


@pytest.mark.parametrize("node", sample_nodes(), ids=lambda n: type(n).__name__)
def test_every_node_has_identity_hash_and_a_visitor_hook(node):
    assert hash(node) == object.__hash__(node)
    assert {node: 1}[node] == 1
    assert type(node)._visit_name.startswith("visit_")
    assert node.same_as(node)


def test_visit_hook_names_are_snake_case():
    assert ir.TupleGetItemExpr._visit_name == "visit_tuple_get_item_expr"
    assert ir.GraphScopeStmt._visit_name == "visit_graph_scope_stmt"
    assert ir.InCoreScopeStmt._visit_name == "visit_in_core_scope_stmt"
    assert ir.BitShiftLeft._visit_name == "visit_bit_shift_left"
    assert ir.IterArg._visit_name == "visit_iter_arg"


def test_str_is_the_printer_output():
    stmt = ir.AssignStmt(var("y"), ir.Add(var("x"), const(1), INDEX, SPAN), SPAN)
    assert str(stmt) == stmt.as_python() == ir.python_print(stmt)


def test_var_identity_is_the_object_not_the_name():
    a, b = var("x"), var("x")
    assert not a.same_as(b)
    assert b.unique_id > a.unique_id
    assert len({a, b}) == 2


def test_expr_equality_operator_builds_ir():
    a, b = var("a"), var("b")
    assert isinstance(a == b, ir.Eq)
    assert isinstance(a != b, ir.Ne)


def test_attach_leading_comments_is_the_one_in_place_mutation():
    stmt = ir.EvalStmt(var(), SPAN)
    assert stmt.leading_comments == ()
    assert ir.attach_leading_comments(stmt, ["note", "more"]) is stmt
    assert stmt.leading_comments == ("note", "more")
    with pytest.raises(ValueError, match="SeqStmts cannot carry comments"):
        ir.attach_leading_comments(ir.SeqStmts([stmt, stmt], SPAN), ["x"])
    with pytest.raises(TypeError, match="expects a Stmt"):
        ir.attach_leading_comments(var(), ["x"])
    with pytest.raises(TypeError, match="field 'comments' expects a list of str"):
        ir.attach_leading_comments(stmt, "not a list")


def test_replace_copies_other_fields_and_keeps_comments():
    x, y = var("x"), var("y")
    stmt = ir.attach_leading_comments(ir.AssignStmt(y, x, SPAN), ["c"])
    new = stmt.replace(value=const(2))
    assert new is not stmt and new.var is y and new.span is SPAN
    assert new.leading_comments == ("c",) and new.value.value == 2
    assert stmt.value is x
    seq_ = ir.SeqStmts([stmt, stmt], SPAN).replace(stmts=[stmt])
    assert seq_.stmts == (stmt,)  # lists become tuples
    with pytest.raises(TypeError, match=r"AssignStmt.replace: unknown field 'nope'"):
        stmt.replace(nope=1)


def test_replace_on_var_mints_a_new_variable():
    x = var("x")
    y = x.replace(type=scalar(INT32))
    assert y.unique_id != x.unique_id and y.name_hint == "x" and y.type == scalar(INT32)
    arg = ir.IterArg("a", scalar(INT32), x, SPAN)
    again = arg.replace(initValue=y)  # a subclass of Var: its own fields, a new id too
    assert type(again) is ir.IterArg and again.initValue is y and again.name_hint == "a"
    assert again.unique_id != arg.unique_id
    assert x.replace(unique_id=x.unique_id).unique_id != x.unique_id  # never an old id


def test_replace_takes_private_fields_by_either_name_and_fields_named_like_builtins():
    x = var("x")
    scope = ir.InCoreScopeStmt(body=ir.EvalStmt(x, SPAN), span=SPAN, attrs={"k": 1})
    assert scope.replace(attrs={"a": 2})._attrs == {"a": 2}
    assert scope.replace(_attrs={"b": 3})._attrs == {"b": 3}
    assert scope.replace(body=ir.EvalStmt(x, SPAN))._attrs == {"k": 1}
    pair = ir.MakeTuple([x, x], SPAN)
    item = ir.TupleGetItemExpr(pair, 0, SPAN)
    other = ir.MakeTuple([x], SPAN)
    moved = item.replace(tuple=other, index=0)  # fields called `tuple` and `type`
    assert moved.tuple is other and moved.type is item.type and moved.span is SPAN
    with pytest.raises(TypeError, match=r"TupleGetItemExpr.replace: unknown field 'tuples'"):
        item.replace(tuples=other)


# -- types ---------------------------------------------------------------------------------

def test_types_constructors_and_fields():
    t = ir.TensorType([64, 128], FP32)
    assert isinstance(t, ir.ShapedType)
    assert [d.value for d in t.shape] == [64, 128]
    assert all(isinstance(d, ir.ConstInt) and d.dtype is INDEX for d in t.shape)
    assert (t.dtype, t.memref, t.tensor_view) == (FP32, None, None)
    tile = ir.TileType([16, 16], FP16, memory_space=ir.Mem.Vec)
    assert isinstance(tile, ir.ShapedType)
    assert (tile.memory_space, tile.tile_view, tile.memref) == (ir.Mem.Vec, None, None)
    assert ir.ScalarType(INT64).dtype is INT64
    assert ir.TupleType([t, tile]).types == (t, tile)
    assert ir.UnknownType.get() is ir.UnknownType.get()


def test_types_compare_and_hash_structurally():
    n = var("n")
    a, b = ir.TensorType([n, 4], FP32), ir.TensorType([n, 4], FP32)
    assert a == b and hash(a) == hash(b) and {a: 1}[b] == 1
    assert a != ir.TensorType([var("n"), 4], FP32)   # a different dim Var
    assert ir.TensorType([4], FP32) != ir.TensorType([4], FP16)
    assert ir.TileType([4], FP32, memory_space=ir.Mem.Vec) != ir.TileType([4], FP32)
    assert ir.UnknownType() == ir.UnknownType.get()
    assert ir.TupleType([]) == ir.TupleType(())
    assert ir.ScalarType(FP32) != "fp32"


def test_view_records_compare_by_fields():
    assert ir.TensorView([1, 2], ir.TensorLayout.DN) == ir.TensorView([1, 2], ir.TensorLayout.DN)
    assert ir.TensorView([1, 2]) != ir.TensorView([1, 3])
    assert ir.TileView(valid_shape=[4]) == ir.TileView(valid_shape=[4])
    assert ir.TileView(pad=ir.PadValue.zero) != ir.TileView()


def test_type_validation_names_the_field():
    with pytest.raises(TypeError, match=r"TensorType: field 'shape\[1\]' expects int or Expr, "
                                        r"got str"):
        ir.TensorType([1, "2"], FP32)
    with pytest.raises(TypeError, match=r"TensorType: field 'shape\[0\]' expects int or Expr, "
                                        r"got bool"):
        ir.TensorType([True], FP32)
    with pytest.raises(TypeError, match="TileType: field 'dtype' expects DataType, got str"):
        ir.TileType([1], "fp32")
    with pytest.raises(TypeError, match="ScalarType: field 'dtype' expects DataType"):
        ir.ScalarType(None)
    with pytest.raises(TypeError, match=r"TupleType: field 'types\[0\]' expects Type"):
        ir.TupleType([FP32])
    with pytest.raises(TypeError, match="TensorType: field 'shape' expects a list"):
        ir.TensorType(3, FP32)


# -- variables and constants ----------------------------------------------------------------

def test_var_and_iter_arg():
    x = ir.Var("x", scalar(), SPAN)
    assert (x.name_hint, x.type, x.span) == ("x", scalar(), SPAN)
    it = ir.IterArg("acc", scalar(), x, SPAN)
    assert isinstance(it, ir.Var) and it.initValue is x
    with pytest.raises(TypeError, match="IterArg: field 'initValue' expects Expr, got int"):
        ir.IterArg("acc", scalar(), 0, SPAN)
    with pytest.raises(TypeError, match="Var: field 'type' expects Type, got DataType"):
        ir.Var("x", INDEX, SPAN)
    with pytest.raises(TypeError, match="Var: field 'name_hint' expects str"):
        ir.Var(1, scalar(), SPAN)


def test_global_var_is_an_op_not_an_expr():
    g = ir.GlobalVar("kernel")
    assert isinstance(g, ir.Op) and not isinstance(g, ir.Expr)
    assert g.name == "kernel" and g == ir.GlobalVar("kernel") and g != ir.GlobalVar("other")
    assert hash(g) == hash(ir.GlobalVar("kernel"))


def test_constants():
    c = ir.ConstInt(42, INT32, SPAN)
    assert (c.value, c.dtype, c.type) == (42, INT32, scalar(INT32))
    f = ir.ConstFloat(1.5, FP16, SPAN)
    assert (f.value, f.dtype, f.type) == (1.5, FP16, scalar(FP16))
    assert ir.ConstFloat(2, FP32, SPAN).value == 2.0
    b = ir.ConstBool(True, SPAN)
    assert (b.value, b.dtype, b.type) == (True, BOOL, scalar(BOOL))
    with pytest.raises(TypeError, match="ConstInt: field 'value' expects int, got bool"):
        ir.ConstInt(True, INT32, SPAN)
    with pytest.raises(TypeError, match="ConstInt: field 'value' expects int, got float"):
        ir.ConstInt(1.0, INT32, SPAN)
    with pytest.raises(TypeError, match="ConstFloat: field 'value' expects float, got str"):
        ir.ConstFloat("1", FP32, SPAN)
    with pytest.raises(TypeError, match="ConstBool: field 'value' expects bool, got int"):
        ir.ConstBool(1, SPAN)


# -- scalar operators ------------------------------------------------------------------------

@pytest.mark.parametrize("cls", BINARY_CLASSES, ids=lambda c: c.__name__)
def test_binary_constructor(cls):
    a, b = var("a", INT32), var("b", INT64)  # raw constructors do not check operands
    node = cls(a, b, FP32, SPAN)
    assert isinstance(node, ir.BinaryExpr)
    assert (node.left, node.right, node.dtype, node.type, node.span) == (a, b, FP32,
                                                                          scalar(FP32), SPAN)
    with pytest.raises(TypeError, match=f"{cls.__name__}: field 'right' expects Expr, got int"):
        cls(a, 1, INT32, SPAN)


@pytest.mark.parametrize("cls", UNARY_CLASSES, ids=lambda c: c.__name__)
def test_unary_constructor(cls):
    a = var("a", INT32)
    node = cls(a, FP16, SPAN)
    assert isinstance(node, ir.UnaryExpr)
    assert (node.operand, node.dtype, node.type) == (a, FP16, scalar(FP16))
    with pytest.raises(TypeError, match=f"{cls.__name__}: field 'dtype' expects DataType"):
        cls(a, "fp16", SPAN)


def test_operator_bases_are_abstract():
    with pytest.raises(TypeError, match="BinaryExpr is abstract"):
        ir.BinaryExpr(var(), var(), INDEX, SPAN)
    with pytest.raises(TypeError, match="UnaryExpr is abstract"):
        ir.UnaryExpr(var(), INDEX, SPAN)


# -- calls and tuples --------------------------------------------------------------------------

def test_call_five_constructor_forms():
    x, t = var("x"), scalar(FP32)
    kw, attrs = {"mode": "round"}, {"core_num": 4}
    forms = [
        (ir.Call(op(), [x], SPAN), {}, {}, ir.UnknownType()),
        (ir.Call(op(), [x], t, SPAN), {}, {}, t),
        (ir.Call(op(), [x], kw, SPAN), kw, {}, ir.UnknownType()),
        (ir.Call(op(), [x], kw, t, SPAN), kw, {}, t),
        (ir.Call(op(), [x], kw, attrs, t, SPAN), kw, attrs, t),
    ]
    for call, kwargs, call_attrs, call_type in forms:
        assert call.args == (x,) and call.span is SPAN and call.op.name == "tensor.add"
        assert call.kwargs == kwargs and call.attrs == call_attrs and call.type == call_type
    assert [name for name, _ in ir.Call._fields] == ["type", "op", "args", "attrs", "kwargs"]


def test_call_dict_properties_are_copies():
    call = ir.Call(op(), [], {"a": 1}, {"b": 2}, scalar(), SPAN)
    call.kwargs["a"] = 99
    call.attrs["c"] = 3
    assert call.kwargs == {"a": 1} and call.attrs == {"b": 2}


def test_call_kwargs_keep_their_order():
    call = ir.Call(op(), [], {"z": 1, "a": 2}, SPAN)
    assert list(call.kwargs) == ["z", "a"]


def test_call_arg_directions():
    x, y = var("x"), var("y")
    dirs = [ir.ArgDirection.Input, ir.ArgDirection.Output]
    call = ir.Call(op(), [x, y], {}, {"arg_directions": dirs}, scalar(), SPAN)
    assert call.arg_directions == dirs
    assert ir.Call(op(), [x], SPAN).arg_directions == []
    with pytest.raises(ValueError, match=r"attrs\['arg_directions'\] has 1 entries but the call "
                                         r"has 2 args"):
        ir.Call(op(), [x, y], {}, {"arg_directions": dirs[:1]}, scalar(), SPAN)


def test_call_validation_names_the_field():
    with pytest.raises(TypeError, match="Call: field 'op' expects Op or GlobalVar, got str"):
        ir.Call("tensor.add", [], SPAN)
    with pytest.raises(TypeError, match=r"Call: field 'args\[1\]' expects Expr, got int"):
        ir.Call(op(), [var(), 1], SPAN)
    with pytest.raises(TypeError, match="Call: field 'kwargs key' expects str, got int"):
        ir.Call(op(), [], {1: 2}, SPAN)
    with pytest.raises(TypeError, match="Call: unexpected argument of type int"):
        ir.Call(op(), [], 5, SPAN)


def test_call_with_global_var():
    call = ir.Call(ir.GlobalVar("callee"), [var()], scalar(), SPAN)
    assert isinstance(call.op, ir.GlobalVar) and call.op.name == "callee"


def test_make_tuple_and_get_item():
    x, y = var("x"), var("y", FP32)
    tup = ir.MakeTuple([x, y], SPAN)
    assert tup.elements == (x, y) and tup.type == ir.TupleType([scalar(), scalar(FP32)])
    item = ir.TupleGetItemExpr(tup, 1, SPAN)
    assert (item.tuple, item.index, item.type) == (tup, 1, scalar(FP32))
    with pytest.raises(ValueError, match="TupleGetItemExpr: index 2 out of range for a tuple "
                                         "of 2 element"):
        ir.TupleGetItemExpr(tup, 2, SPAN)
    with pytest.raises(ValueError, match="TupleGetItemExpr: index -1 out of range"):
        ir.TupleGetItemExpr(tup, -1, SPAN)
    with pytest.raises(ValueError, match="TupleGetItemExpr: field 'tuple' must have a "
                                         "TupleType"):
        ir.TupleGetItemExpr(x, 0, SPAN)
    with pytest.raises(TypeError, match="TupleGetItemExpr: field 'index' expects int"):
        ir.TupleGetItemExpr(tup, "0", SPAN)


def test_submit():
    x, dep = var("x"), var("tid", DT_TASK)
    result_type = ir.TupleType([scalar(FP32), scalar(DT_TASK)])
    sub = ir.Submit(ir.GlobalVar("k"), [x], [dep], result_type, SPAN, core_num=4,
                    sync_start=True, attrs={"a": 1}, kwargs={"k": 2})
    assert (sub.args, sub.deps, sub.type, sub.core_num.value, sub.sync_start,
            sub.allow_early_resolve, sub.predicate) == ((x,), (dep,), result_type, 4, True,
                                                         False, None)
    assert sub.attrs == {"a": 1} and sub.kwargs == {"k": 2}
    assert [name for name, _ in ir.Submit._fields] == [
        "type", "op", "args", "deps", "core_num", "sync_start", "allow_early_resolve",
        "predicate", "attrs", "kwargs"]
    with pytest.raises(TypeError, match="Submit: field 'sync_start' expects bool"):
        ir.Submit(ir.GlobalVar("k"), [], [], result_type, SPAN, sync_start=1)


# -- statements ---------------------------------------------------------------------------

def test_assign_and_eval():
    x, y = var("x"), var("y")
    assign = ir.AssignStmt(y, x, SPAN)
    assert (assign.var, assign.value, assign.span, assign.leading_comments) == (y, x, SPAN, ())
    assert ir.EvalStmt(x, SPAN).expr is x
    with pytest.raises(TypeError, match="AssignStmt: field 'var' expects Var, got ConstInt"):
        ir.AssignStmt(const(1), x, SPAN)
    with pytest.raises(TypeError, match="EvalStmt: field 'expr' expects Expr, got NoneType"):
        ir.EvalStmt(None, SPAN)


@pytest.mark.parametrize("cls", [ir.ReturnStmt, ir.YieldStmt])
def test_return_and_yield_forms(cls):
    x, y = var("x"), var("y")
    full = cls([x, y], SPAN)
    assert full.value == (x, y) and full.span is SPAN
    span_only = cls(SPAN)
    assert span_only.value == () and span_only.span is SPAN
    assert cls().value == () and not cls().span.is_valid()
    with pytest.raises(TypeError, match=rf"{cls.__name__}: field 'value\[0\]' expects Expr"):
        cls([1], SPAN)


def test_seq_stmts_indexing_and_flatten():
    a, b, c = (ir.EvalStmt(const(i), SPAN) for i in range(3))
    s = ir.SeqStmts([a, b, c], SPAN)
    assert s[0] is a and s[-1] is c and len(s) == 3 and list(s) == [a, b, c]
    nested = ir.SeqStmts([a, ir.SeqStmts([b, ir.SeqStmts([c], SPAN)], SPAN)], SPAN)
    flat = ir.SeqStmts.flatten([nested])
    assert isinstance(flat, ir.SeqStmts) and flat.stmts == (a, b, c)
    assert ir.SeqStmts.flatten([ir.SeqStmts([a], SPAN)]) is a
    empty = ir.SeqStmts.flatten([])
    assert isinstance(empty, ir.SeqStmts) and empty.stmts == ()
    assert ir.SeqStmts.flatten([ir.SeqStmts([], SPAN), ir.SeqStmts([], SPAN)]).stmts == ()
    with pytest.raises(TypeError, match="SeqStmts.flatten: field 'stmts' expects Stmt"):
        ir.SeqStmts.flatten([a, var()])


def test_if_stmt():
    c, x, r = var("c", BOOL), var("x"), var("r")
    then_ = ir.YieldStmt([x], SPAN)
    node = ir.IfStmt(c, then_, ir.YieldStmt([const(0)], SPAN), [r], SPAN)
    assert (node.condition, node.then_body, node.return_vars) == (c, then_, (r,))
    assert ir.IfStmt(c, then_, None, [], SPAN).else_body is None
    assert [(n, k.name) for n, k in ir.IfStmt._fields] == [
        ("condition", "USUAL"), ("then_body", "USUAL"), ("else_body", "USUAL"),
        ("return_vars", "DEF")]
    with pytest.raises(TypeError, match=r"IfStmt: field 'return_vars\[0\]' expects Var"):
        ir.IfStmt(c, then_, None, [const(1)], SPAN)


def test_for_stmt():
    i, x, rv = var("i"), var("x"), var("rv")
    acc = ir.IterArg("acc", scalar(), x, SPAN)
    body = ir.YieldStmt([acc], SPAN)
    loop = ir.ForStmt(i, 0, 8, 2, [acc], body, [rv], SPAN, ir.ForKind.Pipeline,
                      {"pipeline_stages": 2})
    assert loop.loop_var is i and [b.value for b in (loop.start, loop.stop, loop.step)] == [0, 8, 2]
    assert loop.start.dtype is INDEX
    assert (loop.iter_args, loop.return_vars, loop.kind) == ((acc,), (rv,), ir.ForKind.Pipeline)
    assert loop.attrs == {"pipeline_stages": 2}
    default = ir.ForStmt(i, 0, 8, 1, [], ir.EvalStmt(x, SPAN), [], SPAN)
    assert default.kind is ir.ForKind.Sequential and default.attrs == {}
    assert [(n, k.name) for n, k in ir.ForStmt._fields] == [
        ("loop_var", "DEF"), ("start", "USUAL"), ("stop", "USUAL"), ("step", "USUAL"),
        ("iter_args", "DEF"), ("body", "USUAL"), ("return_vars", "DEF"), ("kind", "USUAL"),
        ("attrs", "USUAL")]
    with pytest.raises(ValueError, match="ForStmt: 1 iter_args but 0 return_vars"):
        ir.ForStmt(i, 0, 8, 1, [acc], body, [], SPAN)
    with pytest.raises(TypeError, match=r"ForStmt: field 'iter_args\[0\]' expects IterArg, got Var"):
        ir.ForStmt(i, 0, 8, 1, [x], body, [rv], SPAN)
    with pytest.raises(TypeError, match="ForStmt: field 'stop' expects Expr or int, got str"):
        ir.ForStmt(i, 0, "8", 1, [], body, [], SPAN)


def test_while_stmt():
    x, rv = var("x"), var("rv")
    acc = ir.IterArg("acc", scalar(), x, SPAN)
    cond = ir.Lt(acc, const(10), BOOL, SPAN)
    loop = ir.WhileStmt(cond, [acc], ir.YieldStmt([acc], SPAN), [rv], SPAN)
    assert (loop.condition, loop.iter_args, loop.return_vars) == (cond, (acc,), (rv,))
    assert [(n, k.name) for n, k in ir.WhileStmt._fields] == [
        ("iter_args", "DEF"), ("condition", "USUAL"), ("body", "USUAL"), ("return_vars", "DEF")]
    with pytest.raises(ValueError, match="WhileStmt: 0 iter_args but 1 return_vars"):
        ir.WhileStmt(cond, [], ir.YieldStmt(SPAN), [rv], SPAN)


def test_break_continue_inline():
    assert ir.BreakStmt(SPAN).span is SPAN and ir.ContinueStmt(SPAN).span is SPAN
    inline = ir.InlineStmt("print(1)", ir.InlineLanguage.Python, SPAN)
    assert (inline.body, inline.language) == ("print(1)", ir.InlineLanguage.Python)
    with pytest.raises(TypeError, match="InlineStmt: field 'body' expects str"):
        ir.InlineStmt(3, ir.InlineLanguage.Python, SPAN)


# -- scopes ---------------------------------------------------------------------------------

def test_scope_stmt_is_abstract():
    with pytest.raises(TypeError, match="ScopeStmt is abstract"):
        ir.ScopeStmt(body=ir.BreakStmt(SPAN), span=SPAN)


def test_scope_constructors_fields_and_kinds():
    body = ir.EvalStmt(var(), SPAN)
    incore = ir.InCoreScopeStmt(ir.SplitMode.UP_DOWN, "k", body=body, span=SPAN)
    cluster = ir.ClusterScopeStmt("c", body=body, span=SPAN)
    hier = ir.HierarchyScopeStmt(ir.Level.HOST, ir.Role.Orchestrator, "h", body=body, span=SPAN)
    spmd = ir.SpmdScopeStmt(8, True, "s", body=body, span=SPAN)
    runtime = ir.RuntimeScopeStmt(True, "r", body=body, span=SPAN)
    graph = ir.GraphScopeStmt("layer", body=body, span=SPAN)
    assert incore.split is ir.SplitMode.UP_DOWN and incore.name_hint == "k"
    assert (hier.level, hier.role) == (ir.Level.HOST, ir.Role.Orchestrator)
    assert ir.HierarchyScopeStmt(ir.Level.CHIP, body=body, span=SPAN).role is None
    assert isinstance(spmd.core_num, ir.ConstInt) and spmd.core_num.value == 8
    assert spmd.core_num.dtype is INDEX and spmd.sync_start is True
    assert runtime.manual is True and graph.name_hint == "layer"
    kinds = [s.scope_kind for s in (incore, cluster, hier, spmd, runtime, graph)]
    assert kinds == [ir.ScopeKind.InCore, ir.ScopeKind.Cluster, ir.ScopeKind.Hierarchy,
                     ir.ScopeKind.Spmd, ir.ScopeKind.Runtime, ir.ScopeKind.Graph]
    for scope in (incore, cluster, hier, spmd, runtime, graph):
        assert isinstance(scope, ir.ScopeStmt) and scope.body is body and scope.attrs == {}
        assert [name for name, _ in type(scope)._fields][:3] == ["name_hint", "body", "attrs"]
    defaults = ir.InCoreScopeStmt(body=body, span=SPAN)
    assert (defaults.split, defaults.name_hint) == (ir.SplitMode.NONE, "")


def test_scope_body_and_span_are_positional_as_in_pypto():
    # 02-ir.md §7 had them keyword-only; PyPTO's constructors take them positionally
    # (issue 13: PyPTO's parameter kinds), and attrs stays keyword-only.
    scope = ir.ClusterScopeStmt("c", ir.BreakStmt(SPAN), SPAN)
    assert isinstance(scope.body, ir.BreakStmt) and scope.span is SPAN
    with pytest.raises(TypeError):
        ir.ClusterScopeStmt("c", ir.BreakStmt(SPAN), SPAN, {"a": 1})  # type: ignore[misc]


def test_scope_attrs_property_is_a_dict_copy():
    scope = ir.ClusterScopeStmt(body=ir.BreakStmt(SPAN), span=SPAN, attrs={"slot_num": 2})
    scope.attrs["slot_num"] = 3
    assert scope.attrs == {"slot_num": 2}


def test_graph_scope_requires_a_non_empty_name():
    body = ir.BreakStmt(SPAN)
    # Deliberate tightening of 02-ir.md §7 ("the constructor accepts an empty name"):
    # an unnamed graph region can never be valid, so it is rejected at construction.
    with pytest.raises(ValueError, match="GraphScopeStmt: field 'name_hint' must not be empty"):
        ir.GraphScopeStmt("", body=body, span=SPAN)
    with pytest.raises(TypeError):
        ir.GraphScopeStmt(body=body, span=SPAN)  # name is required
    with pytest.raises(TypeError, match="GraphScopeStmt: field 'name_hint' expects str"):
        ir.GraphScopeStmt(None, body=body, span=SPAN)


def test_scope_validation_names_the_field():
    body = ir.BreakStmt(SPAN)
    with pytest.raises(TypeError, match="HierarchyScopeStmt: field 'level' expects Level"):
        ir.HierarchyScopeStmt("HOST", body=body, span=SPAN)
    with pytest.raises(TypeError, match="SpmdScopeStmt: field 'core_num' expects Expr or int"):
        ir.SpmdScopeStmt("8", body=body, span=SPAN)
    with pytest.raises(TypeError, match="InCoreScopeStmt: field 'body' expects Stmt"):
        ir.InCoreScopeStmt(body=var(), span=SPAN)


# -- function ---------------------------------------------------------------------------------

def test_function_fields_and_param_forms():
    x, y = var("x"), var("y")
    body = ir.ReturnStmt([x], SPAN)
    func = ir.Function("f", [x, (y, ir.ParamDirection.Out)], [scalar()], body, SPAN)
    assert func.name == "f" and func.params == (x, y)
    assert func.param_directions == (ir.ParamDirection.In, ir.ParamDirection.Out)
    assert func.return_types == (scalar(),) and func.body is body
    assert (func.func_type, func.level, func.role, func.attrs,
            func.requires_runtime_binding) == (ir.FunctionType.Opaque, None, None, {}, False)
    assert [name for name, _ in ir.Function._fields] == [
        "name", "params", "param_directions", "func_type", "level", "role", "attrs",
        "requires_runtime_binding", "return_types", "body"]


def test_function_param_validation():
    x = var("x")
    with pytest.raises(TypeError, match=r"Function 'f': params\[0\] must be a Var or a "
                                        r"\(Var, ParamDirection\) pair, got a tuple of 3"):
        ir.Function("f", [(x, ir.ParamDirection.In, 1)], [], ir.BreakStmt(SPAN), SPAN)
    with pytest.raises(TypeError, match=r"Function: field 'params\[0\]\[1\]' expects "
                                        r"ParamDirection"):
        ir.Function("f", [(x, "In")], [], ir.BreakStmt(SPAN), SPAN)
    with pytest.raises(TypeError, match=r"Function: field 'params\[1\]' expects Var, got int"):
        ir.Function("f", [x, 3], [], ir.BreakStmt(SPAN), SPAN)


DERIVED = {
    ir.FunctionType.Orchestration: (ir.Level.CHIP, ir.Role.Orchestrator),
    ir.FunctionType.Graph: (ir.Level.CHIP, ir.Role.Orchestrator),
    ir.FunctionType.InCore: (ir.Level.CHIP_DIE, ir.Role.SubWorker),
    ir.FunctionType.AIC: (ir.Level.AIC, ir.Role.SubWorker),
    ir.FunctionType.AIV: (ir.Level.AIV, ir.Role.SubWorker),
    ir.FunctionType.Group: (ir.Level.CORE_GROUP, ir.Role.SubWorker),
}


def _func(**kw):
    return ir.Function("f", [], [], ir.BreakStmt(SPAN), SPAN, **kw)


@pytest.mark.parametrize("func_type", list(ir.FunctionType), ids=lambda t: t.name)
def test_level_role_derivation_table(func_type):
    func = _func(type=func_type)
    assert func.func_type is func_type
    if func_type in DERIVED:
        assert (func.level, func.role) == DERIVED[func_type]
        level, role = DERIVED[func_type]
        explicit = _func(type=func_type, level=level, role=role)  # agreeing values are fine
        assert (explicit.level, explicit.role) == (level, role)
    else:  # Opaque, Spmd, Inline keep what was passed
        assert (func.level, func.role) == (None, None)
        kept = _func(type=func_type, level=ir.Level.HOST, role=ir.Role.SubWorker)
        assert (kept.level, kept.role) == (ir.Level.HOST, ir.Role.SubWorker)


@pytest.mark.parametrize("func_type", list(DERIVED), ids=lambda t: t.name)
def test_level_role_conflicts_are_rejected(func_type):
    level, role = DERIVED[func_type]
    other_level = ir.Level.HOST
    other_role = ir.Role.SubWorker if role is ir.Role.Orchestrator else ir.Role.Orchestrator
    with pytest.raises(ValueError) as info:
        _func(type=func_type, level=other_level)
    assert str(info.value) == (f"Function 'f' has func_type={func_type.name} which implies "
                               f"level={level.name}, but explicit level=HOST was provided")
    with pytest.raises(ValueError) as info:
        _func(type=func_type, role=other_role)
    assert str(info.value) == (f"Function 'f' has func_type={func_type.name} which implies "
                               f"role={role.name}, but explicit role={other_role.name} was "
                               "provided")


def test_function_split_property_and_type_predicates():
    assert _func().split is None
    assert _func(attrs={"split": ir.SplitMode.NONE}).split is None
    assert _func(attrs={"split": ir.SplitMode.LEFT_RIGHT}).split is ir.SplitMode.LEFT_RIGHT
    FT = ir.FunctionType
    assert [t.name for t in FT if ir.is_incore_type(t)] == ["InCore", "AIC", "AIV"]
    assert [t.name for t in FT if ir.is_wrapper_type(t)] == ["Group", "Spmd"]
    assert [t.name for t in FT if ir.is_orchestration_like(t)] == ["Orchestration", "Graph"]


def test_function_validation_names_the_field():
    with pytest.raises(TypeError, match="Function: field 'type' expects FunctionType"):
        _func(type="InCore")
    with pytest.raises(TypeError, match="Function: field 'level' expects Level or None"):
        _func(level="HOST")
    with pytest.raises(TypeError, match=r"Function: field 'return_types\[0\]' expects Type"):
        ir.Function("f", [], [FP32], ir.BreakStmt(SPAN), SPAN)
    with pytest.raises(TypeError, match="Function: field 'requires_runtime_binding' expects "
                                        "bool"):
        _func(requires_runtime_binding=1)


# -- program ----------------------------------------------------------------------------------

def test_program_orders_functions_by_name():
    funcs = [accumulate_function(n) for n in ("main", "b_helper", "a_kernel")]
    prog = ir.Program(funcs, "P", SPAN)
    assert list(prog.functions) == ["a_kernel", "b_helper", "main"]
    assert prog.name == "P" and prog.span is SPAN
    assert prog.get_function("main") is funcs[0] and prog["main"] is funcs[0]
    assert prog.get_function("missing") is None
    gv = prog.get_global_var("main")
    assert isinstance(gv, ir.GlobalVar) and gv.name == "main"
    assert prog.get_global_var("missing") is None
    prog.functions.clear()  # a copy
    assert len(prog.functions) == 3


def test_program_rejects_duplicate_names():
    with pytest.raises(ValueError, match="Duplicate function name 'f'"):
        ir.Program([accumulate_function("f"), accumulate_function("f")], "P", SPAN)


def test_program_missing_function_lookup_names_it():
    prog = ir.Program([accumulate_function("f")], "P", SPAN)
    with pytest.raises(KeyError, match="Program 'P' has no function 'g'"):
        prog["g"]


def test_program_replace_rebuilds_through_the_constructor():
    prog = ir.Program([accumulate_function("f")], "P", SPAN)
    new = prog.replace(functions=[accumulate_function("g"), accumulate_function("a")])
    assert list(new.functions) == ["a", "g"] and new.name == "P"
    assert new.get_global_var("g").name == "g" and new.get_global_var("f") is None
    with pytest.raises(TypeError, match="Program.replace: unknown field 'body'"):
        prog.replace(body=None)

"""Small IR factories shared by the IR core tests."""

from __future__ import annotations

from pypto import ir

DT = ir.DataType
INDEX, INT64, INT32, FP32, FP16, BOOL = DT.INDEX, DT.INT64, DT.INT32, DT.FP32, DT.FP16, DT.BOOL
SPAN = ir.Span("t.py", 1, 1)


def scalar(dtype=INDEX):
    return ir.ScalarType(dtype)


def var(name="x", dtype=INDEX):
    return ir.Var(name, ir.ScalarType(dtype), SPAN)


def tensor_var(name="t", shape=(16, 16), dtype=FP32):
    return ir.Var(name, ir.TensorType(list(shape), dtype), SPAN)


def const(value, dtype=INDEX):
    return ir.ConstInt(value, dtype, SPAN)


def op(name="tensor.add"):
    return ir.Op(name)


def seq(*stmts):
    return ir.SeqStmts.flatten(list(stmts))


def accumulate_function(name="f", trip=8):
    """``def f(x): for i, (acc,) in range(trip, init=(x,)): nxt = acc + i; yield nxt; return acc_rv``

    Every call builds fresh Var objects, so two calls are equal only structurally.
    """
    x = var("x")
    i = var("i")
    acc = ir.IterArg("acc", scalar(), x, SPAN)
    nxt = var("nxt")
    rv = var("acc_rv")
    body = seq(ir.AssignStmt(nxt, ir.Add(acc, i, INDEX, SPAN), SPAN), ir.YieldStmt([nxt], SPAN))
    loop = ir.ForStmt(i, 0, trip, 1, [acc], body, [rv], SPAN)
    return ir.Function(name, [x], [scalar()], seq(loop, ir.ReturnStmt([rv], SPAN)), SPAN)


def nested_loops(depth, leaf=None):
    """``depth`` ForStmts nested in each other around one assignment."""
    body = leaf if leaf is not None else ir.AssignStmt(var("y"), const(1), SPAN)
    for level in range(depth):
        body = ir.ForStmt(var(f"i{level}"), 0, 4, 1, [], seq(body, ir.EvalStmt(const(level))),
                          [], SPAN)
    return body


def nested_adds(depth):
    expr = var("leaf")
    for level in range(depth):
        expr = ir.Add(expr, const(level), INDEX, SPAN)
    return expr

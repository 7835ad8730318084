"""Structural equality and hashing (02-ir.md §13, §14)."""

from __future__ import annotations

import itertools
import random

import pytest

from pypto import ir
from pypto.ir.expr import BINARY_CLASSES, UNARY_CLASSES
from pypto.ir.node import FieldKind

from .samples import (FP16, FP32, INDEX, INT32, INT64, SPAN, accumulate_function, const,
                      op, scalar, seq, var)
from .test_nodes import all_node_classes, sample_nodes

TASK = ir.DataType.TASK_ID
OTHER_SPAN = ir.Span("elsewhere.py", 99, 3)


def mismatch(lhs, rhs, auto=False):
    """(path, reason, full message) of the assertion failure; fails if they are equal."""
    assert not ir.structural_equal(lhs, rhs, auto)
    with pytest.raises(ValueError) as info:
        ir.assert_structural_equal(lhs, rhs, auto)
    text = str(info.value)
    first, last = text.splitlines()[0], text.splitlines()[-1]
    prefix = "Structural equality assertion failed"
    assert first.startswith(prefix) and last.startswith("Reason: ")
    path = first[len(prefix + " at: "):] if first != prefix else ""
    return path, last[len("Reason: "):], text


def assert_equal_and_same_hash(lhs, rhs, auto=False):
    ir.assert_structural_equal(lhs, rhs, auto)
    assert ir.structural_equal(lhs, rhs, auto)
    assert ir.structural_hash(lhs, auto) == ir.structural_hash(rhs, auto)


def is_var_like(node):
    return isinstance(node, ir.Var)


# -- §13.3 variable binding -------------------------------------------------------------

def test_free_vars_match_only_themselves_in_strict_mode():
    x, y = var("x"), var("x")
    assert ir.structural_equal(x, x)
    path, reason, text = mismatch(x, y)
    assert (path, reason) == ("", "Variable pointer mismatch")
    assert f"Left: Var 'x' (id {x.unique_id})" in text
    assert ir.structural_equal(x, y, enable_auto_mapping=True)


def test_auto_mapping_requires_a_consistent_bijection():
    x, y, z = var("x"), var("y"), var("z")
    assert_equal_and_same_hash(x + x, y + y, auto=True)
    path, reason, _ = mismatch(x + x, y + z, auto=True)
    assert (path, reason) == ("right", "Variable mapping inconsistent")
    path, reason, _ = mismatch(x + y, z + z, auto=True)
    assert (path, reason) == ("right", "Variable mapping inconsistent")


def test_a_shared_var_cannot_also_bind_to_another():
    # No "same object" shortcut below the top: x binds to itself, so `a` cannot bind to x.
    x, a = var("x"), var("a")
    assert not ir.structural_equal(x + a, x + x, enable_auto_mapping=True)
    assert not ir.structural_equal(x + x, x + a, enable_auto_mapping=True)
    assert ir.structural_equal(x + a, x + var("b"), enable_auto_mapping=True)


def test_strict_mode_binds_definitions():
    x = var("x")
    y1, y2 = var("y"), var("y")
    lhs = seq(ir.AssignStmt(y1, x + 1, SPAN), ir.EvalStmt(y1 * 2, SPAN))
    rhs = seq(ir.AssignStmt(y2, x + 1, SPAN), ir.EvalStmt(y2 * 2, SPAN))
    assert_equal_and_same_hash(lhs, rhs)
    other = seq(ir.AssignStmt(y2, x + 1, SPAN), ir.EvalStmt(var("y") * 2, SPAN))
    path, reason, _ = mismatch(lhs, other)
    assert (path, reason) == ("[1].expr.left", "Variable pointer mismatch")


def test_strict_mode_rejects_a_rebinding():
    y1, y2, z = var("y"), var("y"), var("z")
    lhs = seq(ir.AssignStmt(y1, const(1), SPAN), ir.AssignStmt(z, y1, SPAN))
    rhs = seq(ir.AssignStmt(y2, const(1), SPAN), ir.AssignStmt(y2, y2, SPAN))
    path, reason, _ = mismatch(lhs, rhs)
    assert (path, reason) == ("[1].var", "Variable mapping inconsistent")


def test_independently_built_functions_are_equal_in_strict_mode():
    f1, f2 = accumulate_function("f"), accumulate_function("g")
    assert_equal_and_same_hash(f1, f2)
    assert_equal_and_same_hash(f1, f2, auto=True)


def test_definition_type_mismatch():
    lhs = ir.AssignStmt(var("y", INT32), const(1), SPAN)
    rhs = ir.AssignStmt(var("y", FP32), const(1), SPAN)
    path, reason, text = mismatch(lhs, rhs)
    assert path == "var"
    assert reason == "Variable type mismatch (ScalarType dtype mismatch (int32 != fp32))"
    assert "Left: Var 'y'" in text and "Right: Var 'y'" in text


def test_iter_arg_is_not_a_var_and_compares_its_init():
    x = var("x")
    _, reason, _ = mismatch(ir.IterArg("a", scalar(), x, SPAN), var("a"), auto=True)
    assert reason == "Node type mismatch (IterArg != Var)"
    lhs = ir.IterArg("a", scalar(), const(0), SPAN)
    rhs = ir.IterArg("a", scalar(), const(1), SPAN)
    path, reason, _ = mismatch(lhs, rhs, auto=True)
    assert (path, reason) == ("initValue", "value mismatch (0 != 1)")


def test_iter_arg_init_is_a_use_compared_in_the_callers_mode():
    def loop(init):
        acc = ir.IterArg("acc", scalar(), init, SPAN)
        return ir.ForStmt(var("i"), 0, 4, 1, [acc], ir.YieldStmt([acc], SPAN), [var("r")], SPAN)
    path, reason, _ = mismatch(loop(var("a")), loop(var("b")))
    assert (path, reason) == ("iter_args[0].initValue", "Variable pointer mismatch")
    assert ir.structural_equal(loop(var("a")), loop(var("b")), enable_auto_mapping=True)
    shared = var("a")
    assert_equal_and_same_hash(loop(shared), loop(shared))


def test_dynamic_dims_bind_through_definitions():
    def func():
        n = var("N")
        t = ir.Var("t", ir.TensorType([n, 4], FP32), SPAN)
        out = ir.Var("o", ir.TensorType([n, 4], FP32), SPAN)
        body = seq(ir.AssignStmt(out, ir.Call(op(), [t], out.type, SPAN), SPAN),
                   ir.ReturnStmt([out], SPAN))
        return ir.Function("f", [t], [out.type], body, SPAN)
    assert_equal_and_same_hash(func(), func())


# -- generated negative tests: one per compared field of every node class ----------------------

def _base_nodes():
    x = var("x")
    c1, c2 = const(1), const(2)
    body = ir.EvalStmt(x, SPAN)
    it = ir.IterArg("acc", scalar(), c1, SPAN)
    func = ir.Function("f", [x], [scalar()], ir.ReturnStmt([x], SPAN), SPAN)
    bases = {
        ir.Var: x,
        ir.IterArg: it,
        ir.ConstInt: c1,
        ir.ConstFloat: ir.ConstFloat(1.0, FP32, SPAN),
        ir.ConstBool: ir.ConstBool(True, SPAN),
        ir.Call: ir.Call(op(), [c1], {"k": 1}, {"a": 1}, scalar(), SPAN),
        ir.MakeTuple: ir.MakeTuple([c1], SPAN),
        ir.TupleGetItemExpr: ir.TupleGetItemExpr(ir.MakeTuple([c1, c1], SPAN), 0, SPAN),
        ir.Submit: ir.Submit(op(), [c1], [], ir.TupleType([scalar(TASK)]), SPAN),
        ir.AssignStmt: ir.AssignStmt(var("y"), c1, SPAN),
        ir.EvalStmt: body,
        ir.ReturnStmt: ir.ReturnStmt([c1], SPAN),
        ir.YieldStmt: ir.YieldStmt([c1], SPAN),
        ir.SeqStmts: ir.SeqStmts([body, body], SPAN),
        ir.IfStmt: ir.IfStmt(ir.ConstBool(True, SPAN), body, None, [var("r")], SPAN),
        ir.ForStmt: ir.ForStmt(var("i"), 0, 8, 1, [it], body, [var("rv")], SPAN),
        ir.WhileStmt: ir.WhileStmt(ir.ConstBool(True, SPAN), [it], body, [var("rv")], SPAN),
        ir.BreakStmt: ir.BreakStmt(SPAN),
        ir.ContinueStmt: ir.ContinueStmt(SPAN),
        ir.InlineStmt: ir.InlineStmt("pass", ir.InlineLanguage.Python, SPAN),
        ir.InCoreScopeStmt: ir.InCoreScopeStmt(name_hint="a", body=body, span=SPAN),
        ir.ClusterScopeStmt: ir.ClusterScopeStmt("a", body=body, span=SPAN),
        ir.HierarchyScopeStmt: ir.HierarchyScopeStmt(ir.Level.HOST, None, "a", body=body,
                                                     span=SPAN),
        ir.SpmdScopeStmt: ir.SpmdScopeStmt(4, False, "a", body=body, span=SPAN),
        ir.RuntimeScopeStmt: ir.RuntimeScopeStmt(False, "a", body=body, span=SPAN),
        ir.GraphScopeStmt: ir.GraphScopeStmt("a", body=body, span=SPAN),
        ir.SplitAivScopeStmt: ir.SplitAivScopeStmt(ir.SplitMode.UP_DOWN, 2, "a", body=body,
                                                   span=SPAN),
        ir.CommDomainScopeStmt: ir.CommDomainScopeStmt([0, 1], [0], "a", body=body, span=SPAN),
        ir.WindowBuffer: ir.WindowBuffer("buf", 64, span=SPAN),
        ir.Function: func,
        ir.Program: ir.Program([func], "P", SPAN),
    }
    for cls in BINARY_CLASSES:
        bases[cls] = cls(c1, c1, INDEX, SPAN)
    for cls in UNARY_CLASSES:
        bases[cls] = cls(c1, INDEX, SPAN)
    return bases


def _alternatives():
    """field -> (alternative value, expected path, expected reason) per class.

    A scalar field (int, str, enum) is reported at its node, so its path is "".
    """
    c2, body2 = const(2), ir.BreakStmt(SPAN)
    typ = (scalar(FP32), "type", "ScalarType dtype mismatch (index != fp32)")
    scope_common = {"name_hint": ("b", "", "value mismatch ('a' != 'b')"),
                    "body": (body2, "body", "Node type mismatch (EvalStmt != BreakStmt)"),
                    "attrs": ({"slot_num": 1}, "attrs", "Map size mismatch (0 != 1)")}
    operand = (c2, None, "value mismatch (1 != 2)")
    alts = {
        ir.Var: {"type": (scalar(FP32), "", "Variable type mismatch (ScalarType dtype mismatch "
                                            "(index != fp32))")},
        ir.IterArg: {"type": (scalar(FP32), "", "Variable type mismatch (ScalarType dtype "
                                                "mismatch (index != fp32))"),
                     "initValue": (c2, "initValue", "value mismatch (1 != 2)")},
        ir.ConstInt: {"type": (scalar(INT32), "type", "ScalarType dtype mismatch (index != "
                                                      "int32)"),
                      "value": (2, "", "value mismatch (1 != 2)")},
        ir.ConstFloat: {"type": (scalar(FP16), "type", "ScalarType dtype mismatch (fp32 != "
                                                       "fp16)"),
                        "value": (2.0, "", "value mismatch (1.0 != 2.0)")},
        ir.ConstBool: {"type": (scalar(INT32), "type", "ScalarType dtype mismatch (bool != "
                                                       "int32)"),
                       "value": (False, "", "value mismatch (True != False)")},
        ir.Call: {"type": typ, "op": (op("tensor.sub"), "", "Op name mismatch (tensor.add != "
                                                            "tensor.sub)"),
                  "args": ((), "args", "Vector size mismatch (1 items != 0 items)"),
                  "attrs": ({"a": 2}, "attrs['a']", "Kwargs value mismatch for key 'a': "
                                                    "value mismatch (1 != 2)"),
                  "kwargs": ({"k": 2}, "kwargs['k']", "Kwargs value mismatch for key 'k': "
                                                      "value mismatch (1 != 2)")},
        ir.MakeTuple: {"type": (ir.TupleType([]), "type", "TupleType size mismatch (1 != 0)"),
                       "elements": ((c2,), "elements[0]", "value mismatch (1 != 2)")},
        ir.TupleGetItemExpr: {"type": typ,
                              "tuple": (ir.MakeTuple([c2, c2], SPAN), "tuple.elements[0]",
                                        "value mismatch (1 != 2)"),
                              "index": (1, "", "value mismatch (0 != 1)")},
        ir.Submit: {"type": (ir.TupleType([]), "type", "TupleType size mismatch (1 != 0)"),
                    "op": (op("tile.add"), "", "Op name mismatch (tensor.add != tile.add)"),
                    "args": ((c2,), "args[0]", "value mismatch (1 != 2)"),
                    "deps": ((c2,), "deps", "Vector size mismatch (0 items != 1 items)"),
                    "core_num": (c2, "core_num", "ConstInt optional presence mismatch"),
                    "sync_start": (True, "", "value mismatch (False != True)"),
                    "allow_early_resolve": (True, "", "value mismatch (False != True)"),
                    "predicate": (ir.ConstBool(True, SPAN), "predicate",
                                  "ConstBool optional presence mismatch"),
                    "attrs": ({"a": 1}, "attrs", "Map size mismatch (0 != 1)"),
                    "kwargs": ({"k": 1}, "kwargs", "Map size mismatch (0 != 1)")},
        ir.AssignStmt: {"var": (var("y", FP32), "var", "Variable type mismatch (ScalarType "
                                                       "dtype mismatch (index != fp32))"),
                        "value": (c2, "value", "value mismatch (1 != 2)")},
        ir.EvalStmt: {"expr": (c2, "expr", "Node type mismatch (Var != ConstInt)")},
        ir.ReturnStmt: {"value": ((), "value", "Vector size mismatch (1 items != 0 items)")},
        ir.YieldStmt: {"value": ((c2,), "value[0]", "value mismatch (1 != 2)")},
        ir.SeqStmts: {"stmts": ((body2, body2), "[0]",
                                "Node type mismatch (EvalStmt != BreakStmt)")},
        ir.IfStmt: {"condition": (ir.ConstBool(False, SPAN), "condition",
                                  "value mismatch (True != False)"),
                    "then_body": (body2, "then_body", "Node type mismatch (EvalStmt != "
                                                      "BreakStmt)"),
                    "else_body": (body2, "else_body", "BreakStmt optional presence mismatch"),
                    "return_vars": ((), "return_vars", "Vector size mismatch (1 items != "
                                                       "0 items)")},
        ir.ForStmt: {"loop_var": (var("i", FP32), "loop_var", "Variable type mismatch "
                                  "(ScalarType dtype mismatch (index != fp32))"),
                     "start": (const(3), "start", "value mismatch (0 != 3)"),
                     "stop": (const(9), "stop", "value mismatch (8 != 9)"),
                     "step": (const(2), "step", "value mismatch (1 != 2)"),
                     "iter_args": ((ir.IterArg("acc", scalar(), c2, SPAN),),
                                   "iter_args[0].initValue", "value mismatch (1 != 2)"),
                     "body": (body2, "body", "Node type mismatch (EvalStmt != BreakStmt)"),
                     "return_vars": ((var("rv", FP32),), "return_vars[0]",
                                     "Variable type mismatch (ScalarType dtype mismatch "
                                     "(index != fp32))"),
                     "kind": (ir.ForKind.Unroll, "", "ForKind mismatch (Sequential != Unroll)"),
                     "attrs": ({"pipeline_stages": 2}, "attrs", "Map size mismatch (0 != 1)")},
        ir.WhileStmt: {"iter_args": ((), "iter_args", "Vector size mismatch (1 items != "
                                                      "0 items)"),
                       "condition": (ir.ConstBool(False, SPAN), "condition",
                                     "value mismatch (True != False)"),
                       "body": (body2, "body", "Node type mismatch (EvalStmt != BreakStmt)"),
                       "return_vars": ((var("rv", INT32),), "return_vars[0]",
                                       "Variable type mismatch (ScalarType dtype mismatch "
                                       "(index != int32))")},
        ir.InlineStmt: {"body": ("x = 1", "", "value mismatch ('pass' != 'x = 1')"),
                        # InlineLanguage has one member; any other value must still differ.
                        "language": (ir.ForKind.Sequential, "",
                                     "InlineLanguage mismatch (Python != Sequential)")},
        ir.InCoreScopeStmt: {**scope_common,
                             "split": (ir.SplitMode.UP_DOWN, "",
                                       "SplitMode mismatch (NONE != UP_DOWN)")},
        ir.ClusterScopeStmt: dict(scope_common),
        ir.HierarchyScopeStmt: {**scope_common,
                                "level": (ir.Level.CHIP, "", "Level mismatch (HOST != CHIP)"),
                                "role": (ir.Role.SubWorker, "",
                                         "Role optional presence mismatch")},
        ir.SpmdScopeStmt: {**scope_common,
                           "core_num": (const(8), "core_num", "value mismatch (4 != 8)"),
                           "sync_start": (True, "", "value mismatch (False != True)")},
        ir.RuntimeScopeStmt: {**scope_common,
                              "manual": (True, "", "value mismatch (False != True)")},
        ir.GraphScopeStmt: dict(scope_common),
        ir.SplitAivScopeStmt: {**scope_common,
                               "split": (ir.SplitMode.LEFT_RIGHT, "",
                                         "SplitMode mismatch (UP_DOWN != LEFT_RIGHT)"),
                               "count": (4, "", "value mismatch (2 != 4)")},
        ir.CommDomainScopeStmt: {**scope_common,
                                 "devices": ((const(0), const(2)), "devices[1]",
                                             "value mismatch (1 != 2)"),
                                 "slots": ((const(1),), "slots[0]", "value mismatch (0 != 1)")},
        ir.WindowBuffer: {"type": (scalar(FP32), "", "Variable type mismatch (Type name mismatch "
                                                     "(WindowBufferType != ScalarType))"),
                          "base": ("other", "", "value mismatch ('buf' != 'other')"),
                          "size": (const(32), "size", "value mismatch (64 != 32)"),
                          "load_from_host": (True, "", "value mismatch (False != True)"),
                          "store_to_host": (True, "", "value mismatch (False != True)")},
        ir.Function: {"params": ((var("x", FP32),), "params[0]", "Variable type mismatch "
                                 "(ScalarType dtype mismatch (index != fp32))"),
                      "param_directions": ((ir.ParamDirection.Out,), "param_directions[0]",
                                           "ParamDirection mismatch (In != Out)"),
                      "func_type": (ir.FunctionType.InCore, "",
                                    "FunctionType mismatch (Opaque != InCore)"),
                      "level": (ir.Level.HOST, "", "Level optional presence mismatch"),
                      "role": (ir.Role.SubWorker, "", "Role optional presence mismatch"),
                      "attrs": ({"slot_num": 2}, "attrs", "Map size mismatch (0 != 1)"),
                      "requires_runtime_binding": (True, "", "value mismatch (False != True)"),
                      "return_types": ((), "return_types", "Vector size mismatch (1 items != "
                                                           "0 items)"),
                      "body": (ir.ReturnStmt([c2], SPAN), "body.value[0]",
                               "Node type mismatch (Var != ConstInt)")},
        ir.Program: {"functions": ((ir.Function("g", [], [], body2, SPAN),), "",
                                   "Map key mismatch ('f' != 'g')")},
    }
    for cls in BINARY_CLASSES:
        alts[cls] = {"type": typ, "left": (c2, "left", operand[2]),
                     "right": (c2, "right", operand[2])}
    for cls in UNARY_CLASSES:
        alts[cls] = {"type": typ, "operand": (c2, "operand", operand[2])}
    return alts


def _compared_field_cases():
    bases, alts = _base_nodes(), _alternatives()
    cases = []
    for cls in all_node_classes():
        for name, kind in cls._fields:
            if kind is not FieldKind.IGNORE:
                cases.append(pytest.param(cls, name, bases.get(cls), alts.get(cls, {}).get(name),
                                          id=f"{cls.__name__}.{name}"))
    return cases


@pytest.mark.parametrize("cls, field, base, alternative", _compared_field_cases())
def test_each_compared_field_is_compared_and_hashed(cls, field, base, alternative):
    # Generated from _fields: a new compared field fails here until it gets a case.
    assert base is not None, f"add a base {cls.__name__} to _base_nodes()"
    assert alternative is not None, f"add an alternative for {cls.__name__}.{field}"
    value, expected_path, expected_reason = alternative
    variant = base.replace(**{field: value})
    auto = is_var_like(base)  # distinct Var objects only ever match under auto-mapping
    path, reason, _ = mismatch(base, variant, auto)
    assert (path, reason) == (expected_path, expected_reason)
    assert ir.structural_hash(base, auto) != ir.structural_hash(variant, auto)
    assert_equal_and_same_hash(base, base.replace(), auto=True)


def test_every_class_has_a_base_node():
    assert set(_base_nodes()) == set(all_node_classes())


# -- ignored fields -----------------------------------------------------------------------------

def _ignored_field_cases():
    cases = []
    for node in sample_nodes():
        cls = type(node)
        cases.append(pytest.param(node, "span", OTHER_SPAN, id=f"{cls.__name__}.span"))
        for name, kind in cls._fields:
            if kind is FieldKind.IGNORE:
                cases.append(pytest.param(node, name, "renamed", id=f"{cls.__name__}.{name}"))
    return cases


@pytest.mark.parametrize("node, field, value", _ignored_field_cases())
def test_ignored_fields_are_ignored(node, field, value):
    variant = node.replace(**{field: value})
    assert getattr(variant, field) == value
    assert_equal_and_same_hash(node, variant, auto=is_var_like(node))


@pytest.mark.parametrize("node", [n for n in sample_nodes() if isinstance(n, ir.Stmt)
                                  and not isinstance(n, ir.SeqStmts)],
                         ids=lambda n: type(n).__name__)
def test_leading_comments_are_ignored(node):
    variant = ir.attach_leading_comments(node.replace(), ["a comment"])
    assert_equal_and_same_hash(node, variant)


def test_function_and_program_names_are_ignored():
    f, g = accumulate_function("f"), accumulate_function("g")
    assert_equal_and_same_hash(ir.Program([f], "A", SPAN), ir.Program([g.replace(name="f")], "B",
                                                                      OTHER_SPAN))


# -- INT64 / INDEX canonicalisation: only for ConstInt types and ForStmt loop vars -------------

def test_const_int_index_equals_int64():
    assert_equal_and_same_hash(ir.ConstInt(4, INDEX, SPAN), ir.ConstInt(4, INT64, SPAN))
    _, reason, _ = mismatch(ir.ConstInt(4, INDEX, SPAN), ir.ConstInt(4, INT32, SPAN))
    assert reason == "ScalarType dtype mismatch (index != int32)"


def test_shape_dims_are_const_ints_so_they_canonicalise_too():
    lhs = ir.TensorType([ir.ConstInt(4, INDEX, SPAN)], FP32)
    rhs = ir.TensorType([ir.ConstInt(4, INT64, SPAN)], FP32)
    assert lhs == rhs and hash(lhs) == hash(rhs)


def test_loop_var_index_equals_int64():
    def loop(dtype):
        return ir.ForStmt(var("i", dtype), 0, 4, 1, [], ir.BreakStmt(SPAN), [], SPAN)
    assert_equal_and_same_hash(loop(INDEX), loop(INT64))
    assert_equal_and_same_hash(loop(INDEX), loop(INT64), auto=True)
    assert not ir.structural_equal(loop(INDEX), loop(INT32))


def test_index_and_int64_differ_everywhere_else():
    path, reason, _ = mismatch(ir.AssignStmt(var("y", INDEX), const(1), SPAN),
                               ir.AssignStmt(var("y", INT64), const(1), SPAN))
    assert (path, reason) == ("var", "Variable type mismatch (ScalarType dtype mismatch "
                                     "(index != int64))")
    x = var("x")
    _, reason, _ = mismatch(ir.Neg(x, INDEX, SPAN), ir.Neg(x, INT64, SPAN))
    assert reason == "ScalarType dtype mismatch (index != int64)"
    assert ir.ScalarType(INDEX) != ir.ScalarType(INT64)
    assert not ir.structural_equal(ir.ScalarType(INDEX), ir.ScalarType(INT64))
    assert not ir.structural_equal(var("v", INDEX), var("v", INT64), enable_auto_mapping=True)


# -- attrs / kwargs ---------------------------------------------------------------------------

def test_attrs_and_kwargs_are_order_insensitive():
    lhs = ir.Call(op(), [], {"a": 1, "b": "s"}, {"x": 1.5, "y": True}, scalar(), SPAN)
    rhs = ir.Call(op(), [], {"b": "s", "a": 1}, {"y": True, "x": 1.5}, scalar(), SPAN)
    assert_equal_and_same_hash(lhs, rhs)


def test_attr_values_bind_vars_independently_of_insertion_order():
    x1, y1, x2, y2 = var("x"), var("y"), var("x"), var("y")
    lhs = ir.Call(op(), [], {}, {"a": x1, "b": y1}, scalar(), SPAN)
    rhs = ir.Call(op(), [], {}, {"b": y2, "a": x2}, scalar(), SPAN)
    assert_equal_and_same_hash(lhs, rhs, auto=True)
    swapped = ir.Call(op(), [], {}, {"a": y2, "b": y2}, scalar(), SPAN)
    assert not ir.structural_equal(lhs, swapped, enable_auto_mapping=True)


def test_attr_value_kinds_must_match():
    lhs = ir.Call(op(), [], {"k": 1}, scalar(), SPAN)
    path, reason, _ = mismatch(lhs, ir.Call(op(), [], {"k": True}, scalar(), SPAN))
    assert (path, reason) == ("kwargs['k']", "Kwargs value mismatch for key 'k': value "
                                             "mismatch (1 != True)")
    _, reason, _ = mismatch(lhs, ir.Call(op(), [], {"j": 1}, scalar(), SPAN))
    assert reason == "Map key mismatch (key 'k' missing on the right)"
    _, reason, _ = mismatch(lhs, ir.Call(op(), [], {"k": const(1)}, scalar(), SPAN))
    assert reason == "Kwargs value mismatch for key 'k': value kind mismatch (int != ConstInt)"
    _, reason, _ = mismatch(ir.Call(op(), [], {"k": const(1)}, scalar(), SPAN), lhs)
    assert reason == "Kwargs value mismatch for key 'k': value kind mismatch (ConstInt != int)"


def test_attr_lists_compare_like_lists():
    dirs = [ir.ArgDirection.Input]
    lhs = ir.Call(op(), [const(1)], {}, {"arg_directions": dirs}, scalar(), SPAN)
    rhs = ir.Call(op(), [const(1)], {}, {"arg_directions": tuple(dirs)}, scalar(), SPAN)
    assert_equal_and_same_hash(lhs, rhs)
    other = ir.Call(op(), [const(1)], {}, {"arg_directions": [ir.ArgDirection.Output]},
                    scalar(), SPAN)
    path, reason, _ = mismatch(lhs, other)
    assert path == "attrs['arg_directions'][0]"
    assert reason == ("Kwargs value mismatch for key 'arg_directions': ArgDirection mismatch "
                      "(Input != Output)")


# -- Call.op by name --------------------------------------------------------------------------

def test_call_op_compares_by_name():
    assert_equal_and_same_hash(ir.Call(ir.Op("tile.load"), [], SPAN),
                               ir.Call(ir.Op("tile.load"), [], SPAN))
    assert_equal_and_same_hash(ir.Call(ir.GlobalVar("f"), [], SPAN),
                               ir.Call(ir.GlobalVar("f"), [], SPAN))
    _, reason, _ = mismatch(ir.Call(ir.GlobalVar("f"), [], SPAN),
                            ir.Call(ir.GlobalVar("g"), [], SPAN))
    assert reason == "Op name mismatch (f != g)"


# -- assertion message (§13.6) ------------------------------------------------------------------

def _program(*bodies):
    funcs = [ir.Function(name, [], [], body, SPAN) for name, body in zip(("main", "other"),
                                                                          bodies)]
    return ir.Program(funcs, "P", SPAN)


def _access(root, path):
    return eval("root" + path if path.startswith("[") else "root." + path)  # noqa: S307


def test_message_for_a_node_type_mismatch_prints_both_nodes():
    x = var("x")
    lhs, rhs = ir.Add(x, const(1), INDEX, SPAN), ir.Sub(x, const(1), INDEX, SPAN)
    _, _, text = mismatch(lhs, rhs)
    expected = ["Structural equality assertion failed", "", "Left-hand side:"]
    expected += ["  " + line for line in ir.python_print(lhs).splitlines()]
    expected += ["", "Right-hand side:"]
    expected += ["  " + line for line in ir.python_print(rhs).splitlines()]
    expected += ["", "Reason: Node type mismatch (Add != Sub)"]
    assert text == "\n".join(expected)


def test_message_for_a_leaf_mismatch_has_no_nodes():
    i = var("i")
    lhs = ir.ForStmt(i, 0, 8, 1, [], ir.BreakStmt(SPAN), [], SPAN)
    rhs = ir.ForStmt(i, 0, 9, 1, [], ir.BreakStmt(SPAN), [], SPAN)
    _, _, text = mismatch(lhs, rhs)
    assert text == ("Structural equality assertion failed at: stop\n\n"
                    "Reason: value mismatch (8 != 9)")
    assert _access(lhs, "stop").value == 8


def test_message_with_left_and_right_descriptions():
    x, y = var("x"), var("y")
    _, _, text = mismatch(ir.EvalStmt(x, SPAN), ir.EvalStmt(y, SPAN))
    assert text == ("Structural equality assertion failed at: expr\n\n"
                    f"Left: Var 'x' (id {x.unique_id})\n"
                    f"Right: Var 'y' (id {y.unique_id})\n"
                    "Reason: Variable pointer mismatch")


def test_paths_into_programs_and_sequences():
    a, b = ir.EvalStmt(const(1), SPAN), ir.EvalStmt(const(2), SPAN)
    loop = ir.ForStmt(var("i"), 0, 4, 1, [], seq(a, a), [], SPAN)
    loop_b = ir.ForStmt(var("i"), 0, 4, 1, [], seq(a, ir.BreakStmt(SPAN)), [], SPAN)
    lhs, rhs = _program(seq(a, a)), _program(seq(a, ir.BreakStmt(SPAN)))
    path, reason, _ = mismatch(lhs, rhs)
    assert (path, reason) == ("['main'].body[1]", "Node type mismatch (EvalStmt != BreakStmt)")
    assert _access(lhs, path) is a
    path, _, _ = mismatch(_program(seq(loop, a)), _program(seq(loop_b, a)))
    assert path == "['main'].body[0].body[1]"
    path, _, _ = mismatch(seq(a, a), seq(ir.BreakStmt(SPAN), a))
    assert path == "[0]"
    path, _, _ = mismatch(seq(a, a), seq(b, a))
    assert path == "[0].expr"
    target1, target2 = var("y", INT32), var("y", FP32)
    lhs = _program(seq(a, ir.AssignStmt(target1, const(1), SPAN)))
    path, _, _ = mismatch(lhs, _program(seq(a, ir.AssignStmt(target2, const(1), SPAN))))
    assert path == "['main'].body[1].var" and _access(lhs, path) is target1


def test_program_map_mismatches():
    lhs = _program(ir.BreakStmt(SPAN))
    _, reason, _ = mismatch(lhs, _program(ir.BreakStmt(SPAN), ir.BreakStmt(SPAN)))
    assert reason == "Map size mismatch (1 != 2)"


def test_function_level_presence_and_type_reasons():
    body = ir.BreakStmt(SPAN)
    plain = ir.Function("main", [], [], body, SPAN)
    with_level = ir.Function("main", [], [], body, SPAN, level=ir.Level.HOST)
    path, reason, _ = mismatch(ir.Program([plain], "P", SPAN), ir.Program([with_level], "P", SPAN))
    assert (path, reason) == ("['main']", "Level optional presence mismatch")
    incore = ir.Function("k", [], [], body, SPAN, type=ir.FunctionType.InCore)
    orch = incore.replace(func_type=ir.FunctionType.Orchestration)
    _, reason, _ = mismatch(incore, orch)
    assert reason == "FunctionType mismatch (InCore != Orchestration)"


def test_type_reasons():
    def tvar(t):
        return ir.AssignStmt(ir.Var("v", t, SPAN), const(0), SPAN)
    cases = [
        (ir.TensorType([4], FP32), ir.TileType([4], FP32),
         "Type name mismatch (TensorType != TileType)"),
        (ir.TensorType([4], FP32), ir.TensorType([4, 4], FP32),
         "TensorType shape rank mismatch (1 != 2)"),
        (ir.TensorType([4], FP32), ir.TensorType([4], FP16), "TensorType dtype mismatch "
                                                             "(fp32 != fp16)"),
        (ir.TupleType([scalar()]), ir.TupleType([]), "TupleType size mismatch (1 != 0)"),
        (ir.TileType([4], FP32, memory_space=ir.Mem.Vec), ir.TileType([4], FP32),
         "MemorySpace optional presence mismatch"),
        (ir.TileType([4], FP32, memory_space=ir.Mem.Vec),
         ir.TileType([4], FP32, memory_space=ir.Mem.Mat), "MemorySpace mismatch (Vec != Mat)"),
        (ir.TensorType([4], FP32, tensor_view=ir.TensorView()), ir.TensorType([4], FP32),
         "TensorView optional presence mismatch"),
    ]
    for lhs, rhs, expected in cases:
        _, reason, _ = mismatch(lhs, rhs)
        assert reason == expected
        _, reason, _ = mismatch(tvar(lhs), tvar(rhs))
        assert reason == f"Variable type mismatch ({expected})"


def test_memref_is_not_compared():
    base = ir.Var("mem_vec_0", ir.PtrType.get())
    lhs = ir.TileType([4], FP32, memref=ir.MemRef(base, 0, 64), memory_space=ir.Mem.Vec)
    rhs = ir.TileType([4], FP32, memref=ir.MemRef(base, 128, 64), memory_space=ir.Mem.Vec)
    assert lhs == rhs and hash(lhs) == hash(rhs)


def test_memrefs_compare_base_offset_and_size():
    a, b = (ir.Var(n, ir.PtrType.get()) for n in ("a", "b"))
    m = ir.MemRef(a, 0, 64)
    assert m == ir.MemRef(a, 0, 64) and hash(m) == hash(ir.MemRef(a, 0, 64))
    _, reason, _ = mismatch(m, ir.MemRef(a, 8, 64))
    assert reason == "value mismatch (0 != 8)"
    _, reason, _ = mismatch(m, ir.MemRef(a, 0, 32))
    assert reason == "value mismatch (64 != 32)"
    assert not ir.structural_equal(m, ir.MemRef(b, 0, 64))  # another buffer
    assert ir.structural_equal(m, ir.MemRef(b, 0, 64), enable_auto_mapping=True)
    assert not ir.structural_equal(m, ir.MemRef(a, 0, 64, is_pinned=True))


def test_none_and_mixed_arguments():
    assert ir.structural_equal(None, None)
    assert not ir.structural_equal(var(), None)
    assert not ir.structural_equal(scalar(), var())


# -- §14 hashing ------------------------------------------------------------------------------

def test_hash_is_an_unsigned_64_bit_deterministic_value():
    f = accumulate_function()
    h = ir.structural_hash(f)
    assert isinstance(h, int) and 0 <= h < 2 ** 64
    assert h == ir.structural_hash(f)
    assert ir.structural_hash(scalar()) == ir.structural_hash(ir.ScalarType(INDEX))


def test_hash_consequences_of_var_tokens():
    x1, x2 = var("x"), var("x")
    assert ir.structural_hash(x1) != ir.structural_hash(x2)
    assert ir.structural_hash(x1, True) == ir.structural_hash(x2, True)
    y = var("y")
    assert ir.structural_hash(x1 + 1, True) == ir.structural_hash(y + 1, True)
    assert ir.structural_hash(x1 + 1) != ir.structural_hash(y + 1)
    assert ir.structural_hash(accumulate_function()) == ir.structural_hash(accumulate_function())


def test_program_hash_does_not_depend_on_construction_order():
    fs = [accumulate_function(n) for n in "abc"]
    gs = [accumulate_function(n) for n in "cab"]
    assert_equal_and_same_hash(ir.Program(fs, "P", SPAN), ir.Program(gs, "P", SPAN))


def _fill(template, slots):
    """Instantiate an expression template (nested tuples; ints are var slots)."""
    if isinstance(template, int):
        return slots[template]
    cls, left, right = template
    return cls(_fill(left, slots), _fill(right, slots), INDEX, SPAN)


TEMPLATES = [
    (ir.Add, 0, 1),
    (ir.Mul, (ir.Add, 0, 1), 2),
    (ir.Sub, (ir.Add, 0, 1), (ir.Mul, 2, 3)),
]


def test_equality_matches_a_reference_model_and_implies_equal_hashes():
    rng = random.Random(1234)
    pool = [var(name) for name in "abcde"]
    checked = {True: 0, False: 0}
    for template, slots in itertools.product(TEMPLATES, range(4)):
        del slots
        for _ in range(150):
            width = 4
            left = [rng.choice(pool[:3]) for _ in range(width)]
            right = [rng.choice(pool[1:]) for _ in range(width)]
            lhs, rhs = _fill(template, left), _fill(template, right)
            used = len([s for s in _slots(template)])
            lv, rv = left[:used], right[:used]
            strict_expected = all(a is b for a, b in zip(lv, rv))
            l2r, r2l, auto_expected = {}, {}, True
            for a, b in zip(lv, rv):
                if l2r.setdefault(a, b) is not b or r2l.setdefault(b, a) is not a:
                    auto_expected = False
            for auto, expected in ((False, strict_expected), (True, auto_expected)):
                assert ir.structural_equal(lhs, rhs, auto) is expected
                if expected:
                    assert ir.structural_hash(lhs, auto) == ir.structural_hash(rhs, auto)
                checked[expected] += 1
    assert checked[True] > 50 and checked[False] > 50


def _slots(template):
    if isinstance(template, int):
        return [template]
    return _slots(template[1]) + _slots(template[2])


def test_shared_subtrees_are_compared_once():
    # A DAG whose tree expansion has 2**60 nodes: equality and hash must stay linear.
    x1, x2 = var("x"), var("x")
    lhs, rhs = x1, x2
    for _ in range(60):
        lhs = ir.Add(lhs, lhs, INDEX, SPAN)
        rhs = ir.Add(rhs, rhs, INDEX, SPAN)
    assert_equal_and_same_hash(lhs, rhs, auto=True)
    assert not ir.structural_equal(lhs, rhs)


def test_nan_constants_are_one_value():
    # float("nan") != itself, and since Python 3.10 its hash is per object.
    nan1, nan2 = ir.ConstFloat(float("nan"), FP32, SPAN), ir.ConstFloat(float("nan"), FP32, SPAN)
    assert_equal_and_same_hash(nan1, nan2, auto=False)
    assert not ir.structural_equal(nan1, ir.ConstFloat(1.0, FP32, SPAN))


def _dim_program(ret: str) -> str:
    return ("import pypto.language as pl\n\nM = pl.dynamic('M')\nN = pl.dynamic('N')\n\n"
            "@pl.program\nclass P:\n    @pl.function(type=pl.FunctionType.Orchestration)\n"
            f"    def main(self, x: pl.Tensor[[M, 16], pl.FP32]) -> pl.Tensor[[{ret}, 16], pl.FP32]:\n"
            "        return x\n")


def test_a_dim_only_a_return_type_names_is_bound_there():
    # Found by the corpus damage run: `-> pl.Tensor[[with16, 16], ...]` read back unequal.
    import pypto.language as pl
    text = _dim_program("N")
    first, second = pl.parse(text), pl.parse(text)
    ir.assert_structural_equal(first, second)
    assert ir.structural_hash(first) == ir.structural_hash(second)
    # bound consistently with the params' dims: [N] is not [M]
    assert not ir.structural_equal(first, pl.parse(_dim_program("M")))

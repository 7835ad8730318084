"""Calls (01-language.md §8, §9.6, §12.1, §14.3): ops, op error wrapping, methods, submits."""

from __future__ import annotations

import pytest

import pypto.language as pl
from pypto import ir
from pypto.language.op import UNIFIED_OPS
from pypto.language.parser.diagnostics import (InvalidOperationError, ParserSyntaxError,
                                               ParserTypeError, UndefinedVariableError,
                                               UnsupportedFeatureError)

from _parser_helpers import (FP16, FP32, INDEX, assert_roundtrip, expect_error,
                             expect_text_error, scalar, stmts, tensor)

TASK = scalar(ir.DataType.TASK_ID)


def values(func: ir.Function) -> list:
    return [s.value for s in stmts(func) if isinstance(s, ir.AssignStmt)]


# -- namespaced and unified ops --------------------------------------------------------------

def test_namespaced_op_call_with_lists_kwargs_and_attrs():
    @pl.function
    def f(x: pl.Tensor[[16, 16], pl.FP32]):
        t = pl.tile.load(x, [0, 0], [16, 16], target_memory=pl.Mem.Mat)
        y = pl.tensor.add(x, x, attrs={"priority": 2, "tag": "hot"})
        return

    (x,) = f.params
    load, add = values(f)
    ir.assert_structural_equal(load, ir.create_op_call(
        "tile.load", [x, [0, 0], [16, 16]], {"target_memory": ir.MemorySpace.Mat}))
    assert isinstance(load.args[1], ir.MakeTuple)
    assert load.type == ir.TileType([16, 16], FP32, None, None, ir.MemorySpace.Mat)
    assert add.op.name == "tensor.add" and add.attrs == {"priority": 2, "tag": "hot"}


def test_unified_ops_dispatch_by_operand_kind():
    @pl.function
    def f(x: pl.Tensor[[16, 16], pl.FP32], t: pl.Tile[[16, 16], pl.FP32, pl.Mem.Vec],
          n: pl.Scalar[pl.INDEX]):
        a = pl.add(x, x)
        b = pl.add(t, t)
        c = pl.add(x, 1.0)
        d = pl.mul(2.0, t)
        e = pl.max(n, 3)
        g = pl.min(n, 3)
        h = pl.cast(n, pl.FP32)
        return

    a, b, c, d, e, g, h = values(f)
    assert [v.op.name for v in (a, b, c, d)] == ["tensor.add", "tile.add", "tensor.adds",
                                                 "tile.muls"]
    assert isinstance(e, ir.Max) and isinstance(g, ir.Min)
    assert isinstance(h, ir.Cast) and h.type == scalar(FP32)


def test_positional_dtype_and_enum_arguments():
    @pl.function
    def f(t: pl.Tile[[16, 16], pl.FP32, pl.Mem.Vec]):
        x = pl.create_tensor([4, 8], pl.FP16)
        m = pl.move(t, pl.Mem.Mat)
        c = pl.create_tile([16, 16], pl.FP32, pl.Mem.Acc)
        return

    x, m, c = values(f)
    assert x.type == tensor([4, 8], FP16) and x.kwargs["dtype"] is FP16
    assert m.type.memory_space is ir.MemorySpace.Mat
    assert c.type.memory_space is ir.MemorySpace.Acc


def test_keyword_values_from_the_closure():
    target = pl.Mem.Mat
    half = pl.FP16

    @pl.function
    def f(x: pl.Tensor[[16, 16], pl.FP32]):
        t = pl.load(x, [0, 0], [16, 16], target_memory=target)
        y = pl.cast(x, target_type=half)
        return

    t, y = values(f)
    assert t.type.memory_space is ir.MemorySpace.Mat and y.type == tensor([16, 16], FP16)


def test_get_byte_folds():
    @pl.function
    def f(x: pl.Tensor[[4], pl.FP32]):
        a = pl.FP16.get_byte()
        b = pl.INT64.get_byte()
        return

    a, b = values(f)
    assert (type(a), a.value, a.dtype) == (ir.ConstInt, 2, INDEX)
    assert b.value == 8


def test_builtin_abs_is_the_abs_node():
    @pl.function
    def f(n: pl.Scalar[pl.INT32]):
        a = abs(n)
        return

    ir.assert_structural_equal(values(f)[0], ir.abs_(f.params[0]))


def test_dim_folds_to_dynamic_var_in_orchestration_only():
    M = pl.dynamic("M")

    @pl.function(type=pl.FunctionType.Orchestration)
    def orch(x: pl.Tensor[[M, 8], pl.FP32]):
        a = pl.dim(x, 0)
        b = pl.tensor.dim(x, 0)
        c = pl.dim(x, 1)
        for i in pl.range(2):
            d = pl.dim(x, 0)
        e = a + b
        return

    @pl.function
    def opaque(x: pl.Tensor[[M, 8], pl.FP32]):
        a = pl.dim(x, 0)
        return

    # At the top of the body, a name bound to the dim is the dim itself (no statement,
    # as PyPTO's parser does: conformance 0277); inside a loop the binding stays.
    c, e = values(orch)
    m = orch.params[0].type.shape[0]
    assert isinstance(c, ir.Call) and c.op.name == "tensor.dim"
    loop = next(s for s in stmts(orch) if isinstance(s, ir.ForStmt))
    assert ir.flatten_to_stmts(loop.body)[0].value is m
    assert e.left is m and e.right is m
    assert isinstance(values(opaque)[0], ir.Call)


@pytest.mark.parametrize("second", ["K", "M"])
def test_a_name_naming_a_dim_again_is_still_no_statement(second):
    # Found by the corpus damage run (0569~damage3): the second ``n = K`` made a
    # statement; its printed form names the dim first, so it read back as no statement.
    program = pl.parse(f"""
import pypto.language as pl
K = pl.dynamic("K")
M = pl.dynamic("M")

@pl.program
class P:
    @pl.function(type=pl.FunctionType.Orchestration)
    def main(self, x: pl.Tensor[[K, M], pl.FP32]) -> pl.Scalar[pl.INDEX]:
        n: pl.Scalar[pl.INDEX] = K
        n: pl.Scalar[pl.INDEX] = {second}
        return n
""")
    body = ir.flatten_to_stmts(program.get_function("main").body)
    assert len(body) == 1 and body[0].value[0].name_hint == second
    assert_roundtrip(program)


# -- unknown callees --------------------------------------------------------------------------

@pytest.mark.parametrize("call, cls, fragment, token", [
    ("pl.nope(x)", InvalidOperationError, "Unknown operation 'pl.nope'", "pl.nope"),
    ("pl.range(3)", InvalidOperationError, "Unknown operation 'pl.range'", "pl.range"),
    ("pl.dynamic('M')", InvalidOperationError, "Unknown operation 'pl.dynamic'", "pl.dynamic"),
    ("pl.at(pl.Level.HOST)", InvalidOperationError, "Unknown operation 'pl.at'", "pl.at"),
    ("pl.a.b.c(x)", InvalidOperationError, "Unknown operation 'pl.a.b.c'", "pl.a"),
    ("pl.tensor.nope(x)", InvalidOperationError, "tensor.nope", "pl.tensor"),
    ("x.foo()", UnsupportedFeatureError, "Unsupported function call 'x.foo'", "x.foo"),
    ("math.sqrt(n)", UnsupportedFeatureError, "Unsupported function call 'math.sqrt'", "math"),
    # DSL text sees no Python builtins (the decorators' closure offers a few)
    ("len(n)", UndefinedVariableError, "Undefined function 'len'", "len"),
    ("print(n)", UndefinedVariableError, "Undefined function 'print'", "print"),
    ("n(1)", UnsupportedFeatureError, "'n' is a DSL value and cannot be called", "n(1)"),
    ("nothing(1)", UndefinedVariableError, "Undefined function 'nothing'", "nothing"),
    ("x[0](1)", UnsupportedFeatureError, "Unsupported function call 'x[0]'", "x[0]"),
])
def test_unknown_callees(call, cls, fragment, token):
    expect_text_error(f"""\
import pypto.language as pl
@pl.function
def f(n: pl.Scalar[pl.INDEX], x: pl.Tensor[[4], pl.FP32]):
    y = {call}  # @call
""", cls, fragment, "call", token)


def test_unknown_operation_hint_for_statement_constructs():
    err = expect_text_error("""\
import pypto.language as pl
@pl.function
def f(n: pl.Scalar[pl.INDEX]):
    y = pl.parallel(n)
""", InvalidOperationError, "Unknown operation 'pl.parallel'")
    assert "statement-level construct" in err.hint


def test_unified_op_rejects_attrs():
    with expect_error(ParserSyntaxError, "pl.add() does not take attrs=", "uattrs", "pl.add"):
        @pl.function
        def f(x: pl.Tensor[[4], pl.FP32]):
            y = pl.add(x, x, attrs={"k": 1})  # @uattrs


def test_double_star_kwargs_in_op_call():
    with expect_error(UnsupportedFeatureError, "**kwargs is not supported in DSL calls", "dstar",
                      "**"):
        @pl.function
        def f(x: pl.Tensor[[4], pl.FP32]):
            y = pl.tensor.add(x, x, **{"a": 1})  # @dstar


# -- op error wrapping ------------------------------------------------------------------------

def test_op_value_error_becomes_invalid_operation():
    with expect_error(InvalidOperationError, "not broadcastable", "bcast", "pl.add"):
        @pl.function
        def f(x: pl.Tensor[[64], pl.FP32], y: pl.Tensor[[32], pl.FP32]):
            z = pl.add(x, y)  # @bcast


def test_op_type_error_becomes_invalid_operation():
    with expect_error(InvalidOperationError, "requires tmp_tile", "tmp", "pl.row_sum"):
        @pl.function
        def f(t: pl.Tile[[16, 16], pl.FP32, pl.Mem.Vec]):
            s = pl.row_sum(t)  # @tmp


def test_op_keyword_choice_error():
    with expect_error(InvalidOperationError, "tile.load: keyword 'target_memory'", "left",
                      "pl.load"):
        @pl.function
        def f(x: pl.Tensor[[16], pl.FP32]):
            t = pl.load(x, [0], [16], target_memory=pl.Mem.Left)  # @left


def test_scalar_operand_gets_the_python_operator_hint():
    with expect_error(InvalidOperationError, "pl.exp: 'input' must be a Tensor or Tile",
                      "scalar-hint",
                      "pl.exp") as info:
        @pl.function
        def f(n: pl.Scalar[pl.FP32]):
            y = pl.exp(n)  # @scalar-hint
    assert "plain Python operators" in info.value.hint


def test_tensor_operand_gets_no_scalar_hint():
    with pytest.raises(InvalidOperationError) as info:
        @pl.function
        def f(x: pl.Tensor[[64], pl.FP32], y: pl.Tensor[[32], pl.FP32]):
            z = pl.add(x, y)
    assert info.value.hint is None


def test_wrapper_messages_without_the_op_name_get_the_module_prefix(monkeypatch):
    def failing(*args, span=None, **kwargs):
        raise ValueError("operands disagree")

    monkeypatch.setitem(UNIFIED_OPS, "exp", failing)
    with expect_error(InvalidOperationError, "pl.tensor operation 'exp': operands disagree",
                      "prefix", "pl.exp"):
        @pl.function
        def f(x: pl.Tensor[[4], pl.FP32]):
            y = pl.exp(x)  # @prefix
    with expect_error(InvalidOperationError, "pl.tile operation 'exp': operands disagree",
                      "prefix-tile", "pl.exp"):
        @pl.function
        def g(t: pl.Tile[[4], pl.FP32, pl.Mem.Vec]):
            y = pl.exp(t)  # @prefix-tile


def test_other_exceptions_inside_an_op(monkeypatch):
    def broken(*args, span=None, **kwargs):
        raise KeyError("slot")

    monkeypatch.setitem(UNIFIED_OPS, "exp", broken)
    with expect_error(InvalidOperationError, "Error in pl.tensor operation 'exp': KeyError",
                      "other", "pl.exp"):
        @pl.function
        def f(x: pl.Tensor[[4], pl.FP32]):
            y = pl.exp(x)  # @other


def test_internal_errors_inside_an_op_stay_loud(monkeypatch):
    from pypto.errors import InternalError

    def buggy(*args, span=None, **kwargs):
        raise InternalError("invariant broken")

    monkeypatch.setitem(UNIFIED_OPS, "exp", buggy)
    with pytest.raises(InternalError, match="invariant broken"):
        @pl.function
        def f(x: pl.Tensor[[4], pl.FP32]):
            y = pl.exp(x)


# -- program method calls -----------------------------------------------------------------------

def test_method_call_with_attrs_and_without_self_param():
    @pl.program
    class P:
        @pl.function(type=pl.FunctionType.InCore)
        def k(x: pl.Tensor[[4], pl.FP32]) -> pl.Tensor[[4], pl.FP32]:
            return x

        @pl.function(type=pl.FunctionType.Orchestration)
        def main(self, x: pl.Tensor[[4], pl.FP32]) -> pl.Tensor[[4], pl.FP32]:
            y = self.k(x, attrs={"arg_directions": [pl.adir.input]})
            return y

    call = values(P.get_function("main"))[0]
    assert call.attrs == {"arg_directions": [ir.ArgDirection.Input]}
    assert_roundtrip(P)


def test_method_call_with_keyword_arguments():
    with expect_error(ParserSyntaxError, "self.k() takes positional arguments only", "kw-call",
                      "self.k"):
        @pl.program
        class P:
            @pl.function
            def k(self, x: pl.Tensor[[4], pl.FP32]) -> pl.Tensor[[4], pl.FP32]:
                return x

            @pl.function
            def main(self, x: pl.Tensor[[4], pl.FP32]) -> pl.Tensor[[4], pl.FP32]:
                y = self.k(x=x)  # @kw-call
                return y


def test_call_cycle_is_parsed_in_class_order_0246():
    """Methods that call each other are parsed in class order, as PyPTO parses them
    (conformance 0246): the first one's call of the later one has no type yet, the
    later one's call is typed."""

    @pl.program
    class P:
        @pl.function
        def a(self, x: pl.Tensor[[4], pl.FP32]) -> pl.Tensor[[4], pl.FP32]:
            y = self.b(x)
            return x

        @pl.function
        def b(self, x: pl.Tensor[[4], pl.FP32]) -> pl.Tensor[[4], pl.FP32]:
            z = self.a(x)
            return z

    assert stmts(P.get_function("a"))[0].var.type == ir.UnknownType()
    assert stmts(P.get_function("b"))[0].var.type == tensor([4])
    assert "y: pl.UnknownType = self.b(x)" in ir.python_print(P, format=False)
    assert_roundtrip(P)


def test_unknown_type_annotation_takes_the_value_type_0246():
    """``pl.UnknownType`` (printed for an untyped call) says nothing about the value:
    the name gets the value's type, as in PyPTO (conformance 0246, 0305)."""

    @pl.program
    class P:
        @pl.function
        def a(self, x: pl.Tensor[[4], pl.FP32]) -> pl.Tensor[[4], pl.FP32]:
            return x

        @pl.function
        def b(self, x: pl.Tensor[[4], pl.FP32]) -> pl.Tensor[[4], pl.FP32]:
            z: pl.UnknownType = self.a(x)
            w: pl.UnknownType = pl.tensor.add(x, x)
            return z

    assert [s.var.type for s in stmts(P.get_function("b"))[:2]] == [tensor([4]), tensor([4])]


def test_callee_outside_a_cycle_is_still_parsed_first():
    @pl.program
    class P:
        @pl.function
        def main(self, x: pl.Tensor[[4], pl.FP32]) -> pl.Tensor[[4], pl.FP32]:
            y = self.a(x)
            return y

        @pl.function
        def a(self, x: pl.Tensor[[4], pl.FP32]) -> pl.Tensor[[4], pl.FP32]:
            z = self.b(x)
            return self.c(z)

        @pl.function
        def b(self, x: pl.Tensor[[4], pl.FP32]) -> pl.Tensor[[4], pl.FP32]:
            return self.a(x)

        @pl.function
        def c(self, x: pl.Tensor[[4], pl.FP32]) -> pl.Tensor[[4], pl.FP32]:
            return x

    # c first (a's callee, outside the a <-> b cycle), then a and b in class order.
    assert stmts(P.get_function("main"))[0].var.type == tensor([4])
    assert stmts(P.get_function("a"))[0].var.type == ir.UnknownType()
    assert_roundtrip(P)


# -- pl.submit / pl.spmd_submit -------------------------------------------------------------------

SUBMIT_PROGRAM = """\
import pypto.language as pl
@pl.program
class P:
    @pl.function(type=pl.FunctionType.InCore)
    def k(x: pl.Tensor[[4], pl.FP32]) -> pl.Tensor[[4], pl.FP32]:
        return x
    @pl.function(type=pl.FunctionType.Orchestration)
    def main(self, x: pl.Tensor[[4], pl.FP32], n: pl.Scalar[pl.INDEX]) -> pl.Tensor[[4], pl.FP32]:
{body}
"""


def submit_program(*lines: str) -> str:
    return SUBMIT_PROGRAM.format(body="\n".join("        " + line for line in lines))


def test_submit_builds_a_typed_submit_and_binds_both_names():
    p = pl.parse(submit_program(
        "out, tid = pl.submit(self.k, x)",
        "out2, tid2 = pl.submit(self.k, out, deps=[tid, None], dumps=[out], "
        "allow_early_resolve=True, predicate=n > 0)",
        "out3, tid3 = pl.spmd_submit(self.k, out2, core_num=4, sync_start=True, deps=[tid2])",
        "return out3"))
    main = p.get_function("main")
    body = stmts(main)
    first = body[0].value
    assert isinstance(first, ir.Submit) and first.op.name == "k"
    assert first.type == ir.TupleType([tensor([4]), TASK])
    names = [s.var.name_hint for s in body if isinstance(s, ir.AssignStmt)]
    assert names[:3] == ["_tuple_tmp", "out", "tid"]
    second = body[3].value
    assert second.deps[0] is body[2].var
    assert isinstance(second.deps[1], ir.Call) and second.deps[1].op.name == "system.task_invalid"
    assert second.allow_early_resolve is True and isinstance(second.predicate, ir.Gt)
    assert second.attrs["dump_vars"][0] is body[1].var
    third = body[6].value
    assert third.core_num.value == 4 and third.sync_start is True
    assert_roundtrip(p)


@pytest.mark.parametrize("line, cls, fragment, token", [
    ("pl.submit(self.k, x)", ParserSyntaxError, "pl.submit(...) must be assigned", "pl.submit"),
    ("y = pl.add(pl.submit(self.k, x), x)", ParserSyntaxError, "pl.submit(...) must be assigned",
     "pl.submit"),
    ("out, tid = pl.submit(x)", ParserSyntaxError, "needs a kernel as first argument",
     "pl.submit"),
    ("out, tid = pl.submit(self.nope, x)", UndefinedVariableError,
     "Function 'nope' not defined in program", "self.nope"),
    ("out, tid = pl.submit(self.k, x, colour=1)", ParserSyntaxError,
     "Unknown keyword argument 'colour' in pl.submit()", "colour"),
    ("out, tid = pl.submit(self.k, x, deps=n)", ParserSyntaxError,
     "deps= must be a list of task ids", "n)"),
    ("out, tid = pl.submit(self.k, x, predicate=n)", ParserTypeError,
     "predicate= must be a Bool scalar", "pl.submit"),
    ("out, tid = pl.spmd_submit(self.k, x)", ParserSyntaxError,
     "pl.spmd_submit() requires core_num=", "pl.spmd_submit"),
    ("out, tid = pl.submit(self.k, x, allow_early_resolve=1)", ParserSyntaxError,
     "allow_early_resolve= must be True or False", "1)"),
])
def test_submit_rejections(line, cls, fragment, token):
    expect_text_error(submit_program(line + "  # @submit", "return x"), cls, fragment, "submit",
                      token)

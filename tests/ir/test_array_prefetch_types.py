"""The array, pointer and prefetch-handle types: members, structural equality and
hashing, printing, parsing, the DSL classes and the TypeCheck verifier's view of them."""

from __future__ import annotations

import textwrap

import pytest

import pypto.language as pl
import pypto.language.distributed as pld
from pypto import ir, passes
from pypto.language.parser.diagnostics import ParserTypeError

DT = ir.DataType
HANDLES = [ir.PtrType, ir.PrefetchAsyncContextType, ir.AsyncSessionType, ir.AsyncEventType]


def test_array_type_members():
    t = ir.ArrayType(DT.INT32, 8)
    assert (t.dtype, t.extent, t.memref) == (DT.INT32, 8, None)
    assert [d.value for d in t.shape] == [8] and t.shape[0].dtype is DT.INDEX
    assert t.memory_space is ir.MemorySpace.ScalarLocal and t.static_shape
    assert isinstance(t, ir.ShapedType) and not t.shares_memref_with(t)
    assert ir.ArrayType(DT.INT32, ir.ConstInt(8, DT.INDEX)) == t  # a constant extent


@pytest.mark.parametrize("extent, error, message", [
    (0, ValueError, "extent must be positive, got 0"),
    ("8", TypeError, "field 'extent' expects a constant int, got str"),
    (True, TypeError, "field 'extent' expects a constant int, got bool"),
])
def test_array_type_rejects_bad_extents(extent, error, message):
    with pytest.raises(error, match=message):
        ir.ArrayType(DT.INT32, extent)


def test_equality_and_hashing_are_structural():
    a, b = ir.ArrayType(DT.INT32, 8), ir.ArrayType(DT.INT32, 8)
    assert a == b and hash(a) == hash(b) and ir.structural_equal(a, b)
    assert ir.structural_hash(a) == ir.structural_hash(b)
    assert a != ir.ArrayType(DT.INT32, 4) and a != ir.ArrayType(DT.FP32, 8)
    assert a != ir.TensorType([8], DT.INT32) and a != ir.TileType([8], DT.INT32)
    assert {a: 1}[b] == 1
    with pytest.raises(ValueError, match=r"at: shape\[0\]\n\nReason: value mismatch \(8 != 4\)"):
        ir.assert_structural_equal(a, ir.ArrayType(DT.INT32, 4))
    for cls in HANDLES:
        assert cls.get() is cls() and cls.get() == cls() and hash(cls.get()) == hash(cls())
    assert len({cls.get() for cls in HANDLES}) == 4  # four distinct types


def test_printed_spellings():
    assert ir.python_print(ir.ArrayType(DT.INT32, 8)) == "pl.Array[8, pl.INT32]"
    assert ir.python_print(ir.ArrayType(DT.TASK_ID, 4)) == "pl.Array[4, pl.TASK_ID]"
    assert [ir.python_print(cls.get()) for cls in HANDLES] == [
        "pl.Ptr", "pl.PrefetchAsyncContext", "pl.AsyncSession", "pl.AsyncEvent"]


SOURCE = """
import pypto.language as pl

@pl.program
class P:
    @pl.function(type=pl.FunctionType.InCore)
    def k(self, a: pl.Array[8, pl.INT32], ctx: pl.PrefetchAsyncContext, s: pl.AsyncSession,
          e: pl.AsyncEvent, p: pl.Ptr) -> pl.Scalar[pl.INT32]:
        v: pl.Scalar[pl.INT32] = pl.array.get_element(a, 0)
        return v
"""


def test_annotations_parse_and_round_trip():
    program = pl.parse(SOURCE)
    params = program.get_function("k").params
    assert [p.type for p in params] == [ir.ArrayType(DT.INT32, 8)] + [
        cls.get() for cls in (ir.PrefetchAsyncContextType, ir.AsyncSessionType,
                              ir.AsyncEventType, ir.PtrType)]
    text = ir.python_print(program)
    assert "a: pl.Array[8, pl.INT32], ctx: pl.PrefetchAsyncContext" in text
    ir.assert_structural_equal(program, pl.parse(text))
    assert ir.python_print(pl.parse(text)) == text


def test_pl_ptr_type_is_pyptos_alias_of_ptr():
    text = SOURCE.replace("p: pl.Ptr", "p: pl.PtrType")
    assert pl.parse(text).get_function("k").params[4].type is ir.PtrType.get()


def test_array_annotation_alias_in_python():
    A8 = pl.Array[8, pl.INT32]

    @pl.function(type=pl.FunctionType.InCore)
    def k(a: A8) -> pl.Scalar[pl.INT32]:
        v: pl.Scalar[pl.INT32] = pl.array.get_element(a, 1)
        return v

    assert k.params[0].type == ir.ArrayType(DT.INT32, 8)


@pytest.mark.parametrize("annotation, message", [
    ("pl.Array[8]", "pl.Array[...] takes an extent and a dtype"),
    ("pl.Array[0, pl.INT32]", "pl.Array extent must be a positive int constant, got '0'"),
    ("pl.Array[n, pl.INT32]", "pl.Array extent must be a positive int constant"),
])
def test_bad_array_annotations_are_parser_type_errors(annotation, message):
    text = textwrap.dedent(f"""
        import pypto.language as pl
        n = 2.5

        @pl.function(type=pl.FunctionType.InCore)
        def k(a: {annotation}) -> pl.Scalar[pl.INT32]:
            return 0
        """)
    with pytest.raises(ParserTypeError, match=message.replace("[", r"\[").replace("]", r"\]")) \
            as info:
        pl.parse(text)
    assert info.value.span["line"] == 6


def test_language_classes_and_their_re_exports():
    assert pl.Ptr is ir.PtrType and pl.PtrType is ir.PtrType
    assert pl.tensor.PtrType is ir.PtrType and pl.tile.PtrType is ir.PtrType
    assert pl.array.Array is pl.Array and pl.system.Array is pl.Array
    assert (pl.prefetch.AsyncEvent, pl.prefetch.AsyncSession,
            pl.prefetch.PrefetchAsyncContext) == (pl.AsyncEvent, pl.AsyncSession,
                                                  pl.PrefetchAsyncContext)
    assert pld.tensor.Ptr.__name__ == "Ptr" and pld.tensor.Ptr().unwrap() is None
    record = pl.Array[8, pl.INT32]
    assert (record.kind, record.args) == ("Array", (8, pl.INT32)) and repr(pl.Array) == "pl.Array"
    e = ir.Var("e", ir.AsyncEventType.get())
    assert pl.AsyncEvent(expr=e).unwrap() is e and pl.Array(expr=e).unwrap() is e
    assert repr(pl.AsyncSession()) == "pl.AsyncSession"
    with pytest.raises(TypeError, match="pl.Array is an annotation"):
        pl.Array(8, pl.INT32)
    with pytest.raises(TypeError, match=r"AsyncEvent\(expr=...\) expects an IR expression"):
        pl.AsyncEvent(expr=3)


def test_type_check_refuses_an_array_of_another_extent_or_a_handle_of_another_kind():
    a4, a8 = ir.Var("a4", ir.ArrayType(DT.INT32, 4)), ir.Var("a8", ir.ArrayType(DT.INT32, 8))
    ev = ir.Var("ev", ir.AsyncEventType.get())
    y = ir.Var("y", ir.ArrayType(DT.INT32, 8))
    callee = ir.Function("callee", [a8], [a8.type], ir.ReturnStmt([a8]))

    def caller(arg):
        call = ir.Call(ir.GlobalVar("callee"), [arg], {}, {}, a8.type, ir.Span.unknown())
        body = ir.SeqStmts([ir.AssignStmt(y, call, ir.Span("t.py", 3, 1)), ir.ReturnStmt([y])])
        return ir.Program([callee, ir.Function("main", [arg], [a8.type], body)], "P")

    def messages(program):
        found = passes.PropertyVerifierRegistry.verify(
            passes.IRPropertySet([passes.IRProperty.TypeChecked]), program)
        return [d.message for d in found]

    assert messages(caller(ir.Var("ok", ir.ArrayType(DT.INT32, 8)))) == []
    assert messages(caller(a4)) == [
        "Argument 1 of the call to 'callee' does not fit parameter 'a8' "
        "(pl.Array[8, pl.INT32]): shape [4] where [8] is declared"]
    assert messages(caller(ev)) == [
        "Argument 1 of the call to 'callee' does not fit parameter 'a8' "
        "(pl.Array[8, pl.INT32]): a AsyncEvent where a Array is declared"]


def test_alloc_gives_a_pointer_as_in_pyptos_printed_programs():
    text = textwrap.dedent("""
        import pypto.language as pl

        @pl.function(type=pl.FunctionType.InCore)
        def k(x: pl.Tensor[[16], pl.FP32]) -> pl.Tensor[[16], pl.FP32]:
            mem_vec_2: pl.Ptr = pl.tile.alloc(pl.Mem.Vec, 4096)
            return x
        """)
    function = pl.parse(text)
    assert function.body.stmts[0].var.type is ir.PtrType.get()
    printed = ir.python_print(function)
    assert "mem_vec_2: pl.Ptr = pl.tile.alloc(pl.Mem.Vec, 4096)" in printed
    ir.assert_structural_equal(function, pl.parse(printed))
    assert pl.tensor.alloc(pl.Mem.Vec, 64).type is ir.PtrType.get()


def test_an_array_alias_in_dsl_text():
    text = textwrap.dedent("""
        import pypto.language as pl
        Counts = pl.Array[4, pl.INT64]

        @pl.function(type=pl.FunctionType.InCore)
        def k(a: Counts) -> pl.Scalar[pl.INT64]:
            v: pl.Scalar[pl.INT64] = pl.array.get_element(a, 3)
            return v
        """)
    assert pl.parse(text).params[0].type == ir.ArrayType(DT.INT64, 4)

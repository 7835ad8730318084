"""``pl.MemRef`` annotations in PyPTO's printed form: a ``pl.Ptr`` base (a Var in scope or
a buffer named in a string), the ``pl.const(0, pl.INT64)`` offset, the size; golden round
trips, PyPTO's own lowered programs, the old form's error, serialization."""

from __future__ import annotations

import glob
import os
import textwrap

import pytest

import pypto.language as pl
from pypto import ir
from pypto.language.parser.diagnostics import ParserSyntaxError, ParserTypeError
from pypto.language.parser.expr_evaluator import ExprEvaluator
from pypto.language.parser.type_resolver import TypeResolver

from _parser_helpers import expect_error, expect_text_error

JIT_EXPECTED = "/work/shared/reference/conformance/jit/expected"

GOLDEN = textwrap.dedent('''\
    # pypto.program: P
    import pypto.language as pl

    @pl.program
    class P:
        @pl.function(type=pl.FunctionType.AIV, level=pl.Level.AIV, role=pl.Role.SubWorker)
        def k(x: pl.Tensor[[16, 64], pl.FP32, pl.MemRef("mem_ddr_0", pl.const(0, pl.INT64), 4096)], y: pl.Out[pl.Tensor[[16, 64], pl.FP32, pl.MemRef("mem_ddr_1", pl.const(0, pl.INT64), 4096)]]) -> pl.Tensor[[16, 64], pl.FP32]:
            mem_vec_2: pl.Ptr = pl.tile.alloc(pl.Mem.Vec, 8192)
            t: pl.Tile[[16, 64], pl.FP32, pl.MemRef(mem_vec_2, pl.const(0, pl.INT64), 4096), pl.Mem.Vec] = pl.tile.load(x, [0, 0], [16, 64], [16, 64])
            r: pl.Tile[[16, 64], pl.FP32, pl.MemRef(mem_vec_2, pl.const(4096, pl.INT64), 4096, is_pinned=True), pl.Mem.Vec] = pl.tile.add(t, t)
            y_1: pl.Tensor[[16, 64], pl.FP32, pl.MemRef("mem_ddr_1", pl.const(0, pl.INT64), 4096)] = pl.tile.store(r, [0, 0], y)
            return y_1
        @pl.function(type=pl.FunctionType.Orchestration, level=pl.Level.CHIP, role=pl.Role.Orchestrator)
        def main(self, x: pl.Tensor[[16, 64], pl.FP32, pl.MemRef("mem_ddr_0", pl.const(0, pl.INT64), 4096)], y: pl.Out[pl.Tensor[[16, 64], pl.FP32, pl.MemRef("mem_ddr_1", pl.const(0, pl.INT64), 4096)]]) -> pl.Tensor[[16, 64], pl.FP32]:
            y_1: pl.Tensor[[16, 64], pl.FP32, pl.MemRef("mem_ddr_2", pl.const(0, pl.INT64), 4096)] = self.k(x, y)
            return y_1''')


class _Collect(ir.IRVisitor):
    def __init__(self) -> None:
        super().__init__()
        self.memrefs: list = []

    def visit_mem_ref(self, op):
        self.memrefs.append(op)
        super().visit_mem_ref(op)


def memrefs(program: ir.Program) -> list:
    """Every memref of the program's parameters and statements, in visiting order."""
    collect = _Collect()
    for func in program.functions.values():
        for param in func.params:
            collect.visit_expr(param)
        collect.visit_stmt(func.body)
    return collect.memrefs


def assert_same_memrefs(a: ir.Program, b: ir.Program) -> None:
    """Type equality leaves memrefs out: compare them, and which share a base, here."""
    left, right = memrefs(a), memrefs(b)
    assert left, "no memref to compare"
    ir.assert_structural_equal(left, right, enable_auto_mapping=True)


def test_golden_text_is_a_fixpoint_and_both_base_forms_read_as_pyptos():
    program = pl.parse(GOLDEN)
    assert program.as_python() == GOLDEN
    again = pl.parse(program.as_python())
    ir.assert_structural_equal(again, program)
    assert_same_memrefs(again, program)
    k, main = program.functions["k"], program.functions["main"]
    alloc = ir.flatten_to_stmts(k.body)[0].var
    t, r = (stmt.var for stmt in ir.flatten_to_stmts(k.body)[1:3])
    assert isinstance(alloc.type, ir.PtrType)
    assert t.type.memref.base_ is alloc and r.type.memref.base_ is alloc  # the Var in scope
    assert r.type.memref.byte_offset_.value == 4096 and r.type.memref.is_pinned_
    assert not ir.MemRef.may_alias(t.type.memref, r.type.memref)
    # a string names one pl.Ptr per program: shared by both functions' parameters
    assert k.params[0].type.memref.base_ is main.params[0].type.memref.base_
    assert k.params[1].type.memref.base_ is not k.params[0].type.memref.base_
    assert k.params[0].type.memref.base_.name_hint == "mem_ddr_0"


def test_two_parses_intern_separately():
    a, b = pl.parse(GOLDEN), pl.parse(GOLDEN)
    assert memrefs(a)[0].base_ is not memrefs(b)[0].base_


def test_memrefs_differing_in_offset_are_found():
    changed = pl.parse(GOLDEN.replace("pl.const(4096, pl.INT64), 4096, is_pinned=True",
                                      "pl.const(2048, pl.INT64), 4096, is_pinned=True"))
    with pytest.raises(ValueError, match="value mismatch"):
        assert_same_memrefs(changed, pl.parse(GOLDEN))


def test_memrefs_survive_serialization_with_their_sharing():
    program = pl.parse(GOLDEN)
    back = ir.deserialize(ir.serialize(program))
    assert_same_memrefs(back, program)
    assert back.as_python() == GOLDEN
    k = back.functions["k"]
    assert k.params[0].type.memref.base_ is back.functions["main"].params[0].type.memref.base_


def test_distinct_bases_sharing_a_name_print_apart():
    one, two = ir.Var("buf", ir.PtrType.get()), ir.Var("buf", ir.PtrType.get())
    b = ir.IRBuilder()
    with b.function("f") as f:
        x = f.param("x", ir.TensorType([16], ir.DataType.FP32, ir.MemRef(one, 0, 64)))
        f.param("y", ir.TensorType([16], ir.DataType.FP32, ir.MemRef(two, 0, 64)))
        f.return_type(ir.TensorType([16], ir.DataType.FP32))
        b.return_stmt(x)
    program = ir.Program([f.get_result()], "P")
    text = program.as_python()
    assert 'pl.MemRef("buf", ' in text and 'pl.MemRef("buf_1", ' in text
    again = pl.parse(text)
    assert_same_memrefs(again, program)
    params = again.functions["f"].params
    assert params[0].type.memref.base_ is not params[1].type.memref.base_


LOWERED = sorted(p for p in glob.glob(f"{JIT_EXPECTED}/*.txt") if "MemRef" in open(p).read())


def test_the_seven_lowered_programs_with_memrefs_are_there():
    assert len(LOWERED) == 7, JIT_EXPECTED  # (a missing folder must not pass as no cases)


@pytest.mark.parametrize("path", LOWERED, ids=os.path.basename)
def test_pyptos_lowered_programs_parse(path):
    text = open(path).read().split("==== lower2\n", 1)[1].split("\n====", 1)[0]
    program = pl.parse(text)
    printed = program.as_python()
    assert pl.parse(printed).as_python() == printed
    assert_same_memrefs(pl.parse(printed), program)
    bases = {m.base_ for m in memrefs(program)}
    assert {b.name_hint for b in bases} >= {"mem_ddr_0", "mem_ddr_1", "mem_vec_2"}
    assert all(isinstance(b.type, ir.PtrType) for b in bases)


def test_old_form_is_a_syntax_error_naming_the_new_form():
    with expect_error(ParserSyntaxError, "is the old MemRef form (memory_space, addr, size, "
                      "id), which PyPTO does not take", "old", "pl.MemRef") as info:
        @pl.function
        def f(t: pl.Tile[[16, 16], pl.FP32, pl.MemRef(pl.Mem.Vec, 128, 1024, 3), pl.Mem.Vec]):  # @old
            return
    assert "pl.MemRef(base, byte_offset, size)" in info.value.hint


def test_old_form_in_text_is_refused_at_its_line():
    expect_text_error('''
        import pypto.language as pl
        @pl.function
        def f(x: pl.Tensor[[4, 4], pl.FP32, pl.MemRef(pl.Mem.DDR, 0, 64, 1)]):  # @old-text
            return
        ''', ParserSyntaxError, "is the old MemRef form", "old-text", "pl.MemRef")


def test_base_must_be_a_ptr_in_scope():
    with expect_error(ParserTypeError, "MemRef base 'nowhere' is not defined", "undefined",
                      "nowhere"):
        @pl.function
        def f(x: pl.Tensor[[16], pl.FP32]):
            t: pl.Tile[[16], pl.FP32, pl.MemRef(nowhere, 0, 64), pl.Mem.Vec] = (  # @undefined
                pl.tile.load(x, [0], [16]))
            return
    with expect_error(ParserTypeError, "MemRef base 'n' must be a pl.Ptr", "not-ptr", "n,"):
        @pl.function
        def g(x: pl.Tensor[[16], pl.FP32], n: pl.Scalar[pl.INT64]):
            t: pl.Tile[[16], pl.FP32, pl.MemRef(n, 0, 64), pl.Mem.Vec] = (  # @not-ptr
                pl.tile.load(x, [0], [16]))
            return


def test_offset_and_size_are_checked():
    with expect_error(ParserTypeError, "MemRef size '2.5' must be a constant int", "size",
                      "2.5"):
        @pl.function
        def f(x: pl.Tensor[[16], pl.FP32, pl.MemRef("m", 0, 2.5)]):  # @size
            return
    with expect_error(ParserTypeError, "MemRef byte_offset 'pl.const(0.5, pl.FP32)' must be an "
                      "integer expression", "offset", "pl.const(0.5"):
        @pl.function
        def h(x: pl.Tensor[[16], pl.FP32, pl.MemRef("m", pl.const(0.5, pl.FP32), 64)]):  # @offset
            return
    with expect_error(ParserTypeError, "Invalid MemRef 'pl.MemRef('m', 0)'", "arity",
                      "pl.MemRef"):
        @pl.function
        def g(x: pl.Tensor[[16], pl.FP32, pl.MemRef("m", 0)]):  # @arity
            return


def test_type_resolver_interns_base_names():
    import ast
    resolver = TypeResolver(ExprEvaluator({"pl": pl}))
    ptr = resolver.interned_base_ptr("mem_ddr_0")
    assert isinstance(ptr.type, ir.PtrType) and resolver.interned_base_ptr("mem_ddr_0") is ptr
    node = ast.parse('pl.MemRef("mem_ddr_0", pl.const(0, pl.INT64), 64)', mode="eval").body
    memref = resolver.resolve_memref(node)
    assert memref.base_ is ptr and memref.size_ == 64
    assert memref.byte_offset_ == ir.ConstInt(0, ir.DataType.INT64)

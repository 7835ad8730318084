"""Type annotations (01-language.md §3): every form, dynamic dims, directions, rejections."""

from __future__ import annotations

import pytest

import pypto.language as pl
from pypto import ir
from pypto.ir import DataType as DT
from pypto.language import FP16
from pypto.language.parser.diagnostics import ParserTypeError, UndefinedVariableError

from _parser_helpers import (FP32, INDEX, INT32, expect_error, expect_text_error, parse_text,
                             printed, scalar, stmts, tensor)

ROWS, COLS = 16, 32
SHAPE = [8, 4]
MY_DTYPE = DT.BF16


def ptype(func: ir.Function, index: int = 0) -> ir.Type:
    return func.params[index].type


# -- Tensor -----------------------------------------------------------------------------------

def test_tensor_shape_and_dtype():
    @pl.function
    def f(x: pl.Tensor[[64, 128], pl.FP16]):
        return

    assert ptype(f) == ir.TensorType([64, 128], DT.FP16)
    assert all(type(d) is ir.ConstInt and d.dtype is INDEX for d in ptype(f).shape)


def test_tensor_shape_as_tuple_closure_list_and_expression():
    @pl.function
    def f(a: pl.Tensor[(ROWS, COLS), pl.FP32], b: pl.Tensor[SHAPE, pl.FP32],
          c: pl.Tensor[[ROWS * 2, COLS // 4], pl.FP32], d: pl.Tensor[SHAPE[::-1], pl.FP32]):
        return

    assert [ptype(f, i) for i in range(4)] == [tensor([16, 32]), tensor([8, 4]),
                                              tensor([32, 8]), tensor([4, 8])]


def test_tensor_layout_slot_becomes_a_view():
    f = parse_text("""\
        import pypto.language as pl
        @pl.function
        def f(x: pl.Tensor[[4, 4], pl.FP32, pl.NZ]):
            return
        """)
    assert ptype(f) == ir.TensorType([4, 4], FP32, None, ir.TensorView(layout=ir.TensorLayout.NZ))


def test_default_layout_slot_is_no_view_0007():
    """``pl.ND`` is the default layout: the type has no view, as PyPTO reads it
    (conformance 0007); an ND view built in the IR prints as ``pl.TensorView()``."""
    f = parse_text("""\
        import pypto.language as pl
        @pl.function
        def f(x: pl.Tensor[[4, 4], pl.FP32, pl.ND], y: pl.Tensor[[4, 4], pl.FP32, pl.TensorView()]):
            return
        """)
    assert ptype(f) == ir.TensorType([4, 4], FP32)
    assert ptype(f, 1) == ir.TensorType([4, 4], FP32, None, ir.TensorView())
    assert "y: pl.Tensor[[4, 4], pl.FP32, pl.TensorView()]" in ir.python_print(f)


def test_tensor_view_and_memref_slots():
    @pl.function
    def f(x: pl.Tensor[[4, 4], pl.FP32, pl.TensorView(stride=[4, 1], layout=pl.TensorLayout.NZ),
                       pl.MemRef("mem_ddr_1", pl.const(0, pl.INT64), 64)]):
        return

    view = ir.TensorView(stride=[4, 1], layout=ir.TensorLayout.NZ)
    assert ptype(f) == ir.TensorType([4, 4], FP32, None, view)
    memref = ptype(f).memref
    assert memref.base_.name_hint == "mem_ddr_1" and isinstance(memref.base_.type, ir.PtrType)
    assert memref.byte_offset_ == ir.ConstInt(0, DT.INT64) and memref.size_ == 64
    assert ptype(f).memory_space is ir.MemorySpace.DDR


def test_dn_is_not_a_tensor_layout():
    with expect_error(ParserTypeError, "pl.DN is not a valid tensor layout", "dn", "pl.DN"):
        @pl.function
        def f(x: pl.Tensor[[4, 4], pl.FP32, pl.DN]):  # @dn
            return


def test_tensor_slot_count_and_kind():
    with expect_error(ParserTypeError, "pl.Tensor[...] takes 2 to 4 items", "one-slot",
                      "pl.Tensor"):
        @pl.function
        def f(x: pl.Tensor[[4, 4]]):  # @one-slot
            return
    with expect_error(ParserTypeError, "Unsupported pl.Tensor slot", "mem-slot", "pl.Mem.Vec"):
        @pl.function
        def g(x: pl.Tensor[[4, 4], pl.FP32, pl.Mem.Vec]):  # @mem-slot
            return


# -- Tile -------------------------------------------------------------------------------------

def test_tile_with_memory_space():
    @pl.function
    def f(t: pl.Tile[[16, 16], pl.FP16, pl.Mem.Left], u: pl.Tile[[16, 16], pl.FP32]):
        return

    assert ptype(f, 0) == ir.TileType([16, 16], DT.FP16, None, None, ir.MemorySpace.Left)
    assert ptype(f, 0).memory_space is ir.MemorySpace.Left
    assert ptype(f, 1) == ir.TileType([16, 16], FP32)
    assert ptype(f, 1).memory_space is None


def test_tile_slots_in_any_order():
    @pl.function
    def f(t: pl.Tile[[16, 16], pl.FP32, pl.TileView(valid_shape=[8, 16]),
                     pl.MemRef("mem_vec_3", 128, 1024), pl.Mem.Vec]):
        return

    view = ir.TileView(valid_shape=[8, 16])
    assert ptype(f) == ir.TileType([16, 16], FP32, None, view, ir.MemorySpace.Vec)
    memref = ptype(f).memref
    assert (memref.name_hint, memref.byte_offset_.value, memref.size_) == ("mem_vec_3", 128, 1024)
    assert memref.byte_offset_.dtype is DT.INT64  # an int offset is typed INT64, as printed


def test_tile_memref_needs_a_memory_space():
    with expect_error(ParserTypeError, "also needs a memory space", "memref", "pl.Tile"):
        @pl.function
        def f(t: pl.Tile[[16, 16], pl.FP32, pl.MemRef("m", 0, 1024)]):  # @memref
            return


def test_tile_rejects_layout_slot_and_too_many_slots():
    with expect_error(ParserTypeError, "Unsupported pl.Tile slot", "tile-nz", "pl.NZ"):
        @pl.function
        def f(t: pl.Tile[[16, 16], pl.FP32, pl.NZ]):  # @tile-nz
            return
    with expect_error(ParserTypeError, "pl.Tile[...] takes 2 to 5 items, got 6", "six",
                      "pl.Tile"):
        @pl.function
        def g(t: pl.Tile[[16], pl.FP32, pl.Mem.Vec, pl.Mem.Vec, pl.Mem.Vec, pl.Mem.Vec]):  # @six
            return


# -- Scalar, TaskId, bare names ---------------------------------------------------------------

def test_scalar_and_task_id():
    @pl.function
    def f(n: pl.Scalar[pl.INT32], b: pl.Scalar[pl.BOOL], t: pl.TaskId):
        return

    assert [ptype(f, i) for i in range(3)] == [scalar(INT32), scalar(DT.BOOL),
                                              scalar(DT.TASK_ID)]


@pytest.mark.parametrize("annotation, marker", [
    ("pl.INT64", "bare-dtype"), ("pl.Tensor", "bare-tensor"), ("pl.Tile", "bare-tile"),
    ("pl.Scalar", "bare-scalar")])
def test_incomplete_annotations(annotation, marker):
    err = expect_text_error(f"""\
        import pypto.language as pl
        @pl.function
        def f(x: {annotation}):  # @{marker}
            return
        """, ParserTypeError, f"Incomplete type annotation '{annotation}'", marker, annotation)
    assert "pl.Tensor[[64, 128], pl.FP32]" in err.hint


def test_missing_parameter_annotation():
    with expect_error(ParserTypeError, "Parameter 'x' missing type annotation", "missing", "x)"):
        @pl.function
        def f(x):  # @missing
            return


def test_unsupported_annotation():
    with expect_error(ParserTypeError, "Unsupported type annotation 'int'", "int-ann", "int"):
        @pl.function
        def f(x: int):  # @int-ann
            return


def test_view_call_refuses_keyword_unpacking():
    expect_text_error("""\
        import pypto.language as pl
        D = {"stride": [1, 4]}
        @pl.function
        def f(x: pl.Tensor[[4, 4], pl.FP32, pl.TensorView(**D)]):  # @unpack
            return
        """, ParserTypeError, "Invalid TensorView: argument unpacking (**) is not supported",
        "unpack", "pl.TensorView(")


# -- directions -------------------------------------------------------------------------------

def test_inout_and_out_parameters():
    @pl.function
    def f(a: pl.Tensor[[4], pl.FP32], b: pl.InOut[pl.Tensor[[4], pl.FP32]],
          c: pl.Out[pl.Tile[[4], pl.FP32, pl.Mem.Vec]]):
        return

    assert list(f.param_directions) == [ir.ParamDirection.In, ir.ParamDirection.InOut,
                                        ir.ParamDirection.Out]
    assert ptype(f, 1) == tensor([4])
    assert ptype(f, 2) == ir.TileType([4], FP32, None, None, ir.MemorySpace.Vec)


@pytest.mark.parametrize("wrapper", ["InOut", "Out"])
def test_scalar_cannot_be_inout_or_out(wrapper):
    expect_text_error(f"""\
        import pypto.language as pl
        @pl.function
        def f(n: pl.{wrapper}[pl.Scalar[pl.INT32]]):  # @inout-scalar
            return
        """, ParserTypeError, f"pl.{wrapper}[...] cannot wrap a scalar type", "inout-scalar",
        f"pl.{wrapper}")


def test_direction_wrapper_outside_parameters():
    with expect_error(ParserTypeError, "pl.Out[...] is only allowed on function parameters",
                      "out-ret", "pl.Out"):
        @pl.function
        def f(x: pl.Tensor[[4], pl.FP32]) -> pl.Out[pl.Tensor[[4], pl.FP32]]:  # @out-ret
            return x


# -- return annotations -----------------------------------------------------------------------

def test_builtin_tuple_return_is_several_values():
    @pl.function
    def f(x: pl.Tensor[[4], pl.FP32], n: pl.Scalar[pl.INT32]) -> tuple[pl.Tensor[[4], pl.FP32],
                                                                        pl.Scalar[pl.INT32]]:
        return x, n

    assert list(f.return_types) == [tensor([4]), scalar(INT32)]
    assert stmts(f)[0].value[1] is f.params[1]


def test_pl_tuple_return_is_one_tuple_value():
    @pl.function
    def f(x: pl.Tensor[[4], pl.FP32], n: pl.Scalar[pl.INT32]) -> pl.Tuple[pl.Tensor[[4], pl.FP32],
                                                                          pl.Scalar[pl.INT32]]:
        pair = (x, n)
        return pair

    assert list(f.return_types) == [ir.TupleType([tensor([4]), scalar(INT32)])]
    assert stmts(f)[0].var.type == f.return_types[0]


def test_empty_tuple_type_and_no_return():
    @pl.function
    def f(x: pl.Tensor[[4], pl.FP32]) -> pl.Tuple[()]:
        e = ()
        return e

    @pl.function
    def g(x: pl.Tensor[[4], pl.FP32]) -> None:
        return

    assert list(f.return_types) == [ir.TupleType([])]
    assert list(g.return_types) == []


# -- dtypes -----------------------------------------------------------------------------------

def test_dtype_spellings():
    dtype_var = DT.INT8

    @pl.function
    def f(a: pl.Tensor[[4], FP16], b: pl.Tensor[[4], ir.DataType.UINT8],
          c: pl.Tensor[[4], MY_DTYPE], d: pl.Scalar[dtype_var]):
        return

    assert [ptype(f, i) for i in range(4)] == [tensor([4], DT.FP16), tensor([4], DT.UINT8),
                                              tensor([4], DT.BF16), scalar(DT.INT8)]


def test_not_a_dtype():
    with expect_error(ParserTypeError, "Expected a dtype such as pl.FP32, got 'ROWS'", "no-dtype",
                      "ROWS"):
        @pl.function
        def f(x: pl.Tensor[[4], ROWS]):  # @no-dtype
            return


# -- dynamic dims -----------------------------------------------------------------------------

def test_dynamic_dims_share_one_var_per_name_in_a_program():
    M = pl.dynamic("M")
    N = pl.dynamic("N")
    also_m = pl.dynamic("M")

    @pl.program
    class P:
        @pl.function
        def a(self, x: pl.Tensor[[M, N], pl.FP32], y: pl.Tensor[[also_m, 4], pl.FP32]):
            return

        @pl.function
        def b(self, x: pl.Tensor[[M], pl.FP32]):
            return

    a, b = P.get_function("a"), P.get_function("b")
    m = a.params[0].type.shape[0]
    assert isinstance(m, ir.Var) and m.name_hint == "M" and m.type == scalar(INDEX)
    assert a.params[1].type.shape[0] is m and b.params[0].type.shape[0] is m
    assert a.params[0].type.shape[1] is not m
    assert type(a.params[1].type.shape[1]) is ir.ConstInt  # mixed shapes hold Exprs


def test_dynamic_dims_are_per_standalone_function():
    M = pl.dynamic("M")

    @pl.function
    def f(x: pl.Tensor[[M], pl.FP32]):
        return

    @pl.function
    def g(x: pl.Tensor[[M], pl.FP32]):
        return

    assert f.params[0].type.shape[0] is not g.params[0].type.shape[0]
    ir.assert_structural_equal(f.params[0].type.shape[0].type, scalar(INDEX))


def test_composite_dims_with_dsl_scalars_and_const_leaves():
    M = pl.dynamic("M")

    @pl.function
    def f(x: pl.Tensor[[M * 2, 4], pl.FP32], n: pl.Scalar[pl.INDEX],
          z: pl.Tensor[[pl.const(4, pl.INDEX) + M], pl.FP32]):
        y: pl.Tensor[[n, 5], pl.FP32] = pl.create_tensor([n, 5], pl.FP32)
        return

    dim0 = ptype(f).shape[0]
    assert isinstance(dim0, ir.Mul) and dim0.left.name_hint == "M"
    assert dim0.right.value == 2
    y_type = stmts(f)[0].var.type
    assert y_type.shape[0] is f.params[1]
    assert type(y_type.shape[1]) is ir.ConstInt and y_type.shape[1].dtype is INDEX
    z_dim = ptype(f, 2).shape[0]
    assert isinstance(z_dim, ir.Add) and z_dim.left.value == 4 and z_dim.right is dim0.left


def test_undeclared_dim_outside_pl_parse_is_undefined():
    with expect_error(UndefinedVariableError, "Undefined variable 'K'", "undeclared", "K"):
        @pl.function
        def f(x: pl.Tensor[[K, 4], pl.FP32]):  # noqa: F821  # @undeclared
            return


def test_bool_and_float_dims_are_rejected():
    with expect_error(ParserTypeError, "must be an integer scalar", "bool-dim", "True"):
        @pl.function
        def f(x: pl.Tensor[[True, 4], pl.FP32]):  # @bool-dim
            return
    with expect_error(ParserTypeError, "must be an integer scalar", "float-dim", "2.5"):
        @pl.function
        def g(x: pl.Tensor[[2.5, 4], pl.FP32]):  # @float-dim
            return


# -- annotated assignments ---------------------------------------------------------------------

def test_assignment_annotation_adds_memory_space():
    @pl.function
    def f(x: pl.Tensor[[16, 16], pl.FP32]):
        t: pl.Tile[[16, 16], pl.FP32, pl.Mem.Vec] = pl.load(x, [0, 0], [16, 16])
        return

    assert stmts(f)[0].var.type.memory_space is ir.MemorySpace.Vec


def test_assignment_annotation_retypes_an_index_literal():
    @pl.function
    def f(x: pl.Tensor[[4], pl.FP32]):
        n: pl.Scalar[pl.INT32] = 7
        return

    assign = stmts(f)[0]
    assert assign.var.type == scalar(INT32)
    assert type(assign.value) is ir.ConstInt and assign.value.dtype is INT32


def test_assignment_annotation_mismatch():
    with expect_error(ParserTypeError, "Type annotation of 'y'", "ann-mismatch", "y:"):
        @pl.function
        def f(x: pl.Tensor[[4], pl.FP32]):
            y: pl.Tensor[[8], pl.FP32] = pl.add(x, x)  # @ann-mismatch
            return


def test_annotation_supplies_the_type_of_an_untyped_call():
    @pl.program
    class P:
        @pl.function
        def main(self, x: pl.Tensor[[4], pl.FP32]):
            y: pl.Tensor[[4], pl.FP32] = self.later(x)
            return

        @pl.function
        def later(self, x: pl.Tensor[[4], pl.FP32]) -> pl.Tensor[[4], pl.FP32]:
            z = pl.add(x, x)
            w = self.main(z)
            return z

    assert stmts(P.get_function("main"))[0].var.type == tensor([4])
    assert "y: pl.Tensor[[4], pl.FP32] = self.later(x)" in printed(P)


def test_string_annotation():
    f = parse_text("""\
        import pypto.language as pl
        @pl.function
        def f(x: "pl.Tensor[[4], pl.FP32]") -> "pl.Tensor[[4], pl.FP32]":
            return x
        """)
    assert ptype(f) == tensor([4]) and list(f.return_types) == [tensor([4])]

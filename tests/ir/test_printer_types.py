"""Printer: types, shapes, views and memrefs (02-ir.md §4, §12.5)."""

from __future__ import annotations

import pytest

from pypto import ir
from pypto.ir import DataType as DT

from ._printer_helpers import INDEX, idx, scalar

M, N = scalar("M"), scalar("N")


@pytest.mark.parametrize("type_, text", [
    (ir.ScalarType(DT.INT64), "pl.Scalar[pl.INT64]"),
    (ir.ScalarType(DT.INDEX), "pl.Scalar[pl.INDEX]"),
    (ir.ScalarType(DT.BF16), "pl.Scalar[pl.BF16]"),
    (ir.TensorType([64, 128], DT.FP32), "pl.Tensor[[64, 128], pl.FP32]"),
    (ir.TensorType([], DT.FP32), "pl.Tensor[[], pl.FP32]"),
    (ir.TileType([16, 16], DT.FP16, memory_space=ir.Mem.Vec),
     "pl.Tile[[16, 16], pl.FP16, pl.Mem.Vec]"),
    (ir.TileType([16], DT.FP32), "pl.Tile[[16], pl.FP32]"),
    (ir.TupleType([ir.ScalarType(INDEX), ir.TensorType([4], DT.INT8)]),
     "pl.Tuple[pl.Scalar[pl.INDEX], pl.Tensor[[4], pl.INT8]]"),
    (ir.TupleType([ir.ScalarType(INDEX)]), "pl.Tuple[pl.Scalar[pl.INDEX]]"),
    (ir.TupleType([]), "pl.Tuple[()]"),
    (ir.UnknownType(), "pl.UnknownType"),
])
def test_types(type_, text):
    assert ir.python_print(type_) == text
    assert str(type_) == text


def test_dims_var_typed_constant_and_composite():
    shape = [M, idx(4, DT.INT64), ir.Mul(N, idx(2), INDEX),
             ir.Add(idx(1), ir.FloorDiv(M, idx(2), INDEX), INDEX)]
    assert ir.python_print(ir.TensorType(shape, DT.FP32)) == (
        "pl.Tensor[[M, pl.const(4, pl.INT64), N * pl.const(2, pl.INDEX), "
        "pl.const(1, pl.INDEX) + M // pl.const(2, pl.INDEX)], pl.FP32]")


def test_tensor_layout_only_view_uses_the_layout_shorthand():
    for layout in (ir.TensorLayout.NZ, ir.TensorLayout.MX_A_ZZ):
        view = ir.TensorView(layout=layout)
        assert ir.python_print(ir.TensorType([64, 128], DT.FP32, tensor_view=view)) == \
            f"pl.Tensor[[64, 128], pl.FP32, pl.{layout.name}]"


def test_tensor_nd_view_prints_in_full():
    # `pl.ND` as an annotation slot reads as no view (as in PyPTO), so a default view
    # is spelt out to read back.
    view = ir.TensorView(layout=ir.TensorLayout.ND)
    assert ir.python_print(ir.TensorType([8], DT.FP32, tensor_view=view)) == \
        "pl.Tensor[[8], pl.FP32, pl.TensorView()]"


def test_tensor_dn_view_uses_the_view_form():
    # `pl.DN` is rejected as a tensor layout annotation, so DN goes through TensorView.
    view = ir.TensorView(layout=ir.TensorLayout.DN)
    assert ir.python_print(ir.TensorType([8], DT.FP32, tensor_view=view)) == \
        "pl.Tensor[[8], pl.FP32, pl.TensorView(layout=pl.TensorLayout.DN)]"


def test_tensor_view_with_strides_and_valid_shape():
    view = ir.TensorView(stride=[128, 1], layout=ir.TensorLayout.NZ, valid_shape=[M, 128])
    assert ir.python_print(ir.TensorType([64, 128], DT.FP32, tensor_view=view)) == (
        "pl.Tensor[[64, 128], pl.FP32, pl.TensorView(stride=[128, 1], "
        "layout=pl.TensorLayout.NZ, valid_shape=[M, 128])]")
    view = ir.TensorView(valid_shape=[M])
    assert ir.python_print(ir.TensorType([64], DT.FP32, tensor_view=view)) == \
        "pl.Tensor[[64], pl.FP32, pl.TensorView(valid_shape=[M])]"


def test_memrefs_come_before_memory_space_and_view():
    memref = ir.MemRef(ir.Var("mem_ddr_3", ir.PtrType.get()), 0, 4096)
    assert ir.python_print(ir.TensorType([32], DT.FP32, memref=memref)) == \
        'pl.Tensor[[32], pl.FP32, pl.MemRef("mem_ddr_3", pl.const(0, pl.INT64), 4096)]'
    tensor = ir.TensorType([32], DT.FP32, memref=memref,
                           tensor_view=ir.TensorView(layout=ir.TensorLayout.NZ))
    assert ir.python_print(tensor) == \
        'pl.Tensor[[32], pl.FP32, pl.MemRef("mem_ddr_3", pl.const(0, pl.INT64), 4096), pl.NZ]'
    tile = ir.TileType([16, 16], DT.FP32, memref=ir.MemRef("mem_vec_7", M, 1024),
                       tile_view=ir.TileView(valid_shape=[M, 16]), memory_space=ir.Mem.Vec)
    assert ir.python_print(tile) == (
        'pl.Tile[[16, 16], pl.FP32, pl.MemRef("mem_vec_7", M, 1024), pl.Mem.Vec, '
        "pl.TileView(valid_shape=[M, 16])]")


def test_memref_keywords_print_when_not_their_defaults():
    memref = ir.MemRef("buf", 64, 128, is_pinned=True, slots=2, slot=1)
    assert ir.python_print(memref) == \
        'pl.MemRef("buf", pl.const(64, pl.INT64), 128, is_pinned=True, slots=2, slot=1)'


def test_tile_view_prints_non_default_fields_in_constructor_order():
    view = ir.TileView(valid_shape=[8, 16], stride=[16, 1], start_offset=4,
                       blayout=ir.TileLayout.col_major, slayout=ir.TileLayout.row_major,
                       fractal=1024, pad=ir.PadValue.max)
    tile = ir.TileType([16, 16], DT.FP32, tile_view=view, memory_space=ir.Mem.Mat)
    assert ir.python_print(tile) == (
        "pl.Tile[[16, 16], pl.FP32, pl.Mem.Mat, pl.TileView(valid_shape=[8, 16], "
        "stride=[16, 1], start_offset=4, blayout=pl.TileLayout.col_major, "
        "slayout=pl.TileLayout.row_major, fractal=1024, pad=pl.PadValue.max)]")
    assert ir.python_print(ir.TileType([4], DT.FP32, tile_view=ir.TileView())) == \
        "pl.Tile[[4], pl.FP32, pl.TileView()]"


def test_type_prefix():
    tile = ir.TileType([16], DT.FP32, memory_space=ir.Mem.Acc)
    assert ir.python_print(tile, prefix="P") == "P.Tile[[16], P.FP32, P.Mem.Acc]"
    assert tile.as_python(prefix="P") == "P.Tile[[16], P.FP32, P.Mem.Acc]"

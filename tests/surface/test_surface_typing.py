"""``pypto.language.typing`` as PyPTO's package: one definition per class, the call forms
of ``pl.Tile``, expression wrappers and their ``unwrap()``."""

from __future__ import annotations

import importlib

import pytest

import pypto.language as pl
from pypto import ir
from pypto.language import typing as pltyping

M = pl.dynamic("M")


def test_each_class_has_one_home_at_pyptos_path():
    homes = {"tensor": "Tensor", "tile": "Tile", "scalar": "Scalar", "tuple": "Tuple",
             "direction": "InOut", "memref": "MemRef"}
    for module, name in homes.items():
        mod = importlib.import_module(f"pypto.language.typing.{module}")
        assert getattr(mod, name) is getattr(pl, name) is getattr(pltyping, name)
    from pypto.language.typing.dynamic import DynVar, dynamic
    assert DynVar is pl.DynVar and dynamic is pl.dynamic
    from pypto.language.typing.scalar import RUNTIME, RuntimeScalarMarker
    assert RUNTIME is pl.RUNTIME and isinstance(RUNTIME, RuntimeScalarMarker)
    assert issubclass(pl.MemRef, ir.MemRef) and pl.MemRefType is pl.tile.MemRefType
    import pypto.language.distributed as pld
    from pypto.language.typing.tensor import TensorMeta
    assert issubclass(pld.DistributedTensor, pl.Tensor)
    assert isinstance(pld.DistributedTensor, TensorMeta)


def test_task_id_is_the_scalar_annotation_of_task_ids():
    assert repr(pl.TaskId) == repr(pl.Scalar[pl.TASK_ID]) == "Scalar[task_id]"  # PyPTO's form
    assert repr(pl.Scalar[pl.BF16]) == "Scalar[bfloat16]"

    @pl.function
    def f(t: pl.TaskId) -> pl.Scalar[pl.TASK_ID]:
        return t

    assert f.params[0].type == ir.ScalarType(pl.TASK_ID)


def test_tile_call_form_is_the_subscript_annotation():
    T = pl.Tile(shape=[16, 16], dtype=pl.FP32, memory_space=pl.Mem.Vec)
    assert repr(T) == repr(pl.Tile[[16, 16], pl.FP32, pl.Mem.Vec])

    @pl.function(type=pl.FunctionType.InCore)
    def with_alias(x: pl.Tensor[[16, 16], pl.FP32]) -> pl.Tensor[[16, 16], pl.FP32]:
        t: T = pl.load(x, [0, 0], [16, 16])
        return pl.store(t, [0, 0], x)

    @pl.function(type=pl.FunctionType.InCore)
    def spelled(x: pl.Tensor[[16, 16], pl.FP32]) -> pl.Tensor[[16, 16], pl.FP32]:
        t: pl.Tile[[16, 16], pl.FP32, pl.Mem.Vec] = pl.load(x, [0, 0], [16, 16])
        return pl.store(t, [0, 0], x)

    ir.assert_structural_equal(with_alias.body, spelled.body, enable_auto_mapping=True)
    with pytest.raises(TypeError, match="needs shape= and dtype="):
        pl.Tile(shape=[16])


def test_wrappers_give_back_their_expression():
    x = ir.Var("x", ir.TensorType([4, 8], pl.FP32))
    assert pl.Tensor(expr=x).unwrap() is x
    n = ir.Var("n", ir.ScalarType(pl.INT64))
    assert pl.Scalar(expr=n).unwrap() is n
    tile = ir.Var("t", ir.TileType([16, 16], pl.FP32))
    wrapped = pl.Tile(expr=tile)
    assert isinstance(wrapped, pl.Tile) and wrapped.unwrap() is tile
    with pytest.raises(TypeError, match="needs an expression of TensorType, got TileType"):
        pl.Tensor(expr=tile)
    with pytest.raises(TypeError, match="pl.Tensor is an annotation"):
        pl.Tensor([4, 8], pl.FP32)
    with pytest.raises(TypeError, match="takes the tile's type from e"):
        pl.Tile(shape=[16, 16], expr=tile)
    with pytest.raises(RuntimeError, match="only has a meaning inside a @pl.jit body"):
        pl.Tensor(expr=x).bind_dynamic(0, M)


def test_dynvar_unwrap_is_one_index_variable_per_dim():
    var = M.unwrap()
    assert isinstance(var, ir.Var) and var.name_hint == "M"
    assert var.type == ir.ScalarType(pl.INDEX) and M.unwrap() is var
    assert pl.dynamic("M").unwrap() is not var  # another DynVar object, another variable


def test_predicate_to_expr_has_one_definition():
    from pypto.language.typing.scalar import predicate_to_expr
    assert pl.tensor.predicate_to_expr is predicate_to_expr is pl.tile.predicate_to_expr
    assert isinstance(predicate_to_expr(True), ir.ConstBool)
    flag = ir.Var("f", ir.ScalarType(pl.BOOL))
    assert predicate_to_expr(pl.Scalar(expr=flag)) is flag and predicate_to_expr(None) is None
    with pytest.raises(TypeError, match="predicate"):
        predicate_to_expr(1.5)


def test_array_pointer_and_prefetch_paths_reexport_the_language_classes():
    from pypto.language import array_types
    from pypto.language.typing.array import Array, ArrayMeta
    from pypto.language.typing.prefetch_handle import (AsyncEvent, AsyncSession,
                                                       PrefetchAsyncContext)
    from pypto.language.typing.ptr import Ptr
    assert (Array, ArrayMeta, Ptr) == (array_types.Array, array_types.ArrayMeta,
                                       array_types.Ptr)
    assert (AsyncEvent, AsyncSession, PrefetchAsyncContext) == (
        pl.AsyncEvent, pl.AsyncSession, pl.PrefetchAsyncContext)
    assert Array is pl.Array

"""Tensor arguments of every dtype PyPTO maps, as NumPy arrays and real torch tensors
(bf16 and the float8 formats included), tensor views and slices, written in place
(issue 14 point 3).  The torch tests skip without torch."""

from __future__ import annotations

import numpy as np
import pytest

import pypto.language as pl
from pypto import DataType, ir


@pl.jit.incore
def copy_kernel(a: pl.Tensor, out: pl.Out[pl.Tensor]):
    rows, cols = a.shape
    out = pl.store(pl.load(a, [0, 0], [rows, cols]), [0, 0], out)
    return out


@pl.jit
def copy(a: pl.Tensor, out: pl.Out[pl.Tensor]):
    out = copy_kernel(a, out)
    return out


@pl.jit
def add_one(a: pl.Tensor, out: pl.Out[pl.Tensor]):
    rows, cols = a.shape
    with pl.at(level=pl.Level.CORE_GROUP):
        out = pl.store(pl.add(pl.load(a, [0, 0], [rows, cols]), 1.0), [0, 0], out)
    return out


NUMPY_DTYPES = [("float16", DataType.FP16), ("float32", DataType.FP32),
                ("int8", DataType.INT8), ("int16", DataType.INT16),
                ("int32", DataType.INT32), ("int64", DataType.INT64),
                ("uint8", DataType.UINT8), ("uint16", DataType.UINT16),
                ("uint32", DataType.UINT32), ("uint64", DataType.UINT64), ("bool", DataType.BOOL)]


@pytest.mark.parametrize("name, dtype", NUMPY_DTYPES)
def test_numpy_arrays_of_every_dtype(name, dtype):
    a = (np.arange(32) % 2).reshape(4, 8).astype(name)
    out = np.zeros((4, 8), name)
    kernel = copy.specialize(a, out)["copy_kernel"]
    assert kernel.params[0].type == ir.TensorType([4, 8], dtype)
    copy(a, out)
    np.testing.assert_array_equal(out, a)


TORCH_DTYPES = ["float16", "bfloat16", "float32", "int8", "int16", "int32", "int64", "uint8",
                "bool", "float8_e4m3fn", "float8_e5m2"]


@pytest.mark.parametrize("name", TORCH_DTYPES)
def test_torch_tensors_of_every_dtype(name):
    torch = pytest.importorskip("torch")
    dtype = getattr(torch, name)
    a = (torch.arange(32) % 2).reshape(4, 8).to(dtype)
    out = torch.zeros(4, 8).to(dtype)
    copy(a, out)
    assert out.dtype is dtype and torch.equal(out.float(), a.float())


def test_bf16_arithmetic_rounds_like_bf16_and_writes_the_callers_tensor():
    torch = pytest.importorskip("torch")
    a = torch.tensor([[1.0, 2.5, 255.0, -3.0]]).repeat(2, 1).to(torch.bfloat16)
    out = torch.zeros(2, 4, dtype=torch.bfloat16)
    add_one(a, out)
    assert out.dtype is torch.bfloat16
    assert torch.equal(out, (a.float() + 1).to(torch.bfloat16))


def test_torch_views_and_slices_are_arguments_and_outputs_written_through():
    torch = pytest.importorskip("torch")
    base = torch.arange(16 * 64, dtype=torch.float32).reshape(16, 64)
    out = torch.zeros(32, 64)
    add_one(base[:, :32], out[:16, 32:])  # a strided input, a strided output view
    assert torch.equal(out[:16, 32:], base[:, :32] + 1)
    assert not out[16:].any() and not out[:, :32].any()
    add_one(base.t()[:16, :16], out[16:, :16])  # a transposed view
    assert torch.equal(out[16:, :16], base.t()[:16, :16] + 1)


def test_numpy_views_are_arguments_and_outputs_written_through():
    base = np.arange(16 * 64, dtype=np.float32).reshape(16, 64)
    out = np.zeros((32, 64), np.float32)
    add_one(base[:, ::2], out[:16, 32:])
    np.testing.assert_array_equal(out[:16, 32:], base[:, ::2] + 1)
    assert not out[16:].any()


def test_python_scalars_are_specialised_and_numpy_scalars_read_as_numbers():
    @pl.jit
    def scale(a: pl.Tensor, out: pl.Out[pl.Tensor], k: pl.Scalar[pl.FP32], n: pl.INDEX):
        with pl.at(level=pl.Level.CORE_GROUP):
            out = pl.store(pl.mul(pl.load(a, [0, 0], [n, 8]), k), [0, 0], out)
        return out

    a = np.ones((4, 8), np.float32)
    out = np.zeros((4, 8), np.float32)
    scale(a, out, np.float32(2.5), np.int64(4))
    np.testing.assert_array_equal(out, np.full((4, 8), 2.5, np.float32))
    assert scale.cache_info().misses == 1
    scale(a, out, 2.5, 4)  # the same values as Python numbers: the same specialization
    assert scale.cache_info().hits == 1

"""Argument specs: ``TensorSpec``, dtype mapping, NumPy and torch-like tensors (§17.4)."""

from __future__ import annotations

import sys

import numpy as np
import pytest

import pypto.language as pl
from pypto import DataType, ir
from pypto.jit import TensorSpec
from pypto.jit.specs import is_tensor_like, scalar_value_of, tensor_spec_of, to_dtype

from _jit_helpers import f32


@pytest.mark.parametrize("value, expected", [
    (pl.FP32, DataType.FP32), ("float32", DataType.FP32), ("fp32", DataType.FP32),
    ("FP32", DataType.FP32), ("float16", DataType.FP16), ("bfloat16", DataType.BF16),
    ("bf16", DataType.BF16), ("int8", DataType.INT8), ("int16", DataType.INT16),
    ("int32", DataType.INT32), ("int64", DataType.INT64), ("uint8", DataType.UINT8),
    ("bool", DataType.BOOL), ("fp8e4m3fn", DataType.FP8E4M3FN),
    (np.dtype("float16"), DataType.FP16), (np.dtype("int32"), DataType.INT32),
    (np.dtype("bool"), DataType.BOOL), (np.float32, DataType.FP32), (np.uint8, DataType.UINT8),
])
def test_dtype_mapping(value, expected):
    assert to_dtype(value) is expected


@pytest.mark.parametrize("value", ["float64", np.float64, np.dtype("complex64"), "nope", 3])
def test_unsupported_dtypes_are_type_errors_naming_the_thing(value):
    with pytest.raises(TypeError, match="^parameter 'x': unsupported dtype"):
        to_dtype(value, "parameter 'x'")


def test_tensor_spec_normalises_its_fields():
    spec = TensorSpec([4, np.int64(8)], "float16")
    assert spec == TensorSpec((4, 8), pl.FP16, pl.ND)
    assert spec.shape == (4, 8) and type(spec.shape[1]) is int and spec.rank == 2
    assert TensorSpec((2,), pl.INT8, layout=pl.NZ).layout is pl.NZ
    with pytest.raises(AttributeError):
        spec.shape = (1,)  # frozen


@pytest.mark.parametrize("args, error, message", [
    (((4, 2.5), pl.FP32), TypeError, "TensorSpec: shape[1] must be an int, got float"),
    (((4, True), pl.FP32), TypeError, "TensorSpec: shape[1] must be an int, got bool"),
    (((4, -1), pl.FP32), ValueError, "TensorSpec: shape[1] must be >= 0, got -1"),
    ((4, pl.FP32), TypeError, "TensorSpec: shape must be a sequence of ints, got int"),
    (((4,), "float64"), TypeError, "TensorSpec: unsupported dtype 'float64'"),
    (((4,), pl.FP32, "ND"), TypeError, "TensorSpec: layout must be a pl.TensorLayout"),
    (((4,), pl.FP32, pl.DN), ValueError, "TensorSpec: pl.DN is not a tensor layout"),
])
def test_tensor_spec_rejects_bad_fields(args, error, message):
    with pytest.raises(error) as info:
        TensorSpec(*args)
    assert str(info.value).startswith(message)


def test_numpy_arrays_and_scalars():
    array = np.ones((3, 5), dtype=np.int16)
    assert is_tensor_like(array)
    assert tensor_spec_of(array, "a") == TensorSpec((3, 5), pl.INT16)
    assert is_tensor_like(np.array(2.0))  # a 0-d array is a rank-0 tensor
    assert not is_tensor_like(np.float32(2.0)) and not is_tensor_like(3)
    assert scalar_value_of(np.int32(7)) == 7 and type(scalar_value_of(np.int32(7))) is int
    assert scalar_value_of(np.bool_(True)) is True
    assert scalar_value_of(2.5) == 2.5 and scalar_value_of("2") is None
    with pytest.raises(TypeError, match="^parameter 'a': unsupported dtype"):
        tensor_spec_of(np.zeros(3, np.float64), "a")


# -- torch -----------------------------------------------------------------------------------
# torch is not installed (and never required).  pypto reads a torch tensor through two
# facts of torch's surface: ``type(t).__module__ == "torch"`` with ``t.shape`` a tuple of
# ints, and ``str(dtype) == "torch.<name>"``.  These stand-ins have exactly that surface.

class FakeTorchDtype:
    __module__ = "torch"

    def __init__(self, name: str) -> None:
        self._name = name

    def __str__(self) -> str:
        return f"torch.{self._name}"

    def __repr__(self) -> str:
        return f"torch.{self._name}"


class FakeTorchLayout:
    __module__ = "torch"


class FakeTorchTensor:
    __module__ = "torch"

    def __init__(self, shape: tuple, dtype: FakeTorchDtype) -> None:
        self.shape = tuple(shape)
        self.dtype = dtype
        self.layout = FakeTorchLayout()  # torch.strided: not a pypto layout


class _RefuseTorch:
    """A meta-path finder that fails any import of torch."""

    def find_spec(self, name, path=None, target=None):
        if name == "torch" or name.startswith("torch."):
            raise AssertionError(f"'{name}' was imported")
        return None


def test_torch_like_tensors_are_read_without_importing_torch(monkeypatch):
    for name in [n for n in sys.modules if n == "torch" or n.startswith("torch.")]:
        monkeypatch.delitem(sys.modules, name)  # (other tests may have imported it)
    monkeypatch.setattr(sys, "meta_path", [_RefuseTorch()] + sys.meta_path)
    tensor = FakeTorchTensor((4, 8), FakeTorchDtype("bfloat16"))
    assert tensor_spec_of(tensor, "x") == TensorSpec((4, 8), pl.BF16, pl.ND)
    assert to_dtype(FakeTorchDtype("float16")) is DataType.FP16
    assert to_dtype(FakeTorchDtype("bool")) is DataType.BOOL
    with pytest.raises(TypeError, match="^parameter 'x': unsupported dtype torch.float64"):
        tensor_spec_of(FakeTorchTensor((1,), FakeTorchDtype("float64")), "x")


def test_a_torch_like_argument_specialises_like_an_array(monkeypatch):
    for name in [n for n in sys.modules if n == "torch" or n.startswith("torch.")]:
        monkeypatch.delitem(sys.modules, name)
    monkeypatch.setattr(sys, "meta_path", [_RefuseTorch()] + sys.meta_path)

    @pl.jit
    def entry(x: pl.Tensor):
        return x

    from_torch = entry.specialize(FakeTorchTensor((4, 8), FakeTorchDtype("float32")))
    from_numpy = entry.specialize(f32(4, 8))
    ir.assert_structural_equal(from_torch, from_numpy)


def test_any_object_with_shape_and_dtype_is_a_tensor_argument():
    class Described:
        shape = [2, 3]
        dtype = "int32"

    @pl.jit
    def entry(x: pl.Tensor):
        return x

    program = entry.specialize(Described())
    assert program.get_function("entry").params[0].type == ir.TensorType([2, 3], DataType.INT32)

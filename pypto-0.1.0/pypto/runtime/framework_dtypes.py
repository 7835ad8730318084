"""What a NumPy or torch dtype (or a dtype name) means in pypto, without importing either.

A torch dtype is read from ``str(dtype)`` (``"torch.float32"``), a NumPy dtype from its
``name``; NumPy is imported only to name a NumPy scalar *type* used as a dtype
(``np.float32``), an object that can only come from NumPy.  Used by ``@pl.jit`` to
read arguments and by ``pypto.runtime.TensorSpec``.
"""

from __future__ import annotations

from typing import Any

from ..ir.dtype import DataType

__all__ = ["to_dtype", "root_module"]

# Framework dtype names (NumPy ``dtype.name``, torch ``str(dtype)`` without "torch.").
_FRAMEWORK_DTYPES: dict[str, DataType] = {
    "float16": DataType.FP16, "half": DataType.FP16,
    "float32": DataType.FP32, "float": DataType.FP32,
    "bfloat16": DataType.BF16,
    "int8": DataType.INT8, "int16": DataType.INT16, "int32": DataType.INT32,
    "int64": DataType.INT64, "long": DataType.INT64,
    "uint8": DataType.UINT8, "uint16": DataType.UINT16, "uint32": DataType.UINT32,
    "uint64": DataType.UINT64,
    "float8_e4m3fn": DataType.FP8E4M3FN, "float8_e5m2": DataType.FP8E5M2,
    "float8_e8m0fnu": DataType.FP8E8M0,
    "bool": DataType.BOOL,
}
_PYPTO_DTYPES: dict[str, DataType] = {dt.name.lower(): dt for dt in DataType.all()}
_SUPPORTED_HINT = ("supported: a pl dtype (pl.FP32, ...), 'float16', 'float32', 'bfloat16', "
                   "'float8_e4m3fn', 'float8_e5m2', 'float8_e8m0fnu', 'int8'/'int16'/'int32'/"
                   "'int64', 'uint8'/'uint16'/'uint32'/'uint64', 'bool' or their NumPy/torch "
                   "dtypes")


def root_module(obj: Any) -> str:
    return (type(obj).__module__ or "").partition(".")[0]


def to_dtype(value: Any, what: str = "dtype") -> DataType:
    """A pypto ``DataType`` from a DataType, a string, or a NumPy/torch dtype.

    ``what`` names the offending thing in the ``TypeError`` (e.g. ``parameter 'x'``).
    """
    if isinstance(value, DataType):
        return value
    if isinstance(value, str):
        return _dtype_from_name(value, value, what)
    if isinstance(value, type) and (value.__module__ or "").partition(".")[0] == "numpy":
        import numpy  # the object is a NumPy scalar type, so NumPy is importable
        return _dtype_from_name(numpy.dtype(value).name, value, what)
    if root_module(value) == "torch":
        return _dtype_from_name(str(value), value, what)
    name = getattr(value, "name", None)  # numpy.dtype and look-alikes
    if isinstance(name, str):
        return _dtype_from_name(name, value, what)
    raise TypeError(f"{what}: unsupported dtype {value!r} of type {type(value).__name__}; "
                    f"{_SUPPORTED_HINT}")


def _dtype_from_name(name: str, original: Any, what: str) -> DataType:
    key = name.strip()
    if key.startswith("torch."):
        key = key[len("torch."):]
    key = key.lower()
    found = _FRAMEWORK_DTYPES.get(key) or _PYPTO_DTYPES.get(key)
    if found is None:
        raise TypeError(f"{what}: unsupported dtype {original!r}; {_SUPPORTED_HINT}")
    return found

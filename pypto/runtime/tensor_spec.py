"""PyPTO's argument descriptions for scripts and test harnesses: ``TensorSpec`` makes a
tensor, ``ScalarSpec`` names a scalar.

``TensorSpec.create_tensor()`` returns a torch tensor when ``dtype`` is a torch dtype,
else a NumPy array (``dtype`` may be a pypto ``DataType``, a NumPy dtype or a name).
``init_value`` fills it: ``None`` gives zeros, a number a constant, an array or tensor a
copy, and a callable is called with the shape and must return one of these.
(``pypto.jit.TensorSpec`` is another class: a shape and dtype without data, for
specialising ``@pl.jit`` functions.)
"""

from __future__ import annotations

import dataclasses
from typing import Any, Sequence

from ..ir.dtype import DataType

__all__ = ["TensorSpec", "ScalarSpec", "SCALAR_CTYPE_MAP"]

# The C scalar types a ``ScalarSpec`` may name, and the pypto dtype each one is.
SCALAR_CTYPE_MAP: dict[str, DataType] = {
    "bool": DataType.BOOL, "int32": DataType.INT32, "int64": DataType.INT64,
    "uint32": DataType.UINT32, "uint64": DataType.UINT64, "float": DataType.FP32,
}


@dataclasses.dataclass
class TensorSpec:
    name: str
    shape: Sequence[int]
    dtype: Any
    init_value: Any = None
    is_output: bool = False

    def create_tensor(self) -> Any:
        """A new tensor of ``shape`` and ``dtype`` holding ``init_value``."""
        shape = tuple(int(n) for n in self.shape)
        init = self.init_value(shape) if callable(self.init_value) else self.init_value
        if _is_torch_dtype(self.dtype):
            import torch
            if init is None:
                return torch.zeros(shape, dtype=self.dtype)
            if isinstance(init, (bool, int, float)):
                return torch.full(shape, init, dtype=self.dtype)
            return torch.as_tensor(init).to(self.dtype).reshape(shape).clone()
        from .dtypes import np, numpy_dtype
        storage = numpy_dtype(_data_type(self.dtype))
        if init is None:
            return np.zeros(shape, dtype=storage)
        if isinstance(init, (bool, int, float)):
            return np.full(shape, init, dtype=storage)
        return np.array(init, dtype=storage).reshape(shape)


@dataclasses.dataclass
class ScalarSpec:
    """A scalar argument: its name, value, and C type name (``"int64"``, ``"float"``...)."""

    name: str
    value: Any
    ctype: str = "int64"

    def __post_init__(self) -> None:
        if self.ctype not in SCALAR_CTYPE_MAP:
            raise ValueError(f"ScalarSpec {self.name!r}: ctype must be one of "
                             f"{', '.join(SCALAR_CTYPE_MAP)}, got {self.ctype!r}")

    @property
    def data_type(self) -> DataType:
        """The pypto dtype of ``ctype`` (``SCALAR_CTYPE_MAP``)."""
        return SCALAR_CTYPE_MAP[self.ctype]

    def typed_value(self) -> Any:
        """``value`` as a Python value of ``ctype``: a bool, a float, or an int in the
        type's range (``ValueError`` outside it)."""
        if self.ctype == "bool":
            return bool(self.value)
        if self.ctype == "float":
            return float(self.value)
        number = int(self.value)
        if number != self.value:
            raise ValueError(f"ScalarSpec {self.name!r}: {self.value!r} is not an integer")
        bits = 32 if self.ctype.endswith("32") else 64
        low, high = (0, 2 ** bits - 1) if self.ctype.startswith("u") else \
            (-2 ** (bits - 1), 2 ** (bits - 1) - 1)
        if not low <= number <= high:
            raise ValueError(f"ScalarSpec {self.name!r}: {number} is outside {self.ctype}")
        return number


def _is_torch_dtype(dtype: Any) -> bool:
    return (type(dtype).__module__ or "").partition(".")[0] == "torch"


def _data_type(dtype: Any) -> Any:
    from .framework_dtypes import to_dtype
    return to_dtype(dtype, "TensorSpec dtype")

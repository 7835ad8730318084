"""Argument specs (01-language.md §17.4): ``TensorSpec``, dtype mapping, and reading
the shape/dtype of NumPy arrays, torch tensors and other tensor-like objects.

Nothing here imports torch: a torch tensor's ``shape`` is a tuple of ints and
``str(dtype)`` is ``"torch.float32"``, which is all pypto reads.  NumPy is imported
only to name a NumPy scalar *type* used as a dtype (``np.float32``), an object that
can only come from NumPy.
"""

from __future__ import annotations

import sys
from dataclasses import dataclass
from typing import Any

from ..ir.dtype import DataType
from ..ir.enums import TensorLayout
from ..runtime.framework_dtypes import root_module, to_dtype

__all__ = ["TensorSpec", "to_dtype", "is_tensor_like", "tensor_spec_of", "scalar_value_of"]

def _shape_tuple(shape: Any, what: str) -> tuple[int, ...]:
    try:
        dims = tuple(shape)
    except TypeError:
        raise TypeError(f"{what}: shape must be a sequence of ints, got "
                        f"{type(shape).__name__}") from None
    result = []
    for index, dim in enumerate(dims):
        if isinstance(dim, bool) or not isinstance(dim, int):
            # NumPy/torch integer scalars index like ints but are not int subclasses.
            index_method = getattr(dim, "__index__", None)
            if isinstance(dim, bool) or index_method is None:
                raise TypeError(f"{what}: shape[{index}] must be an int, got "
                                f"{type(dim).__name__}")
            dim = index_method()
        if dim < 0:
            raise ValueError(f"{what}: shape[{index}] must be >= 0, got {dim}")
        result.append(int(dim))
    return tuple(result)


@dataclass(frozen=True)
class TensorSpec:
    """The shape, dtype and layout of a tensor argument, without any data.

    ``TensorSpec((128, 64), pl.FP32)``; ``dtype`` may also be a string (``"float32"``,
    ``"fp32"``) or a NumPy/torch dtype; ``layout`` is a ``pl.TensorLayout`` (not ``DN``).
    """

    shape: tuple[int, ...]
    dtype: DataType
    layout: TensorLayout = TensorLayout.ND

    def __post_init__(self) -> None:
        object.__setattr__(self, "shape", _shape_tuple(self.shape, "TensorSpec"))
        object.__setattr__(self, "dtype", to_dtype(self.dtype, "TensorSpec"))
        if not isinstance(self.layout, TensorLayout):
            raise TypeError(f"TensorSpec: layout must be a pl.TensorLayout (pl.ND, pl.NZ, ...), "
                            f"got {type(self.layout).__name__}")
        if self.layout is TensorLayout.DN:
            raise ValueError("TensorSpec: pl.DN is not a tensor layout; use pl.ND or pl.NZ")

    @property
    def rank(self) -> int:
        return len(self.shape)


def is_tensor_like(value: Any) -> bool:
    """Anything with a ``shape`` and a ``dtype``, except scalars of NumPy & co."""
    if isinstance(value, TensorSpec):
        return True
    if isinstance(value, (bool, int, float, str, type)):
        return False
    return hasattr(value, "shape") and hasattr(value, "dtype") and not _is_array_scalar(value)


def _is_array_scalar(value: Any) -> bool:
    """A NumPy scalar (``np.float32(1.0)``) also has a shape and a dtype; it is a scalar."""
    if root_module(value) != "numpy":
        return False
    numpy = sys.modules.get("numpy")  # the value comes from NumPy, so it is loaded
    return numpy is not None and isinstance(value, numpy.generic)


def tensor_spec_of(value: Any, param: str) -> TensorSpec:
    """The ``TensorSpec`` of a tensor argument for parameter ``param``."""
    if isinstance(value, TensorSpec):
        return value
    what = f"parameter '{param}'"
    layout = getattr(value, "layout", TensorLayout.ND)
    if not isinstance(layout, TensorLayout):
        layout = TensorLayout.ND  # torch's ``layout`` (strided) is not a pypto layout
    return TensorSpec(_shape_tuple(value.shape, what), to_dtype(value.dtype, what), layout)


def scalar_value_of(value: Any) -> Any:
    """A Python int/float/bool for a scalar argument (NumPy scalars unwrapped), else None."""
    if isinstance(value, (bool, int, float)):
        return value
    if _is_array_scalar(value):
        item = value.item()
        if isinstance(item, (bool, int, float)):
            return item
    return None

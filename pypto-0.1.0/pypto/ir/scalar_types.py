"""Shared ``ScalarType`` instances (types are immutable, so one per dtype suffices)."""

from __future__ import annotations

from .dtype import DataType
from .types import ScalarType

__all__ = ["scalar_type", "INDEX_TYPE", "BOOL_TYPE", "INT64_TYPE", "FP32_TYPE", "TASK_ID_TYPE"]


def scalar_type(dtype: DataType) -> ScalarType:
    from .expr import _scalar
    return _scalar(dtype)


INDEX_TYPE = scalar_type(DataType.INDEX)
BOOL_TYPE = scalar_type(DataType.BOOL)
INT64_TYPE = scalar_type(DataType.INT64)
FP32_TYPE = scalar_type(DataType.FP32)
TASK_ID_TYPE = scalar_type(DataType.TASK_ID)

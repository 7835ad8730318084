"""The module-level constants PyPTO's ``pypto.ir`` has: enum members under their own
names (``ir.HOST`` is ``Level.HOST``, ``ir.Vec`` is ``MemorySpace.Vec``), the data
types (``ir.FP32``), the argument directions in lower case (``ir.input``) and
``DYNAMIC_DIM``.  Which enum a clashing name belongs to is PyPTO's choice:
``InCore``, ``Spmd``, ``Inline`` and ``Graph`` are function types, ``Cluster``,
``Hierarchy``, ``Runtime``, ``CommDomain`` and ``SplitAiv`` scope kinds, ``In``/
``Out``/``InOut`` parameter directions, ``NONE`` a split mode, ``max``/``min`` pad
values."""

from __future__ import annotations

from typing import Any

from .dtype import DataType
from .enums import (ArgDirection, CoreType, ForKind, FunctionType, InlineLanguage, IREnum, Level,
                    MemorySpace, PadValue, ParamDirection, PipeType, Role, ScopeKind, SplitMode,
                    TensorLayout, TileLayout)

__all__ = ["DYNAMIC_DIM", "module_constants"]

# PyPTO's marker for a dimension not known until run time, in integer shapes.
DYNAMIC_DIM = -1

_MEMBERS: dict[type[IREnum], tuple[str, ...]] = {
    Level: ("AIV", "AIC", "CORE_GROUP", "CHIP_DIE", "CHIP", "HOST", "CLUSTER_0", "CLUSTER_1",
            "CLUSTER_2", "GLOBAL"),
    PipeType: ("MTE1", "MTE2", "MTE3", "M", "V", "S", "FIX", "ALL"),
    MemorySpace: ("DDR", "Vec", "Mat", "Left", "Right", "Acc", "Bias", "LeftScale",
                  "RightScale", "ScalarLocal"),
    CoreType: ("CUBE", "VECTOR"),
    ScopeKind: ("Cluster", "Hierarchy", "Runtime", "CommDomain", "SplitAiv"),
    TensorLayout: ("ND", "DN", "NZ", "MX_A_ZZ", "MX_B_NN"),
    FunctionType: ("Opaque", "Orchestration", "InCore", "Group", "Spmd", "Inline", "Graph"),
    ParamDirection: ("In", "Out", "InOut"),
    SplitMode: ("NONE", "UP_DOWN", "LEFT_RIGHT"),
    ForKind: ("Sequential", "Parallel", "Unroll", "Pipeline"),
    Role: ("Orchestrator", "SubWorker"),
    InlineLanguage: ("Python",),
    TileLayout: ("none_box", "row_major", "col_major"),
    PadValue: ("null", "zero", "max", "min"),
}
_DIRECTIONS = {"input": ArgDirection.Input, "output": ArgDirection.Output,
               "inout": ArgDirection.InOut, "output_existing": ArgDirection.OutputExisting,
               "no_dep": ArgDirection.NoDep, "scalar_dir": ArgDirection.Scalar}
_DTYPES = ("BOOL", "INT4", "INT8", "INT16", "INT32", "INT64", "UINT4", "UINT8", "UINT16",
           "UINT32", "UINT64", "FP4", "FP8E4M3FN", "FP8E5M2", "FP8E8M0", "FP16", "FP32", "BF16",
           "HF4", "HF8", "INDEX")


def module_constants() -> dict[str, Any]:
    """``{name: value}`` of every constant, for ``pypto.ir`` to take into its namespace."""
    found: dict[str, Any] = {"DYNAMIC_DIM": DYNAMIC_DIM}
    for enum_cls, names in _MEMBERS.items():
        for name in names:
            assert name not in found, name  # one owner per name
            found[name] = enum_cls[name]
    found.update(_DIRECTIONS)
    found.update({name: getattr(DataType, name) for name in _DTYPES})
    return found

"""Small IR-building shortcuts shared by the printer tests."""

from __future__ import annotations

import ast
import textwrap

from pypto import ir
from pypto.ir import DataType as DT

INDEX = DT.INDEX
BOOL = DT.BOOL
T32 = ir.TensorType([32], DT.FP32)
T64 = ir.TensorType([64, 128], DT.FP32)
TILE = ir.TileType([16, 16], DT.FP32, memory_space=ir.Mem.Vec)


def scalar(name: str, dtype: DT = INDEX) -> ir.Var:
    return ir.Var(name, ir.ScalarType(dtype))


def idx(value: int, dtype: DT = INDEX) -> ir.ConstInt:
    return ir.ConstInt(value, dtype)


def op_call(name: str, args: list, result: ir.Type | None = None, kwargs: dict | None = None,
            attrs: dict | None = None) -> ir.Call:
    return ir.Call(ir.Op(name), args, kwargs or {}, attrs or {},
                   result if result is not None else ir.UnknownType())


def index_list(*values: int) -> ir.MakeTuple:
    return ir.MakeTuple([idx(v) for v in values])


def dedent(text: str) -> str:
    """Golden text written indented in the test source, without surrounding newlines."""
    return textwrap.dedent(text).strip("\n")


def assert_valid_python(text: str) -> None:
    """The printed text must at least parse as Python (it is DSL source)."""
    ast.parse(text)

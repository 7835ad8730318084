"""Python-level stand-ins for the DSL's statement-level constructs.

``pl.range``, ``pl.at``, ``pl.graph``, ... are recognised syntactically by the
parser inside ``@pl.function`` bodies; the body is never executed by Python.
Calling one of them at Python level is a mistake, reported as such.
"""

from __future__ import annotations

from typing import Any, Callable

from ..ir import expr as _expr
from ..ir.dtype import DataType

__all__ = ["range", "parallel", "unroll", "pipeline", "while_", "cond", "yield_", "const", "at",
           "cluster", "spmd", "graph", "scope", "manual_scope", "func_attr", "static_print",
           "static_assert", "split", "cross_core_slot", "submit", "spmd_submit"]



def _dsl_only(name: str) -> Callable[..., Any]:
    def marker(*args: Any, **kwargs: Any) -> Any:
        raise RuntimeError(
            f"pl.{name}() only has a meaning inside a @pl.function / @pl.program / @pl.jit body, "
            "where pypto parses it; it cannot run as plain Python")
    marker.__name__ = name
    marker.__qualname__ = name
    marker.__doc__ = f"DSL construct ``pl.{name}`` (parsed, never executed)."
    return marker


range = _dsl_only("range")  # noqa: A001
parallel = _dsl_only("parallel")
unroll = _dsl_only("unroll")
pipeline = _dsl_only("pipeline")
while_ = _dsl_only("while_")
cond = _dsl_only("cond")
yield_ = _dsl_only("yield_")
at = _dsl_only("at")
cluster = _dsl_only("cluster")
spmd = _dsl_only("spmd")
graph = _dsl_only("graph")
scope = _dsl_only("scope")
manual_scope = _dsl_only("manual_scope")
func_attr = _dsl_only("func_attr")
static_print = _dsl_only("static_print")
static_assert = _dsl_only("static_assert")
split = _dsl_only("split")
cross_core_slot = _dsl_only("cross_core_slot")
submit = _dsl_only("submit")
spmd_submit = _dsl_only("spmd_submit")


def const(value: int | float, dtype: DataType) -> _expr.Expr:
    """A typed constant: ``pl.const(1, pl.INT32)`` (also usable to build IR directly)."""
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        raise TypeError(f"pl.const expects a numeric literal, got {type(value).__name__}")
    if not isinstance(dtype, DataType):
        raise TypeError(f"pl.const expects a DataType, got {type(dtype).__name__}")
    if dtype.is_float():
        return _expr.ConstFloat(float(value), dtype)
    if not isinstance(value, int):
        raise TypeError(f"pl.const: {value!r} is not an integer but {dtype.name} is an integer type")
    return _expr.ConstInt(value, dtype)

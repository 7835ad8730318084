"""Python-level stand-ins for the DSL's statement-level constructs.

``pl.range``, ``pl.at``, ``pl.graph``, ... are recognised syntactically by the
parser inside ``@pl.function`` bodies; the body is never executed by Python.
Calling one of them at Python level is a mistake, reported as such.
"""

from __future__ import annotations

from typing import Any

from ..ir import expr as _expr
from ..ir.dtype import DataType
from ..ir.enums import ScopeMode, SplitMode

__all__ = ["range", "parallel", "unroll", "pipeline", "while_", "cond", "yield_", "const", "at",
           "cluster", "spmd", "graph", "scope", "manual_scope", "func_attr", "static_print",
           "static_assert", "split", "cross_core_slot", "submit", "spmd_submit", "split_aiv",
           "SplitAivContext"]



def _dsl_only(name: str):
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


# -- constructs that are classes in PyPTO (pl.scope, pl.manual_scope) or return one --------

def _outside_dsl(name: str) -> RuntimeError:
    return RuntimeError(f"pl.{name}() only has a meaning inside a @pl.function / @pl.program / "
                        "@pl.jit body, where pypto parses it; it cannot run as plain Python")


class _ScopeConstruct:
    """A construct object built at Python level: its arguments are kept and checked, but
    it cannot be entered there (only the parser gives ``with`` a meaning)."""

    _dsl_name = ""

    def __enter__(self) -> Any:
        raise _outside_dsl(self._dsl_name)

    def __exit__(self, *exc: Any) -> None:
        return None


class scope(_ScopeConstruct):  # noqa: N801  (PyPTO's spelling)
    """``with pl.scope():`` / ``with pl.scope(mode=pl.ScopeMode.MANUAL):`` a runtime scope."""

    _dsl_name = "scope"

    def __init__(self, mode: ScopeMode = ScopeMode.AUTO) -> None:
        if not isinstance(mode, ScopeMode):
            raise TypeError(f"pl.scope: mode must be a pl.ScopeMode, got {mode!r}")
        self.mode = mode

    def __repr__(self) -> str:
        return f"pl.scope(mode=pl.ScopeMode.{self.mode.name})"


class manual_scope(_ScopeConstruct):  # noqa: N801
    """``with pl.manual_scope():`` a runtime scope whose dependencies the user states."""

    _dsl_name = "manual_scope"

    def __init__(self) -> None:
        self.mode = ScopeMode.MANUAL

    def __repr__(self) -> str:
        return "pl.manual_scope()"


class SplitAivContext:
    """What ``pl.split_aiv(n, mode=...)`` returns: the split, iterated only by the parser."""

    def __init__(self, n: int, mode: SplitMode) -> None:
        if isinstance(n, bool) or not isinstance(n, int) or n <= 0:
            raise ValueError(f"pl.split_aiv: n must be a positive int, got {n!r}")
        if not isinstance(mode, SplitMode):
            raise TypeError(f"pl.split_aiv: mode must be a pl.SplitMode, got {mode!r}")
        self.n, self.mode = n, mode

    def __iter__(self) -> Any:
        raise _outside_dsl("split_aiv")

    def __repr__(self) -> str:
        return f"pl.split_aiv({self.n}, mode=pl.SplitMode.{self.mode.name})"


def split_aiv(n: int, *, mode: SplitMode) -> SplitAivContext:
    """``for aiv_id in pl.split_aiv(2, mode=pl.SplitMode.UP_DOWN):`` inside a kernel: the body
    runs on each of the ``n`` vector cores, ``aiv_id`` being the core's index."""
    return SplitAivContext(n, mode)

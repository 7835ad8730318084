"""Python-level stand-ins for the DSL's statement-level constructs, with PyPTO's
signatures (``pypto.language.dsl_api`` is PyPTO's path for them).

``pl.range``, ``pl.at``, ``pl.graph``, ... are recognised syntactically by the
parser inside ``@pl.function`` bodies; the body is never executed by Python.
Calling one of them at Python level is a mistake, reported as such -- after Python
has checked the arguments against the real signature, so a misspelt keyword is
Python's own ``TypeError``.  The context/iterator classes (``AtContext``,
``RangeIterator``, ...) record their arguments and refuse to be entered or iterated
for the same reason.
"""

from __future__ import annotations

from typing import Any, NoReturn

from ..ir import expr as _expr
from ..ir.dtype import DataType
from ..ir.enums import ScopeMode, SplitMode

__all__ = ["range", "parallel", "unroll", "pipeline", "while_", "cond", "yield_", "const", "at",
           "cluster", "spmd", "graph", "scope", "manual_scope", "func_attr", "static_print",
           "static_assert", "submit", "spmd_submit", "AtContext", "ClusterContext",
           "SpmdContext", "RangeIterator", "WhileIterator", "split_aiv", "SplitAivContext"]


def _outside(name: str) -> NoReturn:
    raise RuntimeError(
        f"pl.{name}() only has a meaning inside a @pl.function / @pl.program / @pl.jit body, "
        "where pypto parses it; it cannot run as plain Python")


class _Construct:
    """Arguments of a construct written at Python level; never entered or iterated."""

    _dsl_name = ""

    def __init__(self, **arguments: Any) -> None:
        self.arguments = arguments

    def __repr__(self) -> str:
        inner = ", ".join(f"{k}={v!r}" for k, v in self.arguments.items())
        return f"{type(self).__name__}({inner})"

    def __enter__(self) -> Any:
        _outside(self._dsl_name)

    def __exit__(self, *exc: Any) -> None:
        return None

    def __iter__(self) -> Any:
        _outside(self._dsl_name)


class AtContext(_Construct):
    """``with pl.at(level, role, ...)``: the region's arguments."""

    _dsl_name = "at"

    def __init__(self, level: Any, role: Any = None, *, optimizations: Any = None,
                 deps: Any = None, no_dep_args: Any = None, dumps: Any = None,
                 allow_early_resolve: bool = False, name_hint: str = "",
                 windowize: bool = False) -> None:
        super().__init__(level=level, role=role, optimizations=optimizations, deps=deps,
                         no_dep_args=no_dep_args, dumps=dumps,
                         allow_early_resolve=allow_early_resolve, name_hint=name_hint,
                         windowize=windowize)


class ClusterContext(_Construct):
    """``with pl.cluster(name_hint=...)``."""

    _dsl_name = "cluster"

    def __init__(self, *, name_hint: str = "") -> None:
        super().__init__(name_hint=name_hint)


class SpmdContext(_Construct):
    """``with pl.spmd(core_num, ...)``."""

    _dsl_name = "spmd"

    def __init__(self, core_num: Any, sync_start: bool = False, name_hint: str = "",
                 optimizations: Any = None, deps: Any = None, allow_early_resolve: bool = False,
                 predicate: Any = None) -> None:
        super().__init__(core_num=core_num, sync_start=sync_start, name_hint=name_hint,
                         optimizations=optimizations, deps=deps,
                         allow_early_resolve=allow_early_resolve, predicate=predicate)


class RangeIterator(_Construct):
    """``for i in pl.range(...)``: the loop bounds (``pipeline_stages`` for ``pl.pipeline``)."""

    _dsl_name = "range"

    def __init__(self, stop: Any, start: Any = 0, step: Any = 1, init_values: Any = None,
                 pipeline_stages: Any = None) -> None:
        super().__init__(stop=stop, start=start, step=step, init_values=init_values,
                         pipeline_stages=pipeline_stages)


class WhileIterator(_Construct):
    """``for (s,) in pl.while_(init_values=(...,))``."""

    _dsl_name = "while_"

    def __init__(self, *, init_values: Any = None) -> None:
        super().__init__(init_values=init_values)


def range(*args: Any, init_values: Any = None) -> Any:  # noqa: A001
    """``for i in pl.range(stop)`` / ``(start, stop[, step])``; loop-carried ``init_values``."""
    _outside("range")


def parallel(*args: Any, init_values: Any = None) -> Any:
    """``for i in pl.parallel(...)``: iterations are independent."""
    _outside("parallel")


def unroll(*args: Any) -> Any:
    """``for i in pl.unroll(...)``: unrolled at compile time."""
    _outside("unroll")


def pipeline(*args: Any, stage: int, init_values: Any = None) -> Any:
    """``for i in pl.pipeline(..., stage=N)``: a software-pipelined loop."""
    _outside("pipeline")


def while_(*, init_values: Any = None) -> Any:
    """``for (s,) in pl.while_(init_values=(...,))`` with ``pl.cond(...)`` first in the body."""
    _outside("while_")


def cond(condition: Any) -> Any:
    """``pl.cond(c)``: the condition of the enclosing ``pl.while_`` loop."""
    _outside("cond")


def yield_(*values: Any) -> Any:
    """``pl.yield_(...)``: the values a loop iteration or an if branch hands on."""
    _outside("yield_")


def at(level: Any, role: Any = None, *, optimizations: Any = None, deps: Any = None,
       no_dep_args: Any = None, dumps: Any = None, allow_early_resolve: bool = False,
       name_hint: str = "", windowize: bool = False) -> Any:
    """``with pl.at(level=pl.Level.CORE_GROUP, ...)``: a region outlined to that level."""
    _outside("at")


def cluster(*, name_hint: str = "") -> Any:
    """``with pl.cluster():`` a cube/vector cluster region."""
    _outside("cluster")


def spmd(core_num: Any, *, sync_start: bool = False, name_hint: str = "",
         optimizations: Any = None, deps: Any = None, allow_early_resolve: bool = False,
         predicate: Any = None) -> Any:
    """``with pl.spmd(core_num):`` one body run on ``core_num`` cores."""
    _outside("spmd")


def graph(*args: Any, **kwargs: Any) -> Any:
    """``with pl.graph(...)``: a task-graph region (pypto's, from the design seeds)."""
    _outside("graph")


def func_attr(attrs: Any) -> Any:
    """``pl.func_attr({...})`` first in a function body: attributes of the function."""
    _outside("func_attr")


def static_print(*args: Any) -> Any:
    """``pl.static_print(x)``: print a value's IR while parsing."""
    _outside("static_print")


def static_assert(condition: Any, msg: str = "") -> Any:
    """``pl.static_assert(cond, msg)``: a condition checked while parsing."""
    _outside("static_assert")


def submit(*args: Any, **kwargs: Any) -> Any:
    """``tid = pl.submit(self.kernel, ...)``: launch a task, get its ``pl.TaskId``."""
    _outside("submit")


def spmd_submit(*args: Any, **kwargs: Any) -> Any:
    """``pl.spmd_submit(...)``: launch an SPMD task."""
    _outside("spmd_submit")


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

class _ScopeConstruct:
    """A construct object built at Python level: its arguments are kept and checked, but
    it cannot be entered there (only the parser gives ``with`` a meaning)."""

    _dsl_name = ""

    def __enter__(self) -> Any:
        _outside(self._dsl_name)

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
        _outside("split_aiv")

    def __repr__(self) -> str:
        return f"pl.split_aiv({self.n}, mode=pl.SplitMode.{self.mode.name})"


def split_aiv(n: int, *, mode: SplitMode) -> SplitAivContext:
    """``for aiv_id in pl.split_aiv(2, mode=pl.SplitMode.UP_DOWN):`` inside a kernel: the body
    runs on each of the ``n`` vector cores, ``aiv_id`` being the core's index."""
    return SplitAivContext(n, mode)

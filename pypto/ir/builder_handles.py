"""PyPTO's builder classes as it constructs them: ``FunctionBuilder(builder)`` ...

In PyPTO the ``with ib.function(...) as f`` object is a handle made from the builder
alone; its methods act on the construct the builder has open.  Here each handle binds
to the innermost open construct of its kind when made (or, when none is open yet, when
first used), so a handle made after ``ib.begin_function(...)`` adds that function's
parameters and, once ``end_function()`` closed it, gives its result.  The frames
``IRBuilder``'s own methods return (``builder.py``) are subclasses of these handles,
bound to themselves.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from .enums import ParamDirection
from .expr import IterArg, Var
from .node import Expr, GlobalVar
from .span import Span
from .types import Type

if TYPE_CHECKING:
    from .builder import IRBuilder

__all__ = ["ProgramBuilder", "FunctionBuilder", "ForLoopBuilder", "WhileLoopBuilder",
           "IfStmtBuilder", "ScopeBuilder"]


class _Handle:
    """A handle on ``builder``'s innermost open construct of the subclass's kind."""

    what = "construct"
    _kind: type  # the public handle class: frames of its kind are subclasses of it
    _bound: Any

    def __init__(self, builder: "IRBuilder") -> None:
        frames = getattr(builder, "_frames", None)
        if not isinstance(frames, list):
            raise TypeError(f"{type(self).__name__} expects an ir.IRBuilder, got "
                            f"{type(builder).__name__}")
        self.builder = builder
        self._bound = self._open_frame(required=False)

    def _open_frame(self, required: bool = True) -> Any:
        for frame in reversed(self.builder._frames):
            if isinstance(frame, self._kind):
                return frame
        if required:
            raise ValueError(f"IRBuilder: {type(self).__name__} has no open {self.what} "
                             f"to act on (open one first, e.g. with begin_* or 'with')")
        return None

    def _frame(self) -> Any:
        if self._bound is None:
            self._bound = self._open_frame()
        return self._bound

    def get_result(self) -> Any:
        """What the construct built (``ValueError`` while it is still open)."""
        return self._frame().get_result()


class ProgramBuilder(_Handle):
    what = "program"

    def add_function(self, func: Any) -> None:
        self._frame().add_function(func)

    def declare_function(self, name: str) -> GlobalVar:
        return self._frame().declare_function(name)

    def get_global_var(self, name: str) -> GlobalVar:
        return self._frame().get_global_var(name)


class FunctionBuilder(_Handle):
    what = "function"

    def param(self, name: str, type: Type, span: Span | None = None,  # noqa: A002
              direction: ParamDirection = ParamDirection.In) -> Var:
        return self._frame().param(name, type, span, direction)

    def return_type(self, type: Type) -> None:  # noqa: A002
        self._frame().return_type(type)


class _ReturnVarsAccessor(_Handle):
    def output(self, index: int = 0) -> Var:
        return self._frame().output(index)

    def outputs(self) -> list[Var]:
        return self._frame().outputs()


class _LoopHandle(_ReturnVarsAccessor):
    def iter_arg(self, name: str, init_value: Any, type: Type | None = None,  # noqa: A002
                 span: Span | None = None) -> IterArg:
        return self._frame().iter_arg(name, init_value, type, span)

    def return_var(self, name: str, type: Type | None = None,  # noqa: A002
                   span: Span | None = None) -> Var:
        return self._frame().return_var(name, type, span)


class ForLoopBuilder(_LoopHandle):
    what = "for loop"


class WhileLoopBuilder(_LoopHandle):
    what = "while loop"

    def set_condition(self, condition: Expr) -> None:
        self._frame().set_condition(condition)


class IfStmtBuilder(_ReturnVarsAccessor):
    what = "if"

    def else_(self, span: Span | None = None) -> None:
        self._frame().else_(span)

    def return_var(self, name: str, type: Type, span: Span | None = None) -> Var:  # noqa: A002
        return self._frame().return_var(name, type, span)


class ScopeBuilder(_Handle):
    what = "scope"


for _cls in (ProgramBuilder, FunctionBuilder, ForLoopBuilder, WhileLoopBuilder, IfStmtBuilder,
             ScopeBuilder):
    _cls._kind = _cls
    _cls.__module__ = "pypto.ir.builder"  # PyPTO's home of the classes

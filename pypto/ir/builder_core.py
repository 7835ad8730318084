"""The compiled core's ``IRBuilder`` methods (``pypto.pypto_core.ir.IRBuilder``): each
construct opened with ``begin_*`` and closed with ``end_*`` instead of ``with``, and the
loop / if / function pieces added one by one (``add_iter_arg``, ``func_arg`` ...).

They drive the same frame stack as the context-manager API (``builder.py``), so the two
styles mix: ``begin_for_loop`` inside ``with ib.function(...)`` is fine.
"""

from __future__ import annotations

from typing import Any, Mapping

from .enums import ForKind, FunctionType, Level, ParamDirection, Role, ScopeKind
from .expr import IterArg, Var
from .function import Function, Program
from .node import Expr, GlobalVar, Stmt
from .span import Span
from .types import Type

__all__ = ["CoreBuilderNames"]


class CoreBuilderNames:
    """Mixed into ``IRBuilder``; see the module docstring."""

    _frames: list

    def _innermost(self, kind: type, what: str) -> Any:
        for frame in reversed(self._frames):
            if isinstance(frame, kind):
                return frame
        raise ValueError(f"IRBuilder: no open {what}")

    def _end(self, kind: type, what: str) -> Any:
        if not self._frames or not isinstance(self._frames[-1], kind):
            current = self._frames[-1].what if self._frames else "nothing"
            raise ValueError(f"IRBuilder.end_{what.replace(' ', '_')}: the innermost open "
                             f"construct is {current}, not a {what}")
        return self._finish(self._frames[-1])  # type: ignore[attr-defined]

    def _begin(self, frame: Any) -> Any:
        self._push(frame)  # type: ignore[attr-defined]
        return frame

    # -- programs and functions -----------------------------------------------------------
    def in_program(self) -> bool:
        from .builder import ProgramFrame
        return any(isinstance(f, ProgramFrame) for f in self._frames)

    def begin_program(self, name: str, span: Span | None = None) -> Any:
        from .builder import ProgramFrame
        return self._begin(ProgramFrame(self, name, span))  # type: ignore[arg-type]

    def end_program(self, end_span: Span | None = None) -> Program:
        from .builder import ProgramFrame
        return self._end(ProgramFrame, "program")

    def add_function(self, func: Function) -> None:
        """Add an already built function to the open program."""
        from .builder import ProgramFrame
        self._innermost(ProgramFrame, "program").add_function(func)

    def declare_function(self, func_name: str) -> GlobalVar:
        from .builder import ProgramFrame
        return self._innermost(ProgramFrame, "program").declare_function(func_name)

    def get_global_var(self, func_name: str) -> GlobalVar:
        from .builder import ProgramFrame
        return self._innermost(ProgramFrame, "program").get_global_var(func_name)

    def get_function_return_types(self, gvar: GlobalVar | str) -> list[Type]:
        """The return types of a function of the open program (built, or still open)."""
        from .builder import FunctionFrame, ProgramFrame
        name = gvar.name if isinstance(gvar, GlobalVar) else gvar
        for frame in self._frames:
            if isinstance(frame, FunctionFrame) and frame.name == name:
                return list(frame.return_types)
        program = self._innermost(ProgramFrame, "program")
        for func in program.functions:
            if func.name == name:
                return list(func.return_types)
        raise ValueError(f"IRBuilder: program '{program.name}' has no function '{name}'")

    def begin_function(self, name: str, span: Span | None = None,
                       type: FunctionType = FunctionType.Opaque,  # noqa: A002
                       level: Level | None = None, role: Role | None = None,
                       attrs: Mapping | None = None,
                       requires_runtime_binding: bool = False) -> Any:
        return self._begin(self.function(name, span, type, level, role, attrs,  # type: ignore
                                         requires_runtime_binding))

    def func_arg(self, name: str, type: Type, span: Span | None = None,  # noqa: A002
                 direction: ParamDirection = ParamDirection.In) -> Var:
        from .builder import FunctionFrame
        return self._innermost(FunctionFrame, "function").param(name, type, span, direction)

    def return_type(self, type: Type) -> None:  # noqa: A002
        from .builder import FunctionFrame
        self._innermost(FunctionFrame, "function").return_type(type)

    def end_function(self, end_span: Span | None = None) -> Function:
        from .builder import FunctionFrame
        return self._end(FunctionFrame, "function")

    # -- loops ----------------------------------------------------------------------------
    def begin_for_loop(self, loop_var: Var | str, start: Any, stop: Any, step: Any,
                       span: Span | None = None, kind: ForKind = ForKind.Sequential,
                       attrs: Mapping | None = None) -> Any:
        return self._begin(self.for_range(loop_var, start, stop, step,  # type: ignore
                                          kind=kind, attrs=attrs, span=span))

    def add_iter_arg(self, iter_arg: IterArg) -> None:
        from .builder import ForFrame
        self._innermost(ForFrame, "for loop").iter_args.append(_iter_arg(iter_arg))

    def add_return_var(self, var: Var) -> None:
        from .builder import ForFrame
        self._innermost(ForFrame, "for loop").return_vars.append(_var(var))

    def end_for_loop(self, end_span: Span | None = None) -> Stmt:
        from .builder import ForFrame
        return self._end(ForFrame, "for loop")

    def begin_while_loop(self, condition: Expr | None, span: Span | None = None) -> Any:
        return self._begin(self.while_(condition, span))  # type: ignore[attr-defined]

    def set_while_loop_condition(self, condition: Expr) -> None:
        from .builder import WhileFrame
        self._innermost(WhileFrame, "while loop").condition(condition)

    def add_while_iter_arg(self, iter_arg: IterArg) -> None:
        from .builder import WhileFrame
        self._innermost(WhileFrame, "while loop").iter_args.append(_iter_arg(iter_arg))

    def add_while_return_var(self, var: Var) -> None:
        from .builder import WhileFrame
        self._innermost(WhileFrame, "while loop").return_vars.append(_var(var))

    def end_while_loop(self, end_span: Span | None = None) -> Stmt:
        from .builder import WhileFrame
        return self._end(WhileFrame, "while loop")

    # -- if -------------------------------------------------------------------------------
    def begin_if(self, condition: Expr, span: Span | None = None) -> Any:
        return self._begin(self.if_(condition, span))  # type: ignore[attr-defined]

    def begin_else(self, span: Span | None = None) -> None:
        from .builder import IfFrame
        if not self._frames or not isinstance(self._frames[-1], IfFrame):
            raise ValueError("IRBuilder.begin_else: the innermost open construct is not an if")
        self._frames[-1].else_()

    def add_if_return_var(self, var: Var) -> None:
        from .builder import IfFrame
        self._innermost(IfFrame, "if").return_vars.append(_var(var))

    def end_if(self, end_span: Span | None = None) -> Stmt:
        from .builder import IfFrame
        return self._end(IfFrame, "if")

    # -- scopes ---------------------------------------------------------------------------
    def begin_scope(self, scope_kind: ScopeKind, span: Span | None = None,
                    level: Level | None = None, role: Role | None = None, split: Any = None,
                    name_hint: str = "", core_num: Any = None, sync_start: bool | None = None,
                    manual: bool | None = None, attrs: Mapping | None = None,
                    count: int | None = None) -> Any:
        """Open a scope without ``with`` (the arguments of ``scope``); close it with
        ``end_scope()``."""
        return self._begin(self.scope(scope_kind, span, level, role,  # type: ignore
                                      split, name_hint, core_num, sync_start, manual, attrs,
                                      count))

    def end_scope(self, end_span: Span | None = None) -> Stmt:
        """Close the innermost scope and return it (``ValueError`` for an unnamed Graph)."""
        from .builder import ScopeFrame
        return self._end(ScopeFrame, "scope")


def _iter_arg(value: Any) -> IterArg:
    if not isinstance(value, IterArg):
        raise TypeError(f"IRBuilder: expected an IterArg, got {type(value).__name__}")
    return value


def _var(value: Any) -> Var:
    if not isinstance(value, Var) or isinstance(value, IterArg):
        raise TypeError(f"IRBuilder: expected a Var, got {type(value).__name__}")
    return value

"""``ir.IRBuilder``: build IR imperatively with ``with`` blocks (02-ir.md §16).

    ib = ir.IRBuilder()
    with ib.program("P") as prog:
        with ib.function("main", type=ir.FunctionType.Orchestration) as f:
            x = f.param("x", ir.ScalarType(ir.DataType.INDEX))
            f.return_type(ir.ScalarType(ir.DataType.INDEX))
            with ib.for_range("i", 0, 8) as loop:
                acc = loop.iter_arg("acc", x)
                ib.yield_(ib.let("nxt", acc + loop.loop_var))
                total = loop.return_var("total")
            ib.return_(total)
    program = prog.result

Every construct is a frame on a stack; statements go to the innermost open body.
A frame builds its node when its ``with`` block ends normally (the node is then in
``frame.result`` and appended to the enclosing body); if the block raises, the frame
is dropped and the exception propagates.  Scopes also have the explicit
``begin_scope`` / ``end_scope`` pair.  Misuse raises ``ValueError`` naming the
construct.
"""

from __future__ import annotations

from typing import Any, Literal, Mapping

from .dtype import DataType
from .enums import ForKind, FunctionType, Level, ParamDirection, Role, ScopeKind
from .expr import IterArg, Var
from .function import Function, Program
from .node import Expr, GlobalVar, Stmt
from .scope import (ClusterScopeStmt, GraphScopeStmt, HierarchyScopeStmt, InCoreScopeStmt,
                    RuntimeScopeStmt, ScopeStmt, SplitAivScopeStmt, SpmdScopeStmt)
from .span import Span
from .stmt import (AssignStmt, BreakStmt, ContinueStmt, EvalStmt, ForStmt, IfStmt, ReturnStmt,
                   SeqStmts, WhileStmt, YieldStmt)
from .types import ScalarType, Type
from .builder_core import CoreBuilderNames
from .builder_handles import (ForLoopBuilder, FunctionBuilder, IfStmtBuilder, ProgramBuilder,
                              ScopeBuilder, WhileLoopBuilder)
from .builder_names import PyPTOBuilderNames, StmtT
from .. import ir  # noqa: F401 - PyPTO's builder module names the IR module ``ir``

__all__ = ["IRBuilder", "ForLoopBuilder", "FunctionBuilder", "IfStmtBuilder", "ProgramBuilder",
           "ScopeBuilder", "WhileLoopBuilder"]

_SCOPE_CLASSES: dict[ScopeKind, type[ScopeStmt]] = {
    ScopeKind.InCore: InCoreScopeStmt, ScopeKind.Cluster: ClusterScopeStmt,
    ScopeKind.Hierarchy: HierarchyScopeStmt, ScopeKind.Spmd: SpmdScopeStmt,
    ScopeKind.Runtime: RuntimeScopeStmt, ScopeKind.Graph: GraphScopeStmt,
    ScopeKind.SplitAiv: SplitAivScopeStmt,
}


def _span(span: Span | None) -> Span:
    return span if span is not None else Span.unknown()


class _Frame:
    """One open construct.  ``what`` names it in error messages."""

    what = "construct"

    def __init__(self, builder: "IRBuilder", span: Span | None) -> None:
        self.builder = builder
        self.span = _span(span)
        self.stmts: list[Stmt] = []
        self.result: Any = None

    def add(self, stmt: Stmt) -> None:
        self.stmts.append(stmt)

    def body(self) -> Stmt:
        return SeqStmts.flatten(self.stmts, self.span)

    def build(self) -> Any:
        raise NotImplementedError

    def _frame(self) -> "_Frame":
        return self  # a frame is the handle bound to itself

    def get_result(self) -> Any:
        """What the construct built (after its ``with`` block closed)."""
        if self.result is None:
            raise ValueError(f"IRBuilder: the {self.what} is still open; its result exists "
                             "once its 'with' block ends")
        return self.result

    def __enter__(self) -> "_Frame":
        self.builder._push(self)
        return self

    def __exit__(self, exc_type: Any, exc: Any, tb: Any) -> Literal[False]:
        if exc_type is not None:
            self.builder._drop(self)
            return False
        self.builder._finish(self)
        return False


class ProgramFrame(_Frame, ProgramBuilder):
    what = "program"

    def __init__(self, builder: "IRBuilder", name: str, span: Span | None) -> None:
        super().__init__(builder, span)
        self.name = name
        self.functions: list[Function] = []
        self.declared: set[str] = set()

    def add_function(self, func: Function) -> None:
        if not isinstance(func, Function):
            raise TypeError(f"add_function expects a Function, got {type(func).__name__}")
        self.functions.append(func)

    def declare_function(self, name: str) -> GlobalVar:
        """The ``GlobalVar`` that calls of function ``name`` use, before it is built (a
        function may call one defined later in the program)."""
        if not isinstance(name, str) or not name:
            raise TypeError(f"declare_function expects a function name, got {name!r}")
        self.declared.add(name)
        return GlobalVar(name)

    def get_global_var(self, name: str) -> GlobalVar:
        """The ``GlobalVar`` of a function built or declared in this program."""
        if name not in self.declared and all(f.name != name for f in self.functions):
            raise ValueError(f"IRBuilder: program '{self.name}' has no function '{name}' "
                             "(build it or declare_function it first)")
        return GlobalVar(name)

    def build(self) -> Program:
        return Program(self.functions, self.name, self.span)


class FunctionFrame(_Frame, FunctionBuilder):
    what = "function"

    def __init__(self, builder: "IRBuilder", name: str, span: Span | None,
                 **options: Any) -> None:
        super().__init__(builder, span)
        self.name = name
        self.params: list[tuple[Var, ParamDirection]] = []
        self.return_types: list[Type] = list(options.pop("return_types", ()))
        self.options = options

    def param(self, name: Var | str, type: Type | None = None, span: Span | None = None,
              direction: ParamDirection = ParamDirection.In) -> Var:
        """Declare the next parameter (a new Var from ``name`` + ``type``, or a given Var);
        PyPTO's parameter order."""
        var = name
        var = _new_var(f"function '{self.name}' param", var, type, span)
        self.params.append((var, direction))
        return var

    def return_type(self, type: Type) -> None:
        self.return_types.append(type)

    def build(self) -> Function:
        return Function(self.name, self.params, self.return_types, self.body(), self.span,
                        **self.options)


class _LoopFrame(_Frame):
    """Shared iter_arg / return_var bookkeeping of for and while loops."""

    def __init__(self, builder: "IRBuilder", span: Span | None) -> None:
        super().__init__(builder, span)
        self.iter_args: list[IterArg] = []
        self.return_vars: list[Var] = []

    def iter_arg(self, name: str, init_value: Expr, type: Type | None = None,
                 span: Span | None = None) -> IterArg:
        """A loop-carried variable seeded with ``init_value`` (type defaults to its type)."""
        arg = IterArg(name, type if type is not None else init_value.type, init_value,
                      _span(span))
        self.iter_args.append(arg)
        return arg

    def return_var(self, name: str, type: Type | None = None, span: Span | None = None) -> Var:
        """The Var holding the final value of the next iter_arg (same type by default)."""
        index = len(self.return_vars)
        if type is None:
            if index >= len(self.iter_args):
                raise ValueError(f"IRBuilder: {self.what} return_var '{name}' has no matching "
                                 f"iter_arg (declare iter_args first or pass a type)")
            type = self.iter_args[index].type
        var = Var(name, type, _span(span))
        self.return_vars.append(var)
        return var


class _Outputs:
    """``output(i)`` / ``outputs()``: the construct's return variables, the values it
    leaves behind."""

    return_vars: list[Var]
    what: str

    def output(self, index: int = 0) -> Var:
        if not 0 <= index < len(self.return_vars):
            raise IndexError(f"IRBuilder: the {self.what} has {len(self.return_vars)} "
                             f"return variable(s), no output {index}")
        return self.return_vars[index]

    def outputs(self) -> list[Var]:
        return list(self.return_vars)


class ForFrame(_Outputs, _LoopFrame, ForLoopBuilder):
    what = "for loop"

    def __init__(self, builder: "IRBuilder", loop_var: Var, start: Any, stop: Any, step: Any,
                 kind: ForKind, attrs: Mapping | None, span: Span | None) -> None:
        super().__init__(builder, span)
        self.loop_var = loop_var
        self.bounds = (start, stop, step)
        self.kind, self.attrs = kind, attrs

    def build(self) -> ForStmt:
        start, stop, step = self.bounds
        return ForStmt(self.loop_var, start, stop, step, self.iter_args, self.body(),
                       self.return_vars, self.span, self.kind, self.attrs)


class WhileFrame(_Outputs, _LoopFrame, WhileLoopBuilder):
    what = "while loop"

    def __init__(self, builder: "IRBuilder", condition: Expr | None, span: Span | None) -> None:
        super().__init__(builder, span)
        self.cond = condition

    def condition(self, expr: Expr) -> None:
        """Set the condition (after declaring the iter_args it reads)."""
        self.cond = expr

    def set_condition(self, condition: Expr) -> None:
        """PyPTO's name for ``condition``."""
        self.cond = condition

    def build(self) -> WhileStmt:
        if self.cond is None:
            raise ValueError("IRBuilder: while loop has no condition; call .condition(expr)")
        return WhileStmt(self.cond, self.iter_args, self.body(), self.return_vars, self.span)


class IfFrame(_Outputs, _Frame, IfStmtBuilder):
    what = "if"

    def __init__(self, builder: "IRBuilder", condition: Expr, span: Span | None) -> None:
        super().__init__(builder, span)
        self.condition = condition
        self.then_stmts: list[Stmt] | None = None  # set when else_() switches branches
        self.return_vars: list[Var] = []

    def else_(self, span: Span | None = None) -> None:
        """Statements from now on go to the else branch (``span``: where it begins;
        pypto keeps the if's span)."""
        if self.then_stmts is not None:
            raise ValueError("IRBuilder: if already has an else branch")
        self.then_stmts, self.stmts = self.stmts, []

    def return_var(self, name: str, type: Type, span: Span | None = None) -> Var:
        """A Var bound to the branches' yielded values after the if."""
        var = Var(name, type, _span(span))
        self.return_vars.append(var)
        return var

    def build(self) -> IfStmt:
        if self.then_stmts is None:
            then_body, else_body = self.body(), None
        else:
            then_body = SeqStmts.flatten(self.then_stmts, self.span)
            else_body = self.body()
        return IfStmt(self.condition, then_body, else_body, self.return_vars, self.span)


class ScopeFrame(_Frame, ScopeBuilder):
    what = "scope"

    def __init__(self, builder: "IRBuilder", kind: ScopeKind, name_hint: str,
                 attrs: Mapping | None, fields: dict, span: Span | None) -> None:
        super().__init__(builder, span)
        self.kind, self.name_hint, self.attrs, self.fields = kind, name_hint, attrs, fields

    def build(self) -> ScopeStmt:
        if self.kind is ScopeKind.Graph and not self.name_hint:
            raise ValueError("IRBuilder.end_scope: a Graph scope needs a non-empty name_hint "
                             "(it names the outlined Graph function)")
        cls = _SCOPE_CLASSES[self.kind]
        return cls(name_hint=self.name_hint, body=self.body(), span=self.span,
                   attrs=self.attrs, **self.fields)


def _new_var(owner: str, var: Var | str, var_type: Type | None, span: Span | None) -> Var:
    if isinstance(var, Var):
        return var
    if not isinstance(var, str):
        raise TypeError(f"IRBuilder: {owner} expects a Var or a name, got "
                        f"{var.__class__.__name__}")
    if var_type is None:
        raise ValueError(f"IRBuilder: {owner} '{var}' needs a type")
    return Var(var, var_type, _span(span))


class IRBuilder(CoreBuilderNames, PyPTOBuilderNames):
    """Context-manager builder for programs, functions, loops, ifs and scopes (PyPTO's
    method names too: ``builder_names.py``; the compiled core's begin/end methods:
    ``builder_core.py``)."""

    def __init__(self) -> None:
        self._frames: list[_Frame] = []
        self._pending_comments: list[str] = []

    # -- frame stack ------------------------------------------------------------
    def _push(self, frame: _Frame) -> None:
        if isinstance(frame, FunctionFrame) and self._frames \
                and not isinstance(self._frames[-1], ProgramFrame):
            raise ValueError(f"IRBuilder: function '{frame.name}' must be at top level or "
                             f"directly in a program, not in a {self._frames[-1].what}")
        if isinstance(frame, ProgramFrame) and self._frames:
            raise ValueError("IRBuilder: programs cannot be nested")
        if not isinstance(frame, (FunctionFrame, ProgramFrame)):
            self._body_frame(frame.what)
        self._frames.append(frame)

    def _drop(self, frame: _Frame) -> None:
        if self._frames and self._frames[-1] is frame:
            self._frames.pop()

    def _finish(self, frame: _Frame) -> Any:
        if not self._frames or self._frames[-1] is not frame:
            current = self._frames[-1].what if self._frames else "nothing"
            raise ValueError(f"IRBuilder: cannot close a {frame.what}; the innermost open "
                             f"construct is {current}")
        try:
            frame.result = frame.build()
        finally:  # a construct that fails to build is abandoned, never left open
            self._frames.pop()
        if self._frames:
            parent = self._frames[-1]
            if isinstance(parent, ProgramFrame):
                parent.add_function(frame.result)
            else:
                parent.add(frame.result)
        return frame.result

    def _body_frame(self, what: str) -> _Frame:
        if not self._frames:
            raise ValueError(f"IRBuilder: a {what} must be inside a function")
        frame = self._frames[-1]
        if isinstance(frame, ProgramFrame):
            raise ValueError(f"IRBuilder: a {what} must be inside a function, not directly in "
                             f"program '{frame.name}'")
        return frame

    # -- constructs -------------------------------------------------------------
    def program(self, name: str, span: Span | None = None) -> ProgramFrame:
        return ProgramFrame(self, name, span)

    def function(self, name: str, span: Span | None = None,
                 type: FunctionType = FunctionType.Opaque, level: Level | None = None,
                 role: Role | None = None, attrs: Mapping | None = None,
                 requires_runtime_binding: bool = False, *,
                 return_types: Any = ()) -> FunctionFrame:
        return FunctionFrame(self, name, span, return_types=return_types, type=type,
                             level=level, role=role, attrs=attrs,
                             requires_runtime_binding=requires_runtime_binding)

    def for_range(self, loop_var: Var | str, start: Any, stop: Any, step: Any = 1, *,
                  kind: ForKind = ForKind.Sequential, attrs: Mapping | None = None,
                  span: Span | None = None) -> ForFrame:
        """``for loop_var in range(start, stop, step)``; a name makes an INDEX loop var."""
        var = _new_var("for loop_var", loop_var, ScalarType(DataType.INDEX), span)
        return ForFrame(self, var, start, stop, step, kind, attrs, span)

    def while_(self, condition: Expr | None = None, span: Span | None = None) -> WhileFrame:
        return WhileFrame(self, condition, span)

    def if_(self, condition: Expr, span: Span | None = None) -> IfFrame:
        return IfFrame(self, condition, span)

    def scope(self, scope_kind: ScopeKind, span: Span | None = None, level: Level | None = None,
              role: Role | None = None, split: Any = None, name_hint: str = "",
              core_num: Any = None, sync_start: bool | None = None, manual: bool | None = None,
              attrs: Mapping | None = None, count: int | None = None) -> ScopeFrame:
        """A scope of ``scope_kind`` with the fields that kind has (``level=`` for a
        hierarchy scope, ``core_num=`` for spmd ...); a field the kind lacks is an error."""
        given = {"level": level, "role": role, "split": split, "core_num": core_num,
                 "sync_start": sync_start, "manual": manual, "count": count}
        fields = {key: value for key, value in given.items() if value is not None}
        kind = ScopeKind(scope_kind)
        if kind not in _SCOPE_CLASSES:
            raise ValueError(f"IRBuilder: scope kind {kind.name} is not supported")
        return ScopeFrame(self, kind, name_hint, attrs, fields, span)

    # -- statements -------------------------------------------------------------
    def emit(self, stmt: StmtT) -> StmtT:
        """Append any statement to the innermost open body."""
        if not isinstance(stmt, Stmt):
            raise TypeError(f"IRBuilder.emit expects a Stmt, got {type(stmt).__name__}")
        frame = self._body_frame("statement")
        self._take_comments(stmt)
        frame.add(stmt)
        return stmt

    def let(self, name: Var | str, value: Expr, type: Type | None = None,
            span: Span | None = None) -> Var:
        """``name = value``; a name makes a new Var typed ``type`` or ``value.type``."""
        if not isinstance(value, Expr):
            raise TypeError(f"IRBuilder.let expects an Expr value, got "
                            f"{value.__class__.__name__}")
        target = _new_var("let", name, type if type is not None else value.type, span)
        self.emit(AssignStmt(target, value, _span(span)))
        return target

    def eval_(self, expr: Expr, span: Span | None = None) -> None:
        self.emit(EvalStmt(expr, _span(span)))

    def yield_(self, *values: Expr, span: Span | None = None) -> None:
        self.emit(YieldStmt(list(values), _span(span)))

    def return_(self, *values: Any, span: Span | None = None) -> None:
        """``return_(a, b)``, or the core's ``return_([a, b], span)``."""
        if len(values) in (1, 2) and isinstance(values[0], (list, tuple)):
            if len(values) == 2:
                values, span = values
            else:
                values = values[0]
        self.emit(ReturnStmt(list(values), _span(span)))

    def break_(self, span: Span | None = None) -> None:
        self.emit(BreakStmt(_span(span)))

    def continue_(self, span: Span | None = None) -> None:
        self.emit(ContinueStmt(_span(span)))


# PyPTO's builder module also names the compiled core's builder; pypto has one class for
# both (the core's begin/end methods are ``builder_core.py``).
CppIRBuilder = IRBuilder

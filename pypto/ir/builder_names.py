"""PyPTO's names for ``IRBuilder``'s constructs (``for_loop``, ``if_stmt``, ``assign``,
``return_stmt``, ``tensor_type`` ...): a mixin over the frame API of ``builder.py``.

The statement methods append to the innermost open body and return the statement;
the type and view methods only build values.  Pending leading comments
(``push_pending_leading_comments``) attach to the next statement appended.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Iterable, Mapping, TypeVar

from .enums import (CompactMode, ForKind, InlineLanguage, MemorySpace, PadValue, TensorLayout,
                    TileLayout)
from .expr import MakeTuple, Var
from .node import Expr, Stmt, attach_leading_comments
from .span import Span
from .stmt import (AssignStmt, BreakStmt, ContinueStmt, EvalStmt, InlineStmt, ReturnStmt,
                   SeqStmts)
from .array_types import PtrType
from .types import MemRef, TensorType, TensorView, TileType, TileView, Type

__all__ = ["PyPTOBuilderNames", "StmtT"]


def _span(span: Span | None) -> Span:
    return span if span is not None else Span.unknown()


StmtT = TypeVar("StmtT", bound=Stmt)


class PyPTOBuilderNames:
    """Mixed into ``IRBuilder``; relies on its ``emit``, frame stack and constructs."""

    _frames: list
    _pending_comments: list[str]

    if TYPE_CHECKING:  # the IRBuilder's own methods
        def emit(self, stmt: StmtT) -> StmtT: ...
        def while_(self, condition: Expr | None = None, span: Span | None = None) -> Any: ...
        def if_(self, condition: Expr, span: Span | None = None) -> Any: ...

    # -- where we are -----------------------------------------------------------
    def _open(self, what: str) -> bool:
        return any(frame.what == what for frame in self._frames)

    def in_function(self) -> bool:
        return self._open("function")

    def in_loop(self) -> bool:
        return self._open("for loop") or self._open("while loop")

    def in_if(self) -> bool:
        return self._open("if")

    # -- constructs under PyPTO's names ---------------------------------------------
    def for_loop(self, loop_var: Var | str, start: Any, stop: Any, step: Any,
                 span: Span | None = None, kind: ForKind = ForKind.Sequential,
                 attrs: Mapping | None = None) -> Any:
        frames: Any = self  # the IRBuilder this is mixed into
        return frames.for_range(loop_var, start, stop, step, kind=kind, attrs=attrs, span=span)

    def while_loop(self, condition: Expr, span: Span | None = None) -> Any:
        return self.while_(condition, span)

    def if_stmt(self, condition: Expr, span: Span | None = None) -> Any:
        return self.if_(condition, span)

    def add_function_attrs(self, attrs: Mapping[str, Any]) -> None:
        """Merge ``attrs`` into the attributes of the innermost open function."""
        for frame in reversed(self._frames):
            if frame.what == "function":
                merged = dict(frame.options.get("attrs") or {})
                merged.update(attrs)
                frame.options["attrs"] = merged
                return
        raise ValueError("IRBuilder.add_function_attrs: no function is open")

    # -- statements -----------------------------------------------------------------
    def _append(self, stmt: StmtT) -> StmtT:
        return self.emit(stmt)

    def _take_comments(self, stmt: Stmt) -> None:
        """Give ``stmt`` the pending leading comments, if any (``emit`` calls this)."""
        if self._pending_comments and not isinstance(stmt, SeqStmts):
            attach_leading_comments(stmt, self._pending_comments)
            self._pending_comments = []

    def assign(self, var: Var, value: Expr, span: Span | None = None) -> AssignStmt:
        return self._append(AssignStmt(var, value, _span(span)))

    def eval_stmt(self, expr: Expr, span: Span | None = None) -> EvalStmt:
        return self._append(EvalStmt(expr, _span(span)))

    def return_stmt(self, values: Iterable[Expr] | Expr | None = None,
                    span: Span | None = None) -> ReturnStmt:
        if values is None:
            values = []
        elif isinstance(values, Expr):
            values = [values]
        return self._append(ReturnStmt(list(values), _span(span)))

    def break_stmt(self, span: Span | None = None) -> BreakStmt:
        return self._append(BreakStmt(_span(span)))

    def continue_stmt(self, span: Span | None = None) -> ContinueStmt:
        return self._append(ContinueStmt(_span(span)))

    def inline_stmt(self, body: str, language: InlineLanguage = InlineLanguage.Python,
                    span: Span | None = None) -> InlineStmt:
        return self._append(InlineStmt(body, language, _span(span)))

    def push_pending_leading_comments(self, comments: Iterable[str]) -> None:
        self._pending_comments = [*self._pending_comments, *comments]

    def pop_pending_leading_comments(self) -> list[str]:
        comments, self._pending_comments = self._pending_comments, []
        return comments

    # -- values ---------------------------------------------------------------------
    def var(self, name: str, type: Type, span: Span | None = None) -> Var:  # noqa: A002
        return Var(name, type, _span(span))

    def make_tuple(self, elements: Iterable[Expr], span: Span | None = None) -> MakeTuple:
        return MakeTuple(list(elements), _span(span))

    def tensor_type(self, shape: Iterable[Any], dtype: Any, memref: MemRef | None = None,
                    tensor_view: TensorView | None = None,
                    span: Span | None = None) -> TensorType:
        return TensorType(list(shape), dtype, memref, tensor_view)

    def tile_type(self, shape: Iterable[Any], dtype: Any, memref: MemRef | None = None,
                  tile_view: TileView | None = None, memory_space: Any = None,
                  span: Span | None = None) -> TileType:
        return TileType(list(shape), dtype, memref, tile_view, memory_space)

    def memref(self, memory_space_or_addr: Any, addr_or_size: Any, size_or_id: Any,
               id: int | None = None, span: Span | None = None) -> MemRef:  # noqa: A002
        """PyPTO's builder spellings ``memref(memory_space, addr, size, id)`` and
        ``memref(addr, size, id)`` (DDR), in the MemRef model: buffer ``id`` of a memory
        space is one ``pl.Ptr`` base per builder, named as PyPTO names them
        (``mem_vec_3``), and ``addr`` is the byte offset into it."""
        if id is None:
            space, addr, size, number = MemorySpace.DDR, memory_space_or_addr, addr_or_size, \
                size_or_id
        else:
            space, addr, size, number = memory_space_or_addr, addr_or_size, size_or_id, id
        space = MemorySpace(space)
        bases = self.__dict__.setdefault("_memref_bases", {})
        base = bases.get((space, number))
        if base is None:
            base = bases[(space, number)] = Var(f"mem_{space.name.lower()}_{number}",
                                                PtrType.get(), _span(span))
        return MemRef(base, addr, size, _span(span))

    def tensor_view(self, stride: Iterable[Any], layout: TensorLayout,
                    span: Span | None = None) -> TensorView:
        return TensorView(list(stride), layout)

    def tile_view(self, valid_shape: Iterable[Any], stride: Iterable[Any], start_offset: Any,
                  blayout: TileLayout = TileLayout.row_major,
                  slayout: TileLayout = TileLayout.none_box, fractal: int = 512,
                  pad: PadValue = PadValue.null, span: Span | None = None,
                  compact: CompactMode = CompactMode.null) -> TileView:
        return TileView(list(valid_shape), list(stride), start_offset, blayout, slayout,
                        fractal, pad, compact)

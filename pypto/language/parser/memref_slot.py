"""The ``pl.MemRef(base, byte_offset, size)`` slot of a ``pl.Tensor``/``pl.Tile`` annotation.

PyPTO's printed form, read as PyPTO reads it:

* ``base`` is a ``pl.Ptr`` variable in scope (``mem_vec_2``, defined by
  ``mem_vec_2: pl.Ptr = pl.tile.alloc(pl.Mem.Vec, 4096)``), or a buffer's name in a
  string (``"mem_ddr_0"``): one ``pl.Ptr`` variable per name and program
  (``interned_base_ptr``), so every annotation naming it shares the buffer;
* ``byte_offset`` is an integer expression (``pl.const(0, pl.INT64)``, ``i * 16``);
* ``size`` is the size in bytes, a constant; ``is_pinned=``, ``slots=``, ``slot=`` follow
  as keywords when they are not their defaults.

pypto's old ``pl.MemRef(memory_space, addr, size, id)`` is refused, as PyPTO refuses it,
with a ``ParserSyntaxError`` naming the new form.
"""

from __future__ import annotations

import ast
import inspect
from typing import Any

from ...ir import types as T
from ...ir.array_types import PtrType
from ...ir.enums import MemorySpace
from ...ir.expr import ConstInt, Var
from ...ir.memref import NEW_FORM
from ...ir.node import Expr
from .diagnostics import ParserSyntaxError, ParserTypeError

__all__ = ["memref_slot"]

_HINT = (f"Write {NEW_FORM}: the base a pl.Ptr variable (mem = pl.tile.alloc(pl.Mem.Vec, "
         "4096)) or a buffer's name in a string (\"mem_ddr_0\"), the byte offset, the size in "
         "bytes; a tile's memory space is its own slot (pl.Mem.Vec)")


def _signature(base: Any, byte_offset: Any, size: Any, *, is_pinned: Any = None,
               slots: Any = None, slot: Any = None) -> None:
    """The argument shape of the annotation form (bound, never called)."""


_SIGNATURE = inspect.signature(_signature)


def memref_slot(p: Any, node: ast.Call) -> T.MemRef:
    """The ``MemRef`` of the annotation call ``node``; ``p`` is the annotation context
    (a ``FunctionParser`` or a ``TypeResolver``)."""
    span = p.span(node)
    if any(isinstance(arg, ast.Starred) for arg in node.args) \
            or any(k.arg is None for k in node.keywords):
        raise ParserTypeError("Invalid MemRef: argument unpacking is not supported", span)
    if _old_form(p, node):
        raise ParserSyntaxError(f"'{ast.unparse(node)}' is the old MemRef form (memory_space, "
                                "addr, size, id), which PyPTO does not take", span, hint=_HINT)
    try:
        bound = _SIGNATURE.bind(*node.args, **{k.arg: k.value for k in node.keywords
                                               if k.arg is not None})
    except TypeError as exc:
        raise ParserTypeError(f"Invalid MemRef '{ast.unparse(node)}': {exc}", span,
                              hint=_HINT) from None
    args = bound.arguments
    base = _base(p, args["base"])
    offset = _offset(p, args["byte_offset"], "byte_offset")
    size = _constant(p, args["size"], int, "size")
    options: dict[str, Any] = {}
    if "is_pinned" in args:
        options["is_pinned"] = _constant(p, args["is_pinned"], bool, "is_pinned")
    if "slots" in args:
        options["slots"] = _constant(p, args["slots"], int, "slots")
    if "slot" in args:
        options["slot"] = _offset(p, args["slot"], "slot")
    try:
        return T.MemRef(base, offset, size, span, **options)
    except (TypeError, ValueError) as exc:
        raise ParserTypeError(f"Invalid MemRef '{ast.unparse(node)}': {exc}", span,
                              hint=_HINT) from None


def _old_form(p: Any, node: ast.Call) -> bool:
    """Four positional arguments, or a memory space first: ``MemRef(pl.Mem.Vec, 0, 64, 1)``."""
    if len(node.args) == 4:
        return True
    first = node.args[0] if node.args else None
    if not isinstance(first, ast.Attribute):
        return False
    try:
        return isinstance(p.closure.evaluate(first, p.span(first)), MemorySpace)
    except ParserTypeError:
        return False


def _base(p: Any, node: ast.expr) -> Var:
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return p.program.interned_base_ptr(node.value, p.span(node))
    if isinstance(node, ast.Name):
        value = p.read_name(node.id, node)
        if value is None:
            raise ParserTypeError(f"MemRef base '{node.id}' is not defined", p.span(node),
                                  hint="Define it first (mem = pl.tile.alloc(pl.Mem.Vec, "
                                       "size)), or name a buffer in a string "
                                       f"(\"{node.id}\")")
        if isinstance(value, Var) and isinstance(value.type, PtrType):
            return value
        what = value.type if isinstance(value, Expr) else type(value).__name__
        raise ParserTypeError(f"MemRef base '{node.id}' must be a pl.Ptr, got {what}",
                              p.span(node), hint=_HINT)
    raise ParserTypeError(f"MemRef base '{ast.unparse(node)}' must be a pl.Ptr variable or a "
                          "buffer's name in a string", p.span(node), hint=_HINT)


def _offset(p: Any, node: ast.expr, field: str) -> Any:
    """An integer expression (a literal stays an int: the MemRef types it)."""
    if isinstance(node, ast.Constant) and type(node.value) is int:
        return node.value
    value = p.parse_expr(node)
    if isinstance(value, int) and not isinstance(value, bool):
        return value
    if not isinstance(value, Expr) or not isinstance(value.type, T.ScalarType) \
            or not value.type.dtype.is_int():
        raise ParserTypeError(f"MemRef {field} '{ast.unparse(node)}' must be an integer "
                              "expression", p.span(node), hint=_HINT)
    return value


def _constant(p: Any, node: ast.expr, kind: type, field: str) -> Any:
    value = node.value if isinstance(node, ast.Constant) \
        else p.closure.evaluate(node, p.span(node))
    if isinstance(value, ConstInt) and kind is int:
        value = value.value
    if type(value) is not kind:
        raise ParserTypeError(f"MemRef {field} '{ast.unparse(node)}' must be a constant "
                              f"{kind.__name__}", p.span(node), hint=_HINT)
    return value

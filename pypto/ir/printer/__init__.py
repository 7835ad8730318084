"""The IR printer: IR -> canonical DSL text (02-ir.md §12).

``python_print`` accepts a Program, Function, Stmt, Expr or Type.  Its output is
the text form the parser reads back: for parser- and pass-produced IR,
``pl.parse(python_print(n))`` is structurally equal to ``n`` and prints the same.

Module map: ``spelling`` (leaf values), ``names`` (per-function naming),
``exprs`` (expressions, precedence, types), ``stmts`` (statements, scopes),
``functions`` (functions, programs, dependency order).
"""

from __future__ import annotations

from typing import Any, Callable

from ..depth import nesting_guard
from ..function import Function, Program
from ..node import Expr, GlobalVar, Op, Stmt
from ..types import MemRef, Type
from .exprs import ExprPrinter
from .functions import render_function, render_program
from .names import VarScan, assign_names
from .spelling import op_callee_text, shadow_reserved
from .stmts import StmtPrinter

__all__ = ["python_print", "python_print_type", "register_format_callback"]

_format_callback: Callable[[str], str] | None = None


def register_format_callback(callback: Callable[[str], str] | None) -> None:
    """Install (or, with ``None``, remove) the post-processor used when ``format=True``."""
    global _format_callback
    if callback is not None and not callable(callback):
        raise TypeError(f"register_format_callback expects a callable or None, "
                        f"got {type(callback).__name__}")
    _format_callback = callback


def python_print(node: Any, prefix: str = "pl", concise: bool = False,
                 format: bool = True,  # noqa: A002 - public keyword name
                 explicit_layout: bool = False) -> str:
    """DSL text of ``node``: 4-space indents, no trailing newline.

    ``prefix`` replaces ``pl`` everywhere; ``concise`` drops assignment and single
    yield-target annotations; ``format`` runs the registered format callback, if any;
    ``explicit_layout`` prints every field of tensor and tile views, defaults included
    (``pl.TileView(blayout=pl.TileLayout.row_major, ...)``), instead of only the ones
    that differ from the default.  Both forms read back to the same IR.
    """
    if not isinstance(prefix, str) or not prefix.isidentifier():
        raise ValueError(f"python_print: prefix must be a Python identifier, got {prefix!r}")
    with nesting_guard(node):
        text = _render(node, prefix, bool(concise), bool(explicit_layout))
    return _formatted(text, format)


def python_print_type(type: Type, prefix: str = "pl", format: bool = True,  # noqa: A002
                      explicit_layout: bool = False) -> str:
    """The DSL spelling of a type (``pl.Tensor[[16, 16], pl.FP32]``)."""
    if not isinstance(type, Type):
        raise TypeError(f"python_print_type expects an ir.Type, got {_type_name(type)}")
    return python_print(type, prefix, False, format, explicit_layout)


def _type_name(value: Any) -> str:
    return value.__class__.__name__


def _formatted(text: str, format: bool) -> str:  # noqa: A002
    callback = _format_callback
    if format and callback is not None:
        text = callback(text)
        if not isinstance(text, str):
            raise TypeError(f"python_print: the format callback returned "
                            f"{type(text).__name__}, expected str")
    return text


def _render(node: Any, prefix: str, concise: bool, explicit: bool) -> str:
    if isinstance(node, Program):
        return "\n".join(render_program(node, prefix, concise, explicit))
    if isinstance(node, Function):
        return "\n".join(render_function(node, prefix, concise, explicit))
    if isinstance(node, Stmt):
        scan = VarScan()
        scan.stmt(node)
        lines: list[str] = []
        StmtPrinter(_lone_printer(scan, prefix, explicit), concise, lines).stmt(node, 0)
        return "\n".join(lines)
    if isinstance(node, Expr):
        scan = VarScan()
        scan.expr(node)
        return _lone_printer(scan, prefix, explicit).expr(node)
    if isinstance(node, Type):
        return ExprPrinter(prefix, explicit_layout=explicit).type(node)
    if isinstance(node, GlobalVar):
        return node.name
    if isinstance(node, MemRef):
        out: list[str] = []
        ExprPrinter(prefix, explicit_layout=explicit)._memref(node, out)
        return "".join(out)
    if isinstance(node, Op):
        return op_callee_text(node.name, prefix)
    raise TypeError(f"python_print expects a Program, Function, Stmt, Expr, Type or MemRef, "
                    f"got {type(node).__name__}")


def _lone_printer(scan: VarScan, prefix: str, explicit: bool) -> ExprPrinter:
    """A statement or expression printed alone: plain de-duplicated names, no ``__FREE_VAR``."""
    names = assign_names(scan.ordered_vars(), shadow_reserved(prefix))
    return ExprPrinter(prefix, names, explicit_layout=explicit)

"""Calls of distributed programs: ``pld.<namespace>.<op>(...)``, the unified
``pld.<op>(...)`` and the ``device=`` keyword of ``self.kernel(..., device=r)``."""

from __future__ import annotations

import ast
from typing import TYPE_CHECKING

from ...errors import InternalError
from ...ir import types as T
from ...ir.node import Expr
from ._defects import raise_if_pypto_defect
from .diagnostics import InvalidOperationError, ParserError, ParserSyntaxError, ParserTypeError

if TYPE_CHECKING:
    from .function_parser import FunctionParser

__all__ = ["call_pld", "device_keyword"]


def call_pld(p: "FunctionParser", chain: list[str], node: ast.Call) -> Expr:
    """``pld.<namespace>.<op>(...)`` and the unified ``pld.<op>(...)``."""
    from . import calls
    if len(chain) == 3 and chain[1] in calls.PLD_NAMESPACES:
        return calls._call_namespaced(p, chain[1], chain[2], node, family="pld")
    from ..distributed.op import UNIFIED_OPS
    fn = UNIFIED_OPS.get(chain[1]) if len(chain) == 2 else None
    if fn is None:
        raise InvalidOperationError(f"Unknown operation '{'.'.join(chain)}'", p.span(node))
    args = [calls.parse_op_arg(p, a) for a in node.args]
    kwargs, attrs = calls._split_keywords(p, node)
    if attrs is not None:
        raise ParserSyntaxError(f"pld.{chain[1]}() does not take attrs=", p.span(node))
    try:
        return fn(*args, span=p.span(node), **kwargs)
    except (InternalError, AssertionError, ParserError):
        raise
    except Exception as exc:
        raise_if_pypto_defect(exc, p.span(node), f"pld.{chain[1]}(...)")
        raise calls._wrap_op_error(p, exc, chain[1], "pld", args, node) from None


def device_keyword(p: "FunctionParser", node: ast.Call) -> Expr | None:
    """``self.kernel(..., device=r)``: the rank the call runs on, an integer scalar."""
    for kw in node.keywords:
        if kw.arg == "device":
            device = p.parse_expr(kw.value)
            if not (isinstance(device, Expr) and isinstance(device.type, T.ScalarType)
                    and device.type.dtype.is_int()):
                raise ParserTypeError(f"device= must be an integer scalar (the rank), got "
                                      f"'{ast.unparse(kw.value)}'", p.span(kw.value))
            return device
    return None

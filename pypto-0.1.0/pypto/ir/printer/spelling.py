"""DSL spellings of the printer's leaf values: identifiers, strings, numbers, enums, dtypes.

Everything here is context-free text; the expression printer passes Exprs back in
through a callback when a kwargs/attrs value holds one.
"""

from __future__ import annotations

import enum
import keyword
import math
import unicodedata
from typing import Any, Callable

from ..dtype import DataType
from ..enums import ArgDirection, MemorySpace
from ..node import Expr
from ..types import Type

__all__ = ["sanitize_identifier", "shadow_reserved", "quote", "float_literal", "dtype_text",
           "enum_text", "op_callee_text", "value_text", "dict_text", "ValueContext"]

# Names a printed Var must not take: they would shadow what the printed text itself calls
# (`self.f`, `abs(x)`).  The prefix (`pl`) is added per print.
_SHADOWED = frozenset({"self", "abs"})

_ADIR = {
    ArgDirection.Input: "input", ArgDirection.Output: "output", ArgDirection.InOut: "inout",
    ArgDirection.OutputExisting: "output_existing", ArgDirection.NoDep: "no_dep",
    ArgDirection.Scalar: "scalar",
}


def sanitize_identifier(name: str, reserved: frozenset[str] | set[str] = frozenset()) -> str:
    """``name`` if it is a usable Python identifier, else a deterministic fix of it.

    Invalid characters become ``_``; a name that cannot start an identifier, is a
    keyword, or is in ``reserved`` gets a ``_`` prefix; an empty name becomes ``_v``.
    NFKC-normalised first, because Python folds identifiers that way when parsing.
    """
    if (name.isidentifier() and not keyword.iskeyword(name) and name not in reserved
            and (name.isascii() or unicodedata.normalize("NFKC", name) == name)):
        return name
    if not name:
        return "_v"
    text = unicodedata.normalize("NFKC", name)
    text = "".join(ch if ("_" + ch).isidentifier() else "_" for ch in text)
    if not text.isidentifier():
        text = "_" + text
    while keyword.iskeyword(text) or text in reserved:
        text = "_" + text
    return text


def shadow_reserved(prefix: str) -> frozenset[str]:
    """Names Vars must avoid when printing with ``prefix``."""
    return _SHADOWED | {prefix}


def quote(text: str, mark: str = "'") -> str:
    """A Python string literal of ``text`` delimited by ``mark`` (``'`` or ``"``)."""
    out = [mark]
    for ch in text:
        if ch == mark or ch == "\\":
            out.append("\\" + ch)
        elif ch == "\n":
            out.append("\\n")
        elif ch == "\t":
            out.append("\\t")
        elif ch == "\r":
            out.append("\\r")
        elif not ch.isprintable():
            code = ord(ch)
            out.append(f"\\x{code:02x}" if code < 0x100 else
                       f"\\u{code:04x}" if code < 0x10000 else f"\\U{code:08x}")
        else:
            out.append(ch)
    out.append(mark)
    return "".join(out)


def float_literal(value: float) -> str:
    """``%.17g`` text that reparses to exactly ``value`` (02-ir.md §12.5).

    ``.0`` is appended when the text has neither ``.`` nor an exponent, so it stays a
    float literal.  Infinities print as ``1e999`` (a literal that overflows to inf);
    NaN has no literal and prints as ``float("nan")``.
    """
    if math.isnan(value):
        return 'float("nan")'
    if math.isinf(value):
        return "1e999" if value > 0 else "-1e999"
    text = "%.17g" % value
    if "." not in text and "e" not in text:
        text += ".0"
    return text


def _kwarg_float(value: float) -> str:
    """kwargs/attrs floats use ``repr`` (shortest round-trip text)."""
    if math.isnan(value) or math.isinf(value):
        return float_literal(value)
    return repr(value)


def dtype_text(dtype: DataType, prefix: str) -> str:
    return f"{prefix}.{dtype.name}"


def enum_text(value: enum.Enum, prefix: str) -> str:
    """``pl.Level.HOST``, ``pl.Mem.Vec`` (MemorySpace), ``pl.adir.input`` (ArgDirection)."""
    if isinstance(value, ArgDirection):
        return f"{prefix}.adir.{_ADIR[ArgDirection(value)]}"
    if isinstance(value, MemorySpace):
        return f"{prefix}.Mem.{value.name}"
    if type(value).__name__ in _DISTRIBUTED_ENUMS:
        return f"pld.{type(value).__name__}.{value.name}"
    return f"{prefix}.{type(value).__name__}.{value.name}"


# The enums only ``pld`` exports (``pld.ReduceOp.Max``).
_DISTRIBUTED_ENUMS = frozenset({"NotifyOp", "ReduceOp", "WaitCmp"})


# Distributed ops and types print under ``pld`` (``import pypto.language.distributed as
# pld``) whatever the prefix of ``pypto.language`` is.
DISTRIBUTED_PREFIX = "pld"


def op_callee_text(op_name: str, prefix: str) -> str:
    """``pl.tensor.add``; a last component that is a Python keyword gets ``_``: ``pl.tile.and_``.
    Distributed ops are already spelled from their module: ``pld.tensor.window``."""
    head, dot, last = op_name.rpartition(".")
    if keyword.iskeyword(last):
        last += "_"
    if head.split(".", 1)[0] == DISTRIBUTED_PREFIX:
        return f"{head}{dot}{last}"
    return f"{prefix}.{head}{dot}{last}"


class ValueContext:
    """What ``value_text`` needs from the printer: the prefix and Expr/Type printers."""

    __slots__ = ("prefix", "expr", "type")

    def __init__(self, prefix: str, expr: Callable[[Expr], str],
                 type_: Callable[[Type], str]) -> None:
        self.prefix = prefix
        self.expr = expr
        self.type = type_


def value_text(value: Any, ctx: ValueContext, where: str) -> str:
    """DSL text of a kwargs / attrs value; ``where`` names the slot for error messages."""
    if value is None:
        return "None"
    if isinstance(value, bool):
        return "True" if value else "False"
    if isinstance(value, enum.Enum):
        return enum_text(value, ctx.prefix)
    if isinstance(value, int):
        return str(value)
    if isinstance(value, float):
        return _kwarg_float(value)
    if isinstance(value, str):
        return quote(value, "'")
    if isinstance(value, DataType):
        return dtype_text(value, ctx.prefix)
    if isinstance(value, Expr):
        return ctx.expr(value)
    if isinstance(value, Type):
        return ctx.type(value)
    if isinstance(value, (list, tuple)):
        return "[" + ", ".join(value_text(item, ctx, where) for item in value) + "]"
    if isinstance(value, dict):
        return dict_text(value, ctx, where)
    raise TypeError(f"python_print: cannot print {where} value of type "
                    f"{type(value).__name__}: {value!r}")


def dict_text(mapping: dict, ctx: ValueContext, where: str) -> str:
    """``{"key": value, ...}`` with double-quoted keys, in the mapping's order."""
    items = []
    for key, value in mapping.items():
        key_text = quote(key, '"') if isinstance(key, str) else value_text(key, ctx, where)
        items.append(f"{key_text}: {value_text(value, ctx, f'{where} {key!r}')}")
    return "{" + ", ".join(items) + "}"

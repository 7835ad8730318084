"""Syntactic reading of enum-valued arguments (``level=pl.Level.HOST``, ...).

Decorator keywords and ``pl.at`` arguments must be literal enum members: a
variable would hide the value from a reader of the source, and the same rule
lets ``pl.parse`` validate printed text before executing it.
"""

from __future__ import annotations

import ast
import enum
from typing import Any, Callable

from ...ir.enums import FunctionType, Level, Role, ScopeMode, SplitMode
from ...ir.span import Span
from .diagnostics import ParserSyntaxError

__all__ = ["read_enum", "read_bool", "read_identifier", "ENUM_KEYWORDS"]

# keyword -> (enum class, DSL spelling of the class)
ENUM_KEYWORDS: dict[str, tuple[type[enum.Enum], str]] = {
    "type": (FunctionType, "FunctionType"),
    "level": (Level, "Level"),
    "role": (Role, "Role"),
}
_DSL_NAMES: dict[type, str] = {FunctionType: "FunctionType", Level: "Level", Role: "Role",
                               ScopeMode: "ScopeMode", SplitMode: "SplitMode"}


def _valid_spellings(enum_cls: type[enum.Enum], dsl: str) -> str:
    return ", ".join(f"pl.{dsl}.{name}" for name in enum_cls.__members__)


def read_enum(node: ast.expr, enum_cls: type[enum.Enum], span_of: Callable[[ast.AST], Span],
              dsl: str | None = None) -> Any:
    """``pl.Level.HOST`` / ``Level.HOST`` -> ``Level.HOST``; anything else is an error."""
    dsl = dsl or _DSL_NAMES.get(enum_cls, enum_cls.__name__)
    if not (isinstance(node, ast.Attribute) and _is_enum_base(node.value, dsl)):
        raise ParserSyntaxError(
            f"Expected pl.{dsl}.<name>, got '{ast.unparse(node)}'", span_of(node),
            hint=f"Write the member literally, e.g. pl.{dsl}.{next(iter(enum_cls.__members__))}")
    name = node.attr
    member = enum_cls.__members__.get(name)
    if member is None and enum_cls is Role:
        member = next((m for m in Role if m.name.upper() == name), None)
    if member is None:
        raise ParserSyntaxError(f"Unknown {dsl} value: {name}", span_of(node),
                                hint=f"Valid values: {_valid_spellings(enum_cls, dsl)}")
    return member


def _is_enum_base(node: ast.expr, dsl: str) -> bool:
    if isinstance(node, ast.Name):
        return node.id == dsl
    return (isinstance(node, ast.Attribute) and node.attr == dsl
            and isinstance(node.value, ast.Name))


def read_bool(node: ast.expr, what: str, span_of: Callable[[ast.AST], Span]) -> bool:
    if isinstance(node, ast.Constant) and isinstance(node.value, bool):
        return node.value
    raise ParserSyntaxError(f"{what} must be True or False", span_of(node))


def read_identifier(node: ast.expr, what: str, span_of: Callable[[ast.AST], Span]) -> str:
    """A string literal that is a valid non-keyword identifier (scope names)."""
    import keyword
    if not (isinstance(node, ast.Constant) and isinstance(node.value, str)):
        raise ParserSyntaxError(f"{what} must be a string literal", span_of(node))
    text = node.value
    if not text.isidentifier() or keyword.iskeyword(text):
        raise ParserSyntaxError(f"{what} {text!r} must be a valid non-keyword identifier",
                                span_of(node))
    check_function_name(text, what, span_of(node))
    return text


def check_function_name(text: str, what: str, span: Span) -> None:
    """A name that becomes a function of the printed program must read back as itself:
    Python folds identifiers to NFKC (``"ﬁ"`` is read as ``fi``), and a method ``pl``
    would shadow the module every decorator of the printed class refers to."""
    import unicodedata
    normal = unicodedata.normalize("NFKC", text)
    if normal != text:
        raise ParserSyntaxError(f"{what} {text!r} is read by Python as {normal!r} (identifiers "
                                "are NFKC-normalised), so the printed program would rename it",
                                span, hint=f"Write {normal!r}")
    if text == "pl":
        raise ParserSyntaxError(f"{what} 'pl' would shadow the module `pl` in the printed "
                                "program (its methods are decorated with @pl.function)", span,
                                hint="Choose another name")

"""Enum spellings the parser reads from source (``type=pl.FunctionType.InCore``,
``level=pl.Level.HOST``, ``pl.split(pl.SplitMode.UP_DOWN)``, ``pl.ScopeMode.MANUAL``):
name -> value tables and one reader."""

from __future__ import annotations

from ... import ir  # noqa: F401 - PyPTO's module-level name of this path

import ast
from typing import Any, Mapping

from ...ir.enums import FunctionType, Level, Role, SplitMode
from .diagnostics import ParserSyntaxError
from .enum_args import _is_enum_base

__all__ = ["FUNCTION_TYPE_MAP", "LEVEL_MAP", "ROLE_MAP", "SPLIT_MODE_MAP", "extract_enum_value"]

FUNCTION_TYPE_MAP: dict[str, FunctionType] = dict(FunctionType.__members__)
LEVEL_MAP: dict[str, Level] = dict(Level.__members__)  # with the aliases (L2CACHE, POD, ...)
ROLE_MAP: dict[str, Role] = dict(Role.__members__)
SPLIT_MODE_MAP: dict[str, SplitMode] = dict(SplitMode.__members__)
# pl.ScopeMode member -> is the scope manual?
SCOPE_MODE_MAP: dict[str, bool] = {"AUTO": False, "MANUAL": True}


def extract_enum_value(value: ast.expr, enum_map: Mapping[str, Any], enum_name: str,
                       qualified: bool) -> Any:
    """The value ``enum_map`` gives the member spelled by ``value``.

    ``pl.<enum_name>.<member>`` and ``<enum_name>.<member>`` are always accepted; unless
    ``qualified``, so are a bare member name and a string constant.  Anything else, or a
    member the map does not have, is a ``ParserSyntaxError``.
    """
    name = None
    if isinstance(value, ast.Attribute) and _is_enum_base(value.value, enum_name):
        name = value.attr
    elif not qualified and isinstance(value, ast.Name):
        name = value.id
    elif not qualified and isinstance(value, ast.Constant) and isinstance(value.value, str):
        name = value.value
    valid = ", ".join(f"pl.{enum_name}.{member}" for member in enum_map)
    if name is None:
        raise ParserSyntaxError(f"Expected pl.{enum_name}.<name>, got '{ast.unparse(value)}'",
                                _span(value), hint=f"Valid values: {valid}")
    if name not in enum_map:
        raise ParserSyntaxError(f"Unknown {enum_name} value: {name}", _span(value),
                                hint=f"Valid values: {valid}")
    return enum_map[name]


def _span(node: ast.expr) -> Any:
    line = getattr(node, "lineno", None)
    return None if line is None else {"line": line, "column": node.col_offset + 1}

"""Small AST helpers shared by the specializer modules."""

from __future__ import annotations

import ast
from typing import TypeVar

__all__ = ["Node", "locate", "self_method"]

Node = TypeVar("Node", bound=ast.AST)


def locate(node: Node, anchor: ast.AST) -> Node:
    """Give a freshly built subtree the position of the user's node it stands for, so
    the source map sends anything reported on it back to that node."""
    for sub in ast.walk(node):
        if isinstance(sub, (ast.expr, ast.stmt, ast.keyword, ast.arg)):
            ast.copy_location(sub, anchor)
            sub.end_lineno = getattr(anchor, "end_lineno", None)
            sub.end_col_offset = getattr(anchor, "end_col_offset", None)
    return node


def self_method(name: str, anchor: ast.AST) -> ast.expr:
    """``self.<name>``, positioned at ``anchor``."""
    return locate(ast.Attribute(value=ast.Name(id="self", ctx=ast.Load()), attr=name,
                                ctx=ast.Load()), anchor)

"""Python's own parser, safe to call from several threads.

CPython before 3.11.9 / 3.12.1 (gh-106905) keeps the recursion counter of its syntax-
tree converter per interpreter, not per thread: two threads turning source into
``ast`` nodes at once (or ``ast`` nodes into code) can fail with ``SystemError: AST
constructor recursion depth mismatch``.  Every parse and every ``compile`` of a tree in
pypto goes through here, under one lock.  The lock guards no pypto state: it only keeps
those CPython calls from overlapping (they are short next to what pypto does with
the tree).
"""

from __future__ import annotations

import ast
import threading
from typing import Any

__all__ = ["parse", "compile_tree"]

_CONVERTER = threading.Lock()


def parse(source: str, filename: str = "<unknown>", mode: str = "exec") -> Any:
    """``ast.parse(source, filename, mode)``, one thread at a time."""
    with _CONVERTER:
        return ast.parse(source, filename, mode)


def compile_tree(tree: ast.Module | ast.Expression | ast.Interactive, filename: str,
                 mode: str) -> Any:
    """``compile(tree, filename, mode)`` of a syntax tree, one thread at a time.

    The code gets only the ``__future__`` features its own tree imports, never this
    module's (``annotations``): a user's module compiled here runs as Python runs it.
    """
    with _CONVERTER:
        return compile(tree, filename, mode, dont_inherit=True)

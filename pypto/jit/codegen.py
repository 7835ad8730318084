"""Write specialised functions as one ``@pl.program`` module's text
(``pypto.jit.specializer``, PyPTO's text-producing API).

Layout (01-language.md §17.3)::

    import pypto.language as pl
    M = pl.dynamic("M")              # one line per distinct dynamic dim
    @pl.program
    class _jit_<entry>:
        <dependency methods>
        <entry method last>

The user's full-line comments are written above the statements they preceded, so
the parser keeps them as leading comments exactly as for a hand-written program.
"""

from __future__ import annotations

import ast
from typing import Iterable, Sequence

from ..language.parser import pyast
from ..language.typing import DynVar

__all__ = ["program_class_name", "build_module", "attach_comments", "unparse_module"]


def program_class_name(entry_name: str) -> str:
    return f"_jit_{entry_name}"


def build_module(class_name: str, methods: Sequence[ast.FunctionDef],
                 dyn_vars: Iterable[DynVar]) -> ast.Module:
    header = ["import pypto.language as pl"]
    header += [f"{dyn.name} = pl.dynamic({dyn.name!r})" for dyn in dyn_vars]
    text = "\n".join(header) + f"\n\n@pl.program\nclass {class_name}:\n    pass\n"
    module = pyast.parse(text)
    module.body[-1].body = list(methods)
    return module


def attach_comments(function: ast.FunctionDef, comments: Sequence[tuple[int, str]],
                    into: dict[int, list[str]]) -> None:
    """Give each comment to the first statement after it (by original line), as the
    parser would; statements the specializer removed pass theirs on to the next."""
    if not comments:
        return
    statements = sorted((node for node in ast.walk(function)
                         if isinstance(node, ast.stmt) and node is not function
                         and getattr(node, "lineno", 0) > function.lineno),
                        key=lambda node: (node.lineno, node.col_offset))
    position = 0
    for line, text in comments:
        while position < len(statements) and statements[position].lineno <= line:
            position += 1
        if position == len(statements):
            return  # trailing comments have no statement to sit on
        previous = statements[position - 1] if position else None
        if previous is not None and not hasattr(previous, "body") \
                and (previous.end_lineno or previous.lineno) >= line:
            continue  # inside a multi-line statement: the parser drops those too
        into.setdefault(id(statements[position]), []).append(text)


_Unparser = getattr(ast, "_Unparser", None)  # private, but stable since Python 3.9

if _Unparser is not None:
    class _CommentingUnparser(_Unparser):  # type: ignore[misc, valid-type]
        def __init__(self, comments: dict[int, list[str]]) -> None:
            super().__init__()
            self._comments = comments

        def traverse(self, node: object) -> None:
            if isinstance(node, ast.stmt):
                for text in self._comments.get(id(node), ()):
                    self.fill(f"# {text}" if text else "#")
            super().traverse(node)


def unparse_module(module: ast.Module, comments: dict[int, list[str]]) -> str:
    if comments and _Unparser is not None:
        try:
            return _CommentingUnparser(comments).visit(module) + "\n"
        except (AttributeError, TypeError):  # a Python whose private unparser differs
            pass
    return ast.unparse(module) + "\n"

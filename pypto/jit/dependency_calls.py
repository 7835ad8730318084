"""The arguments of a call of a ``@pl.jit`` dependency, in the callee's parameter order.

``kern(a, b, out=c)`` and ``pl.submit(kern, a, b)`` are calls by name in the rewritten
body; the parser hands them to ``ProgramBuilder.resolve``, which orders the argument
ASTs here (positional first, then keywords by parameter name) before parsing them.
"""

from __future__ import annotations

import ast
from typing import Optional, cast

from ..language.parser.diagnostics import ParserSyntaxError, ParserTypeError
from ..language.parser.source import SourceInfo
from .analysis import FunctionFacts, user_error

__all__ = ["order_arguments"]


def order_arguments(info: SourceInfo, name: str, facts: FunctionFacts, args: list[ast.expr],
                    keywords: list[ast.keyword], call: ast.AST) -> list[ast.expr]:
    """The argument ASTs in ``facts``' parameter order; errors point at ``info``'s code."""
    count = len(facts.params)
    if any(isinstance(a, ast.Starred) for a in args) or any(k.arg is None for k in keywords):
        raise user_error(ParserSyntaxError, f"Calls of @pl.jit function '{name}' cannot "
                         "unpack arguments (*args / **kwargs)", info, call)
    slots: list[Optional[ast.expr]] = list(args) + [None] * max(0, count - len(args))
    for keyword in keywords:
        index = facts.param_index.get(cast(str, keyword.arg))  # (no ``**`` here: see above)
        if index is None:
            raise user_error(ParserTypeError, f"Function '{name}' has no parameter "
                             f"'{keyword.arg}'", info, keyword)
        if slots[index] is not None:
            raise user_error(ParserTypeError, f"Function '{name}' got multiple values for "
                             f"parameter '{keyword.arg}'", info, keyword)
        slots[index] = keyword.value
    if len(args) > count or any(slot is None for slot in slots):
        given = len(args) + len(keywords)
        raise user_error(ParserTypeError, f"Function '{name}' expects {count} argument(s), "
                         f"got {given}", info, call)
    return [slot for slot in slots if slot is not None]

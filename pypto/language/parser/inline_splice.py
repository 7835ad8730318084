"""``@pl.inline`` calls: the callee's body is parsed in place, in the caller's context.

Arguments are parsed in the caller, bound to the parameter names, and the body
is parsed with the inline function's own source (for spans) and closure (the
caller's closure wins on a clash).  ``return e`` records ``e`` as the value of
the call; names the body defines leak into the caller.
"""

from __future__ import annotations

import ast
from typing import TYPE_CHECKING, Any

from .diagnostics import ParserSyntaxError, ParserTypeError

if TYPE_CHECKING:
    from ..decorators import InlineFunction
    from .function_parser import FunctionParser

__all__ = ["splice_inline"]


def splice_inline(p: "FunctionParser", inline: "InlineFunction", node: ast.Call) -> Any:
    from .function_parser import InlineSplice
    span = p.span(node)
    if any(s.name == inline.name for s in p.inline_stack):
        chain = " -> ".join([s.name for s in p.inline_stack] + [inline.name])
        raise ParserSyntaxError(f"Recursive @pl.inline call: {chain}", span,
                                hint="@pl.inline bodies are spliced at parse time and cannot "
                                     "call themselves")
    if node.keywords:
        raise ParserSyntaxError(f"@pl.inline function '{inline.name}' takes positional "
                                "arguments only", span)
    if len(node.args) != len(inline.param_names):
        raise ParserTypeError(f"Function '{inline.name}' expects {len(inline.param_names)} "
                              f"argument(s), got {len(node.args)}", span)
    args = [p.parse_expr(a) for a in node.args]
    saved = (p.info, p.closure, p.fold_cache, p._comment_lines, p._comment_texts)
    frame = p.names.push(leaky=True)
    splice = InlineSplice(inline.name, block_depth=len(p.blocks))
    p.inline_stack.append(splice)
    try:
        for name, value in zip(inline.param_names, args):
            frame.names[name] = value
        p.info = inline.source
        p.closure = p.closure.with_inline(inline.closure_vars)
        p.fold_cache = {}
        p._comment_lines, p._comment_texts = inline.source.full_line_comments()
        body = inline.func_def.body
        previous_end = inline.func_def.lineno
        for stmt in body:
            if splice.returned:
                raise ParserSyntaxError(f"Code after 'return' in @pl.inline function "
                                        f"'{inline.name}'", p.span(stmt))
            p._collect_comments(previous_end, stmt.lineno)
            p.parse_stmt(stmt)
            previous_end = stmt.end_lineno or stmt.lineno
    finally:
        p.inline_stack.pop()
        p.names.pop()
        p.info, p.closure, p.fold_cache, p._comment_lines, p._comment_texts = saved
    if splice.value is None and p.void_call is not node:
        raise ParserSyntaxError(f"@pl.inline function '{inline.name}' has no return value, but "
                                "its value is used", span,
                                hint=f"End '{inline.name}' with `return <value>` or call it as a "
                                     "statement")
    return splice.value

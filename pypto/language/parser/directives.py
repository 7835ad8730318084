"""Directives: ``pl.func_attr``, ``pl.static_print``, ``pl.static_assert`` (no IR emitted)."""

from __future__ import annotations

import ast
import enum
import sys
from typing import TYPE_CHECKING, Any, Callable, cast

from ...ir.dtype import DataType
from ...ir.enums import ArgDirection, SplitMode
from ...ir.node import Expr
from .annotations import attr_chain
from .closure import MISSING
from .diagnostics import ParserSyntaxError

if TYPE_CHECKING:
    from .function_parser import FunctionParser

__all__ = ["STATEMENT_DIRECTIVES", "directive_name", "is_func_attr", "parse_func_attr"]


def directive_name(call: ast.Call) -> str | None:
    chain = attr_chain(call.func)
    if chain is not None and len(chain) == 2 and chain[0] == "pl" \
            and chain[1] in STATEMENT_DIRECTIVES:
        return chain[1]
    return None


def is_func_attr(node: ast.stmt) -> bool:
    return (isinstance(node, ast.Expr) and isinstance(node.value, ast.Call)
            and directive_name(node.value) == "func_attr")


def _literal(p: "FunctionParser", node: ast.expr, key: str) -> Any:
    """A func_attr value: a literal, an enum / dtype member, or a list (PyPTO's kinds)."""
    if isinstance(node, ast.Constant):
        return node.value
    if isinstance(node, (ast.List, ast.Tuple)):
        return _list(p, node, key)
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.USub) \
            and isinstance(node.operand, ast.Constant) \
            and isinstance(node.operand.value, (int, float)):  # ``-"s"`` is refused below
        return -node.operand.value
    chain = attr_chain(node)
    if chain is not None and p.closure.lookup(chain[0]) is not MISSING:
        value = p.closure.evaluate(node, p.span(node))
        if isinstance(value, (enum.Enum, DataType, bool, int, float, str)):
            return value
    raise ParserSyntaxError(f"pl.func_attr values must be literals or enum members, got "
                            f"'{ast.unparse(node)}'", p.span(node))


def _list(p: "FunctionParser", node: ast.List | ast.Tuple, key: str) -> list:
    """As in PyPTO, a list holds one kind of item: ints or ``pl.adir.<name>`` directions.
    (PyPTO's third kind, DSL variables, is refused: no pass renames a function's
    attributes with its parameters, so they would dangle after ConvertToSSA.)"""
    items: list[Any] = []
    for item in node.elts:
        if isinstance(item, ast.Name) and p.is_dsl_name(item.id):
            raise ParserSyntaxError(
                f"attrs['{key}'] on call to 'pl.func_attr': '{item.id}' is a DSL variable; "
                "function attributes hold constants (ints or pl.adir.<name>)", p.span(item))
        if isinstance(item, (ast.List, ast.Tuple)):
            items.append(item)  # a nested list is no kind PyPTO accepts
        else:
            items.append(_literal(p, item, key))
    kinds = {"adir" if isinstance(v, ArgDirection) else "int" if type(v) is int else "other"
             for v in items}
    if len(kinds) > 1 or "other" in kinds:
        raise ParserSyntaxError(
            f"attrs['{key}'] on call to 'pl.func_attr': list elements are mixed or of an "
            "unsupported kind (expected all ints, all pl.adir.<name>, or all names)",
            p.span(node))
    return items


def parse_func_attr(p: "FunctionParser", node: ast.stmt) -> None:
    call = cast(ast.Call, cast(ast.Expr, node).value)  # (is_func_attr(node) holds)
    if len(call.args) != 1 or call.keywords or not isinstance(call.args[0], ast.Dict):
        raise ParserSyntaxError('pl.func_attr takes one dict literal: pl.func_attr({"key": value})',
                                p.span(call))
    for key, value in zip(call.args[0].keys, call.args[0].values):
        if not (isinstance(key, ast.Constant) and isinstance(key.value, str)):
            raise ParserSyntaxError("pl.func_attr keys must be string literals",
                                    p.span(key if key is not None else call))
        parsed = _literal(p, value, key.value)
        if key.value == "split":
            parsed = SplitMode(parsed)
        p.func_attrs[key.value] = parsed


def _func_attr_misplaced(p: "FunctionParser", call: ast.Call) -> None:
    raise ParserSyntaxError("pl.func_attr(...) is only allowed as a leading statement of a "
                            "function body (after the docstring)", p.span(call))


def _static_print(p: "FunctionParser", call: ast.Call) -> None:
    """Print each argument's IR and type at parse time."""
    from ...ir.printer import python_print
    location = p.span(call)
    for arg in call.args:
        if isinstance(arg, ast.Constant) and isinstance(arg.value, str):
            print(f"static_print {location}: {arg.value}", file=sys.stdout)
            continue
        value = p.parse_expr(arg)
        text = python_print(value) if isinstance(value, Expr) else repr(value)
        type_text = python_print(value.type) if isinstance(value, Expr) else type(value).__name__
        print(f"static_print {location}: {ast.unparse(arg)} = {text} : {type_text}",
              file=sys.stdout)


def _static_assert(p: "FunctionParser", call: ast.Call) -> None:
    span = p.span(call)
    if not 1 <= len(call.args) <= 2 or call.keywords:
        raise ParserSyntaxError('pl.static_assert takes (condition, "message")', span)
    message = ""
    if len(call.args) == 2:
        msg_node = call.args[1]
        if not (isinstance(msg_node, ast.Constant) and isinstance(msg_node.value, str)):
            raise ParserSyntaxError("pl.static_assert message must be a string literal",
                                    p.span(msg_node))
        message = msg_node.value
    cond = call.args[0]
    bound = [n.id for n in ast.walk(cond) if isinstance(n, ast.Name) and p.is_dsl_name(n.id)]
    if bound:
        raise ParserSyntaxError(
            f"pl.static_assert condition must be known at parse time, but it uses the DSL "
            f"variable '{bound[0]}'", p.span(cond))
    value = p.closure.evaluate(cond, p.span(cond))
    if not value:
        raise ParserSyntaxError(f"static_assert failed: {message}" if message
                                else f"static_assert failed: {ast.unparse(cond)}", span)


def _cond_misplaced(p: "FunctionParser", call: ast.Call) -> None:
    raise ParserSyntaxError("pl.cond(...) is only allowed as the first statement of a "
                            "pl.while_ loop body", p.span(call))


STATEMENT_DIRECTIVES: dict[str, Callable[["FunctionParser", ast.Call], None]] = {
    "func_attr": _func_attr_misplaced,
    "static_print": _static_print,
    "static_assert": _static_assert,
    "cond": _cond_misplaced,
}

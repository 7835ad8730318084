"""``ASTParser``'s per-construct entries (PyPTO's ``parse_statement``,
``parse_expression``, ``parse_call`` ...): one Python AST node parsed into IR outside a
whole-function parse.

The entries share one *statement session* per parser: a function body with nothing
declared yet, whose names are those bound by ``define_var`` and by the statements
parsed so far (``x = pl.add(a, b)`` binds ``x`` for what follows), resolving the
rest in the parser's ``closure_vars``.  Statement entries append their IR to the
session's body (``parsed_statements()``); expression entries return the IR.  Every
entry checks its node's kind (``TypeError`` for a wrong one, as for any wrong
argument); what the DSL does not allow is a ``ParserError`` with the node's span, and
a failure inside an op builder is wrapped as one, as in a function parse.  AST line
numbers index the parser's ``source_lines`` (``line_offset`` / ``col_offset`` shift
them), so spans point into the source the nodes were parsed from.
"""

from __future__ import annotations

import ast
from typing import TYPE_CHECKING, Any, Callable

from ...errors import InternalError
from ...ir.expr import MakeTuple
from ...ir.node import Expr, Stmt
from ...ir.stmt import YieldStmt
from ...ir.utils import flatten_to_stmts
from ._defects import raise_if_pypto_defect
from .closure import Closure
from .diagnostics import (InvalidOperationError, ParserError, ParserSyntaxError,
                          concise_error_message)
from .function_parser import FunctionOptions, FunctionParser

if TYPE_CHECKING:
    from .context import ProgramContext
    from .source import SourceInfo

__all__ = ["ASTParserEntries"]

SESSION_NAME = "<statements>"


class ASTParserEntries:
    """Mixed into ``ASTParser`` (which provides ``info``, ``closure_vars``, ``context``
    and ``strict_ssa``); see the module docstring."""

    info: "SourceInfo"
    closure_vars: dict
    context: "ProgramContext"
    strict_ssa: bool
    _statement_session: FunctionParser | None = None

    # -- the session -----------------------------------------------------------------
    def _session(self) -> FunctionParser:
        session = self._statement_session
        if session is None:
            options = FunctionOptions(strict_ssa=self.strict_ssa)
            session = FunctionParser(self.info, Closure(self.closure_vars), self.context,
                                     options)
            session.func_name = SESSION_NAME
            session.blocks.append([])  # the session's body, open for its lifetime
            self._statement_session = session
        return session

    def define_var(self, name: str, value: Any) -> None:
        """Bind the DSL name ``name`` to ``value`` (an IR ``Var`` or expression) for the
        statements and expressions parsed after."""
        if not isinstance(name, str) or not name.isidentifier():
            raise TypeError(f"define_var expects a Python identifier, got {name!r}")
        if not isinstance(value, Expr):
            raise TypeError(f"define_var expects an IR expression, got {type(value).__name__}")
        self._session().names.bind_new(name, value, value.span)

    def parsed_statements(self) -> list[Stmt]:
        """The IR statements the statement entries produced, in order."""
        session = self._statement_session
        out: list[Stmt] = []
        for stmt in session.blocks[0] if session is not None else []:
            out.extend(flatten_to_stmts(stmt))
        return out

    # -- running one entry ---------------------------------------------------------------
    def _run(self, node: ast.AST, kinds: type | tuple[type, ...], entry: str,
             parse: Callable[[FunctionParser], Any]) -> Any:
        if not isinstance(node, kinds):
            names = " or ".join(k.__name__ for k in (kinds if isinstance(kinds, tuple)
                                                      else (kinds,)))
            raise TypeError(f"ASTParser.{entry} expects an ast.{names} node, got "
                            f"{type(node).__name__}")
        session = self._session()
        state, outer = session._snapshot(), session.current_node
        session.current_node = node
        try:
            result = parse(session)
        except (InternalError, AssertionError, RecursionError):
            raise
        except ParserError:
            session._restore(state)  # what the failed entry left half-done goes
            raise
        except Exception as exc:  # noqa: BLE001 - an op builder's error, given a span
            where = session.span(session.current_node or node)
            session._restore(state)
            raise_if_pypto_defect(exc, where, f"ASTParser.{entry}")
            raise ParserSyntaxError(f"Failed to parse {entry}: {concise_error_message(exc)}",
                                    where) from exc
        session.current_node = outer
        return result

    def _statement(self, stmt: ast.AST, kinds: type | tuple[type, ...], entry: str) -> None:
        self._run(stmt, kinds, entry, lambda s: s.parse_stmt(stmt))  # type: ignore[arg-type]

    def _expression(self, expr: ast.AST, kinds: type | tuple[type, ...], entry: str) -> Any:
        return self._run(expr, kinds, entry, lambda s: s.parse_expr(expr))  # type: ignore

    # -- statements ---------------------------------------------------------------------
    def parse_statement(self, stmt: ast.stmt) -> None:
        """Any DSL statement."""
        self._statement(stmt, ast.stmt, "parse_statement")

    def parse_assignment(self, stmt: ast.Assign) -> None:
        """``x = e``, ``a, b = e``, ``t[i] = e``, ``x = pl.yield_(...)``."""
        self._statement(stmt, ast.Assign, "parse_assignment")

    def parse_annotated_assignment(self, stmt: ast.AnnAssign) -> None:
        """``x: pl.Tensor[[16], pl.FP32] = e`` (the annotation is checked)."""
        self._statement(stmt, ast.AnnAssign, "parse_annotated_assignment")

    def parse_evaluation_statement(self, stmt: ast.Expr) -> None:
        """An expression statement: a void op call, ``pl.yield_(...)``, a directive."""
        self._statement(stmt, ast.Expr, "parse_evaluation_statement")

    def parse_return(self, stmt: ast.Return) -> None:
        self._statement(stmt, ast.Return, "parse_return")

    def parse_break(self, stmt: ast.Break) -> None:
        """``break`` (a ``ParserError`` outside a loop)."""
        self._statement(stmt, ast.Break, "parse_break")

    def parse_continue(self, stmt: ast.Continue) -> None:
        """``continue`` (a ``ParserError`` outside a loop)."""
        self._statement(stmt, ast.Continue, "parse_continue")

    def parse_for_loop(self, stmt: ast.For) -> None:
        """``for i in pl.range(...)`` and the other DSL loops, body included."""
        self._statement(stmt, ast.For, "parse_for_loop")

    def parse_while_loop(self, stmt: ast.While) -> None:
        self._statement(stmt, ast.While, "parse_while_loop")

    def parse_if_statement(self, stmt: ast.If) -> None:
        self._statement(stmt, ast.If, "parse_if_statement")

    def parse_with_statement(self, stmt: ast.With) -> None:
        """``with pl.at(...)``, ``with pl.cluster()`` ... and their bodies."""
        self._statement(stmt, ast.With, "parse_with_statement")

    def parse_yield_assignment(self, target: ast.expr, value: ast.Call) -> None:
        """``target = value`` where ``value`` is the ``pl.yield_(...)`` call."""
        from .statements import is_yield_call
        if not is_yield_call(value):
            raise TypeError("ASTParser.parse_yield_assignment expects a pl.yield_(...) "
                            f"call, got {type(value).__name__}")
        if not isinstance(target, ast.expr):
            raise TypeError(f"ASTParser.parse_yield_assignment expects an assignment "
                            f"target, got {type(target).__name__}")
        assign = ast.Assign(targets=[target], value=value)
        ast.copy_location(assign, target)
        assign.end_lineno, assign.end_col_offset = value.end_lineno, value.end_col_offset
        self._statement(assign, ast.Assign, "parse_yield_assignment")

    def parse_yield_call(self, call: ast.Call) -> Expr:
        """``pl.yield_(...)`` as a statement of the innermost loop or if body; returns the
        yielded value (a ``MakeTuple`` of several)."""
        from .statements import is_yield_call
        if not is_yield_call(call):
            raise TypeError("ASTParser.parse_yield_call expects a pl.yield_(...) call")
        stmt = ast.Expr(value=call)
        ast.copy_location(stmt, call)
        self._statement(stmt, ast.Expr, "parse_yield_call")
        yielded = self._session().blocks[-1][-1]
        if not isinstance(yielded, YieldStmt):
            raise InternalError("parse_yield_call: the yield left no YieldStmt")
        values = list(yielded.value)
        return values[0] if len(values) == 1 else MakeTuple(values, yielded.span)

    # -- expressions ----------------------------------------------------------------------
    def parse_expression(self, expr: ast.expr) -> Expr:
        """Any DSL expression."""
        return self._expression(expr, ast.expr, "parse_expression")

    def parse_name(self, name: ast.Name) -> Expr:
        """A DSL variable, or a closure value usable as one (a number, a ``DynVar`` ...)."""
        return self._expression(name, ast.Name, "parse_name")

    def parse_constant(self, const: ast.Constant) -> Expr:
        return self._expression(const, ast.Constant, "parse_constant")

    def parse_binop(self, binop: ast.BinOp) -> Expr:
        return self._expression(binop, ast.BinOp, "parse_binop")

    def parse_unaryop(self, unary: ast.UnaryOp) -> Expr:
        return self._expression(unary, ast.UnaryOp, "parse_unaryop")

    def parse_boolop(self, boolop: ast.BoolOp) -> Expr:
        return self._expression(boolop, ast.BoolOp, "parse_boolop")

    def parse_compare(self, compare: ast.Compare) -> Expr:
        return self._expression(compare, ast.Compare, "parse_compare")

    def parse_attribute(self, attr: ast.Attribute) -> Expr:
        """``x.shape``, ``pl.FP32`` ... read as an expression."""
        return self._expression(attr, ast.Attribute, "parse_attribute")

    def parse_subscript(self, subscript: ast.Subscript) -> Expr:
        """``t[i]``, ``t[a:b, c]``, ``x.shape[0]``."""
        return self._expression(subscript, ast.Subscript, "parse_subscript")

    def parse_call(self, call: ast.Call) -> Expr:
        """Any call a DSL body may make: ``pl.*`` ops, ``self.f(...)``, functions."""
        return self._expression(call, ast.Call, "parse_call")

    def parse_op_call(self, call: ast.Call) -> Expr:
        """A call of a ``pl.*`` op (``pl.add(a, b)``, ``pl.tile.load(...)``): the callee
        must be a dotted name."""
        if isinstance(call, ast.Call) and not isinstance(call.func, ast.Attribute):
            raise InvalidOperationError("parse_op_call expects a call of a pl.* op "
                                        f"(a dotted callee), got {ast.unparse(call.func)!r}",
                                        self._session().span(call))
        return self._expression(call, ast.Call, "parse_op_call")

    def parse_list(self, list_node: ast.List) -> MakeTuple:
        """``[a, b]`` as a ``MakeTuple``."""
        return self._expression(list_node, ast.List, "parse_list")

    def parse_tuple_literal(self, tuple_node: ast.Tuple) -> MakeTuple:
        """``(a, b)`` as a ``MakeTuple``."""
        return self._expression(tuple_node, ast.Tuple, "parse_tuple_literal")

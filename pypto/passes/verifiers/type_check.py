"""TypeChecked verifier (rule ``TypeCheck``).

If/while conditions are Bool scalars; for bounds are scalars; yield values match
the iter_args (loops) or return vars (ifs) in kind, dtype and shape; a call of a
program function passes as many arguments as the callee has params.

``UnknownType`` is accepted everywhere: it is "not deduced", not "wrong".
INDEX and INT64 are interchangeable here, as builder promotion may pick either.
"""

from __future__ import annotations

from ...ir import expr as E
from ...ir import stmt as St
from ...ir.dtype import DataType
from ...ir.function import Program
from ...ir.node import Expr, GlobalVar, Stmt
from ...ir.structural import structural_equal
from ...ir.types import ScalarType, ShapedType, TupleType, Type, UnknownType
from ..diagnostic import Diagnostic
from .checks import CheckVerifier, StmtCheck
from .walk import error, trailing_yield

__all__ = ["TypeCheckVerifier", "type_mismatch"]

RULE = "TypeCheck"
_INT64_LIKE = (DataType.INDEX, DataType.INT64)


def _kind(t: Type) -> str:
    return type(t).__name__.replace("Type", "") or "Type"


def _same_dtype(a: DataType, b: DataType) -> bool:
    return a == b or (a in _INT64_LIKE and b in _INT64_LIKE)


def _dim_text(dim: Expr) -> str:
    if isinstance(dim, E.ConstInt):
        return str(dim.value)
    if isinstance(dim, E.Var):
        return dim.name_hint
    return type(dim).__name__


def _shape_text(t: ShapedType) -> str:
    return "[" + ", ".join(_dim_text(d) for d in t.shape) + "]"


def type_mismatch(actual: Type, expected: Type) -> str | None:
    """Why ``actual`` does not match ``expected`` in kind, dtype or shape (``None`` if it does)."""
    if isinstance(actual, UnknownType) or isinstance(expected, UnknownType):
        return None
    if type(actual) is not type(expected):
        return f"kind {_kind(actual)} != {_kind(expected)}"
    if isinstance(actual, ScalarType):
        if not _same_dtype(actual.dtype, expected.dtype):
            return f"dtype {actual.dtype.to_string()} != {expected.dtype.to_string()}"
        return None
    if isinstance(actual, ShapedType):
        if not _same_dtype(actual.dtype, expected.dtype):
            return f"dtype {actual.dtype.to_string()} != {expected.dtype.to_string()}"
        if len(actual.shape) != len(expected.shape) or not all(
                structural_equal(a, b) for a, b in zip(actual.shape, expected.shape)):
            return f"shape {_shape_text(actual)} != {_shape_text(expected)}"
        return None
    if isinstance(actual, TupleType):
        if len(actual.types) != len(expected.types):
            return f"tuple size {len(actual.types)} != {len(expected.types)}"
        for index, (a, b) in enumerate(zip(actual.types, expected.types)):
            reason = type_mismatch(a, b)
            if reason is not None:
                return f"tuple element {index}: {reason}"
    return None


class _TypeCheck(StmtCheck):
    function_calls_only = True  # on_call looks at GlobalVar ops only

    def __init__(self, program: Program, diagnostics: list[Diagnostic]) -> None:
        super().__init__(program, diagnostics)
        self.stmt_hooks = {St.IfStmt: self.check_if, St.WhileStmt: self.check_while,
                           St.ForStmt: self.check_for}

    def report(self, message: str, stmt: Stmt) -> None:
        self.diagnostics.append(error(RULE, 0, message, stmt.span))

    def check_if(self, stmt: St.IfStmt, loop: Stmt | None) -> None:  # type: ignore[override]
        self.check_condition(stmt.condition, "IfStmt", stmt)
        for branch in (stmt.then_body, stmt.else_body):
            self.check_yield(branch, stmt.return_vars, "return var", "IfStmt")

    def check_while(self, stmt: St.WhileStmt, loop: Stmt | None) -> None:  # type: ignore[override]
        self.check_condition(stmt.condition, "WhileStmt", stmt)
        self.check_yield(stmt.body, stmt.iter_args, "iter_arg", "WhileStmt")

    def check_for(self, stmt: St.ForStmt, loop: Stmt | None) -> None:  # type: ignore[override]
        for field in ("start", "stop", "step"):
            bound_type = getattr(stmt, field).type
            if not isinstance(bound_type, (ScalarType, UnknownType)):
                self.report(f"ForStmt {field} must be a scalar, got {_kind(bound_type)}", stmt)
        self.check_yield(stmt.body, stmt.iter_args, "iter_arg", "ForStmt")

    def on_call(self, call: Expr, stmt: Stmt) -> None:  # type: ignore[override]
        if isinstance(call.op, GlobalVar):
            self.check_arity(call, stmt)  # type: ignore[arg-type]

    def check_condition(self, condition: Expr, owner: str, stmt: Stmt) -> None:
        t = condition.type
        if isinstance(t, UnknownType):
            return
        if not isinstance(t, ScalarType) or t.dtype != DataType.BOOL:
            got = t.dtype.to_string() if isinstance(t, ScalarType) else _kind(t)
            self.report(f"{owner} condition must be a Bool scalar, got {got}", stmt)

    def check_yield(self, body: Stmt | None, targets: tuple, target_kind: str,
                    owner: str) -> None:
        found = trailing_yield(body)
        if found is None:
            return
        for index, (value, target) in enumerate(zip(found.value, targets)):
            reason = type_mismatch(value.type, target.type)
            if reason is not None:
                self.report(f"Yield value {index} does not match {target_kind} "
                            f"'{target.name_hint}' of {owner}: {reason}", found)

    def check_arity(self, call: E.Call | E.Submit, stmt: Stmt) -> None:
        callee = self.program.get_function(call.op.name)
        if callee is None:
            return
        n_args, n_params = len(call.args), len(callee.params)
        # A Submit's args bind a prefix of the callee's params.
        if n_args == n_params or (isinstance(call, E.Submit) and n_args < n_params):
            return
        self.report(f"Call to '{callee.name}' passes {n_args} argument(s) but the function "
                    f"takes {n_params} parameter(s)", stmt)


class TypeCheckVerifier(CheckVerifier):
    rule_name = RULE

    def make_check(self, program: Program, diagnostics: list[Diagnostic]) -> StmtCheck:
        return _TypeCheck(program, diagnostics)

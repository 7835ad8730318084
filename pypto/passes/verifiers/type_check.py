"""TypeChecked verifier (rule ``TypeCheck``).

If/while conditions are Bool scalars; an assigned value has the kind of its Var; for bounds are scalars; yield values match
the iter_args (loops) or return vars (ifs) in kind, dtype and shape; an op call
passes as many operands as the op takes; a call of a
program function passes as many arguments as the callee has params, each fitting
its param, and a return fits the function's declared return types (the rules of
``ir.type_match``: static dims must agree, dynamic dims bind per call).

``UnknownType`` is accepted everywhere: it is "not deduced", not "wrong".
INDEX and INT64 are interchangeable here, as builder promotion may pick either.
"""

from __future__ import annotations

import enum

from ..._core_enum import CoreEnumRepr
from ...ir import expr as E
from ...ir import stmt as St
from ...ir.dtype import DataType
from ...ir.function import Function, Program
from ...ir.node import Expr, GlobalVar, Stmt
from ...ir.ops.registry import OpDef
from ...ir.type_match import call_mismatch, kind_name as _kind, return_mismatch, type_mismatch
from ...ir.types import ScalarType, ShapedType, TileType, TupleType, Type, UnknownType
from ..diagnostic import Diagnostic
from .checks import CheckVerifier, StmtCheck
from .walk import error, trailing_yield

__all__ = ["TypeCheckVerifier", "TypeCheckErrorType", "type_mismatch"]

RULE = "TypeCheck"


class TypeCheckErrorType(CoreEnumRepr, enum.IntEnum):
    """PyPTO's error codes of the TypeCheck rule (the diagnostics' ``error_code``)."""

    TYPE_KIND_MISMATCH = 101
    DTYPE_MISMATCH = 102
    SHAPE_DIMENSION_MISMATCH = 103
    SHAPE_VALUE_MISMATCH = 104
    SIZE_MISMATCH = 105
    IF_CONDITION_MUST_BE_SCALAR = 106
    FOR_RANGE_MUST_BE_SCALAR = 107
    CONDITION_MUST_BE_BOOL = 108
    TENSOR_PADDING_MISMATCH = 109
    DISTRIBUTED_WINDOW_IDENTITY_MISMATCH = 110
    TILE_VIEW_MISMATCH = 111


def _mismatch_code(got: Type, expected: Type) -> TypeCheckErrorType:
    """Which kind of difference between two types a mismatch is."""
    codes = TypeCheckErrorType
    if type(got) is not type(expected):
        return codes.TYPE_KIND_MISMATCH
    if getattr(got, "dtype", None) != getattr(expected, "dtype", None):
        return codes.DTYPE_MISMATCH
    if isinstance(got, ShapedType) and isinstance(expected, ShapedType):
        if len(got.shape) != len(expected.shape):
            return codes.SHAPE_DIMENSION_MISMATCH
        if isinstance(got, TileType) and isinstance(expected, TileType) and \
                got.tile_view != expected.tile_view:
            return codes.TILE_VIEW_MISMATCH
        return codes.SHAPE_VALUE_MISMATCH
    if isinstance(got, TupleType) and isinstance(expected, TupleType) \
            and len(got.types) != len(expected.types):
        return codes.SIZE_MISMATCH
    return codes.TYPE_KIND_MISMATCH


class _TypeCheck(StmtCheck):

    def __init__(self, program: Program, diagnostics: list[Diagnostic]) -> None:
        super().__init__(program, diagnostics)
        self.stmt_hooks = {St.IfStmt: self.check_if, St.WhileStmt: self.check_while,
                           St.ForStmt: self.check_for, St.ReturnStmt: self.check_return,
                           St.AssignStmt: self.check_assign}

    def report(self, message: str, stmt: Stmt, code: TypeCheckErrorType) -> None:
        self.diagnostics.append(error(RULE, int(code), message, stmt.span))

    def check_if(self, stmt: St.IfStmt, loop: Stmt | None) -> None:
        self.check_condition(stmt.condition, "IfStmt", stmt)
        for branch in (stmt.then_body, stmt.else_body):
            self.check_yield(branch, stmt.return_vars, "return var", "IfStmt")

    def check_while(self, stmt: St.WhileStmt, loop: Stmt | None) -> None:
        self.check_condition(stmt.condition, "WhileStmt", stmt)
        self.check_yield(stmt.body, stmt.iter_args, "iter_arg", "WhileStmt")

    def check_for(self, stmt: St.ForStmt, loop: Stmt | None) -> None:
        for field in ("start", "stop", "step"):
            bound_type = getattr(stmt, field).type
            if not isinstance(bound_type, (ScalarType, UnknownType)):
                self.report(f"ForStmt {field} must be a scalar, got {_kind(bound_type)}", stmt,
                            TypeCheckErrorType.FOR_RANGE_MUST_BE_SCALAR)
        self.check_yield(stmt.body, stmt.iter_args, "iter_arg", "ForStmt")

    def check_assign(self, stmt: St.AssignStmt, loop: Stmt | None) -> None:
        """A Var holds values of its own kind: a Tensor var is never assigned a scalar
        (dtype and shape may differ in ways the passes settle; the kind never does)."""
        var_type, value_type = stmt.var.type, stmt.value.type
        if isinstance(var_type, UnknownType) or isinstance(value_type, UnknownType):
            return
        if type(var_type) is not type(value_type):
            self.report(f"Variable '{stmt.var.name_hint}' of type {_kind(var_type)} is "
                        f"assigned a {_kind(value_type)} value", stmt,
                        TypeCheckErrorType.TYPE_KIND_MISMATCH)

    def check_return(self, stmt: St.ReturnStmt, loop: Stmt | None) -> None:
        func = self.func
        if func is None or not func.return_types:
            return  # nothing declared: nothing to check against
        reason = return_mismatch(stmt.value, func.return_types)
        if reason is not None:
            code = TypeCheckErrorType.SIZE_MISMATCH
            if len(stmt.value) == len(func.return_types):
                code = next((_mismatch_code(v.type, t)
                             for v, t in zip(stmt.value, func.return_types)
                             if type_mismatch(v.type, t) is not None),
                            TypeCheckErrorType.TYPE_KIND_MISMATCH)
            self.report(f"Return in function '{func.name}' does not match its declared "
                        f"return type: {reason}", stmt, code)

    def on_call(self, call: E.Call | E.Submit, stmt: Stmt) -> None:
        op = call.op
        if isinstance(op, GlobalVar):
            callee = self.check_arity(call, stmt)
            if callee is not None:
                self.check_arg_types(call, callee, stmt)
        elif isinstance(op, OpDef):
            self.check_op_arity(op, call, stmt)

    def check_op_arity(self, op: OpDef, call: E.Call | E.Submit, stmt: Stmt) -> None:
        """A Call built by hand (``ir.Call``) is not checked like ``create_op_call``'s."""
        count = len(call.args)
        if not op.min_args <= count <= op.max_args:
            expected = (str(op.min_args) if op.min_args == op.max_args
                        else f"{op.min_args} to {op.max_args}")
            self.report(f"Call to op '{op.name}' passes {count} operand(s); it takes "
                        f"{expected}", stmt, TypeCheckErrorType.SIZE_MISMATCH)

    def check_arg_types(self, call: E.Call | E.Submit, callee: Function, stmt: Stmt) -> None:
        params = callee.params[:len(call.args)]
        found = call_mismatch(params, call.args)
        if found is not None:
            index, expected, reason = found
            self.report(f"Argument {index + 1} of the call to '{callee.name}' does not fit "
                        f"parameter '{params[index].name_hint}' ({expected}): {reason}", stmt,
                        _mismatch_code(call.args[index].type, params[index].type))

    def check_condition(self, condition: Expr, owner: str, stmt: Stmt) -> None:
        t = condition.type
        if isinstance(t, UnknownType):
            return
        if not isinstance(t, ScalarType) or t.dtype != DataType.BOOL:
            got = t.dtype.to_string() if isinstance(t, ScalarType) else _kind(t)
            code = TypeCheckErrorType.CONDITION_MUST_BE_BOOL
            if owner == "IfStmt" and not isinstance(t, ScalarType):
                code = TypeCheckErrorType.IF_CONDITION_MUST_BE_SCALAR
            self.report(f"{owner} condition must be a Bool scalar, got {got}", stmt, code)

    def check_yield(self, body: Stmt | None, targets: tuple, target_kind: str,
                    owner: str) -> None:
        found = trailing_yield(body)
        if found is None:
            return
        for index, (value, target) in enumerate(zip(found.value, targets)):
            reason = type_mismatch(value.type, target.type)
            if reason is not None:
                self.report(f"Yield value {index} does not match {target_kind} "
                            f"'{target.name_hint}' of {owner}: {reason}", found,
                            _mismatch_code(value.type, target.type))

    def check_arity(self, call: E.Call | E.Submit, stmt: Stmt) -> Function | None:
        """Report a wrong argument count; the callee if it is known and the count fits."""
        callee = self.program.get_function(call.op.name)
        if callee is None:
            return None
        n_args, n_params = len(call.args), len(callee.params)
        # A Submit's args bind a prefix of the callee's params.
        if n_args == n_params or (isinstance(call, E.Submit) and n_args < n_params):
            return callee
        self.report(f"Call to '{callee.name}' passes {n_args} argument(s) but the function "
                    f"takes {n_params} parameter(s)", stmt, TypeCheckErrorType.SIZE_MISMATCH)
        return None


class TypeCheckVerifier(CheckVerifier):
    rule_name = RULE

    def make_check(self, program: Program, diagnostics: list[Diagnostic]) -> StmtCheck:
        return _TypeCheck(program, diagnostics)

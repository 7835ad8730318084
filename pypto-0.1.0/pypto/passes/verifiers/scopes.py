"""Scope verifiers: NoNestedInCore and the outliners' post-conditions.

HierarchyOutlined, GraphOutlined, SplitIncoreOrch (its error part) and
ClusterOutlined are configurations of the shared ``ScopeAbsenceVerifier``.
SplitIncoreOrch also *warns* about compute tensor ops written directly in an
Orchestration/Graph body, using the op registry's ``compute`` flag.
"""

from __future__ import annotations

from ...ir import expr as E
from ...ir import scope as S
from ...ir import stmt as St
from ...ir.enums import FunctionType, ScopeKind
from ...ir.function import Function, Program, is_orchestration_like
from ...ir.node import GlobalVar, Op, Stmt
from ..diagnostic import Diagnostic
from ..verifier_registry import PropertyVerifier
from .walk import error, functions_of, iter_exprs, stmt_exprs, warning
from .scope_absence import ScopeAbsenceVerifier, iter_scopes

__all__ = ["NoNestedInCoreVerifier", "hierarchy_outlined", "graph_outlined",
           "SplitIncoreOrchVerifier", "cluster_outlined", "is_compute_tensor_op"]

NESTED_INCORE_CODE = 501
SPLIT_RULE = "SplitIncoreOrch"
COMPUTE_OP_WARNING_CODE = 1


class NoNestedInCoreVerifier(PropertyVerifier):
    rule_name = "NoNestedInCore"

    def verify(self, program: Program, diagnostics: list[Diagnostic]) -> None:
        for func in functions_of(program):
            for scope, same_kind_ancestors in iter_scopes(func.body):
                if scope.scope_kind is ScopeKind.InCore and same_kind_ancestors:
                    diagnostics.append(error(self.rule_name, NESTED_INCORE_CODE,
                                             "Nested InCore scope detected", scope.span))


def hierarchy_outlined() -> ScopeAbsenceVerifier:
    # Only Opaque functions: the pass leaves other functions' Hierarchy scopes alone.
    return ScopeAbsenceVerifier(
        "HierarchyOutlined",
        {ScopeKind.Hierarchy: "Hierarchy ScopeStmt found in function (should have been outlined)"},
        applies_to=lambda func: func.func_type is FunctionType.Opaque)


def graph_outlined() -> ScopeAbsenceVerifier:
    return ScopeAbsenceVerifier(
        "GraphOutlined",
        {ScopeKind.Graph: "Graph ScopeStmt found in function (should have been outlined)"})


def cluster_outlined() -> ScopeAbsenceVerifier:
    return ScopeAbsenceVerifier(
        "ClusterOutlined",
        {ScopeKind.Cluster: "Cluster ScopeStmt found in non-Group function",
         ScopeKind.Spmd: "Spmd ScopeStmt found in non-Group function"},
        applies_to=lambda func: func.func_type not in (FunctionType.Group, FunctionType.Spmd))


def _outlines_incore(func: Function) -> bool:
    return func.func_type is FunctionType.Opaque or is_orchestration_like(func.func_type)


def is_compute_tensor_op(op: Op) -> bool:
    """Whether ``op`` is a ``tensor.*`` op the registry flags as ``compute``."""
    if isinstance(op, GlobalVar) or not op.name.startswith("tensor."):
        return False
    flag = getattr(op, "compute", None)
    if flag is None:  # a bare ir.Op naming a registered op
        from ... import ir
        if not ir.is_op_registered(op.name):
            return False
        flag = getattr(ir.get_op(op.name), "compute", False)
    return bool(flag)


class SplitIncoreOrchVerifier(PropertyVerifier):
    rule_name = SPLIT_RULE

    def __init__(self) -> None:
        self._scopes = ScopeAbsenceVerifier(
            SPLIT_RULE,
            {ScopeKind.InCore:
             "InCore ScopeStmt found in non-InCore function (should have been outlined)"},
            applies_to=_outlines_incore)

    def verify(self, program: Program, diagnostics: list[Diagnostic]) -> None:
        self._scopes.verify(program, diagnostics)
        for func in functions_of(program):
            if is_orchestration_like(func.func_type):
                self._warn_compute_ops(func, diagnostics)

    def _warn_compute_ops(self, func: Function, diagnostics: list[Diagnostic]) -> None:
        kind = func.func_type.name
        stack: list[Stmt] = [func.body]
        while stack:
            stmt = stack.pop()
            if isinstance(stmt, S.InCoreScopeStmt):
                continue  # device code by construction (and an error of its own above)
            for root in stmt_exprs(stmt):
                for node in iter_exprs(root):
                    if isinstance(node, E.Call) and is_compute_tensor_op(node.op):
                        diagnostics.append(warning(
                            SPLIT_RULE, COMPUTE_OP_WARNING_CODE,
                            f"Compute tensor op '{node.op.name}' found in {kind} function "
                            "(should be inside InCore)", stmt.span))
            if isinstance(stmt, St.SeqStmts):
                stack.extend(reversed(stmt.stmts))
            elif isinstance(stmt, St.IfStmt):
                if stmt.else_body is not None:
                    stack.append(stmt.else_body)
                stack.append(stmt.then_body)
            elif isinstance(stmt, (St.ForStmt, St.WhileStmt, S.ScopeStmt)):
                stack.append(stmt.body)

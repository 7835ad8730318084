"""GraphBoundaryLegalized verifier: re-checks LegalizeGraphBoundary's post-conditions
(03-passes.md §15) on every Graph function and every call to one.

A recorded graph replays with only boundary tensor addresses and boundary
scalar slots patched, so: no scalar derived from scalar params may remain in
the body (Step A hoists it), every scalar reaching a task is a param or
replay-invariant, launches are statically counted (1..1024) and never under
runtime control flow, and the boundary itself obeys the runtime's limits.
One walk per Graph body plus one walk over all calls (``graph_call_sites``, which
LegalizeGraphBoundary shares, so the pass and the property find the same calls).
"""

from __future__ import annotations

from typing import Any, Sequence, cast

from ...ir import expr as E
from ...ir import scope as S
from ...ir import stmt as St
from ...ir.enums import FunctionType, ParamDirection
from ...ir.function import Function, Program
from ...ir.node import Expr, GlobalVar, Stmt
from ...ir.types import ScalarType, ShapedType
from ...ir.walk import (CONST_TYPES, LEAF_TYPES, StmtShape, arith_leaves, calls_in,
                        expr_children, stmt_shape)
from ..diagnostic import Diagnostic
from ..names import source_name
from ..verifier_registry import PropertyVerifier
from .walk import error, functions_of, stmt_exprs

__all__ = ["GraphBoundaryLegalizedVerifier", "constant_trip_count", "graph_call_sites",
           "check_graph_body", "check_call_site", "PARAM_DIRECTION", "RETURNS_NON_PARAM"]

RULE = "GraphBoundaryLegalized"
# Codes LegalizeGraphBoundary traces back to the user's statement (graph_blame).
PARAM_DIRECTION = 2    # an Out tensor parameter (or a scalar one that is not In)
RETURNS_NON_PARAM = 3  # returns a value that is not one of its parameters
MAX_TENSOR_PARAMS, MAX_SCALAR_PARAMS, MAX_TASKS = 128, 64, 1024


def constant_trip_count(loop: St.ForStmt) -> int | None:
    first, last, stride = loop.start, loop.stop, loop.step
    if not (isinstance(first, E.ConstInt) and isinstance(last, E.ConstInt)
            and isinstance(stride, E.ConstInt)):
        return None
    start, stop, step = first.value, last.value, stride.value
    if step == 0:
        return None
    return max(0, -(-(stop - start) // step))


class _GraphBodyCheck:
    def __init__(self, program: Program, func: Function, diagnostics: list[Diagnostic]) -> None:
        self.program = program
        self.func = func
        self.diagnostics = diagnostics
        self.scalar_params = {p for p in func.params if isinstance(p.type, ScalarType)}
        self.tensor_params = {p for p in func.params if isinstance(p.type, ShapedType)}
        self.params = set(func.params)
        self.invariant: set[E.Var] = set()   # const-trip loop vars, tensor.dim of params
        self.derived: set[E.Var] = set()     # scalars Step A should have hoisted
        self.tasks = 0

    def report(self, code: int, message: str, stmt: Stmt | Function) -> None:
        self.diagnostics.append(error(RULE, code, f"Graph function '{self.func.name}' {message}",
                                      stmt.span))

    def run(self) -> None:
        self.check_signature()
        # (statement, launches per execution, runtime control flow around it or None)
        stack: list[tuple[Stmt, int, str | None]] = [(self.func.body, 1, None)]
        while stack:
            stmt, multiplier, control = stack.pop()
            self.check_stmt(stmt, multiplier, control)
            if isinstance(stmt, St.SeqStmts):
                stack.extend((s, multiplier, control) for s in reversed(stmt.stmts))
            elif isinstance(stmt, St.ForStmt):
                trips = constant_trip_count(stmt)
                if trips is None:
                    stack.append((stmt.body, multiplier, control or "a runtime-bound loop"))
                else:
                    self.invariant.add(stmt.loop_var)
                    stack.append((stmt.body, multiplier * trips, control))
            elif isinstance(stmt, St.WhileStmt):
                stack.append((stmt.body, multiplier, control or "a while loop"))
            elif isinstance(stmt, St.IfStmt):
                for branch in (stmt.else_body, stmt.then_body):
                    if branch is not None:
                        stack.append((branch, multiplier, control or "an if"))
            elif isinstance(stmt, S.ScopeStmt):
                stack.append((stmt.body, multiplier, control))
        if not 1 <= self.tasks <= MAX_TASKS:
            self.report(6, f"launches {self.tasks} task(s); a graph must launch between 1 and "
                           f"{MAX_TASKS}", self.func)

    def check_signature(self) -> None:
        func = self.func
        if not self.tensor_params:
            self.report(0, "has no tensor parameter", func)
        if len(self.tensor_params) > MAX_TENSOR_PARAMS:
            self.report(1, f"has {len(self.tensor_params)} tensor parameters (at most "
                           f"{MAX_TENSOR_PARAMS})", func)
        if len(self.scalar_params) > MAX_SCALAR_PARAMS:
            self.report(1, f"has {len(self.scalar_params)} scalar parameters (at most "
                           f"{MAX_SCALAR_PARAMS})", func)
        for param, direction in zip(func.params, func.param_directions):
            if param in self.tensor_params and direction is ParamDirection.Out:
                self.report(PARAM_DIRECTION,
                            f"has Out tensor parameter '{param.name_hint}' (use InOut)", func)
            if param in self.scalar_params and direction is not ParamDirection.In:
                self.report(PARAM_DIRECTION,
                            f"has {direction.name} scalar parameter '{param.name_hint}' "
                            "(scalar parameters must be In)", func)

    def check_stmt(self, stmt: Stmt, multiplier: int, control: str | None) -> None:
        if isinstance(stmt, St.AssignStmt):
            self.check_assign(stmt)
        elif isinstance(stmt, St.ReturnStmt):
            for value in stmt.value:
                if not (isinstance(value, E.Var) and value in self.params):
                    shown = value.name_hint if isinstance(value, E.Var) else type(value).__name__
                    self.report(RETURNS_NON_PARAM,
                                f"returns '{shown}', which is not one of its parameters", stmt)
        for root in stmt_exprs(stmt):
            for node in calls_in(root):
                if isinstance(node, E.Call) and not isinstance(node.op, GlobalVar) \
                        and node.op.name == "tensor.full":
                    self.report(4, "creates a tensor with 'tensor.full'", stmt)
                elif isinstance(node, (E.Call, E.Submit)) and isinstance(node.op, GlobalVar):
                    self.check_task(node, stmt, multiplier, control)

    def check_assign(self, stmt: St.AssignStmt) -> None:
        value, var = stmt.value, stmt.var
        if self.is_dim_of_param(value):
            self.invariant.add(var)
        elif isinstance(var.type, ScalarType) and self.is_derived(value):
            self.derived.add(var)
            self.report(5, f"still computes boundary scalar '{var.name_hint}' from its scalar "
                           "parameters (should have been hoisted to the call site)", stmt)

    def is_dim_of_param(self, value: Expr) -> bool:
        """``tensor.dim(<tensor param>, <literal axis>)``: fixed for the graph's lifetime."""
        if not (isinstance(value, E.Call) and not isinstance(value.op, GlobalVar)
                and value.op.name == "tensor.dim" and len(value.args) == 2):
            return False
        tensor, axis = value.args
        return (isinstance(tensor, E.Var) and tensor in self.tensor_params
                and isinstance(axis, E.ConstInt))

    def is_derived(self, value: Expr) -> bool:
        """Only scalar params / derived scalars / constants under binary-unary nodes,
        with at least one non-constant leaf."""
        leaves = arith_leaves(value)
        if not leaves:
            return False
        return all(v in self.scalar_params or v in self.derived for v in leaves)

    def check_task(self, call: E.Call | E.Submit, stmt: Stmt, multiplier: int,
                   control: str | None) -> None:
        name = call.op.name
        callee = self.program.get_function(name)
        if callee is not None and callee.func_type is FunctionType.Graph:
            self.report(7, f"calls Graph function '{name}'", stmt)
        if control is not None:
            self.report(8, f"launches task '{name}' under {control}", stmt)
        self.tasks += multiplier
        for arg in call.args:
            if not isinstance(arg.type, ScalarType) or isinstance(arg, CONST_TYPES):
                continue
            if not isinstance(arg, E.Var):
                self.report(9, f"computes a scalar inline in a task argument of '{name}'", stmt)
            elif arg not in self.scalar_params and arg not in self.invariant:
                self.report(9, f"passes scalar '{source_name(arg.name_hint)}' to task '{name}', but it is "
                               "neither a parameter nor replay-invariant", stmt)


_CALL_TYPES = (E.Call, E.Submit)


def graph_call_sites(body: Stmt, functions: dict[str, Function]
                     ) -> list[tuple[E.Call | E.Submit, Stmt, tuple[Stmt, ...]]]:
    """Every Call / Submit of a Graph function under ``body``: (call, its statement, the
    statements enclosing that one, outermost first), in statement pre-order and, within
    a statement, expression pre-order (the order of ``iter_calls``).

    Every statement and expression of every function passes through here, so the walk
    is one tight loop: leaves are never pushed, and only container statements enter
    the live path of enclosing statements, which is copied when a call is found.
    """
    sites: list[tuple[E.Call | E.Submit, Stmt, tuple[Stmt, ...]]] = []
    leaves, call_cls = LEAF_TYPES, E.Call
    path: list[Stmt] = []
    stack: list[Stmt | None] = [body]   # None closes the innermost container
    pop, push = stack.pop, stack.append
    while stack:
        stmt = pop()
        if stmt is None:
            path.pop()
            continue
        # (dispatch by exact class: mypy does not narrow through ``cls``, hence the casts)
        cls = type(stmt)
        if cls is St.AssignStmt:
            roots: Any = (cast(St.AssignStmt, stmt).value,)
            nested: Any = ()
        elif cls is St.SeqStmts:
            roots, nested = (), cast(St.SeqStmts, stmt).stmts
        else:
            roots, nested = stmt_exprs(stmt), _stmt_children(stmt)
        for root in roots:
            if type(root) in leaves:
                continue
            if type(root) is call_cls and not root._attrs and _leaf_args(root.args):
                # The three-address common case: one call over leaves, nothing nested.
                if isinstance(root.op, GlobalVar):
                    callee = functions.get(root.op.name)
                    if callee is not None and callee.func_type is FunctionType.Graph:
                        sites.append((root, stmt, tuple(path)))
                continue
            _calls_to_graphs(root, stmt, path, functions, sites)
        if nested:
            path.append(stmt)
            push(None)
            stack.extend(reversed(nested))
    return sites


def _calls_to_graphs(root: Expr, stmt: Stmt, path: list[Stmt], functions: dict[str, Function],
                     sites: list) -> None:
    """Append the Graph calls inside ``root`` (pre-order) to ``sites``."""
    leaves, call_cls = LEAF_TYPES, E.Call
    pending = [root]
    while pending:
        node = pending.pop()
        children: Sequence[Expr]
        if type(node) is call_cls and not node._attrs:
            children = node.args
        else:
            children = expr_children(node)
        if isinstance(node, _CALL_TYPES) and isinstance(node.op, GlobalVar):
            callee = functions.get(node.op.name)
            if callee is not None and callee.func_type is FunctionType.Graph:
                sites.append((node, stmt, tuple(path)))
        for child in reversed(children):
            if type(child) not in leaves:
                pending.append(child)


def _leaf_args(args: tuple) -> bool:
    """No call can hide in ``args``: each is a leaf or a tuple of leaves."""
    leaves = LEAF_TYPES
    for arg in args:
        if type(arg) in leaves:
            continue
        if type(arg) is not E.MakeTuple:
            return False
        for item in arg.elements:
            if type(item) not in leaves:
                return False
    return True


def _stmt_children(stmt: Stmt) -> Any:
    """The statements directly held by ``stmt`` (as ``stmt_children``)."""
    # (the shape says which kind ``stmt`` is, which mypy cannot follow: hence the casts)
    shape = stmt_shape(type(stmt))
    if shape == StmtShape.LEAF:
        return ()
    if shape == StmtShape.SEQ:
        return cast(St.SeqStmts, stmt).stmts
    if shape != StmtShape.BRANCHES:
        return (cast("St.ForStmt | St.WhileStmt | S.ScopeStmt", stmt).body,)
    branch = cast(St.IfStmt, stmt)
    return (branch.then_body,) if branch.else_body is None \
        else (branch.then_body, branch.else_body)


def check_call_site(caller: Function, graph: Function, call: E.Call | E.Submit, stmt: Stmt,
                    diagnostics: list[Diagnostic]) -> None:
    """The rules for one call of Graph function ``graph`` in ``caller``."""
    where = f"Call of Graph function '{graph.name}' in '{caller.name}'"
    if len(call.args) != len(graph.params):
        diagnostics.append(error(RULE, 10, f"{where} supplies {len(call.args)} of "
                                           f"{len(graph.params)} parameters", stmt.span))
    core_num = call._attrs.get("core_num")
    if isinstance(call, E.Submit):
        core_num = call.core_num
        if call.deps:
            diagnostics.append(error(RULE, 11, f"{where} has explicit deps", stmt.span))
        if call.predicate is not None:
            diagnostics.append(error(RULE, 11, f"{where} has a predicate", stmt.span))
    if core_num is not None and not isinstance(core_num, (int, E.ConstInt)):
        diagnostics.append(error(RULE, 12, f"{where}: core_num is not a compile-time "
                                           "constant", stmt.span))


def check_graph_body(program: Program, func: Function, diagnostics: list[Diagnostic]) -> None:
    """The rules for Graph function ``func``'s signature and body."""
    _GraphBodyCheck(program, func, diagnostics).run()


class GraphBoundaryLegalizedVerifier(PropertyVerifier):
    rule_name = RULE

    def verify(self, program: Program, diagnostics: list[Diagnostic]) -> None:
        functions = program._functions
        for func in functions_of(program):
            if func.func_type is FunctionType.Graph:
                check_graph_body(program, func, diagnostics)
        for func in functions_of(program):
            for call, stmt, _ in graph_call_sites(func.body, functions):
                check_call_site(func, functions[call.op.name], call, stmt, diagnostics)

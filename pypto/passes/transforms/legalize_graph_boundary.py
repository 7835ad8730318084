"""LegalizeGraphBoundary (03-passes.md §15): the record-once / replay contract of graphs.

A recorded graph is replayed with only its boundary tensor addresses and
boundary scalar slots patched.  A scalar the Graph body computes from its own
scalar params (``base = i * ROWS``) has no slot, so replay would reuse the
first call's value.  Step A moves such scalars to the call sites: the
definition is removed, a scalar parameter of the same name is appended, and
every caller passes the fully expanded expression over its own arguments --
the caller never sees a Graph-local name.  Bare renames (``n = batch``) are
substituted away.  Afterwards the boundary rules are checked with the
GraphBoundaryLegalized verifier's own rule functions, so the pass and the
property can never disagree.

One scan per function (``graph_call_sites``) indexes its Graph calls with their
enclosing statements; the call-site rewrite rebuilds only those paths, and the
check reuses the index (carried over to the rewritten calls) instead of walking
the program again.
"""

from __future__ import annotations

from operator import is_
from typing import Any, cast

from ...ir import expr as E
from ...ir import scope as S
from ...ir import stmt as St
from ...ir.enums import FunctionType, ParamDirection
from ...ir.function import Function, Program, is_incore_type, is_wrapper_type
from ...ir.node import Expr, GlobalVar, Stmt
from ...ir.span import Span
from ...ir.types import ScalarType, ShapedType
from ...ir.visitor import IRMutator
from ...ir.depth import nesting_guard
from ...ir.walk import (CONST_TYPES, LEAF_TYPES, arith_leaves, def_sites, iter_stmts,
                        trailing_yield)
from ..diagnostic import PassError, PassErrorCode, errors_of
from ..outline.outliner import Renamer
from ..names import source_name
from ..verifiers.graph_boundary import (PARAM_DIRECTION, RETURNS_NON_PARAM, check_call_site,
                                        check_graph_body, graph_call_sites)
from .graph_blame import escaping_read, first_use

__all__ = ["transform"]


class _GraphPlan:
    """Step A for one Graph function: which scalars move to the call sites."""

    def __init__(self, func: Function) -> None:
        self.func = func
        scalar_params = {p for p in func.params if isinstance(p.type, ScalarType)}
        self.expanded: dict[E.Var, Expr] = {}      # derived scalar -> expression over params
        self.renamed: dict[E.Var, Expr] = {}       # body substitution (derived -> new param)
        self.new_params: list[tuple[E.Var, Expr]] = []
        self.removed: set[int] = set()
        for stmt in iter_stmts(func.body):
            if not isinstance(stmt, St.AssignStmt) or not isinstance(stmt.var.type, ScalarType):
                continue
            expanded = self._expand(stmt.value, scalar_params)
            if expanded is None:
                continue
            self.removed.add(id(stmt))
            self.expanded[stmt.var] = expanded
            if isinstance(stmt.value, E.Var):  # a bare rename of a param
                self.renamed[stmt.var] = self.renamed.get(stmt.value, stmt.value)
                continue
            param = E.Var(stmt.var.name_hint, stmt.var.type, stmt.var.span)
            self.renamed[stmt.var] = param
            self.new_params.append((param, expanded))

    def _expand(self, value: Expr, scalar_params: set[E.Var]) -> Expr | None:
        """``value`` over the Graph's scalar params, or None if it is not derived from them."""
        leaves = arith_leaves(value)
        if not leaves:
            return None  # not arithmetic; or a literal, which is replay-invariant: it stays
        if any(v not in scalar_params and v not in self.expanded for v in leaves):
            return None
        return _substitute(value, self.expanded) if self.expanded else value

    def rewrite_function(self) -> Function:
        mutator = _DropHoisted(self.removed)
        mutator.var_remap.update(self.renamed)
        body = mutator.visit_stmt(self.func.body)  # the caller holds nesting_guard()
        params = [*zip(self.func.params, self.func.param_directions),
                  *((p, ParamDirection.In) for p, _ in self.new_params)]
        return Function(self.func.name, params, self.func.return_types, body, self.func.span,
                        type=FunctionType.Graph, attrs=self.func._attrs,
                        requires_runtime_binding=self.func.requires_runtime_binding)

    def extra_args(self, call_args: tuple[Expr, ...]) -> list[Expr]:
        by_param = dict(zip(self.func.params, call_args))
        return [_substitute(expr, by_param) for _, expr in self.new_params]


def _substitute(expr: Expr, mapping: dict[E.Var, Expr]) -> Expr:
    """``Renamer(mapping)(expr)`` for the scalar arithmetic moved by Step A, without
    building a mutator per call site; anything else still goes through ``Renamer``."""
    cls = type(expr)
    if cls is E.Var:
        return mapping.get(cast(E.Var, expr), expr)  # (mypy does not narrow through ``cls``)
    if cls in CONST_TYPES:
        return expr
    if isinstance(expr, E.BinaryExpr):
        left, right = _substitute(expr.left, mapping), _substitute(expr.right, mapping)
        if left is expr.left and right is expr.right:
            return expr
        return expr.replace(left=left, right=right)
    if isinstance(expr, E.UnaryExpr):
        operand = _substitute(expr.operand, mapping)
        return expr if operand is expr.operand else expr.replace(operand=operand)
    return Renamer(mapping)(expr)


class _DropHoisted(IRMutator):
    """Removes the hoisted definitions (by statement id); ``var_remap`` renames their uses.
    One class for all Graphs: a class per call would re-resolve the visitor hooks."""

    def __init__(self, removed: set[int]) -> None:
        super().__init__()
        self.removed = removed

    def visit_assign_stmt(self, op: St.AssignStmt) -> Stmt:
        if id(op) in self.removed:
            return St.SeqStmts([], op.span)
        return super().visit_assign_stmt(op)


def _is_device(func_type: FunctionType) -> bool:
    return is_incore_type(func_type) or is_wrapper_type(func_type)


class _CallSites(IRMutator):
    """Appends the hoisted expressions to every call of a rewritten Graph.

    Only statements on the way to such a call are rebuilt (``touched``, from the call
    index): the rest of a function is returned as is without being mutated.  Every
    call it rebuilds is recorded (``rebuilt``), so the caller's call index can be
    carried over to the result instead of scanning the rewritten function again.
    """

    def __init__(self, plans: dict[str, _GraphPlan]) -> None:
        super().__init__()
        self.plans = plans
        self.touched: set[int] = set()   # statements holding or enclosing such a call
        self.holders: set[int] = set()   # statements holding one in their own expressions
        self.rebuilt: dict[int, Expr] = {}
        # False once an appended expression copied a non-leaf argument: the copy may
        # hold calls the carried-over index would miss.
        self.index_exact = True

    def rewrite(self, func: Function, sites: list) -> Function:
        touched, holders = self.touched, self.holders
        touched.clear()
        holders.clear()
        self.rebuilt.clear()
        self.index_exact = True
        for call, stmt, enclosing in sites:
            if call.op.name in self.plans:
                holders.add(id(stmt))
                touched.add(id(stmt))
                touched.update(map(id, enclosing))
        if not touched:
            return func
        if not all(map(_static_var, func.params)):
            return self(func)  # a param type with dims: the mutator also visits those
        body = self.visit_stmt(func.body)
        return func if body is func.body else func.replace(body=body)

    def visit_stmt(self, op: Stmt) -> Stmt:
        if id(op) not in self.touched:
            return op
        if id(op) in self.holders or not _plain_container(op):
            return super().visit_stmt(op)
        # A statement only on the way to a call: what the mutator would rebuild
        # (nothing but the nested bodies changes), without visiting its expressions.
        if type(op) is St.SeqStmts:
            touched, visit = self.touched, self.visit_stmt
            stmts = [visit(s) if id(s) in touched else s for s in op.stmts]
            if all(map(is_, stmts, op.stmts)):
                return op
            return St.SeqStmts.flatten(stmts, op.span)
        if type(op) is St.IfStmt:
            then_body = self.visit_stmt(op.then_body)
            else_body = None if op.else_body is None else self.visit_stmt(op.else_body)
            if then_body is op.then_body and else_body is op.else_body:
                return op
            return op.replace(then_body=then_body, else_body=else_body)
        holder = cast("St.ForStmt | St.WhileStmt | S.ScopeStmt", op)  # the other containers
        body = self.visit_stmt(holder.body)
        return op if body is holder.body else holder.replace(body=body)

    def _extend(self, old: Any, op: Any) -> Any:
        plan = self.plans.get(op.op.name) if isinstance(op.op, GlobalVar) else None
        if plan is not None and plan.new_params:
            if any(type(arg) not in LEAF_TYPES for arg in op.args):
                self.index_exact = False
            op = op.replace(args=tuple(op.args) + tuple(plan.extra_args(op.args)))
        if op is not old:
            self.rebuilt[id(old)] = op
        return op

    def visit_call(self, op: E.Call) -> Expr:
        return self._extend(op, super().visit_call(op))

    def visit_submit(self, op: E.Submit) -> Expr:
        return self._extend(op, super().visit_submit(op))


# Statements that hold statements, by exact class (their expressions are not entered).
_CONTAINERS = frozenset((St.SeqStmts, St.IfStmt, St.ForStmt, St.WhileStmt, S.ScopeStmt,
                         S.InCoreScopeStmt, S.ClusterScopeStmt, S.HierarchyScopeStmt,
                         S.RuntimeScopeStmt, S.GraphScopeStmt, S.SplitAivScopeStmt))


def _static_var(var: E.Var) -> bool:
    """A Var whose type holds no expression (the mutator would visit one)."""
    t = var.type
    return type(t) is ScalarType or (isinstance(t, ShapedType) and t.static_shape)


def _plain_container(stmt: Stmt) -> bool:
    """A container whose definitions the mutator would return untouched."""
    if type(stmt) not in _CONTAINERS:
        return False
    if type(stmt) is St.ForStmt:
        return _static_var(stmt.loop_var) and all(map(_static_var, stmt.iter_args)) \
            and all(map(_static_var, stmt.return_vars))
    if type(stmt) is St.WhileStmt:
        return all(map(_static_var, stmt.iter_args)) and all(map(_static_var, stmt.return_vars))
    if type(stmt) is St.IfStmt:
        return all(map(_static_var, stmt.return_vars))
    return True


def _param_explicit_returns(func: Function, program: Program) -> Function:
    """Return the parameter a result *is*: after OutlineIncoreScopes a Graph body returns
    the call result that names the buffer a kernel wrote in place (``acc_1`` for ``acc``);
    replay patches parameters only, so the boundary must return ``acc`` itself."""
    from ..outline.facts import BodyFacts
    body = func.body
    last = body.stmts[-1] if isinstance(body, St.SeqStmts) and body.stmts else body
    if not isinstance(last, St.ReturnStmt):
        return func
    params = set(func.params)
    if all(not isinstance(v, E.Var) or v in params
           for v in last.value) and not _redefines_any(body, params):
        return func  # every result already is a param: its lineage is itself
    facts = BodyFacts.lineage_of(body, program)
    values = [facts.root(v) if isinstance(v, E.Var) and facts.root(v) in params
              and facts.root(v).type == v.type else v for v in last.value]
    if all(a is b for a, b in zip(values, last.value)):
        return func
    stmts = list(body.stmts[:-1]) if isinstance(body, St.SeqStmts) else []
    new_body = St.SeqStmts.flatten([*stmts, last.replace(value=tuple(values))], body.span)
    return func.replace(body=new_body)


def _redefines_any(body: Stmt, params: set[E.Var]) -> bool:
    """Does ``body`` define one of ``params`` (then its lineage may lead elsewhere)?"""
    return any(var in params for stmt in iter_stmts(body) for var in def_sites(stmt))


def transform(program: Program) -> Program:
    with nesting_guard(program):
        return _transform(program)


def _transform(program: Program) -> Program:
    graphs = [f for f in program._functions.values() if f.func_type is FunctionType.Graph]
    if not graphs:
        return program
    explicit = [_param_explicit_returns(g, program) for g in graphs]
    functions = program._functions
    if any(a is not b for a, b in zip(explicit, graphs)):
        functions = {**functions, **{g.name: g for g in explicit}}
        graphs = explicit
    plans = {g.name: _GraphPlan(g) for g in graphs}
    changed = {name: plan for name, plan in plans.items() if plan.removed}
    rewriter = _CallSites(changed)
    result_functions: list[Function] = []
    result_sites: list[list] = []   # per function: its Graph calls in the result
    for func in functions.values():
        plan = changed.get(func.name)
        new = plan.rewrite_function() if plan is not None else func
        # One scan per function finds the Graph calls, for the rewrite and the check.
        sites = graph_call_sites(new.body, functions)
        # Device kernels never launch a Graph; were one to, the boundary check
        # below would report the call's missing argument, so skipping is safe.
        if changed and sites and not _is_device(new.func_type):
            rewritten = rewriter.rewrite(new, sites)
            if rewritten is not new:
                sites = _result_sites(rewriter, rewritten, sites, functions)
                new = rewritten
        result_functions.append(new)
        result_sites.append(sites)
    rebuilt = changed or functions is not program._functions
    result = program.with_functions(result_functions) if rebuilt else program
    _check(result, result_sites)
    return result


def _result_sites(rewriter: _CallSites, func: Function, sites: list,
                  functions: dict[str, Function]) -> list:
    """The Graph calls of ``func`` as rewritten: the same sites with rebuilt calls."""
    if not rewriter.index_exact:
        return graph_call_sites(func.body, functions)
    rebuilt = rewriter.rebuilt
    return [(rebuilt.get(id(call), call), stmt, enclosing) for call, stmt, enclosing in sites]


def _check(program: Program, sites_per_function: list[list]) -> None:
    """The GraphBoundaryLegalized verifier's rules, in its order, over the call index
    already built (``sites_per_function`` follows the program's function order)."""
    diagnostics: list = []
    functions = program._functions
    owners: list[tuple[int, Function]] = []  # (its first diagnostic's index, Graph)
    for func in functions.values():
        if func.func_type is FunctionType.Graph:
            owners.append((len(diagnostics), func))
            check_graph_body(program, func, diagnostics)
    for func, sites in zip(functions.values(), sites_per_function):
        for call, stmt, _ in sites:
            check_call_site(func, functions[call.op.name], call, stmt, diagnostics)
    errors = errors_of(diagnostics)
    if errors:
        first = errors[0]
        more = f" (and {len(errors) - 1} more)" if len(errors) > 1 else ""
        message, span, hint = first.message, first.span, None
        graph = _owner(owners, diagnostics.index(first))
        if graph is not None:
            blamed = _blame(program, graph, first.error_code,
                            list(zip(functions.values(), sites_per_function)))
            if blamed is not None:
                message, span = blamed
                if first.error_code == RETURNS_NON_PARAM:
                    hint = _loop_result_hint(program, graph)
        raise PassError(f"{message}{more}", span, code=PassErrorCode.GRAPH_BOUNDARY,
                        pass_name="LegalizeGraphBoundary", hint=hint)


def _blame(program: Program, graph: Function, code: int, sites: list
           ) -> tuple[str, Span] | None:
    """The message and span of the user's statement behind ``graph``'s first error of
    ``code``, when one statement is to blame (``graph_blame``)."""
    where = f"pl.graph region '{graph.name}'"
    if code == RETURNS_NON_PARAM:
        found = escaping_read(program, graph, sites)
        if found is not None:
            name, read = found
            return (f"'{name}' is defined inside {where} and read after it; a graph "
                    "returns only the tensors passed into it (written in place), so "
                    "compute the value outside the region or write it into a tensor",
                    read.span)
    if code == PARAM_DIRECTION:
        param = _first_bad_direction(graph)
        use = first_use(program, graph, param) if param is not None else None
        if param is not None and use is not None:
            return (f"{where} writes tensor '{source_name(param.name_hint)}' without reading "
                    "it, which would make it a write-only (Out) parameter of the graph; a "
                    "graph's tensors must be InOut: read it in the region before writing "
                    "it", use.span)
    return None


def _loop_result_hint(program: Program, graph: Function) -> str | None:
    """When the graph's first non-parameter result is a loop result that starts as one
    of its tensors and is handed another: how to make it one tensor on every path."""
    from ..outline.facts import BodyFacts
    body = graph.body
    last = body.stmts[-1] if isinstance(body, St.SeqStmts) and body.stmts else body
    params = set(graph.params)
    if not isinstance(last, St.ReturnStmt):
        return None
    value = next((v for v in last.value if v not in params), None)
    if not isinstance(value, E.Var):
        return None
    # by identity: `in` / `.index` on Exprs would compare with `==`, which builds IR
    found = next(((s, k) for s in iter_stmts(body) if isinstance(s, (St.ForStmt, St.WhileStmt))
                  for k, rv in enumerate(s.return_vars) if rv is value), None)
    if found is None:
        return None
    loop, k = found
    handed_on = trailing_yield(loop.body)
    if handed_on is None or k >= len(handed_on.value) or k >= len(loop.iter_args):
        return None
    init, handed = loop.iter_args[k].initValue, handed_on.value[k]
    if not isinstance(init, E.Var) or not isinstance(handed, E.Var):
        return None
    facts = BodyFacts.lineage_of(body, program)
    start, then = facts.root(init), facts.root(handed)
    if start is then or start not in params or then not in params:
        return None
    name, first, other = (source_name(v.name_hint) for v in (value, start, then))
    return (f"'{name}' is '{first}' when the loop does not run and '{other}' after it runs; "
            f"start the loop from '{other}' (init_values=({other}, ...)) so that it is "
            f"'{other}' on every path")


def _first_bad_direction(graph: Function) -> E.Var | None:
    """The param the direction rule reports first, when it is an Out tensor."""
    for param, direction in zip(graph.params, graph.param_directions):
        if isinstance(param.type, ShapedType) and direction is ParamDirection.Out:
            return param
        if isinstance(param.type, ScalarType) and direction is not ParamDirection.In:
            return None
    return None


def _owner(owners: list[tuple[int, Function]], index: int) -> Function | None:
    """The Graph whose body check reported diagnostic ``index`` (a body-check code)."""
    found = None
    for start, graph in owners:
        if start > index:
            break
        found = graph
    return found

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

from typing import Any

from ...ir import expr as E
from ...ir import stmt as St
from ...ir.enums import FunctionType, ParamDirection
from ...ir.function import Function, Program, is_incore_type, is_wrapper_type
from ...ir.node import Expr, GlobalVar, Stmt
from ...ir.types import ScalarType
from ...ir.visitor import IRMutator
from ...ir.walk import LEAF_TYPES, arith_leaves, iter_stmts
from ..diagnostic import errors_of
from ..outline.outliner import Renamer
from ..verifiers.graph_boundary import check_call_site, check_graph_body, graph_call_sites

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
        return Renamer(self.expanded)(value) if self.expanded else value

    def rewrite_function(self) -> Function:
        mutator = _DropHoisted(self.removed)
        mutator.var_remap.update(self.renamed)
        body = mutator(self.func.body)
        params = [*zip(self.func.params, self.func.param_directions),
                  *((p, ParamDirection.In) for p, _ in self.new_params)]
        return Function(self.func.name, params, self.func.return_types, body, self.func.span,
                        type=FunctionType.Graph, attrs=self.func._attrs,
                        requires_runtime_binding=self.func.requires_runtime_binding)

    def extra_args(self, call_args: tuple[Expr, ...]) -> list[Expr]:
        by_param = dict(zip(self.func.params, call_args))
        return [Renamer(by_param)(expr) for _, expr in self.new_params]


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
        self.touched: set[int] = set()
        self.rebuilt: dict[int, Expr] = {}
        # False once an appended expression copied a non-leaf argument: the copy may
        # hold calls the carried-over index would miss.
        self.index_exact = True

    def rewrite(self, func: Function, sites: list) -> Function:
        touched = self.touched
        touched.clear()
        self.rebuilt.clear()
        self.index_exact = True
        for call, stmt, enclosing in sites:
            if call.op.name in self.plans:
                touched.add(id(stmt))
                touched.update(map(id, enclosing))
        return self(func) if touched else func

    def visit_stmt(self, op: Stmt) -> Stmt:
        if id(op) not in self.touched:
            return op
        return super().visit_stmt(op)

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
    facts = BodyFacts.lineage_of(body, program)
    values = [facts.root(v) if isinstance(v, E.Var) and facts.root(v) in params
              and facts.root(v).type == v.type else v for v in last.value]
    if all(a is b for a, b in zip(values, last.value)):
        return func
    stmts = list(body.stmts[:-1]) if isinstance(body, St.SeqStmts) else []
    new_body = St.SeqStmts.flatten([*stmts, last.replace(value=tuple(values))], body.span)
    return func.replace(body=new_body)


def transform(program: Program) -> Program:
    graphs = [f for f in program._functions.values() if f.func_type is FunctionType.Graph]
    if not graphs:
        return program
    explicit = [_param_explicit_returns(g, program) for g in graphs]
    if any(a is not b for a, b in zip(explicit, graphs)):
        program = program.with_functions(
            [*(f for f in program._functions.values() if f.func_type is not FunctionType.Graph),
             *explicit])
        graphs = explicit
    plans = {g.name: _GraphPlan(g) for g in graphs}
    changed = {name: plan for name, plan in plans.items() if plan.removed}
    functions = program._functions
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
    result = program.with_functions(result_functions) if changed else program
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
    for func in functions.values():
        if func.func_type is FunctionType.Graph:
            check_graph_body(program, func, diagnostics)
    for func, sites in zip(functions.values(), sites_per_function):
        for call, stmt, _ in sites:
            check_call_site(func, functions[call.op.name], call, stmt, diagnostics)
    errors = errors_of(diagnostics)
    if errors:
        first = errors[0]
        more = f" (and {len(errors) - 1} more)" if len(errors) > 1 else ""
        raise ValueError(f"LegalizeGraphBoundary: {first.message}{more} at {first.span}")

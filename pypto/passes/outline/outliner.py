"""The shared scope outliner (03-passes.md §10) behind all four outlining passes.

Each pass is a configuration (``OutlineConfig``) of one engine.  Per function:

1. ``FunctionIndex`` numbers the body once (positions, last references, where
   targets and their stores sit) -- every later question is answered from it;
2. ``_Context.rewrite`` walks the body in execution order, descending only into
   statements that contain a target scope; each target scope is outlined
   bottom-up (its own nested targets first, so a body is analysed at its final,
   smaller size) and replaced by a call;
3. a store target renamed by a call inside a loop or if is carried out of it
   through a new iter_arg / return var (§10.4).

Statements without a target are kept as they are, or only renamed when an
earlier call renamed a store target they read.  Work is linear in the size of
the function plus the sizes of the outlined interfaces.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Callable

from ...errors import InternalError
from ...ir import expr as E
from ...ir import scope as S
from ...ir import stmt as St
from ...ir._deep import deep_recursion
from ...ir.enums import FunctionType, Level, Role
from ...ir.function import Function, Program
from ...ir.node import Expr, Stmt
from ...ir.visitor import IRMutator
from .extract import ScopeExtraction, extract_scope
from .index import FunctionIndex, VarCollector
from .naming import FunctionNames, VarNames

__all__ = ["OutlineConfig", "ScopeOutliner", "Renamer"]


@dataclass(frozen=True)
class OutlineConfig:
    """How one outlining pass uses the shared engine."""

    pass_name: str
    target: type                                  # the ScopeStmt class to outline
    name_suffix: Callable[[Any], str]             # "_incore_", "_host_orch_", ...
    signature: Callable[[Any], tuple[FunctionType, Level | None, Role | None]]
    function_attrs: Callable[[Any], dict] = lambda scope: {}
    call_attrs: Callable[[Any], dict] = lambda scope: {}
    export_store_targets: bool = True             # every kind but Hierarchy
    hoist_scalar_outputs: bool = False            # device kernels cannot return scalars
    reorder_returns_by_param: bool = False        # InCore
    use_program: bool = False                     # read callee param directions


class Renamer(IRMutator):
    """Replaces Vars by a mapping, without minting anything (read-only map)."""

    def __init__(self, mapping: dict[E.Var, Expr]) -> None:
        super().__init__()
        self.mapping = mapping

    def visit_var(self, op: E.Var) -> Expr:
        return self.mapping.get(op, op)

    def visit_iter_arg(self, op: E.IterArg) -> Expr:
        found = self.mapping.get(op)
        if found is not None:
            return found
        init = self.visit_expr(op.initValue)
        if init is op.initValue:
            return op
        fresh = E.IterArg(op.name_hint, op.type, init, op.span)
        self.mapping[op] = fresh
        return fresh


@dataclass
class _FunctionState:
    """Everything shared while one function of the program is processed."""

    outliner: "ScopeOutliner"
    func: Function
    index: FunctionIndex
    symbols: VarCollector
    func_names: FunctionNames
    var_names: VarNames
    outlined: list[Function] = field(default_factory=list)


class ScopeOutliner:
    """Outlines every ``config.target`` scope of the functions it is given."""

    def __init__(self, config: OutlineConfig, program: Program | None,
                 reserved: set[str]) -> None:
        self.config = config
        self.program = program if config.use_program else None
        self.reserved = reserved

    def outline_function(self, func: Function) -> tuple[Function, list[Function]]:
        """``func`` with its target scopes replaced by calls, and the new functions."""
        with deep_recursion():
            index = FunctionIndex(func.body, self.config.target,
                                  self.config.export_store_targets)
            if not index.has_target(func.body):
                return func, []
            symbols = VarCollector(func)
            state = _FunctionState(self, func, index, symbols,
                                   FunctionNames(self.reserved, symbols.names),
                                   VarNames(set(symbols.names)))
            context = _Context(state, func.name, root=func.body, required=False)
            body = context.rewrite(func.body)
        return func.replace(body=body), state.outlined


class _Context:
    """Rewrites one body (a function's, or an outlined scope's) in execution order."""

    def __init__(self, state: _FunctionState, base: str, root: Stmt, required: bool) -> None:
        self.state = state
        self.base = base                 # prefix of auto-named outlined functions
        self.root = root                 # the body this context rewrites
        self.required = required         # does the enclosing outlined scope export values?
        self.counter = 0
        self.rename: dict[E.Var, Expr] = {}
        self._undo: list[dict[E.Var, Expr | None]] = []
        self.renamed_targets: dict[E.Var, None] = {}  # store targets renamed here
        self.in_non_target_scope = 0

    # -- renames with rewindable frames ----------------------------------------------
    def value_of(self, var: E.Var) -> Expr:
        return self.rename.get(var, var)

    def set_rename(self, var: E.Var, value: Expr) -> None:
        if self._undo:
            self._undo[-1].setdefault(var, self.rename.get(var))
        self.rename[var] = value

    def push_frame(self) -> None:
        self._undo.append({})

    def pop_frame(self) -> None:
        for var, old in self._undo.pop().items():
            if old is None:
                self.rename.pop(var, None)
            else:
                self.rename[var] = old

    def subst(self, node: Any) -> Any:
        if not self.rename or node is None:
            return node
        return Renamer(self.rename)(node)

    # -- the walk ------------------------------------------------------------------------
    def rewrite(self, stmt: Stmt) -> Stmt:
        state = self.state
        if isinstance(stmt, state.outliner.config.target):
            return St.SeqStmts.flatten(self.outline(stmt), stmt.span)
        if not state.index.has_target(stmt):
            return self.subst(stmt)
        if isinstance(stmt, St.SeqStmts):
            return self._block(stmt)
        if isinstance(stmt, St.ForStmt):
            return self._for(stmt)
        if isinstance(stmt, St.WhileStmt):
            return self._while(stmt)
        if isinstance(stmt, St.IfStmt):
            return self._if(stmt)
        if isinstance(stmt, S.ScopeStmt):
            return self._scope(stmt)
        raise InternalError(f"{state.outliner.config.pass_name}: unexpected "
                            f"{type(stmt).__name__} containing a target scope")

    def _block(self, block: St.SeqStmts) -> Stmt:
        stmts = block.stmts
        target = self.state.outliner.config.target
        out: list[Stmt] = []
        for i, stmt in enumerate(stmts):
            if i + 1 < len(stmts) and _is_task_id_placeholder(stmt, stmts[i + 1], target):
                continue  # the parser's `tid = task_invalid()`; the call site defines tid
            out.append(self.rewrite(stmt))
        return St.SeqStmts.flatten(out, block.span)

    def _scope(self, scope: S.ScopeStmt) -> Stmt:
        self.in_non_target_scope += 1
        try:
            body = self.rewrite(scope.body)
        finally:
            self.in_non_target_scope -= 1
        attrs = self.subst_attrs(scope._attrs)
        changes: dict[str, Any] = {"body": body, "_attrs": attrs}
        if isinstance(scope, S.SpmdScopeStmt):
            changes["core_num"] = self.subst(scope.core_num)
        return scope.replace(**changes)

    def subst_attrs(self, attrs: dict) -> dict:
        if not self.rename:
            return attrs
        renamer = Renamer(self.rename)
        return {k: _map_attr(v, renamer) for k, v in attrs.items()}

    # -- control flow carries (§10.4) ------------------------------------------------------
    def _carried(self, stmt: Stmt) -> list[E.Var]:
        """Store targets defined outside ``stmt`` that a call inside it will rename."""
        index = self.state.index
        own = set(stmt.iter_args) if isinstance(stmt, (St.ForStmt, St.WhileStmt)) else set()
        return [t for t in index.stored_targets_in(stmt)
                if t not in own and not index.defined_inside(t, stmt)]

    def _for(self, loop: St.ForStmt) -> Stmt:
        bounds = {"start": self.subst(loop.start), "stop": self.subst(loop.stop),
                  "step": self.subst(loop.step)}
        return self._loop(loop, bounds, condition=None)

    def _while(self, loop: St.WhileStmt) -> Stmt:
        return self._loop(loop, {}, condition=loop.condition)

    def _loop(self, loop: St.ForStmt | St.WhileStmt, header: dict[str, Any],
              condition: Expr | None) -> Stmt:
        """Rewrite a loop body; carry store targets renamed inside it out of the loop."""
        iter_args = [self.subst(a) for a in loop.iter_args]  # inits are read before the loop
        carried = self._carried(loop)
        new_args = self._open_carries(carried, loop.span)
        self.push_frame()
        try:
            for old, new in zip(loop.iter_args, iter_args):
                if new is not old:
                    self.set_rename(old, new)
            for target, arg in zip(carried, new_args):
                self.set_rename(target, arg)
            if condition is not None:  # a while condition sees the current iter_args
                header["condition"] = self.subst(condition)
            body = self.rewrite(loop.body)
            finals = [self.value_of(t) for t in carried]
        finally:
            self.pop_frame()
        if carried:
            body = _extend_trailing_yield(body, finals, loop.span)
            header["return_vars"] = loop.return_vars + tuple(self._close_carries(carried,
                                                                                 loop.span))
        return loop.replace(iter_args=tuple(iter_args) + tuple(new_args), body=body, **header)

    def _open_carries(self, carried: list[E.Var], span: Any) -> list[E.IterArg]:
        names = self.state.var_names
        out = []
        for target in carried:
            entry = self.value_of(target)
            out.append(E.IterArg(names.mint(target.name_hint, "iter"), entry.type, entry, span))
        return out

    def _close_carries(self, carried: list[E.Var], span: Any) -> list[E.Var]:
        names = self.state.var_names
        rvs = []
        for target in carried:
            rv = E.Var(names.mint(target.name_hint, "rv"), self.value_of(target).type, span)
            self.set_rename(target, rv)
            rvs.append(rv)
        return rvs

    def _if(self, stmt: St.IfStmt) -> Stmt:
        condition = self.subst(stmt.condition)
        carried = self._carried(stmt)
        incoming = [self.value_of(t) for t in carried]
        self.push_frame()
        try:
            then_body = self.rewrite(stmt.then_body)
            then_values = [self.value_of(t) for t in carried]
        finally:
            self.pop_frame()
        self.push_frame()
        try:
            else_body = None if stmt.else_body is None else self.rewrite(stmt.else_body)
            else_values = [self.value_of(t) for t in carried]
        finally:
            self.pop_frame()
        if not carried:
            return stmt.replace(condition=condition, then_body=then_body, else_body=else_body)
        if else_body is None:
            if stmt.return_vars:
                raise InternalError(f"{self.state.outliner.config.pass_name}: an if with return "
                                    "vars but no else")
            else_body = St.YieldStmt(list(incoming), stmt.span)
        else:
            else_body = _extend_trailing_yield(else_body, else_values, stmt.span)
        then_body = _extend_trailing_yield(then_body, then_values, stmt.span)
        names = self.state.var_names
        rvs = []
        for target, value in zip(carried, then_values):
            rv = E.Var(names.mint(target.name_hint, "rv"), value.type, stmt.span)
            self.set_rename(target, rv)
            rvs.append(rv)
        return stmt.replace(condition=condition, then_body=then_body, else_body=else_body,
                            return_vars=stmt.return_vars + tuple(rvs))

    # -- outlining one scope --------------------------------------------------------------
    def next_name(self, scope: S.ScopeStmt) -> str:
        config = self.state.outliner.config
        counter = self.counter
        self.counter += 1
        candidate = scope.name_hint or f"{self.base}{config.name_suffix(scope)}{counter}"
        return self.state.func_names.claim(candidate, self.base)

    def outline(self, scope: S.ScopeStmt) -> list[Stmt]:
        state = self.state
        name = self.next_name(scope)
        exports_anything = (state.index.anything_referenced_between(scope, self.root)
                            or self.required)
        inner = _Context(state, name, root=scope.body, required=exports_anything)
        body = inner.rewrite(scope.body)
        fallback = not exports_anything
        extraction: ScopeExtraction = extract_scope(
            state, scope, name, body, inner.renamed_targets, fallback=fallback,
            inside_non_target_scope=self.in_non_target_scope > 0)
        state.outlined.append(extraction.function)
        return self._bind_call_site(extraction)

    def _bind_call_site(self, ex: ScopeExtraction) -> list[Stmt]:
        """Hoisted scalars, the call, and the output bindings in the parent (§10.3 11-12)."""
        stmts: list[Stmt] = [self.subst(s) for s in ex.hoisted]
        call = ex.make_call([self.value_of(c) for c in ex.captures], self)
        names = self.state.var_names
        lhs: list[E.Var] = []
        for output in ex.outputs:
            if output.is_store_target:
                fresh = E.Var(names.fresh_like(output.var), output.var.type, ex.span)
                lhs.append(fresh)
            else:
                lhs.append(output.var)
        if ex.task_id is not None:
            lhs.append(ex.task_id)
        if not lhs:
            stmts.append(St.EvalStmt(call, ex.span))
        elif len(lhs) == 1 and not ex.is_submit:
            stmts.append(St.AssignStmt(lhs[0], call, ex.span))
        else:
            tmp = E.Var(names.mint("ret", "tmp"), call.type, ex.span)
            stmts.append(St.AssignStmt(tmp, call, ex.span))
            for i, var in enumerate(lhs):
                stmts.append(St.AssignStmt(var, E.TupleGetItemExpr(tmp, i, ex.span), ex.span))
        for output, var in zip(ex.outputs, lhs):
            if output.is_store_target:
                self.set_rename(output.var, var)
                self.renamed_targets[output.var] = None
                for alias in ex.aliases_of.get(output.var, ()):
                    self.set_rename(alias, var)
        return stmts


def _map_attr(value: Any, renamer: Renamer) -> Any:
    if isinstance(value, Expr):
        return renamer.visit_expr(value)
    if isinstance(value, list):
        return [renamer.visit_expr(v) if isinstance(v, Expr) else v for v in value]
    if isinstance(value, tuple):
        return tuple(renamer.visit_expr(v) if isinstance(v, Expr) else v for v in value)
    return value


def _is_task_id_placeholder(stmt: Stmt, following: Stmt, target: type) -> bool:
    if not (isinstance(stmt, St.AssignStmt) and isinstance(following, target)):
        return False
    value = stmt.value
    return (isinstance(value, E.Call) and value.op.name == "system.task_invalid"
            and following._attrs.get("task_id_var") is stmt.var)


def _extend_trailing_yield(body: Stmt, values: list[Expr], span: Any) -> Stmt:
    """Append ``values`` to the yield ending ``body`` (creating one if there is none)."""
    if isinstance(body, St.YieldStmt):
        return body.replace(value=body.value + tuple(values))
    if isinstance(body, St.SeqStmts) and body.stmts:
        last = body.stmts[-1]
        if isinstance(last, (St.YieldStmt, S.RuntimeScopeStmt)):
            new_last = _extend_trailing_yield(last, values, span)
            if isinstance(last, S.RuntimeScopeStmt) and new_last is last:
                return St.SeqStmts.flatten([*body.stmts, St.YieldStmt(list(values), span)], span)
            return St.SeqStmts.flatten([*body.stmts[:-1], new_last], span)
    if isinstance(body, S.RuntimeScopeStmt):
        inner = body.body
        if _ends_in_yield(inner):
            return body.replace(body=_extend_trailing_yield(inner, values, span))
        return body
    return St.SeqStmts.flatten([body, St.YieldStmt(list(values), span)], span)


def _ends_in_yield(body: Stmt) -> bool:
    while True:
        if isinstance(body, St.YieldStmt):
            return True
        if isinstance(body, St.SeqStmts) and body.stmts:
            body = body.stmts[-1]
        elif isinstance(body, S.RuntimeScopeStmt):
            body = body.body
        else:
            return False

"""Outlining one scope: its function and its call site (03-passes.md §10.3, §10.5).

Given a scope whose nested targets are already outlined, this decides the
outputs (definitions used after the scope, plus store targets), hoists
scalar outputs where the parent is a Graph, derives captures and parameter
directions, and builds the outlined ``Function`` with param-explicit returns.
The caller (``_Context``) places the call and binds the results.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, cast

from ...errors import InternalError
from ...ir import expr as E
from ...ir import scope as S
from ...ir import stmt as St
from ...ir.dtype import DataType
from ...ir.enums import AUTO_SCOPED_FUNCTION_TYPES, FunctionType, ParamDirection
from ...ir.function import Function
from ...ir.node import Expr, GlobalVar, Stmt
from ...ir.ops import deduce_call_return_type
from ...ir.scalar_types import scalar_type
from ...ir.types import ScalarType, TensorType, TupleType, has_dynamic_dims
from ...ir.visitor import IRMutator
from ..diagnostic import PassError, PassErrorCode
from ..names import source_name
from .facts import BodyFacts, visible_definitions
from .hoist import hoist_scalar_outputs
from .move import BodyMover, Restart

if TYPE_CHECKING:
    from .outliner import _Context, _FunctionState

__all__ = ["ScopeExtraction", "Output", "extract_scope"]

_DISPATCH_KEYS = ("task_id_var", "manual_dep_edges", "allow_early_resolve", "predicate")


@dataclass
class Output:
    var: E.Var                    # the original Var (bound again at the call site)
    is_store_target: bool = False


@dataclass
class ScopeExtraction:
    scope: S.ScopeStmt
    function: Function
    captures: list[E.Var]
    outputs: list[Output]
    hoisted: list[St.AssignStmt]
    aliases_of: dict[E.Var, list[E.Var]] = field(default_factory=dict)
    task_id: E.Var | None = None
    is_submit: bool = False
    pass_name: str = ""

    @property
    def span(self) -> Any:
        return self.scope.span

    def make_call(self, args: list[Expr], ctx: "_Context") -> Expr:
        func = self.function
        types = func.return_types
        if any(has_dynamic_dims(t) for t in types):
            results = deduce_call_return_type(func.params, args, types)
        else:
            # No dim to substitute: the call's type is the function's return types, which
            # this outliner just built from checked Exprs (one per capture, same count).
            results = types[0] if len(types) == 1 else TupleType._of_checked(types)
        attrs = self._call_attrs(ctx)
        scope = self.scope
        if not self.is_submit:
            return E.Call(GlobalVar(func.name), args, {}, attrs, results, self.span)
        result_types = list(results.types) if isinstance(results, TupleType) else [results]
        if not func.return_types:
            result_types = []
        type_ = TupleType(result_types + [scalar_type(DataType.TASK_ID)])
        dispatch = scope._attrs
        deps = [ctx.subst(d) for d in dispatch.get("manual_dep_edges", ())]
        predicate = ctx.subst(dispatch.get("predicate"))
        core_num = attrs.pop("core_num", None)
        sync_start = bool(attrs.pop("sync_start", False))
        return E.Submit(GlobalVar(func.name), args, deps, type_, self.span, core_num=core_num,
                        sync_start=sync_start,
                        allow_early_resolve=bool(dispatch.get("allow_early_resolve", False)),
                        predicate=predicate, attrs=attrs)

    def _call_attrs(self, ctx: "_Context") -> dict[str, Any]:
        scope = self.scope
        attrs: dict[str, Any] = {}
        dumps = scope._attrs.get("dump_vars")
        if dumps:
            attrs["dump_vars"] = [ctx.subst(v) for v in dumps]
        no_dep = scope._attrs.get("arg_direction_overrides_vars")
        if no_dep:
            positions = {c: i for i, c in enumerate(self.captures)}
            indices = []
            for var in no_dep:
                if var not in positions:
                    if isinstance(var.type, TensorType):
                        raise PassError(
                            f"no_dep_args names '{source_name(var.name_hint)}', which the "
                            f"scope outlined as '{self.function.name}' does not use", scope.span,
                            code=PassErrorCode.UNUSED_NO_DEP_ARG, pass_name=self.pass_name,
                            hint=f"Remove '{source_name(var.name_hint)}' from no_dep_args: it "
                                 "lists tensors the region reads or writes")
                    continue
                indices.append(positions[var])
            attrs["arg_direction_overrides"] = sorted(indices)
        for key, value in ctx.state.outliner.config.call_attrs(scope).items():
            attrs[key] = ctx.subst(value) if isinstance(value, Expr) else value
        return attrs


class _BodyRewriter(IRMutator):
    """Moves a scope body into its function in one traversal: captures and outputs are
    remapped (``var_remap``), and each store into an exported target is bound
    (``store(.., t)`` -> ``t__store = store(.., t)``, §10.3 step 7)."""

    def __init__(self, targets: set[E.Var], names: Any) -> None:
        super().__init__()
        self.targets = targets
        self.names = names
        self.bound: set[E.Var] = set()

    def _target_of(self, expr: Expr) -> E.Var | None:
        if isinstance(expr, E.Call) and expr.op.name == "tile.store" and len(expr.args) > 2:
            target = expr.args[2]
            if isinstance(target, E.Var) and target in self.targets:
                return target
        return None

    def _binding(self, target: E.Var, value: Expr, span: Any) -> St.AssignStmt:
        name = self.names.store_binding(target.name_hint)
        return St.AssignStmt(E.Var(name, value.type, span), value, span)

    def visit_eval_stmt(self, op: St.EvalStmt) -> Stmt:
        new = cast(St.EvalStmt, super().visit_eval_stmt(op))  # (the mutator keeps the kind)
        target = self._target_of(op.expr) if self.targets else None
        if target is None:
            return new
        return self._binding(target, new.expr, op.span)

    def visit_assign_stmt(self, op: St.AssignStmt) -> Stmt:
        new = cast(St.AssignStmt, super().visit_assign_stmt(op))  # (the mutator keeps the kind)
        target = self._target_of(op.value) if self.targets else None
        if target is None:
            return new
        return St.SeqStmts.flatten([new, self._binding(target, new.var, op.span)], op.span)


def _direct_definitions(body: Stmt) -> set[E.Var]:
    stmts = body.stmts if isinstance(body, St.SeqStmts) else (body,)
    out: set[E.Var] = set()
    for stmt in stmts:
        if isinstance(stmt, St.AssignStmt):
            out.add(stmt.var)
        elif isinstance(stmt, (St.ForStmt, St.WhileStmt, St.IfStmt)):
            out.update(stmt.return_vars)
    return out


def _is_scalar_output(var: E.Var) -> bool:
    t = var.type
    return isinstance(t, ScalarType) and t.dtype is not DataType.TASK_ID


def extract_scope(state: "_FunctionState", scope: S.ScopeStmt, name: str, body: Stmt,
                  nested_renamed: dict[E.Var, None], *, fallback: bool,
                  inside_non_target_scope: bool) -> ScopeExtraction:
    config = state.outliner.config
    index = state.index
    symbols = state.symbols
    state.var_names.begin_function()
    visible = visible_definitions(body)

    # -- outputs: definitions still used after the scope (§10.2-10.3) -------------
    if fallback:
        # Nothing after the scope reads anything (§10.2 fallback): export the body's own
        # non-scalar definitions -- its direct statements, not those of nested regions,
        # which are that region's business.
        own = _direct_definitions(body)
        used = {v for v in own if not inside_non_target_scope and not _is_scalar_output(v)}
    else:
        used = {v for v in visible if index.used_after(v, scope)}
    hoisted: list[St.AssignStmt] = []
    if state.func.func_type in config.hoist_scalar_outputs_in:
        live_scalars = [v for v in visible if v in used and _is_scalar_output(v)]
        if live_scalars:
            body, hoisted = hoist_scalar_outputs(body, live_scalars)
            hoisted_vars = {s.var for s in hoisted}
            visible = [v for v in visible if v not in hoisted_vars]
            used -= hoisted_vars
    is_known, is_type_var = symbols.__contains__, (lambda var: var in symbols.type_vars)
    program = state.outliner.program
    moved = _move_body(state, scope, body, used, config, is_known, is_type_var, program)
    facts: BodyFacts = moved if moved is not None else BodyFacts(body, is_known, is_type_var,
                                                                 program)
    captures = list(facts.captures)
    captured = set(captures)
    # Targets kept in a dict (ordered, keyed by identity): `in` on a list of Vars would
    # compare them with `==`, which builds IR (and fails for tensors).
    store_targets_in: dict[E.Var, None] = {}
    if config.export_store_targets:
        store_targets_in = dict.fromkeys(t for t in facts.store_targets if t in captured)
        store_targets_in.update(dict.fromkeys(t for t in nested_renamed if t in captured))
    aliases_of: dict[E.Var, list[E.Var]] = {}
    regular: list[E.Var] = []
    for var in visible:
        if var not in used:
            continue
        target = facts.alias.get(var)
        if config.export_store_targets and target is not None and target in captured:
            aliases_of.setdefault(target, []).append(var)  # renamed to the call's value
            store_targets_in.setdefault(target, None)
            continue
        regular.append(var)
    store_targets = list(store_targets_in)
    outputs = [Output(v) for v in regular] + [Output(t, True) for t in store_targets]

    # -- parameters and their directions (§10.5) -----------------------------------
    exported = set(store_targets)
    directions = [_direction(c, facts, exported) for c in captures]
    if moved is not None:
        if moved.outputs != regular:
            raise InternalError(f"{config.pass_name}: the one-walk move of '{name}' chose "
                                "outputs the facts do not")
        remap = moved.remap
        body = moved.body
    else:
        bound = exported if config.bind_store_targets else set()
        remap, body = _rewrite_body(body, captures, regular, bound, state, scope)
    param_of = {c: remap[c] for c in captures}
    params = [param_of[c] for c in captures]

    # -- the body of the outlined function ------------------------------------------
    returned: list[Expr] = []
    for output in outputs:
        var = output.var
        if output.is_store_target:
            returned.append(param_of[var])
            continue
        root = facts.root(var)
        if isinstance(var.type, TensorType) and root in param_of and root.type == var.type:
            returned.append(param_of[root])
        else:
            returned.append(remap[var])
    if config.reorder_returns_by_param:
        outputs, returned = _reorder_by_param(outputs, returned, params, directions)
    stmts = [body]
    if returned:
        stmts.append(St.ReturnStmt(returned, scope.span))
    func_type, level, role = config.signature(scope)
    attrs = config.function_attrs(scope)
    if func_type in AUTO_SCOPED_FUNCTION_TYPES and state.func._attrs.get("auto_scope") is False:
        # A piece of a function without automatic scoping (its hand-placed pl.scope()
        # regions rely on that) is not auto-scoped either.
        attrs = {**attrs, "auto_scope": False}
    try:
        function = Function(name, list(zip(params, directions)), [r.type for r in returned],
                            St.SeqStmts.flatten(stmts, scope.span), scope.span, type=func_type,
                            level=level, role=role, attrs=attrs)
    except ValueError as exc:
        raise InternalError(f"{config.pass_name}: building '{name}': {exc}") from exc
    is_submit = any(key in scope._attrs for key in _DISPATCH_KEYS)
    task_id = scope._attrs.get("task_id_var")
    if is_submit and task_id is None:
        task_id = E.Var(state.var_names.mint("tid", "ssa"), scalar_type(DataType.TASK_ID),
                        scope.span)
    return ScopeExtraction(scope, function, captures, outputs, hoisted, aliases_of,
                           task_id if is_submit else None, is_submit, config.pass_name)


def _move_body(state: "_FunctionState", scope: S.ScopeStmt, body: Stmt, used: set[E.Var],
               config: Any, is_known: Any, is_type_var: Any,
               program: Any) -> BodyMover | None:
    """Facts and rebuilt body in one walk, or ``None`` when the body needs two."""
    names = state.var_names
    names.begin_trial()
    try:
        moved = BodyMover(body, is_known, is_type_var, program, is_output=used.__contains__,
                          export_store_targets=config.export_store_targets, names=names,
                          param_span=scope.span, bind_stores=config.bind_store_targets)
    except Restart:
        names.rollback()
        return None
    finally:
        names.commit()  # (after a rollback: a no-op)
    return moved


def _rewrite_body(body: Stmt, captures: list[E.Var], regular: list[E.Var],
                  exported: set[E.Var], state: "_FunctionState",
                  scope: S.ScopeStmt) -> tuple[dict[E.Var, Expr], Stmt]:
    """The two-walk rebuild (after ``BodyFacts``): types may mention remapped Vars."""
    mutator = _BodyRewriter(exported, state.var_names)
    remap = mutator.var_remap
    # Scalars first: tensor params' dims may mention captured scalars (never the reverse).
    for capture in sorted(captures, key=lambda c: not isinstance(c.type, ScalarType)):
        remap[capture] = E.Var(capture.name_hint, mutator.visit_type(capture.type), scope.span)
    for var in regular:
        remap[var] = E.Var(var.name_hint, mutator.visit_type(var.type), var.span)
    return remap, mutator(body)


def _direction(capture: E.Var, facts: BodyFacts, exported: set[E.Var]) -> ParamDirection:
    read = capture in facts.read
    direction = ParamDirection.In
    if capture in exported or capture in facts.builtin_written:
        direction = ParamDirection.InOut if read else ParamDirection.Out
    if capture in facts.callee_written:
        direction = (ParamDirection.InOut if read or capture in facts.callee_read
                     else ParamDirection.Out)
    return direction


def _reorder_by_param(outputs: list[Output], returned: list[Expr], params: list[Expr],
                      directions: list[ParamDirection]) -> tuple[list[Output], list[Expr]]:
    """InCore: when every result is a distinct written param, return them in param order."""
    position = {p: i for i, p in enumerate(params)}
    indices: list[int] = []
    for r in returned:
        index = position.get(r) if isinstance(r, E.Var) else None
        if index is None:
            return outputs, returned
        indices.append(index)
    if not indices or len(set(indices)) != len(indices):
        return outputs, returned
    if any(directions[i] is ParamDirection.In for i in indices):
        return outputs, returned
    order = sorted(range(len(indices)), key=lambda k: indices[k])
    return [outputs[k] for k in order], [returned[k] for k in order]

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
earlier call renamed a store target they read (the index's per-statement uses
say so; the statement is not walked to find out).  Each region body is then
walked once more by ``extract_scope`` (``BodyMover``: its facts -- captures,
directions, store targets -- and its rebuild as the outlined function's body in
one walk; two walks when a type mentions a Var).  Work is linear in the size of
the function plus the sizes of the outlined interfaces.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from operator import is_not
from typing import Any, Callable, cast

from ...errors import InternalError
from ...ir import expr as E
from ...ir import scope as S
from ...ir import stmt as St
from ...ir.depth import nesting_guard
from ...ir.enums import FunctionType, Level, ParamDirection, Role
from ...ir.function import Function, Program
from ...ir.node import Expr, GlobalVar, Stmt
from ...ir.visitor import IRMutator, map_attrs
from ..diagnostic import PassError, PassErrorCode
from .body_edits import extend_trailing_yield, is_task_id_placeholder, top_level_assigns
from .extract import ScopeExtraction, extract_scope
from .facts import returned_params
from .index import FunctionIndex, VarCollector
from .naming import FunctionNames, VarNames

__all__ = ["OutlineConfig", "ScopeOutliner", "Renamer"]


@dataclass(frozen=True)
class OutlineConfig:
    """How one outlining pass uses the shared engine."""

    pass_name: str
    target: type[S.ScopeStmt]                     # the ScopeStmt class to outline
    name_suffix: Callable[[Any], str]             # "_incore_", "_host_orch_", ...
    signature: Callable[[Any], tuple[FunctionType, Level | None, Role | None]]
    function_attrs: Callable[[Any], dict] = lambda scope: {}
    call_attrs: Callable[[Any], dict] = lambda scope: {}
    export_store_targets: bool = True             # every kind but Hierarchy
    # Bind each store into an exported target as ``t__store`` in the callee.  Not Graph:
    # its stores sit in kernel regions, which OutlineIncoreScopes binds when it lifts
    # them, so a graph region and a @pl.jit.graph function lower alike (seed example).
    bind_store_targets: bool = True
    # Parents whose live-out scalars are recomputed by the caller, not returned (hoist.py)
    hoist_scalar_outputs_in: tuple[FunctionType, ...] = ()
    reorder_returns_by_param: bool = False        # InCore
    use_program: bool = False                     # read callee param directions
    nested_targets: bool = True                   # may a target hold another (not kernels)


class Renamer(IRMutator):
    """Replaces Vars by a mapping, without minting anything (read-only map)."""

    def __init__(self, mapping: dict[E.Var, Expr]) -> None:
        super().__init__()
        self.mapping = mapping

    def visit_var(self, op: E.Var) -> Expr:
        return self.mapping.get(op, op)

    def visit_iter_arg(self, op: E.IterArg) -> Expr:
        """A read of a loop's iter_arg: renamed, or itself.  Never re-derived from its
        init, which is read before the loop: a fragment read inside a loop whose header
        this renamer did not rebuild (the enclosing loop's, rewritten by the outliner
        before a rename of its init was set) would get a fresh IterArg nothing defines."""
        return self.mapping.get(op, op)

    def iter_arg_def(self, op: E.IterArg) -> E.IterArg:
        """A loop header's iter_arg: a fresh one when its init reads a renamed Var."""
        found = self.mapping.get(op)
        if found is not None:
            return cast(E.IterArg, found)
        init = self.visit_expr(op.initValue)
        if init is op.initValue:
            return op
        fresh = E.IterArg(op.name_hint, op.type, init, op.span)
        self.mapping[op] = fresh
        return fresh

    def visit_for_stmt(self, op: St.ForStmt) -> Stmt:
        for arg in op.iter_args:  # the header first: the body reads what it defines
            self.iter_arg_def(arg)
        return super().visit_for_stmt(op)

    def visit_while_stmt(self, op: St.WhileStmt) -> Stmt:
        for arg in op.iter_args:
            self.iter_arg_def(arg)
        return super().visit_while_stmt(op)


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
        # Callee lookup for following in-place calls (``_follow_in_place_call``), which
        # every kind needs, whether or not it reads callee directions for its params.
        self.callees = program
        self.reserved = reserved

    def outline_function(self, func: Function) -> tuple[Function, list[Function]]:
        """``func`` with its target scopes replaced by calls, and the new functions."""
        with nesting_guard(func):
            index = FunctionIndex(func.body, self.config.target,
                                  self.config.export_store_targets)
            if not index.has_target(func.body):
                return func, []
            symbols = VarCollector(func, index.def_pos)
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
        self._target = state.outliner.config.target
        self.rename: dict[E.Var, Expr] = {}
        self._renamer_made: Renamer | None = None
        self._undo: list[dict[E.Var, Expr | None]] = []
        self.renamed_targets: dict[E.Var, None] = {}  # store targets renamed here
        # A Var -> the store targets it has been the latest value of (see ``_move_targets``).
        self._target_named: dict[Expr, list[E.Var]] = {}
        self._aliases: dict[E.Var, list[E.Var]] = {}  # store target -> its post-store aliases
        # Bodies being rewritten, innermost last: (end of the body, end of the statement
        # owning it, the targets a loop owner carries -- None for ifs and scopes).
        self._bodies: list[tuple[int, int, set[E.Var] | None]] = []
        self._loop_carried: dict[E.Var, int] = {}  # target -> enclosing loops carrying it
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

    @property
    def _renamer(self) -> Renamer:
        renamer = self._renamer_made
        if renamer is None:
            renamer = self._renamer_made = Renamer(self.rename)
        return renamer

    def subst(self, node: Any) -> Any:
        if not self.rename or node is None:
            return node
        # One renamer per context, over the live ``rename`` map (it keeps no state of its
        # own); the caller already runs under ``nesting_guard``.
        if isinstance(node, Stmt):
            return self._renamer.visit_stmt(node)
        return self._renamer.visit_expr(node)

    # -- the walk ------------------------------------------------------------------------
    def rewrite(self, stmt: Stmt) -> Stmt:
        state = self.state
        if isinstance(stmt, self._target):
            return St.SeqStmts.flatten(self.outline(stmt), stmt.span)
        if id(stmt) not in state.index.contains:  # holds no target
            if not self._touches_renamed(stmt):
                return stmt  # most statements: nothing renamed is read here
            new = self.subst(stmt)
            if self._target_named:
                for assign in top_level_assigns(new):
                    self._follow_in_place_call(assign, state.index.pos[id(stmt)])
            return new
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

    def _touches_renamed(self, stmt: Stmt) -> bool:
        """Does ``stmt`` read a renamed store target (or a value that names one)?

        Answered from the index's per-statement uses: far cheaper than rebuilding the
        statement through the renamer, which is only done when this says so.
        """
        rename, named = self.rename, self._target_named
        if not rename and not named:
            return False
        return self.state.index.reads_any(stmt, rename, named)

    def _follow_in_place_call(self, assign: St.AssignStmt, position: int) -> None:
        """``v = self.k(.., t_1, ..)`` where ``t_1`` is a renamed store target that ``k``
        writes in place and returns: ``v`` is now the target's latest value.  Without
        this, a loop/if carry would hand on ``t_1`` after ``k`` consumed it
        (InOutUseValid: read the call's result instead)."""
        call = assign.value
        if not (isinstance(call, E.Call) and isinstance(call.op, GlobalVar)):
            return
        program = self.state.outliner.callees
        callee = program.get_function(call.op.name) if program is not None else None
        if callee is None or len(callee.return_types) != 1:
            return
        returned = returned_params(callee)
        if not returned or returned[0] is None:
            return
        index = returned[0]
        if index >= len(call.args) or callee.param_directions[index] is ParamDirection.In:
            return
        arg = call.args[index]
        if isinstance(arg, E.Var):
            self._move_targets(arg, assign.var, position)

    def _read_after(self, target: E.Var, stmt: Stmt) -> bool:
        """Does code that runs after ``stmt`` need ``target``'s value?

        Walk outwards through the enclosing bodies: a reference (to the target or a
        post-store alias) later in the same body needs it; at a loop body's end the
        next iteration needs it if the loop carries it; at an if branch's end the walk
        continues after the whole if (the other branch never runs after this one).
        Beyond the body being rewritten, only the enclosing region's outputs can.
        """
        index = self.state.index
        names = [target, *self._aliases.get(target, ())]
        after = index.end[id(stmt)]
        for body_end, owner_end, loop_carried in reversed(self._bodies):
            if any(index.referenced_between(v, after, body_end) for v in names):
                return True
            if loop_carried is not None:
                return target in loop_carried
            after = owner_end
        root_end = index.end[id(self.root)]
        if any(index.referenced_between(v, after, root_end) for v in names):
            return True
        return self.required

    def _enter_body(self, body: Stmt, owner: Stmt, loop_carried: list[E.Var] | None) -> None:
        index = self.state.index
        self._bodies.append((index.end[id(body)], index.end[id(owner)],
                             None if loop_carried is None else set(loop_carried)))
        for target in loop_carried or ():
            self._loop_carried[target] = self._loop_carried.get(target, 0) + 1

    def _leave_body(self) -> None:
        _, _, loop_carried = self._bodies.pop()
        for target in loop_carried or ():
            count = self._loop_carried.pop(target) - 1
            if count:
                self._loop_carried[target] = count

    def _name_target(self, var: Expr, target: E.Var) -> None:
        self._target_named.setdefault(var, []).append(target)

    def _move_targets(self, consumed: E.Var, result: E.Var, position: int) -> None:
        """Every store target whose latest value ``consumed`` a call (at ``position``)
        wrote in place and returned as ``result`` now has ``result`` as its latest value.

        A target nothing can read any more -- no reference from ``position`` on, no
        enclosing loop carrying it, no region outputs to feed -- is dropped for good, so
        a chain of in-place calls moves only live targets (linear, not quadratic).
        """
        targets = self._target_named.get(consumed)
        if not targets:
            return
        index = self.state.index
        live: list[E.Var] = []
        for target in targets:
            if (not self.required and target not in self._loop_carried
                    and index.last_ref(target) < position
                    and all(index.last_ref(a) < position
                            for a in self._aliases.get(target, ()))):
                continue
            live.append(target)
            if self.value_of(target) is consumed:
                self.set_rename(target, result)
                self._name_target(result, target)
        targets[:] = live

    def _block(self, block: St.SeqStmts) -> Stmt:
        stmts = block.stmts
        target = self.state.outliner.config.target
        rewrite = self.rewrite
        out: list[Stmt] = []
        last = len(stmts) - 1
        for i, stmt in enumerate(stmts):
            if i < last and type(stmt) is St.AssignStmt \
                    and is_task_id_placeholder(stmt, stmts[i + 1], target):
                continue  # the parser's `tid = task_invalid()`; the call site defines tid
            out.append(rewrite(stmt))
        if len(out) == len(stmts) and not any(map(is_not, out, stmts)):
            return block  # nothing in it changed (it is flat already)
        return St.SeqStmts.flatten(out, block.span)

    def _scope(self, scope: S.ScopeStmt) -> Stmt:
        self.in_non_target_scope += 1
        self._enter_body(scope.body, scope, None)
        try:
            body = self.rewrite(scope.body)
        finally:
            self._leave_body()
            self.in_non_target_scope -= 1
        attrs = self.subst_attrs(scope._attrs)
        changes: dict[str, Any] = {"body": body, "_attrs": attrs}
        if isinstance(scope, S.SpmdScopeStmt):
            changes["core_num"] = self.subst(scope.core_num)
        return scope.replace(**changes)

    def subst_attrs(self, attrs: dict) -> dict:
        if not self.rename:
            return attrs
        return map_attrs(attrs, self._renamer.visit_expr)

    # -- control flow carries (§10.4) ------------------------------------------------------
    def _carried(self, stmt: Stmt) -> list[E.Var]:
        """Store targets defined outside ``stmt`` that a call inside it will rename."""
        index = self.state.index
        stored = index.stored_targets_in(stmt)
        if not stored:
            return stored
        own = set(stmt.iter_args) if isinstance(stmt, (St.ForStmt, St.WhileStmt)) else set()
        return [t for t in stored if t not in own and not index.defined_inside(t, stmt)]

    def _for(self, loop: St.ForStmt) -> Stmt:
        bounds = {"start": self.subst(loop.start), "stop": self.subst(loop.stop),
                  "step": self.subst(loop.step)}
        return self._loop(loop, bounds, condition=None)

    def _while(self, loop: St.WhileStmt) -> Stmt:
        return self._loop(loop, {}, condition=loop.condition)

    def _loop(self, loop: St.ForStmt | St.WhileStmt, header: dict[str, Any],
              condition: Expr | None) -> Stmt:
        """Rewrite a loop body; carry store targets renamed inside it out of the loop."""
        # inits are read before the loop
        iter_args = [self._renamer.iter_arg_def(a) for a in loop.iter_args] if self.rename \
            else list(loop.iter_args)
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
            self._enter_body(loop.body, loop, carried)
            body = self.rewrite(loop.body)
            finals = [self.value_of(t) for t in carried]
        finally:
            self._leave_body()
            self.pop_frame()
        if carried:
            body = extend_trailing_yield(body, finals, loop.span)
            header["return_vars"] = loop.return_vars + tuple(self._close_carries(carried,
                                                                                 loop.span))
        return loop.replace(iter_args=tuple(iter_args) + tuple(new_args), body=body, **header)

    def _open_carries(self, carried: list[E.Var], span: Any) -> list[E.IterArg]:
        names = self.state.var_names
        out = []
        for target in carried:
            entry = self.value_of(target)
            arg = E.IterArg(names.mint(target.name_hint, "iter"), entry.type, entry, span)
            self._name_target(arg, target)
            out.append(arg)
        return out

    def _close_carries(self, carried: list[E.Var], span: Any) -> list[E.Var]:
        names = self.state.var_names
        rvs = []
        for target in carried:
            rv = E.Var(names.mint(target.name_hint, "rv"), self.value_of(target).type, span)
            self.set_rename(target, rv)
            self._name_target(rv, target)
            rvs.append(rv)
        return rvs

    def _if(self, stmt: St.IfStmt) -> Stmt:
        condition = self.subst(stmt.condition)
        carried = self._carried(stmt)
        incoming = [self.value_of(t) for t in carried]
        for target, value in zip(carried, incoming):  # a branch may consume it in place
            self._name_target(value, target)
        then_body, then_values = self._branch(stmt.then_body, stmt, carried)
        else_body, else_values = (None, incoming) if stmt.else_body is None \
            else self._branch(stmt.else_body, stmt, carried)
        if not carried:
            if (condition is stmt.condition and then_body is stmt.then_body
                    and else_body is stmt.else_body):
                return stmt
            return stmt.replace(condition=condition, then_body=then_body, else_body=else_body)
        # Carry only what is read later: a dead carry would yield a branch's buffer
        # after a kernel in the other branch consumed it in place (InOutUseValid).
        needed = [i for i, t in enumerate(carried) if self._read_after(t, stmt)]
        carried = [carried[i] for i in needed]
        incoming = [incoming[i] for i in needed]
        then_values = [then_values[i] for i in needed]
        else_values = [else_values[i] for i in needed]
        if not carried:
            return stmt.replace(condition=condition, then_body=then_body, else_body=else_body)
        if else_body is None:
            if stmt.return_vars:
                raise InternalError(f"{self.state.outliner.config.pass_name}: an if with return "
                                    "vars but no else")
            else_body = St.YieldStmt(list(incoming), stmt.span)
        else:
            else_body = extend_trailing_yield(else_body, else_values, stmt.span)
        then_body = extend_trailing_yield(then_body, then_values, stmt.span)
        names = self.state.var_names
        rvs = []
        for target, value in zip(carried, then_values):
            rv = E.Var(names.mint(target.name_hint, "rv"), value.type, stmt.span)
            self.set_rename(target, rv)
            self._name_target(rv, target)
            rvs.append(rv)
        return stmt.replace(condition=condition, then_body=then_body, else_body=else_body,
                            return_vars=stmt.return_vars + tuple(rvs))

    def _branch(self, body: Stmt, owner: St.IfStmt,
                carried: list[E.Var]) -> tuple[Stmt, list[Expr]]:
        """One branch of ``owner`` rewritten in its own rename frame, with the values the
        carried targets have at its end."""
        self.push_frame()
        self._enter_body(body, owner, None)
        try:
            new = self.rewrite(body)
            return new, [self.value_of(t) for t in carried]
        finally:
            self._leave_body()
            self.pop_frame()

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
        jump = state.index.escaping.get(state.index.pos[id(scope)])
        if jump is not None:
            raise _escaping_jump(state, scope, name, jump)
        config = state.outliner.config
        if not config.nested_targets and state.index.has_target(scope.body):
            raise PassError(
                f"in function '{state.func.name}': the {type(scope).__name__} outlined as "
                f"'{name}' holds another one; a kernel cannot launch kernels", scope.span,
                code=PassErrorCode.KERNEL_IN_KERNEL, pass_name=config.pass_name)
        exports_anything = (state.index.anything_referenced_between(scope, self.root)
                            or self.required)
        inner = _Context(state, name, root=scope.body, required=exports_anything)
        body = inner.rewrite(scope.body)
        fallback = not exports_anything
        extraction: ScopeExtraction = extract_scope(
            state, scope, name, body, inner.renamed_targets, fallback=fallback,
            inside_non_target_scope=self.in_non_target_scope > 0)
        state.outlined.append(extraction.function)
        return self._bind_call_site(extraction, state.index.pos[id(scope)])

    def _bind_call_site(self, ex: ScopeExtraction, position: int) -> list[Stmt]:
        """Hoisted scalars, the call, and the output bindings in the parent (§10.3 11-12)."""
        stmts: list[Stmt] = [self.subst(s) for s in ex.hoisted]
        call = ex.make_call([self.value_of(c) for c in ex.captures], self)
        names = self.state.var_names
        lhs: list[E.Var] = []
        for output in ex.outputs:
            if output.is_store_target:
                # The call's result is a new SSA value of the target: ``acc__ssa_vN``
                # also when the target is an iter_arg (not ``acc__iter_vN``, which reads
                # as a loop's carried value), as PyPTO names it.
                fresh = E.Var(names.mint(output.var.name_hint, "ssa"), output.var.type,
                              ex.span)
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
        passed = [self.value_of(output.var) for output in ex.outputs]
        for output, var, arg in zip(ex.outputs, lhs, passed):
            if output.is_store_target:
                self.set_rename(output.var, var)
                self.renamed_targets[output.var] = None
                self._name_target(var, output.var)
                if isinstance(arg, E.Var):  # other targets this buffer was the value of
                    self._move_targets(arg, var, position)
                for alias in ex.aliases_of.get(output.var, ()):
                    self.set_rename(alias, var)
                    self._aliases.setdefault(output.var, []).append(alias)
        return stmts


def _escaping_jump(state: _FunctionState, scope: S.ScopeStmt, name: str,
                   jump: Stmt) -> PassError:
    """A return (or a break/continue of an enclosing loop) inside a scope: outlined, it
    would act on the new function instead of the one it was written in."""
    word = {St.ReturnStmt: "return", St.BreakStmt: "break"}.get(type(jump), "continue")
    leaves = (f"would return from '{name}', not from '{state.func.name}'"
              if word == "return" else "would leave a loop that is not in it")
    return PassError(
        f"in function '{state.func.name}': '{word}' inside the {type(scope).__name__} "
        f"outlined as '{name}' {leaves}; move it out of the scope", jump.span,
        code=PassErrorCode.JUMP_OUT_OF_REGION, pass_name=state.outliner.config.pass_name)


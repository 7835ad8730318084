"""InlineFunctions (03-passes.md §7): splice every ``FunctionType.Inline`` function
into its statement-level call sites, then drop all Inline functions.

1. No Inline function: the input program is returned (same object).
2. The Inline -> Inline call graph must be acyclic (``PassError`` naming the cycle).
3. Inline functions are expanded callee-first, so each body is expanded exactly
   once; every other function is then rewritten against the expanded bodies.
4. Recognised call sites: ``lhs = f(args)``, ``f(args)`` and ``return f(args)``,
   wherever the statement sits.  ``f(args)`` drops the returned value unless
   computing it has an effect (a store, a call of a function ...).  An
   ``auto_scope=False`` callee whose body places an AUTO ``pl.scope()`` by hand
   cannot be spliced into the automatic scope of an auto-scoped caller (outside its
   kernel regions): the parser's AUTO-scope rule would refuse the result, so the pass
   refuses the call (``PassError`` P102).  A call inside another expression and a
   ``pl.submit`` of an Inline function are left alone (the
   InlineFunctionsEliminated verifier reports them).

Cost: indexing and the call graph are linear in the input; every splice clones
an already expanded body, so the work is linear in the output IR.  A statement
walk first marks the statements on the way to a call site: the rewrite enters
only those (and everything after a multi-value splice, whose reads it renames).
"""

from __future__ import annotations

import itertools
import re
from typing import Iterator, cast

from ...errors import InternalError
from ...ir import expr as E
from ...ir import scope as S
from ...ir import stmt as St
from ...ir.depth import nesting_guard
from ...ir.enums import AUTO_SCOPED_FUNCTION_TYPES, FunctionType, Level, ParamDirection
from ...ir.function import Function, Program
from ...ir.node import Expr, GlobalVar, Stmt
from ...ir.ops.effects import op_has_declared_arg_effects
from ...ir.ops.registry import DEVICE_ONLY, OpDef
from ...ir.region_nesting import (GRAPH_FORBIDDEN_FUNCS, Region, function_region,
                                  region_refusal, scope_region)
from ...ir.scope import SCOPE_ATTR_KEYS
from ...ir.types import ShapedType
from ...ir.utils import collect_def_vars, deep_clone, flatten_to_stmts
from ...ir.visitor import IRMutator, IRVisitor
from ...ir.walk import iter_exprs, iter_stmts, stmt_children, stmt_exprs, var_uses
from ..diagnostic import PassError, PassErrorCode
from .inline_retype import RetypeClone, Retyping

__all__ = ["transform"]

PASS_NAME = "InlineFunctions"

# Every Var a splice defines is named ``<orig>_inline<N>``, N counting the splices of
# one run of the pass (a fresh count per run: names depend only on the program), so
# two splices of one callee never share names.
_INLINE_SUFFIX = re.compile(r"_inline\d+$")


# -- call graph ------------------------------------------------------------------------

class _CalleeCollector(IRVisitor):
    """Names of the Inline functions referenced by a body, in order of first appearance
    (and the first call or submit naming one, for the refusal of unspliced calls)."""

    def __init__(self, inline_names: dict[str, Function]) -> None:
        self._inline = inline_names
        self.callees: dict[str, None] = {}
        self.first: E.Call | E.Submit | None = None

    def _note(self, node: E.Call | E.Submit) -> None:
        op = node.op
        if isinstance(op, GlobalVar) and op.name in self._inline:
            self.callees.setdefault(op.name, None)
            if self.first is None:
                self.first = node

    def visit_call(self, op: E.Call) -> None:
        self._note(op)
        super().visit_call(op)

    def visit_submit(self, op: E.Submit) -> None:
        self._note(op)
        super().visit_submit(op)


def _refuse_unspliced(func: Function, inline: dict[str, Function]) -> None:
    """A call nested in an expression, or a submit, of an Inline function survives the
    splice; dropping the callee would leave it dangling."""
    collector = _CalleeCollector(inline)
    collector(func.body)
    node = collector.first
    if node is None:
        return
    what = "pl.submit of" if isinstance(node, E.Submit) else "call of"
    raise PassError(f"in function '{func.name}': the {what} Inline function "
                    f"'{node.op.name}' is not a statement of its own and cannot be spliced; "
                    "bind its value to a name first", node.span,
                    code=PassErrorCode.INLINE_NOT_SPLICEABLE, pass_name=PASS_NAME)


def _expansion_order(inline: dict[str, Function]) -> list[str]:
    """Inline function names, callees before callers; ``PassError`` on a cycle."""
    callees: dict[str, list[str]] = {}
    for name, func in inline.items():
        collector = _CalleeCollector(inline)
        collector(func.body)
        callees[name] = list(collector.callees)
    order: list[str] = []
    done: set[str] = set()
    for root in sorted(inline):
        if root in done:
            continue
        # Iterative DFS; ``path`` is the current call chain (for the cycle message).
        path: list[str] = [root]
        on_path = {root}
        pending = [iter(callees[root])]
        while pending:
            for callee in pending[-1]:
                if callee in on_path:
                    cycle = path[path.index(callee):] + [callee]
                    raise PassError("Cycle detected in FunctionType::Inline call graph: "
                                    + " -> ".join(cycle), inline[cycle[0]].span,
                                    code=PassErrorCode.INLINE_CYCLE, pass_name=PASS_NAME,
                                    hint="An Inline function is spliced into its callers; "
                                         "a cycle would never end. Make one of them "
                                         "an ordinary function")
                if callee not in done:
                    path.append(callee)
                    on_path.add(callee)
                    pending.append(iter(callees[callee]))
                    break
            else:
                pending.pop()
                finished = path.pop()
                on_path.discard(finished)
                done.add(finished)
                order.append(finished)
    return order


# -- the AUTO-scope rule -------------------------------------------------------------------

def _auto_scoped(func: Function) -> bool:
    return func.func_type in AUTO_SCOPED_FUNCTION_TYPES \
        and func.attrs.get("auto_scope", True) is not False


def _is_kernel_scope(stmt: Stmt) -> bool:
    """Code inside runs in one kernel, where the AUTO-scope rule does not apply."""
    if isinstance(stmt, (S.InCoreScopeStmt, S.SpmdScopeStmt, S.SplitAivScopeStmt)):
        return True
    return isinstance(stmt, S.HierarchyScopeStmt) and stmt.level.value <= Level.CORE_GROUP.value


def _hand_placed_auto_scope(body: Stmt) -> S.RuntimeScopeStmt | None:
    """The first AUTO ``pl.scope()`` of ``body`` outside its kernel regions."""
    pending = [body]
    while pending:
        stmt = pending.pop()
        if isinstance(stmt, S.RuntimeScopeStmt) and not stmt.manual:
            return stmt
        if not _is_kernel_scope(stmt):
            pending.extend(reversed(stmt_children(stmt)))
    return None


# -- expanded bodies ---------------------------------------------------------------------

class _ReturnFinder(IRVisitor):
    def __init__(self) -> None:
        self.returns: list[St.ReturnStmt] = []

    def visit_return_stmt(self, op: St.ReturnStmt) -> None:
        self.returns.append(op)


def _params_redefined_in_nested_bodies(func: Function, body: Stmt) -> set[E.Var]:
    """Params that the body re-assigns inside a loop or an if (scopes are straight-line).

    A param re-assigned only in straight-line code needs nothing special: the clone
    reads the argument up to the first assignment and the fresh local after it.
    Inside a loop or a branch that is wrong (the next iteration, or the code after
    an untaken branch, must see the new value), so such a param gets a local copy.
    """
    params = set(func.params)
    found: set[E.Var] = set()
    pending = flatten_to_stmts(body)
    while pending:
        stmt = pending.pop()
        if isinstance(stmt, S.ScopeStmt):
            pending.extend(flatten_to_stmts(stmt.body))
        elif isinstance(stmt, (St.ForStmt, St.WhileStmt, St.IfStmt)):
            found.update(v for v in collect_def_vars(stmt) if v in params)
    return found


class _Template:
    """An Inline function with its calls to other Inline functions already spliced.

    ``body`` ends with the function's trailing ``ReturnStmt`` (if any).  A param the
    body re-assigns inside a loop or an if is first copied into a local
    (``p = p``), so every assignment updates that local while the reads before it
    still see the argument -- except at a call whose argument nothing reads again,
    where the splice assigns the argument itself (``_Splicer._direct_params``).
    """

    __slots__ = ("name", "params", "body", "has_return", "auto_scope", "rebound", "_stmts",
                 "_prologue", "_span", "_regions")

    def __init__(self, func: Function, body: Stmt) -> None:
        stmts = flatten_to_stmts(body)
        finder = _ReturnFinder()
        finder(body)
        trailing = stmts[-1] if stmts and isinstance(stmts[-1], St.ReturnStmt) else None
        for ret in finder.returns:
            if ret is not trailing:
                raise InternalError(
                    f"{PASS_NAME}: Inline function '{func.name}' has a return that is not its "
                    f"last statement ({ret.span})")
        copied = _params_redefined_in_nested_bodies(func, body)
        self._prologue = {p: St.AssignStmt(p, p, p.span) for p in func.params if p in copied}
        self._stmts, self._span = stmts, body.span
        self.name = func.name
        self.params = func.params
        # Params the body assigns anywhere (the splice may give them the caller's Var).
        params = set(func.params)
        self.rebound = frozenset(v for v in collect_def_vars(body) if v in params)
        # A hand-placed AUTO scope the callee may hold (only with auto_scope=False).
        self.auto_scope = None if _auto_scoped(func) else _hand_placed_auto_scope(body)
        self.body = self.body_without_copies(frozenset())
        self.has_return = trailing is not None
        self._regions: list[tuple[S.ScopeStmt, tuple[Region, ...]]] | None = None

    def regions(self) -> list[tuple[S.ScopeStmt, tuple[Region, ...]]]:
        """Each region scope of the body with the body's regions around it, innermost
        first (found on first need: only a call inside a region asks)."""
        if self._regions is None:
            found: list[tuple[S.ScopeStmt, tuple[Region, ...]]] = []
            pending: list[tuple[Stmt, tuple[Region, ...]]] = [(self.body, ())]
            while pending:
                stmt, around = pending.pop()
                if isinstance(stmt, S.ScopeStmt):
                    region = scope_region(stmt)
                    if region is not None:
                        found.append((stmt, around))
                        around = (region, *around)
                pending.extend((child, around) for child in reversed(stmt_children(stmt)))
            self._regions = found
        return self._regions

    def body_without_copies(self, direct: frozenset) -> St.SeqStmts:
        """The body, with the local copy of each nested-rebound param not in ``direct``."""
        prologue = [stmt for p, stmt in self._prologue.items() if p not in direct]
        return St.SeqStmts([*prologue, *self._stmts], self._span)


def _base_of(name: str) -> str:
    """``t_inline3`` -> ``t``: re-splicing an expanded body does not stack suffixes.

    Trailing underscores go too: ``t_`` + ``_inline3`` would spell the reserved
    delimiter ``__`` (which the later passes refuse as a base name)."""
    return _INLINE_SUFFIX.sub("", name).rstrip("_") or "v"


def _merge_dump_vars(scope: S.ScopeStmt, dump_vars: list[Expr]) -> S.ScopeStmt:
    existing = list(scope._attrs.get("dump_vars", ()))
    merged = existing + [v for v in dump_vars if not any(v is e for e in existing)]
    attrs = dict(scope._attrs)
    attrs["dump_vars"] = merged
    # Keep the canonical attr order (the printer and the parser use it).
    ordered = {k: attrs[k] for k in SCOPE_ATTR_KEYS if k in attrs}
    ordered.update((k, v) for k, v in attrs.items() if k not in ordered)
    return scope.replace(attrs=ordered)


def _attach_dump_vars(stmt: Stmt, dump_vars: list[Expr]) -> Stmt:
    """Give the outermost non-runtime scopes under ``stmt`` the call site's ``dump_vars``."""
    if isinstance(stmt, S.ScopeStmt) and not isinstance(stmt, S.RuntimeScopeStmt):
        return _merge_dump_vars(stmt, dump_vars)
    if isinstance(stmt, St.SeqStmts):
        return St.SeqStmts.flatten([_attach_dump_vars(s, dump_vars) for s in stmt.stmts],
                                   stmt.span)
    if isinstance(stmt, St.IfStmt):
        else_body = None if stmt.else_body is None else _attach_dump_vars(stmt.else_body,
                                                                          dump_vars)
        return stmt.replace(then_body=_attach_dump_vars(stmt.then_body, dump_vars),
                            else_body=else_body)
    if isinstance(stmt, (St.ForStmt, St.WhileStmt, S.RuntimeScopeStmt)):
        return stmt.replace(body=_attach_dump_vars(stmt.body, dump_vars))
    return stmt


# -- call-site rewriting -------------------------------------------------------------------

class _Splicer(IRMutator):
    """Rewrites one function body, splicing statement-level calls of expanded Inline functions.

    A call whose callee returns several values binds nothing: later ``t[i]`` reads
    of its target ``t`` become the i-th value (a bare ``t`` becomes the tuple).
    """

    def __init__(self, templates: dict[str, _Template], caller: Function, body: Stmt,
                 splices: Iterator[int]) -> None:
        super().__init__()
        self._templates = templates
        self._splices = splices
        self._retyping = Retyping(body)
        self._caller = caller.name
        self._auto_scoped = _auto_scoped(caller)
        self._kernel_depth = 0  # kernel regions around the statement being rewritten
        # The regions around the statement being rewritten, innermost last; a kernel
        # function's body is the outermost one (the parser's nesting rules read these).
        self._func_type = caller.func_type
        caller_region = function_region(caller.func_type)
        self._regions: list[Region] = [] if caller_region is None else [caller_region]
        self._tuple_results: dict[E.Var, tuple[Expr, ...]] = {}
        self._touched, self._passed = _statements_to_calls(body, templates)
        # Splicing straight into the caller's Var (``_direct_params``) is decided for
        # the statements of the body's own level of a non-Inline caller only.
        self._top_level = [] if caller.func_type is FunctionType.Inline else \
            flatten_to_stmts(body)
        self._written_params = {p for p, d in zip(caller.params, caller.param_directions)
                                if d is not ParamDirection.In}
        # (position of each statement of that level, last position reading each Var)
        self._positions: tuple[dict[int, int], dict[E.Var, int]] | None = None

    def visit_stmt(self, op: Stmt) -> Stmt:
        # Without a call site below it, a statement only changes through a remapped Var
        # (a tuple result, or a re-minted Var): with neither pending, it stays as is.
        if id(op) not in self._touched and not self._tuple_results and not self.var_remap:
            return op
        region = scope_region(op) if isinstance(op, S.ScopeStmt) else None
        kernel = _is_kernel_scope(op)
        if region is None and not kernel:
            return super().visit_stmt(op)
        if region is not None:
            self._regions.append(region)
        self._kernel_depth += kernel
        try:
            return super().visit_stmt(op)
        finally:
            self._kernel_depth -= kernel
            if region is not None:
                self._regions.pop()

    def _check_nesting(self, template: _Template, call: E.Call) -> None:
        """The parser's nesting rules (``ir.region_nesting``) for the callee's regions
        spliced here: the body must be what the same text written here could be."""
        forbids_graphs = self._func_type in GRAPH_FORBIDDEN_FUNCS
        if not self._regions and not forbids_graphs:
            return
        around_call = tuple(reversed(self._regions))
        for scope, around in template.regions():
            refusal = region_refusal(scope, (*around, *around_call))
            if refusal is None and forbids_graphs and isinstance(scope, S.GraphScopeStmt):
                message = (f'pl.graph("{scope.name_hint}") is not valid inside a '
                           f"{self._func_type.name} function")
            elif refusal is None:
                continue
            else:
                message = refusal.message
            raise PassError(
                f"in function '{self._caller}': the Inline function '{template.name}' cannot "
                f"be spliced here: its {message} (line {scope.span.begin_line})", call.span,
                code=PassErrorCode.INLINE_REGION_NESTING, pass_name=PASS_NAME,
                hint=f"Call '{template.name}' outside the region, or write its body here "
                     "in a form the region allows")

    def _template_of(self, expr: Expr) -> _Template | None:
        if type(expr) is E.Call and isinstance(expr.op, GlobalVar):
            return self._templates.get(expr.op.name)
        return None

    def _read_after(self, stmt: Stmt, var: E.Var) -> bool | None:
        """Is ``var`` read after ``stmt``, a statement of the body's own level (``None``
        for any other statement)?  One walk over that level, on first need, noting the
        last read of the Vars passed to a spliced call (the only ones asked about)."""
        if self._positions is None:
            positions: dict[int, int] = {}
            last_read: dict[E.Var, int] = {}
            passed = self._passed
            for i, top in enumerate(self._top_level):
                positions[id(top)] = i
                for inner in iter_stmts(top):
                    for expr in stmt_exprs(inner):
                        for v in var_uses(expr):
                            if v in passed:
                                last_read[v] = i
            self._positions = positions, last_read
        positions, last_read = self._positions
        position = positions.get(id(stmt))
        if position is None:
            return None
        return last_read.get(var, -1) > position

    def _direct_params(self, template: _Template, call: E.Call, args: list[Expr],
                       stmt: Stmt) -> dict[E.Var, E.Var]:
        """Rebound params whose argument the splice may assign itself, as PyPTO's does
        (conformance 0443, 0532, 0562): a tensor Var of the caller passed once and read
        nowhere after this statement of the body's own level (not in a loop, so no next
        iteration reads it either), and not an ``Out``/``InOut`` parameter.  Assigning
        it then changes nothing anyone sees; any other argument gets a local copy."""
        if not template.rebound or not self._top_level or call._attrs.get("dump_vars"):
            return {}
        # Every Var the arguments read, with repeats: an argument expression that reads
        # ``x`` (substituted at the callee's uses) must not see the callee's updates.
        read_by_args = [v for a in args for v in var_uses(a)]
        direct: dict[E.Var, E.Var] = {}
        for param, arg, given in zip(template.params, args, call.args):
            if param in template.rebound and type(arg) is E.Var and arg is given \
                    and isinstance(arg.type, ShapedType) and arg.type == param.type \
                    and sum(v is arg for v in read_by_args) == 1 \
                    and arg not in self._written_params \
                    and self._read_after(stmt, arg) is False:
                direct[param] = arg
        return direct

    def _splice(self, template: _Template, call: E.Call,
                stmt: Stmt) -> tuple[list[Stmt], tuple | None]:
        """The cloned body (without its return) and the cloned return values."""
        if len(call.args) != len(template.params):
            raise InternalError(
                f"{PASS_NAME}: call of Inline function '{template.name}' in '{self._caller}' "
                f"passes {len(call.args)} argument(s) for {len(template.params)} "
                f"parameter(s) ({call.span})")
        if template.auto_scope is not None and self._auto_scoped and not self._kernel_depth:
            raise PassError(
                f"in function '{self._caller}': the Inline function '{template.name}' places "
                "an AUTO 'with pl.scope()' by hand (auto_scope=False) and cannot be spliced "
                f"into '{self._caller}', whose body is already one automatic scope",
                call.span, code=PassErrorCode.INLINE_AUTO_SCOPE_CONFLICT, pass_name=PASS_NAME,
                hint=f"Add auto_scope=False to '{self._caller}' too, use pl.manual_scope() in "
                     f"'{template.name}', or call it inside a kernel region")
        self._check_nesting(template, call)
        args = [self.visit_expr(a) for a in call.args]
        splice = next(self._splices)
        direct = self._direct_params(template, call, args, stmt)
        body = template.body_without_copies(frozenset(direct)) if direct else template.body
        clone, defined = deep_clone(body, list(zip(template.params, args)),
                                    name_of=lambda v: f"{_base_of(v.name_hint)}_inline{splice}")
        if direct:
            onto_args = IRMutator()
            onto_args.var_remap.update((defined[p], arg) for p, arg in direct.items())
            clone = onto_args.visit_stmt(clone)
        retyping = self._retyping
        for param, arg in zip(template.params, args):
            if arg.type != param.type:  # e.g. a Vec tile for a param declared without memory
                retyping.mark(arg)
        if retyping.retyped:
            clone = RetypeClone(retyping, clone).visit_stmt(clone)
        stmts = flatten_to_stmts(clone)
        values = None
        if template.has_return:
            values = cast(St.ReturnStmt, stmts.pop()).value  # the template ends with its return
        dump_vars = call._attrs.get("dump_vars")
        if dump_vars:
            stmts = [_attach_dump_vars(s, list(dump_vars)) for s in stmts]
        return stmts, values

    def _value_required(self, template: _Template, values: tuple | None,
                        stmt: Stmt) -> tuple:
        if values is None:
            raise InternalError(
                f"{PASS_NAME}: '{self._caller}' uses the value of Inline function "
                f"'{template.name}', which returns nothing ({stmt.span})")
        return values

    def visit_assign_stmt(self, op: St.AssignStmt) -> Stmt:
        template = self._template_of(op.value)
        if template is None:
            self._tuple_results.pop(op.var, None)  # a re-bound tuple target is a plain Var again
            return self._retyping.assign(self, op, self.visit_expr(op.value))
        stmts, values = self._splice(template, cast(E.Call, op.value), op)  # (_template_of)
        values = self._value_required(template, values, op)
        if len(values) == 1 and isinstance(values[0], E.MakeTuple):
            values = values[0].elements
        if len(values) != 1:
            self._tuple_results[op.var] = tuple(values)
        elif values[0] is not op.var:
            stmts.append(self._retyping.assign(self, St.AssignStmt(op.var, values[0], op.span),
                                               values[0]))
        return St.SeqStmts.flatten(stmts, op.span)

    def visit_eval_stmt(self, op: St.EvalStmt) -> Stmt:
        template = self._template_of(op.expr)
        if template is None:
            return super().visit_eval_stmt(op)
        stmts, values = self._splice(template, cast(E.Call, op.expr), op)  # (_template_of)
        # A discarded result is dropped, as PyPTO drops it, unless computing it does
        # something (a store, a pop, a call of a function): then it still has to run.
        stmts.extend(St.EvalStmt(v, op.span) for v in values or ()
                     if isinstance(v, E.Call) and not _pure(v))
        return St.SeqStmts.flatten(stmts, op.span)

    def visit_return_stmt(self, op: St.ReturnStmt) -> Stmt:
        template = self._template_of(op.value[0]) if len(op.value) == 1 else None
        if template is None:
            return super().visit_return_stmt(op)
        stmts, values = self._splice(template, cast(E.Call, op.value[0]), op)  # (_template_of)
        values = self._value_required(template, values, op)
        stmts.append(St.ReturnStmt(list(values), op.span))
        return St.SeqStmts.flatten(stmts, op.span)

    def visit_call(self, op: E.Call) -> Expr:
        return self._retyping.call(super().visit_call(op))

    def visit_tuple_get_item_expr(self, op: E.TupleGetItemExpr) -> Expr:
        values = self._tuple_results.get(op.tuple) if isinstance(op.tuple, E.Var) else None
        if values is not None:
            return values[op.index]
        return super().visit_tuple_get_item_expr(op)

    def visit_var(self, op: E.Var) -> Expr:
        values = self._tuple_results.get(op)
        if values is not None:
            return E.MakeTuple(values, op.span)
        return super().visit_var(op)


def _pure(expr: Expr) -> bool:
    """Whether ``expr`` only computes a value: every call in it is a tensor arithmetic op
    (``compute``) that writes none of its operands and has a CPU meaning."""
    for node in iter_exprs(expr):
        if isinstance(node, E.Call):
            op = node.op
            if not isinstance(op, OpDef) or not op.compute or op.semantics is DEVICE_ONLY \
                    or op_has_declared_arg_effects(op.name):
                return False
        elif isinstance(node, E.Submit):
            return False
    return True


def _statements_to_calls(body: Stmt, templates: dict[str, _Template]
                         ) -> tuple[set[int], set[E.Var]]:
    """Ids of the statements that are, or enclose, a statement-level call of an expanded
    Inline function (what ``_Splicer`` splices), and the Vars passed to those calls as
    arguments; one walk, no expression is entered below the calls."""
    touched: set[int] = set()
    passed: set[E.Var] = set()
    path: list[Stmt] = []
    stack: list[Stmt | None] = [body]   # None closes the innermost enclosing statement
    while stack:
        stmt = stack.pop()
        if stmt is None:
            path.pop()
            continue
        # (isinstance where the walk dispatched by exact class: no class derives from these)
        root: Expr
        if isinstance(stmt, St.AssignStmt):
            root = stmt.value
        elif isinstance(stmt, St.EvalStmt):
            root = stmt.expr
        elif isinstance(stmt, St.ReturnStmt) and len(stmt.value) == 1:
            root = stmt.value[0]
        else:
            nested = stmt.stmts if isinstance(stmt, St.SeqStmts) else stmt_children(stmt)
            if nested:
                path.append(stmt)
                stack.append(None)
                stack.extend(reversed(nested))
            continue
        if type(root) is E.Call and isinstance(root.op, GlobalVar) \
                and root.op.name in templates:
            passed.update(arg for arg in root.args if isinstance(arg, E.Var))
            if id(stmt) not in touched:
                touched.add(id(stmt))
                touched.update(map(id, path))
    return touched, passed


def _rewrite_body(func: Function, templates: dict[str, _Template],
                  splices: Iterator[int]) -> Stmt:
    return _Splicer(templates, func, func.body, splices).visit_stmt(func.body)


def transform(program: Program) -> Program:
    """``program`` without Inline functions (the same object if it has none)."""
    functions = program._functions
    inline = {name: f for name, f in functions.items() if f.func_type is FunctionType.Inline}
    if not inline:
        return program
    splices = itertools.count()
    with nesting_guard(program):
        templates: dict[str, _Template] = {}
        for name in _expansion_order(inline):
            func = inline[name]
            templates[name] = _Template(func, _rewrite_body(func, templates, splices))
        kept: list[Function] = []
        for name, func in functions.items():
            if name in inline:
                continue
            body = _rewrite_body(func, templates, splices)
            kept.append(func if body is func.body else func.replace(body=body))
        for func in kept:
            _refuse_unspliced(func, inline)
    return program.with_functions(kept)

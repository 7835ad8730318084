"""Reference implementations of the pipeline's hot verifiers, as they were before
their fast paths (``verifiers/ssa.py``, ``params.py``, ``checks.py``).

``test_verifier_reference.py`` runs both on many programs, good and bad, and
requires identical diagnostics.  Written for clarity, not speed: the SSA and
InOutUseValid walkers are plain ``DefUseWalker`` subclasses and the statement checks
run one at a time over ``iter_stmts`` / ``iter_calls``.
"""

from __future__ import annotations

from pypto.ir import expr as E
from pypto.ir import scope as S
from pypto.ir import stmt as St
from pypto.ir.enums import FunctionType, ParamDirection
from pypto.ir.function import Function, Program
from pypto.ir.node import Expr, GlobalVar, Stmt
from pypto.ir.span import Span
from pypto.ir.walk import CONST_TYPES, calls_in, leaf_call_reads, stmt_exprs
from pypto.passes.diagnostic import Diagnostic
from pypto.passes.verifiers.checks import StmtCheck
from pypto.passes.verifiers.def_use import DefUseWalker
from pypto.passes.verifiers.ssa import RULE as SSA_RULE, SSAErrorType
from pypto.passes.verifiers.walk import error, print_function, trailing_yield, type_vars

_WRITTEN = (ParamDirection.Out, ParamDirection.InOut)


def reference_ssa(program: Program) -> list[Diagnostic]:
    diagnostics: list[Diagnostic] = []
    for func in program._functions.values():
        walker = _SSAWalker(func)
        walker.run()
        walker.finish()
        if not walker.findings:
            continue
        suffix = f"\nIn function '{func.name}':\n{print_function(func)}"
        for kind, message, span in walker.findings:
            diagnostics.append(error(SSA_RULE, int(kind), message + suffix, span))
    return diagnostics


def reference_inout(program: Program) -> list[Diagnostic]:
    diagnostics: list[Diagnostic] = []
    for func in program._functions.values():
        if func.func_type is not FunctionType.Group:
            _InOutUseWalker(program, func, diagnostics).run()
    return diagnostics


def reference_checks(program: Program, check: StmtCheck) -> None:
    """One check alone, in the documented walk order (pre-order, hooks then calls)."""
    for func in program._functions.values():
        if not check.begin_function(func):
            continue
        for stmt, loop in _stmts_with_loop(func.body):
            for base, hook in check.stmt_hooks.items():
                if isinstance(stmt, base):
                    hook(stmt, loop)
            if check.on_call is not None:
                for root in stmt_exprs(stmt):
                    for call in calls_in(root):
                        check.on_call(call, stmt)


def _stmts_with_loop(body: Stmt):
    stack = [(body, None)]
    while stack:
        node, loop = stack.pop()
        yield node, loop
        inner = node if isinstance(node, (St.ForStmt, St.WhileStmt)) else loop
        if isinstance(node, St.SeqStmts):
            stack.extend((child, loop) for child in reversed(node.stmts))
        elif isinstance(node, St.IfStmt):
            if node.else_body is not None:
                stack.append((node.else_body, loop))
            stack.append((node.then_body, loop))
        elif isinstance(node, (St.ForStmt, St.WhileStmt, S.ScopeStmt)):
            stack.append((node.body, inner))


class _SSAWalker(DefUseWalker):
    """Records findings as (kind, message, span) in walk order."""

    def __init__(self, func: Function) -> None:
        super().__init__(func)
        self.findings: list[list] = []
        self.def_counts: dict[E.Var, int] = {}
        self.repeat_finding: dict[E.Var, list] = {}
        self.seen_defined: set[E.Var] = set()
        self.scope_reported: set[E.Var] = set()
        # name -> [(var, frame depth)] of visible definitions, outermost first
        self.names: dict[str, list[tuple[E.Var, int]]] = {}

    def _add(self, kind: SSAErrorType, message: str, span: Span) -> list:
        finding = [kind, message, span]
        self.findings.append(finding)
        return finding

    # -- visibility with name tracking --------------------------------------------------
    def bind(self, var: E.Var) -> None:
        super().bind(var)
        self.names.setdefault(var.name_hint, []).append((var, len(self.frames) - 1))

    def unbind(self, var: E.Var) -> None:
        super().unbind(var)
        entries = self.names[var.name_hint]
        entries.pop()
        if not entries:
            del self.names[var.name_hint]

    # -- hooks --------------------------------------------------------------------------
    def on_define(self, var: E.Var, stmt: Stmt | None) -> None:
        span = stmt.span if stmt is not None else var.span
        count = self.def_counts.get(var, 0) + 1
        self.def_counts[var] = count
        if count == 2:  # message completed once the total is known
            self.repeat_finding[var] = self._add(SSAErrorType.MULTIPLE_ASSIGNMENT, "", span)
        entries = self.names.get(var.name_hint)
        if entries:
            outer_var, outer_depth = entries[0]
            if outer_var is not var and outer_depth < len(self.frames) - 1:
                self._add(SSAErrorType.NAME_SHADOWING,
                          f"Variable '{var.name_hint}' shadows a variable of the same name "
                          "defined in an enclosing scope", span)
        self.seen_defined.add(var)

    def on_use(self, var: E.Var, stmt: Stmt) -> None:
        if var in self.visible or var not in self.seen_defined or var in self.scope_reported:
            return
        self.scope_reported.add(var)
        self._add(SSAErrorType.SCOPE_VIOLATION,
                  f"Variable '{var.name_hint}' used outside its defining scope", stmt.span)

    # -- yields and arities -------------------------------------------------------------
    def _check_yield(self, body: Stmt | None, expected: int, owner: str, what: str,
                     span: Span, required: bool) -> None:
        found = trailing_yield(body)
        if found is None:
            if required:
                self._add(SSAErrorType.MISSING_YIELD,
                          f"{owner} with {expected} {what} must end with a yield", span)
            return
        if len(found.value) != expected:
            self._add(SSAErrorType.YIELD_COUNT_MISMATCH,
                      f"Yield has {len(found.value)} value(s) but the {owner} has "
                      f"{expected} {what}", found.span)

    def _check_loop(self, stmt: St.ForStmt | St.WhileStmt) -> None:
        owner = type(stmt).__name__
        n_iter, n_ret = len(stmt.iter_args), len(stmt.return_vars)
        if n_iter != n_ret:
            self._add(SSAErrorType.ITER_ARGS_RETURN_VARS_MISMATCH,
                      f"{owner} has {n_iter} iter_args but {n_ret} return vars", stmt.span)
        self._check_yield(stmt.body, n_iter, owner, "iter_args", stmt.span, n_iter > 0)

    def visit_for(self, stmt: St.ForStmt) -> None:
        self._check_loop(stmt)
        super().visit_for(stmt)

    def visit_while(self, stmt: St.WhileStmt) -> None:
        self._check_loop(stmt)
        super().visit_while(stmt)

    def visit_if(self, stmt: St.IfStmt) -> None:
        n_ret = len(stmt.return_vars)
        if n_ret and stmt.else_body is None:
            self._add(SSAErrorType.MISSING_YIELD,
                      f"IfStmt with {n_ret} return vars must have an else branch", stmt.span)
        self._check_yield(stmt.then_body, n_ret, "IfStmt", "return vars", stmt.span, n_ret > 0)
        if stmt.else_body is not None:
            self._check_yield(stmt.else_body, n_ret, "IfStmt", "return vars", stmt.span,
                              n_ret > 0)
        super().visit_if(stmt)

    def finish(self) -> None:
        for var, finding in self.repeat_finding.items():
            finding[1] = (f"Variable '{var.name_hint}' is assigned more than once "
                          f"({self.def_counts[var]} times), violating SSA form")


class _InOutUseWalker(DefUseWalker):
    def __init__(self, program: Program, func: Function, diagnostics: list[Diagnostic]) -> None:
        super().__init__(func)
        self.program = program
        self.diagnostics = diagnostics
        self.params = set(func.params)
        # Var -> (direction, param name, callee name) of the call that wrote it
        self.consumed: dict[E.Var, tuple[ParamDirection, str, str]] = {}
        self.written_returned: dict[str, list[tuple[int, ParamDirection, str]]] = {}

    def on_define(self, var: E.Var, stmt: Stmt | None) -> None:
        self.consumed.pop(var, None)  # re-bound: later reads see the new value

    def define(self, var: E.Var, stmt: Stmt | None) -> None:
        """Only the consumed set matters here, not visibility: no binding."""
        for dim_var in type_vars(var.type):
            self.on_use(dim_var, stmt)
        self.consumed.pop(var, None)

    def on_use(self, var: E.Var, stmt: Stmt) -> None:
        found = self.consumed.pop(var, None)
        if found is None:
            return
        direction, param_name, callee = found
        self.diagnostics.append(error(
            "InOutUseValid", 0,
            f"Variable '{var.name_hint}' is read after being passed to {direction.name} "
            f"parameter '{param_name}' of '{callee}' in function '{self.func.name}'; use the "
            "call's result instead", stmt.span))

    def use(self, expr: Expr, stmt: Stmt) -> None:
        cls = type(expr)
        if cls is E.Var or cls is E.IterArg:  # the common operand: a plain read
            if self.consumed:
                self.on_use(expr, stmt)  # type: ignore[arg-type]
            return
        if cls in CONST_TYPES:  # for-loop bounds, mostly
            return
        reads = leaf_call_reads(expr) if cls is E.Call else None
        if reads is not None:  # a call over leaves (three-address form): reads, then writes
            if self.consumed:
                for var in reads:
                    self.on_use(var, stmt)
            self._mark_written(expr)
            return
        # Post-order: a call's arguments are read before the call writes them.
        stack: list[tuple[Expr, bool]] = [(expr, False)]
        while stack:
            node, done = stack.pop()
            if isinstance(node, E.Var):
                self.on_use(node, stmt)
            elif done:
                self._mark_written(node)
            else:
                stack.append((node, True))
                stack.extend((child, False) for child in reversed(_operands(node)))

    def _mark_written(self, node: Expr) -> None:
        if not (isinstance(node, (E.Call, E.Submit)) and isinstance(node.op, GlobalVar)):
            return
        callee = self.program.get_function(node.op.name)
        if callee is None:
            return
        args = node.args
        for index, direction, param_name in self._written_returned(callee):
            if index < len(args) and isinstance(args[index], E.Var):
                self.consumed[args[index]] = (direction, param_name, callee.name)

    def _written_returned(self, callee: Function) -> list[tuple[int, ParamDirection, str]]:
        """(index, direction, name) of each written param ``callee`` also returns (cached).

        Only a buffer the callee hands back has a "call's result" to use instead; a
        written param the callee does not return (e.g. a HOST function made by
        OutlineHierarchyScopes) is legitimately read through its own name afterwards."""
        found = self.written_returned.get(callee.name)
        if found is None:
            returned = _returned_param_indices(callee)
            found = [(index, direction, param.name_hint) for index, (param, direction)
                     in enumerate(zip(callee.params, callee.param_directions))
                     if direction in _WRITTEN and index in returned]
            self.written_returned[callee.name] = found
        return found

    def visit_values(self, stmt: St.ReturnStmt | St.YieldStmt) -> None:
        for value in stmt.value:
            if isinstance(stmt, St.ReturnStmt) and isinstance(value, E.Var) \
                    and value in self.params:
                continue  # a param-explicit return names the written buffer itself
            self.use(value, stmt)

    def visit_if(self, stmt: St.IfStmt) -> None:
        """Branches are alternatives: a buffer written in ``then`` may be read in ``else``
        (the outliners' if-carry yields the incoming value there); after the if, a
        buffer written in either branch counts as written."""
        self.use(stmt.condition, stmt)
        entry = dict(self.consumed)
        self.push()
        self.visit(stmt.then_body)
        branch_defs = self.pop()
        after_then = self.consumed
        self.consumed = dict(entry)
        if stmt.else_body is not None:
            self.push()
            self.visit(stmt.else_body)
            branch_defs = branch_defs + self.pop()
        self.consumed.update(after_then)
        if self.plain_if_leaks and not stmt.return_vars:
            self.reveal(branch_defs)
        for var in stmt.return_vars:
            self.define(var, stmt)

    def visit_scope(self, stmt: S.ScopeStmt) -> None:
        if isinstance(stmt, S.SpmdScopeStmt):
            self.use(stmt.core_num, stmt)
        self.visit(stmt.body)  # scope attrs (dump/dep lists) are metadata, not reads


def _returned_param_indices(callee: Function) -> set[int]:
    from pypto.passes.outline.facts import returned_params
    return {i for i in returned_params(callee) if i is not None}


def _operands(node: Expr) -> list[Expr]:
    """Operands that are real reads (call attrs are metadata)."""
    if isinstance(node, E.Call):
        return list(node.args)
    if isinstance(node, E.Submit):
        return [*node.args, *node.deps,
                *(x for x in (node.core_num, node.predicate) if x is not None)]
    if isinstance(node, E.BinaryExpr):
        return [node.left, node.right]
    if isinstance(node, E.UnaryExpr):
        return [node.operand]
    if isinstance(node, E.MakeTuple):
        return list(node.elements)
    if isinstance(node, E.TupleGetItemExpr):
        return [node.tuple]
    return []



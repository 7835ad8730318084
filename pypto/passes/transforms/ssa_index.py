"""The pre-pass of ConvertToSSA: one walk that numbers positions and records, per
source Var, its definitions and its last read; then, per compound statement
(``for`` / ``while`` / ``if``), the *candidate* Vars that may need a loop carry,
an escaping iter_arg or an if-merge phi there.

Positions follow execution order (pre-order; a compound's return vars are
defined at its exit, a ``while`` condition is read after its body).  A
statement's "needed after" set is the suffix of reads behind it: Var ``v`` is
needed after compound ``C`` iff its last read lies at or beyond ``C``'s
boundary -- an O(1) test.

Candidates are found by walking up from each definition (a walk per definition
stops at the first compound already marked for that Var), so the work is
proportional to the number of (compound, Var) pairs that the conversion turns
into iter_args and phis, not to (statements x nesting depth):

* a definition after the Var's first definition marks its enclosing compounds
  up to the one holding the first definition (there the Var already exists);
  reaching an ``if`` whose then-branch holds the first definition and whose
  else-branch holds this one marks the ``if`` (a value new in both branches);
* the first definition of a Var that is read after its loop marks every
  compound up to the outermost loop it escapes from (with the value promoted
  to an iter_arg there, it exists throughout that loop's body).

The conversion filters candidates against its live version map, so a candidate
that turns out to need nothing costs O(1).  Carries and phis are made whether or not
a read needs them (as PyPTO does); only escapes are checked against the reads here.
"""

from __future__ import annotations

from typing import Any, Callable, Iterator

from ...ir import expr as E
from ...ir import scope as S
from ...ir import stmt as St
from ...ir.function import Function
from ...ir.node import Expr, Stmt
from ...ir.walk import var_uses

__all__ = ["SSAIndex", "build_index", "expr_vars"]


def expr_vars(expr: Expr) -> Iterator[E.Var]:
    """Every Var read by ``expr`` (iterative; an IterArg use does not read its init)."""
    stack: list[Expr] = [expr]
    while stack:
        node = stack.pop()
        if isinstance(node, E.Var):
            yield node
        elif isinstance(node, E.Call):
            stack.extend(node.args)
            stack.extend(_attr_exprs(node._attrs))
        elif isinstance(node, E.BinaryExpr):
            stack.append(node.left)
            stack.append(node.right)
        elif isinstance(node, E.UnaryExpr):
            stack.append(node.operand)
        elif isinstance(node, E.MakeTuple):
            stack.extend(node.elements)
        elif isinstance(node, E.TupleGetItemExpr):
            stack.append(node.tuple)
        elif isinstance(node, E.Submit):
            stack.extend(node.args)
            stack.extend(node.deps)
            if node.core_num is not None:
                stack.append(node.core_num)
            if node.predicate is not None:
                stack.append(node.predicate)
            stack.extend(_attr_exprs(node._attrs))


def _attr_exprs(attrs: dict) -> list[Expr]:
    out: list[Expr] = []
    for value in attrs.values():
        if isinstance(value, Expr):
            out.append(value)
        elif isinstance(value, (list, tuple)):
            out.extend(item for item in value if isinstance(item, Expr))
    return out


class SSAIndex:
    """Positions, definitions, last reads and candidates of one function.

    Compound statements are dict keys (statement hashes are identities).
    """

    def __init__(self) -> None:
        self.enter: dict[Stmt, int] = {}
        self.boundary: dict[Stmt, int] = {}     # first position "after" the compound
        self.then_end: dict[Stmt, int] = {}     # if: positions below are the then-branch
        self.parent: dict[Stmt, Stmt | None] = {}
        self.under_scope: dict[Stmt, bool] = {}
        # Nearest ancestor-or-self loop that is not inside any scope (the loops a
        # value may escape from: a loop inside a scope never promotes a value).
        self.escape_loop: dict[Stmt, Stmt | None] = {}
        self.defs: dict[E.Var, list[tuple[int, Stmt | None]]] = {}
        self.reads: dict[E.Var, list[int]] = {}  # ascending positions, each once
        self.candidates: dict[Stmt, dict[E.Var, None]] = {}
        # (loop, Var): a value first defined in a loop inside a scope and read after the
        # loop before any redefinition -- it would need an escape, which such a loop
        # never gets (ConvertToSSA refuses it, as it refuses an escape without a seed).
        self.scoped_escapes: list[tuple[Stmt, E.Var]] = []
        # Does the input carry values itself (a yield, a loop's iter_args, an if's return
        # vars)?  Without, every yield of the conversion is its own, in matching numbers.
        self.own_carries = False

    def last_read(self, var: E.Var) -> int:
        positions = self.reads.get(var)
        return positions[-1] if positions else -1

    def needed_after(self, var: E.Var, compound: Stmt) -> bool:
        return self.last_read(var) >= self.boundary[compound]

    def first_def_pos(self, var: E.Var) -> int:
        found = self.defs.get(var)
        return found[0][0] if found else -1


_CONSTS = frozenset((E.ConstInt, E.ConstFloat, E.ConstBool))
_BINARY = frozenset(E.BINARY_CLASSES)


class _Indexer:
    def __init__(self, index: SSAIndex) -> None:
        self.index = index
        self.pos = 0
        self._reads = index.reads
        self._defs = index.defs

    def _read(self, expr: Expr) -> None:
        """Record the Vars ``expr`` reads at the current position.  The common node kinds
        are walked here by exact class (this is the index's hot loop); any other kind
        is left to ``var_uses``."""
        # Nodes are dispatched by exact class (``type(node) is``), which mypy does not
        # narrow through ``cls``; the stack and the read map hold them as ``Any``.
        reads: dict[Any, list[int]] = self._reads
        pos = self.pos
        stack: list[Any] = [expr]
        found: tuple[E.Var] | list[E.Var]
        while stack:
            node = stack.pop()
            cls = type(node)
            if cls is E.Var or cls is E.IterArg:
                found = (node,)
            elif cls in _CONSTS:
                continue
            elif cls is E.Call:
                if node._attrs:
                    stack.extend(_attr_exprs(node._attrs))
                # Vars and constants, nearly every argument, are settled without the stack.
                for arg in node.args:
                    kind = type(arg)
                    if kind is E.Var or kind is E.IterArg:
                        positions = reads.get(arg)
                        if positions is None:
                            reads[arg] = [pos]
                        elif positions[-1] != pos:
                            positions.append(pos)
                    elif kind not in _CONSTS:
                        stack.append(arg)
                continue
            elif cls is E.MakeTuple:
                stack.extend(node.elements)
                continue
            elif cls in _BINARY:
                stack.append(node.left)
                stack.append(node.right)
                continue
            else:
                found = var_uses(node)
            for var in found:
                positions = reads.get(var)
                if positions is None:
                    reads[var] = [pos]
                elif positions[-1] != pos:
                    positions.append(pos)

    def _define(self, var: E.Var, pos: int, anchor: Stmt | None) -> None:
        found = self._defs.get(var)
        if found is None:
            self._defs[var] = [(pos, anchor)]
        else:
            found.append((pos, anchor))

    def _open(self, stmt: Stmt, anchor: Stmt | None, scoped: bool) -> None:
        index = self.index
        if getattr(stmt, "iter_args", None) or stmt.return_vars:  # type: ignore[attr-defined]
            index.own_carries = True
        index.enter[stmt] = self.pos
        index.parent[stmt] = anchor
        index.under_scope[stmt] = scoped
        outer = index.escape_loop.get(anchor) if anchor is not None else None
        is_free_loop = not scoped and not isinstance(stmt, St.IfStmt)
        index.escape_loop[stmt] = stmt if is_free_loop else outer

    def walk(self, stmt: Stmt, anchor: Stmt | None, scoped: bool) -> None:
        handler = _WALKS.get(type(stmt))
        if handler is None:
            handler = _walk_of(type(stmt))
        handler(self, stmt, anchor, scoped)

    def _seq(self, stmt: St.SeqStmts, anchor: Stmt | None, scoped: bool) -> None:
        for child in stmt.stmts:
            if type(child) is St.AssignStmt:  # the common case, inline
                self._read(child.value)
                self._define(child.var, self.pos, anchor)
                self.pos += 1
            else:
                self.walk(child, anchor, scoped)

    def _assign(self, stmt: St.AssignStmt, anchor: Stmt | None, scoped: bool) -> None:
        self._read(stmt.value)
        self._define(stmt.var, self.pos, anchor)
        self.pos += 1

    def _eval(self, stmt: St.EvalStmt, anchor: Stmt | None, scoped: bool) -> None:
        self._read(stmt.expr)
        self.pos += 1

    def _values(self, stmt: St.ReturnStmt | St.YieldStmt, anchor: Stmt | None,
                scoped: bool) -> None:
        if type(stmt) is not St.ReturnStmt:
            self.index.own_carries = True
        for value in stmt.value:
            self._read(value)
        self.pos += 1

    def _if(self, stmt: St.IfStmt, anchor: Stmt | None, scoped: bool) -> None:
        self._open(stmt, anchor, scoped)
        self._read(stmt.condition)
        self.pos += 1
        self.walk(stmt.then_body, stmt, scoped)
        self.index.then_end[stmt] = self.pos
        self.pos += 1
        if stmt.else_body is not None:
            self.walk(stmt.else_body, stmt, scoped)
        self._close(stmt, stmt.return_vars, anchor)

    def _for(self, stmt: St.ForStmt, anchor: Stmt | None, scoped: bool) -> None:
        self._open(stmt, anchor, scoped)
        for bound in (stmt.start, stmt.stop, stmt.step):
            self._read(bound)
        for arg in stmt.iter_args:
            self._read(arg.initValue)
        for var in (stmt.loop_var, *stmt.iter_args):
            self._define(var, self.pos, stmt)
        self.pos += 1
        self.walk(stmt.body, stmt, scoped)
        self._close(stmt, stmt.return_vars, anchor)

    def _while(self, stmt: St.WhileStmt, anchor: Stmt | None, scoped: bool) -> None:
        self._open(stmt, anchor, scoped)
        for arg in stmt.iter_args:
            self._read(arg.initValue)
        for var in stmt.iter_args:
            self._define(var, self.pos, stmt)
        self.pos += 1
        self.walk(stmt.body, stmt, scoped)
        # The condition is evaluated again after every iteration of the body.
        self._read(stmt.condition)
        self.index.boundary[stmt] = self.pos
        self.pos += 1
        self._close(stmt, stmt.return_vars, anchor)

    def _scope(self, stmt: S.ScopeStmt, anchor: Stmt | None, scoped: bool) -> None:
        if isinstance(stmt, S.SpmdScopeStmt):
            self._read(stmt.core_num)
        if stmt._attrs:
            for value in _attr_exprs(stmt._attrs):
                self._read(value)
        self.pos += 1
        self.walk(stmt.body, anchor, True)

    def _other(self, stmt: Stmt, anchor: Stmt | None, scoped: bool) -> None:
        self.pos += 1  # break / continue / inline source

    def _close(self, stmt: Stmt, return_vars: tuple, anchor: Stmt | None) -> None:
        self.index.boundary.setdefault(stmt, self.pos)
        for var in return_vars:
            self._define(var, self.pos, anchor)
        self.pos += 1


# Statement class -> its walk, resolved once per class (subclasses by isinstance); each
# walk takes the statement class it is stored under.
_Walk = Callable[[_Indexer, Any, "Stmt | None", bool], None]
_WALKS: dict[type, _Walk] = {}
_WALK_KINDS: tuple[tuple[type | tuple[type, ...], _Walk], ...] = ((St.SeqStmts, _Indexer._seq), (St.AssignStmt, _Indexer._assign),
               (St.EvalStmt, _Indexer._eval), ((St.ReturnStmt, St.YieldStmt), _Indexer._values),
               (St.IfStmt, _Indexer._if), (St.ForStmt, _Indexer._for),
               (St.WhileStmt, _Indexer._while), (S.ScopeStmt, _Indexer._scope))


def _walk_of(cls: type) -> _Walk:
    handler = next((walk for kind, walk in _WALK_KINDS if issubclass(cls, kind)),
                   _Indexer._other)
    _WALKS[cls] = handler
    return handler


def _mark(index: SSAIndex, compound: Stmt, var: E.Var) -> bool:
    """Record ``var`` as a candidate of ``compound``; False if it already was."""
    found = index.candidates.get(compound)
    if found is None:
        index.candidates[compound] = {var: None}
        return True
    if var in found:
        return False
    found[var] = None
    return True


def _read_before_redefined(index: SSAIndex, var: E.Var, defs: list, boundary: int) -> bool:
    """Is ``var`` read at or after ``boundary`` before a definition there replaces it?"""
    reads = index.reads.get(var)
    if not reads or reads[-1] < boundary:
        return False
    first_read = next(pos for pos in reads if pos >= boundary)
    later_defs = [pos for pos, _ in defs if pos >= boundary]
    return not later_defs or first_read <= later_defs[0]


def _defined_by_header(loop: Stmt, var: E.Var) -> bool:
    """The loop's own variable, iter_args and return vars (not values of its body)."""
    if not isinstance(loop, (St.ForStmt, St.WhileStmt)):
        return False
    own = [*loop.iter_args, *loop.return_vars]
    if isinstance(loop, St.ForStmt):
        own.append(loop.loop_var)
    return any(var is v for v in own)


def _innermost_loop(index: SSAIndex, node: Stmt | None) -> Stmt | None:
    parent = index.parent
    while node is not None and not isinstance(node, (St.ForStmt, St.WhileStmt)):
        node = parent[node]
    return node


def _mark_candidates(index: SSAIndex) -> None:
    enter, parent = index.enter, index.parent
    scoped_loops = any(scoped and isinstance(stmt, (St.ForStmt, St.WhileStmt))
                       for stmt, scoped in index.under_scope.items())
    for var, defs in index.defs.items():
        first_pos, first_anchor = defs[0]
        if scoped_loops and first_anchor is not None:
            inner = _innermost_loop(index, first_anchor)
            if inner is not None and index.under_scope[inner] and \
                    not _defined_by_header(inner, var) and \
                    _read_before_redefined(index, var, defs, index.boundary[inner]):
                index.scoped_escapes.append((inner, var))
        # The loops the first value escapes from: read after them, not inside a scope.
        outermost = None
        loop = index.escape_loop.get(first_anchor) if first_anchor is not None else None
        while loop is not None and index.needed_after(var, loop):
            outermost = loop
            above = parent[loop]
            loop = index.escape_loop.get(above) if above is not None else None
        if outermost is not None:
            node = first_anchor
            while node is not None:
                _mark(index, node, var)
                if node is outermost:
                    break
                node = parent[node]
        for pos, anchor in defs[1:]:
            node = anchor
            while node is not None:
                if enter[node] <= first_pos:  # holds the first definition
                    if (isinstance(node, St.IfStmt)
                            and first_pos < index.then_end[node] < pos):
                        _mark(index, node, var)
                    break
                if not _mark(index, node, var):
                    break
                node = parent[node]


def build_index(func: Function) -> SSAIndex:
    """Index ``func`` (call under ``nesting_guard()``: the walk recurses per nesting level)."""
    index = SSAIndex()
    for param in func.params:
        index.defs.setdefault(param, []).append((-1, None))
    _Indexer(index).walk(func.body, None, False)
    _mark_candidates(index)
    return index

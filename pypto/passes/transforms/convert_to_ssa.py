"""ConvertToSSA (03-passes.md §8): give every definition its own Var.

The parser reuses one Var per source name; this pass keeps a version map
(source Var -> current version) while walking each function once in execution
order:

* every definition mints ``base__ssa_vN`` (parameters included); loop
  variables ``i__idx_vN``, loop-carried iter_args ``x__iter_vN``, loop return
  vars ``x__rv_vN``, if-merge phis ``x__phi_vN`` -- ``N`` counts per source Var
  across all roles;
* a loop carries every Var it re-assigns that existed before it, and promotes to
  an iter_arg every Var first assigned in its body that is read after it
  ("escaping"); both lists are sorted by name and appended after the loop's own
  iter_args / return vars / yield values;
* an ``if`` merges (phi) every Var whose version differs between its branches or
  that both branches define; a missing else yields the values from before;
* scopes are transparent: their attrs are substituted before the body and what
  the body defines stays visible afterwards.  A loop inside a scope never
  promotes a value.

Loop bodies and if branches open a frame of the version map; what a frame
defines is dropped when it closes unless carried out by a return var or phi.

Carries and phis follow the spec's rule, as PyPTO's do: a value the loop re-assigns
is carried, a value whose version differs between the branches is merged, whether or
not a later read needs it (harmless: the carried value has a source before the loop).
Escapes are where that over-approximation hurts: a value first defined in a loop and
redefined before any later read (``band`` loaded afresh in each of two loops) would
get an init with no source.  So the conversion records, per added iter_arg / return
var / phi ("slot"), the versions it forwards, and the versions real code reads; a slot
is live iff a real read reaches it through those forwarding edges.  A dead escape,
and a dead carry of a ``pl.unroll`` loop (which cannot carry values), is pruned: the
function is converted once more without them.  A dead carry never makes a ``break``
or ``continue`` refused (``check_jumps``).

HOST-level SubWorker functions (verbatim source bodies) are returned unchanged.
Complexity: one index walk (``ssa_index``) plus at most two conversion walks and
a worklist over the slots; work at a compound statement is proportional to the
iter_args / phis it receives.
"""

from __future__ import annotations

from types import MappingProxyType
from typing import Any, Callable, Iterable, Mapping, Sequence, cast, overload

from ...errors import InternalError
from ...ir import expr as E
from ...ir import scope as S
from ...ir import stmt as St
from ...ir.depth import nesting_guard
from ...ir.enums import ForKind, ParamDirection, Role, level_to_linqu_level
from ...ir.function import Function
from ...ir.node import Expr, GlobalVar, Stmt
from ...ir.ops.analysis import call_write_targets
from ...ir.span import Span
from ...ir.types import ScalarType, ShapedType, TensorType, TileType, TupleType, Type
from ...ir.walk import iter_stmts, stmt_exprs, type_vars, var_uses
from ...ir.utils import flatten_to_stmts
from .ssa_blocks import extend_trailing_yield, rebuilt_block, unchanged
from .ssa_index import SSAIndex, build_index
from .ssa_reads import ReadRewriter
from .ssa_scopes import VisibleVersions
from ...ir.structural import structural_equal
from ..diagnostic import PassError, PassErrorCode
from ..run_memo import note
from ..verifiers.ssa import SSA_BY_CONSTRUCTION, shape_is_valid
from ..names import STORE_SUFFIX, auto_name, base_name, split_auto_name

__all__ = ["transform", "PASS_NAME"]

PASS_NAME = "ConvertToSSA"


def _is_host_subworker(func: Function) -> bool:
    return (func.role is Role.SubWorker and func.level is not None
            and level_to_linqu_level(func.level) >= 3)


_Slot = tuple  # (source compound statement, source Var)
# (Module-level aliases: a subscripted generic in a hot function is built on every call.)
_Merged = list[tuple[E.Var, E.Var, E.Var, "E.Var | None"]]  # an if's (source, then, else, before)
_Bounds = tuple[E.ConstInt, E.ConstInt, E.ConstInt]


def _equality_key(type_: Type) -> object:
    """A dict key under which two types meet exactly when they are equal: for a type
    without Vars (nearly all) its class and plain value key, a tuple hash; else the
    type itself, whose first hash is a structural walk (one per type object, and the
    parser makes one per annotation)."""
    plain = type_._plain_key()
    return type_ if plain is None else (type(type_), plain)


class _Converter:
    def __init__(self, func: Function, index: SSAIndex | None = None,
                 dead: frozenset = frozenset()) -> None:
        self.func = func
        self.index: SSAIndex = build_index(func) if index is None else index
        self.dead: frozenset = dead  # slots pruned after an earlier conversion
        # Liveness bookkeeping: versions read by real code, and per slot the
        # versions it forwards (seed, yielded values).
        self.roots: set[E.Var] = set()
        self.slot_of: dict[E.Var, _Slot] = {}
        self.forwards: dict[_Slot, list[E.Var]] = {}
        # Visible version per source Var, and per type (by ``_type_key``) the most
        # recent one: an escaping value's fallback init.
        self.versions = VisibleVersions()
        self.canonical_types: dict[object, Type] = {}  # by ``_equality_key``
        self.type_keys: dict[int, tuple[Type, int]] = {}
        self.latest: dict[E.Var, E.Var] = {}
        # Source name -> [``base__``, next version]: the checked stem of every name
        # minted for it and its counter.  Keyed by name, not Var: distinct source Vars
        # sharing a name (the parser's ``_tuple_tmp``, one per tuple unpacking) must
        # not mint the same name twice.
        self.naming: dict[str, list] = {}
        self._rv_versions: dict[tuple[Stmt, E.Var], int] = {}  # (loop, source) -> version
        self._stems: dict[str, list] = {}  # ``base__`` -> its [stem, counter] (see _naming)
        # Why the output might not pass the SSA verifier (see ``by_construction``): a
        # read outside its definition's scope, an input yield or iter_arg, a repeated
        # name ...; empty when the conversion alone made every definition and yield.
        self.doubts: list[object] = []
        self.reads = ReadRewriter(self.versions.lookup, self.latest, self.roots,
                                  self.doubts.append)
        self.expr = self.reads.expr
        self.type = self.reads.type
        # Statement class -> its conversion (a function of the class: bound methods
        # here would make the converter a reference cycle), resolved by MRO on first
        # sight (``_conversion_of``) and kept for this conversion only.
        self.handlers: dict[type, Callable[[Any, Any], Stmt]] = dict(_CONVERSIONS)
        self.out_param_by_type: dict[object, E.Var] = {}  # by ``_equality_key``
        # Versions that may hold an escaping value's made-up seed -> (loop, source Var)
        # of that escape; live escapes seeded with no source (see ``check_escapes``).
        self._unsure: dict[E.Var, tuple[Stmt, E.Var]] = {}
        self._placeholder_escapes: set[tuple[Stmt, E.Var]] = set()
        self._escape_order: dict[tuple[Stmt, E.Var], int] = {}  # execution order
        # pl.unroll loops that would carry values (see ``check_unroll``).
        self.unroll_carries: list[tuple[St.ForStmt, list[E.Var]]] = []
        self._jumped: list[bool] = []  # per loop being converted: has it a break/continue?
        # Per loop being converted: the (source Var, iter_arg) of each carried value; the
        # first jump that would drop an update (see ``jump_stmt``).
        self._carries: list[tuple[Stmt, list[tuple[E.Var, E.IterArg]]]] = []
        self.jump_updates: list[tuple[Stmt, Stmt, E.Var]] = []
        self._buffer_of: dict[E.Var, E.Var] = {}  # version -> the buffer it writes in place
        self._placeholders: set[E.Var] = set()  # seeds with no source (see _escape_init)
        for param, direction in zip(func.params, func.param_directions):
            if direction is not ParamDirection.In:
                self.out_param_by_type.setdefault(_equality_key(param.type), param)

    # -- versions -------------------------------------------------------------------
    def current(self, var: E.Var) -> E.Var:
        """The visible version of ``var``; else its last version (a use outside the
        scope of its definition, which the SSA verifier reports); else ``var`` (free)."""
        found = self.versions.lookup(var)
        if found is None:
            found = self.latest.get(var, var)
            if found is not var:
                self.doubts.append(var)
        return found

    def _fail(self, message: str, span: Span) -> PassError:
        return PassError(f"in function '{self.func.name}': {message}", span,
                         code=PassErrorCode.SSA_UNCONVERTIBLE, pass_name=PASS_NAME)

    def _naming(self, source: E.Var) -> list:
        """``[base__, 0]`` for ``source``'s names: ``auto_name``'s base and checks, once
        per source name (minting is hot)."""
        hint = source.name_hint
        if hint and "__" not in hint:
            stem = hint + "__"  # a plain name is its own base (the usual case)
        else:
            try:
                stem = auto_name(hint, "v", 0)[:-len("v_v0")]
            except ValueError as exc:
                raise self._fail(f"cannot version variable '{hint}': {exc}",
                                 source.span) from None
        # One counter per stem: source names of one base (``acc__ssa_v0`` and
        # ``acc__ssa_v1`` in printed SSA text) share it, so re-converting that text
        # never mints one name twice.
        naming = self._stems.get(stem)
        if naming is None:
            naming = self._stems[stem] = [stem, 0]
        self.naming[hint] = naming
        return naming

    def reserve(self, source: E.Var) -> int:
        """Take ``source``'s next version number now, for a definition made later."""
        naming = self.naming.get(source.name_hint)
        if naming is None:
            naming = self._naming(source)
        version = naming[1]
        naming[1] = version + 1
        return version

    @overload
    def define(self, source: E.Var, role: str, type_: Type, span: Span,
               init: None = None, version: int | None = None) -> E.Var: ...
    @overload
    def define(self, source: E.Var, role: str, type_: Type, span: Span,
               init: Expr, version: int | None = None) -> E.IterArg: ...

    def define(self, source: E.Var, role: str, type_: Type, span: Span,
               init: Expr | None = None, version: int | None = None) -> E.Var:
        """Mint the next version of ``source`` (``auto_name(base, role, N)``), or the
        ``reserve``d ``version``, and bind it."""
        naming = self.naming.get(source.name_hint)
        if naming is None:
            naming = self._naming(source)
        if version is None:
            version = naming[1]
            naming[1] = version + 1
        name = f"{naming[0]}{role}_v{version}"
        new = E.Var(name, type_, span) if init is None else E.IterArg(name, type_, init, span)
        self.latest[source] = new
        found = self.type_keys.get(id(type_))
        self.versions.bind(source, new, found[1] if found else self._type_key(type_))
        return new

    def _type_key(self, type_: Type) -> int:
        """The same int for structurally equal types: the id of the first one seen.  Every
        definition is bound by type, and Type's own hash and ``==`` are Python methods."""
        found = self.type_keys.get(id(type_))
        if found is None:
            canonical = self.canonical_types.setdefault(_equality_key(type_), type_)
            # Holding ``type_`` keeps its id from being reused while it is cached.
            found = self.type_keys[id(type_)] = (type_, id(canonical))
        return found[1]

    def _slot(self, owner: Stmt, var: E.Var, versions: Iterable[E.Var],
              forwarded: Iterable[E.Var]) -> None:
        key = (owner, var)
        for version in versions:
            self.slot_of[version] = key
        self.forwards.setdefault(key, []).extend(forwarded)

    def prunable(self, dead: frozenset) -> frozenset:
        """The dead slots to leave out: escapes, and the carries of Unroll loops."""
        return frozenset(key for key in dead
                         if key in self._escape_order
                         or (type(key[0]) is St.ForStmt and key[0].kind is ForKind.Unroll))

    def dead_slots(self) -> frozenset:
        """Slots no real read reaches (a worklist over the forwarding edges)."""
        if not self.forwards:
            return frozenset()
        live: set[_Slot] = set()
        roots, slot_of = self.roots, self.slot_of
        if len(slot_of) < len(roots):  # the same seeds, from the smaller side
            pending = [key for version, key in slot_of.items() if version in roots]
        else:
            pending = [slot_of[v] for v in roots if v in slot_of]
        while pending:
            key = pending.pop()
            if key in live:
                continue
            live.add(key)
            for value in self.forwards.get(key, ()):
                found = self.slot_of.get(value)
                if found is not None and found not in live:
                    pending.append(found)
        return frozenset(key for key in self.forwards if key not in live)

    # -- function ---------------------------------------------------------------------
    def run(self) -> Function:
        func = self.func
        params = [self.define(p, "ssa", self.type(p.type), p.span) for p in func.params]
        return_types = tuple([self.type(t) for t in func.return_types])
        body = rebuilt_block(self.block(func.body), func.body, func.body.span)
        for t in [*(p.type for p in params), *return_types]:
            if type(t) is not ScalarType and any("__" in v.name_hint for v in type_vars(t)):
                # the verifier sees these Vars defined first: one named the way this
                # pass names its definitions could be shadowed by one
                self.doubts.append(t)
        return func.replace(params=tuple(params), return_types=return_types, body=body)

    @property
    def by_construction(self) -> bool:
        """Is the output in SSA form by construction -- would the SSA verifier find
        nothing in it?  Every definition is a Var minted here under a name minted once
        (``base__role_vN``, one counter per base: unique by construction),
        every read a version visible there (no fallback to ``latest``), every loop and
        if of the output has matching arities and yields (``shape_is_valid``), and no
        phi's type names a Var (it could be one of a branch)."""
        return not self.doubts

    # -- statements -------------------------------------------------------------------
    def block(self, body: Stmt) -> list[Stmt]:
        stmts: Sequence[Stmt] = body.stmts if type(body) is St.SeqStmts else (body,)
        if St.SeqStmts in map(type, stmts):  # nested blocks (not built by ``flatten``)
            stmts = flatten_to_stmts(body)
        last = len(stmts) - 1
        out: list[Stmt] = []
        handlers = self.handlers
        for i, stmt in enumerate(stmts):
            if isinstance(stmt, St.YieldStmt) and i != last:
                raise InternalError(f"{PASS_NAME}: in function '{self.func.name}': a yield "
                                    f"is not the last statement of its body [{stmt.span}]")
            handler = handlers.get(type(stmt))
            if handler is None:
                handler = handlers[type(stmt)] = _conversion_of(type(stmt))
            out.append(handler(self, stmt))
        return out

    def assign_stmt(self, stmt: St.AssignStmt) -> Stmt:
        value = self.expr(stmt.value)
        if isinstance(value, E.Var) or isinstance(value.type, (ShapedType, TupleType)):
            var_type = value.type
            declared = stmt.var.type
            if isinstance(declared, ShapedType) and declared.memref is not None:
                var_type = _keep_memref(var_type, self.type(declared))
        else:
            var_type = self.type(stmt.var.type)
        var = self.define(stmt.var, "ssa", var_type, stmt.var.span)
        if self._carries and type(value) is E.Call and not isinstance(value.op, GlobalVar):
            self._note_in_place(var, value)
        return stmt.replace(var=var, value=value)

    def _note_in_place(self, var: E.Var, call: E.Call) -> None:
        """``var = tile.store(t, off, out)`` (an op that writes an operand in place and
        returns it): ``var`` is the same buffer as ``out``, so a jump that hands on
        ``out`` loses nothing."""
        for target, _, _ in call_write_targets(call):
            if target.type == var.type:
                self._buffer_of[var] = self._buffer_of.get(target, target)
                return

    def eval_stmt(self, stmt: St.EvalStmt) -> Stmt:
        expr = self.expr(stmt.expr)
        return stmt if expr is stmt.expr else stmt.replace(expr=expr)

    def values_stmt(self, stmt: St.ReturnStmt | St.YieldStmt) -> Stmt:
        values = tuple([self.expr(v) for v in stmt.value])
        return stmt.replace(value=values)

    def seq_stmts(self, stmt: St.SeqStmts) -> Stmt:
        return St.SeqStmts.flatten(self.block(stmt), stmt.span)

    def scope_stmt(self, stmt: S.ScopeStmt) -> Stmt:
        # Scopes are transparent: the attrs are read on entry, and whatever the body
        # defines stays visible after it (no frame).
        attrs = self.reads.attrs(stmt._attrs)
        if isinstance(stmt, S.SpmdScopeStmt):
            core_num = self.expr(stmt.core_num)
            body = rebuilt_block(self.block(stmt.body), stmt.body, stmt.body.span)
            return stmt.replace(attrs=attrs, core_num=core_num, body=body)
        body = rebuilt_block(self.block(stmt.body), stmt.body, stmt.body.span)
        return stmt.replace(attrs=attrs, body=body)

    # -- loops ------------------------------------------------------------------------
    def _sorted(self, variables: Iterable[E.Var]) -> list[E.Var]:
        first = self.index.first_def_pos
        return sorted(variables, key=lambda v: (v.name_hint, first(v)))

    def _loop_values(self, loop: St.ForStmt | St.WhileStmt,
                     own: tuple[E.Var, ...]) -> tuple[list[E.Var], list[E.Var]]:
        """(carried, escaping) source Vars of ``loop``, each sorted by name."""
        index = self.index
        if loop not in index.candidates:
            return [], []
        own_ids = {id(v) for v in own}
        may_escape = not index.under_scope[loop]
        carried: list[E.Var] = []
        escaping: list[E.Var] = []
        dead = self.dead
        for var in index.candidates[loop]:
            if id(var) in own_ids or (dead and (loop, var) in dead):
                continue
            if self.versions.lookup(var) is not None:
                carried.append(var)
            elif may_escape and index.needed_after(var, loop):
                escaping.append(var)
        return self._sorted(carried), self._sorted(escaping)

    def _escape_init(self, var: E.Var) -> E.Var:
        """Seed of an escaping value: an Out/InOut param of its type, else a visible
        Var of its type, else an unversioned placeholder.  ``check_escapes`` makes sure
        no read can observe it."""
        var_type = self.type(var.type)
        param = self.out_param_by_type.get(_equality_key(var_type))
        if param is not None:
            return self.current(param)
        found = self.versions.lookup_type(self._type_key(var_type))
        if found is not None:
            return found
        placeholder = E.Var(base_name(var.name_hint), var_type, var.span)
        self._placeholders.add(placeholder)
        return placeholder

    def check_unroll(self) -> None:
        """An Unroll loop cannot carry values: its iterations are copies of the body, and
        ``pl.unroll`` has no ``init_values`` (PyPTO's ConvertToSSA refuses it too).
        Checked on the pruned result, so only carries some read needs count."""
        if not self.unroll_carries:
            return
        loop, carried = self.unroll_carries[0]
        names = ", ".join(f"'{v.name_hint}'" for v in carried)
        raise self._fail(f"the pl.unroll loop carries {names} from one iteration to the "
                         "next, and an Unroll loop cannot carry values; use pl.range for a "
                         "loop that updates a value", loop.span)

    def check_scoped_escapes(self) -> None:
        """A value first defined in a loop inside a scope and read after the loop would
        need an escape, which such a loop never gets: refused from the index alone,
        before any conversion."""
        scoped = self.index.scoped_escapes
        if scoped:
            loop, var = min(scoped, key=lambda found: self.index.enter[found[0]])
            # Reported at the read, as Python reports an unbound name (and mypy a
            # possibly undefined one): the read is what the value is missing for.
            read = _first_read_after(self.func.body, loop, var)
            raise self._fail(
                f"'{var.name_hint}' may be unbound after the loop at line "
                f"{loop.span.begin_line}: it is first defined in the body of a loop inside "
                "a region, and a loop there never carries a value out; define "
                f"'{var.name_hint}' before the loop", _read_or_loop_span(read, loop))

    def check_escapes(self) -> None:
        """Refuse a program that would observe an escaping value's seed.

        A value first defined in a loop body and read after the loop gets an iter_arg
        seeded with a value of its type that the source never assigned.  Its versions
        that may still hold the seed are "unsure" (``_unsure``): the iter_arg, a carry
        seeded from one, a phi merging one, a return var when the loop may not run its
        body to the end (no constant trip count >= 1, or a break/continue).  Python
        fails with UnboundLocalError where such a version is read; pypto refuses it
        rather than invent the value.  A live seed with no source is refused too: it
        could not be printed.
        """
        unsure = self._unsure
        observed = {unsure[v] for v in self.roots if v in unsure} if unsure else set()
        culprits = observed | self._placeholder_escapes
        if not culprits:
            return
        loop, var = min(culprits, key=self._escape_order.__getitem__)
        name = var.name_hint
        if (loop, var) not in observed:
            reason = (f"its loop carry needs an initial value of type {var.type} from before "
                      "the loop, and there is none")
        else:
            reason = ("it is first defined in the body of the loop, which need not run to "
                      "its end (no constant trip count, a break or continue, or a path that "
                      "does not define it)")
        read = _first_read_after(self.func.body, loop, var)  # reported at the read
        raise self._fail(f"'{name}' may be unbound after the loop at line "
                         f"{loop.span.begin_line}: {reason}; define '{name}' before the loop",
                         _read_or_loop_span(read, loop))

    def _loop_header(self, loop: St.ForStmt | St.WhileStmt, inits: list[Expr],
                     carried: list[E.Var], escaping: list[E.Var],
                     seeds: list[E.Var]) -> list[E.IterArg]:
        """Open the body frame and define the loop's iter_args (own ones first)."""
        iter_args = [self.define(arg, "iter", self.type(arg.type), arg.span, init)
                     for arg, init in zip(loop.iter_args, inits)]
        unsure = self._unsure
        n_carried = len(carried)
        for position, (var, seed) in enumerate(zip(carried + escaping, seeds)):
            arg = self.define(var, "iter", seed.type, loop.span, seed)
            # The loop's result for ``var`` takes the next version before the body does
            # (``x__iter_v1``, ``x__rv_v2``, then ``x__ssa_v3`` in the body), as PyPTO
            # numbers them.
            self._rv_versions[(loop, var)] = self.reserve(var)
            iter_args.append(arg)
            self._slot(loop, var, (arg,), (seed,))
            if position >= n_carried:  # escaping: the seed is made up
                unsure[arg] = (loop, var)
                self._escape_order.setdefault((loop, var), len(self._escape_order))
                if seed in self._placeholders:
                    self._placeholder_escapes.add((loop, var))
            elif seed in unsure:
                unsure[arg] = unsure[seed]
        return iter_args

    def _loop_exit(self, loop: St.ForStmt | St.WhileStmt, body: list[Stmt],
                   added: list[E.Var], iter_args: list[E.IterArg],
                   surely_runs: bool) -> tuple[Stmt, list[E.Var]]:
        """Close the body frame: extend the yield, then define the return vars."""
        tails = [self.current(v) for v in added]
        unsure = self._unsure
        self.versions.pop()
        kind = type(loop).__name__
        body = self._finish_body(body, tails, bool(loop.iter_args), loop, kind)
        return_vars = [self.define(rv, "rv", self.type(rv.type), rv.span)
                       for rv in loop.return_vars]
        own = len(loop.iter_args)
        for var, arg, tail in zip(added, iter_args[own:], tails):
            rv = self.define(var, "rv", arg.type, loop.span,
                             version=self._rv_versions.pop((loop, var)))
            return_vars.append(rv)
            self._slot(loop, var, (rv,), (tail,))
            if unsure:
                origin = unsure.get(tail) or (None if surely_runs else unsure.get(arg))
                if origin is not None:
                    unsure[rv] = origin
        return rebuilt_block(body, loop.body, loop.body.span), return_vars

    def _loop_body(self, loop: St.ForStmt | St.WhileStmt, carried: list[E.Var],
                   iter_args: list[E.IterArg]) -> tuple[list[Stmt], bool]:
        """The converted body, and whether the loop surely runs it to its end at least
        once (constant bounds with an iteration, no break/continue of its own)."""
        own = len(loop.iter_args)
        self._jumped.append(False)
        self._carries.append((loop, list(zip(carried, iter_args[own:own + len(carried)]))))
        try:
            body = self.block(loop.body)
        finally:
            jumped = self._jumped.pop()
            self._carries.pop()
        surely_runs = (type(loop) is St.ForStmt and not jumped
                       and _runs_at_least_once(loop))
        return body, surely_runs

    def jump_stmt(self, stmt: Stmt) -> Stmt:
        """break / continue: the enclosing loop may end an iteration early.

        A jump hands the carried values on as the iteration started (the iter_args):
        SSA has no yield at a jump.  A carried value updated before the jump on this
        path would lose that update, so it is refused (``check_jumps``)."""
        if self._jumped:
            self._jumped[-1] = True
            loop, carries = self._carries[-1]
            buffer_of = self._buffer_of
            for var, arg in carries:
                current = self.versions.lookup(var)
                if current is not arg and (current is None or buffer_of.get(current) is not arg):
                    self.jump_updates.append((stmt, loop, var))
        return stmt

    def check_jumps(self, dead: frozenset) -> None:
        """Refuse the first jump that drops an update of a carry some read needs
        (``dead``: the slots no read reaches)."""
        found = next(((stmt, loop, var) for stmt, loop, var in self.jump_updates
                      if (loop, var) not in dead), None)
        if found is None:
            return
        stmt, loop, var = found
        word = "break" if isinstance(stmt, St.BreakStmt) else "continue"
        name = var.name_hint
        raise self._fail(
            f"the '{word}' would drop the update of '{name}' made earlier in the same "
            f"iteration of the loop at {loop.span}: the loop carries '{name}', and a {word} "
            f"hands on the value the iteration started with; update '{name}' after the "
            f"'{word}' test, or put the rest of the body under an if instead of the {word}",
            stmt.span)

    def for_stmt(self, loop: St.ForStmt) -> Stmt:
        start, stop, step = (self.expr(loop.start), self.expr(loop.stop), self.expr(loop.step))
        inits = [self.expr(arg.initValue) for arg in loop.iter_args]
        carried, escaping = self._loop_values(loop, (loop.loop_var, *loop.iter_args))
        if loop.kind is ForKind.Unroll and (loop.iter_args or carried or escaping):
            self.unroll_carries.append((loop, [*loop.iter_args, *carried, *escaping]))
        seeds = [self.current(v) for v in carried] + [self._escape_init(v) for v in escaping]
        self.versions.push()
        loop_var = self.define(loop.loop_var, "idx", self.type(loop.loop_var.type),
                               loop.loop_var.span)
        iter_args = self._loop_header(loop, inits, carried, escaping, seeds)
        body, surely_runs = self._loop_body(loop, carried, iter_args)
        body_stmt, return_vars = self._loop_exit(loop, body, carried + escaping, iter_args,
                                                 surely_runs)
        return self._checked(loop.replace(
            loop_var=loop_var, start=start, stop=stop, step=step, iter_args=tuple(iter_args),
            body=body_stmt, return_vars=tuple(return_vars)))

    def while_stmt(self, loop: St.WhileStmt) -> Stmt:
        inits = [self.expr(arg.initValue) for arg in loop.iter_args]
        carried, escaping = self._loop_values(loop, tuple(loop.iter_args))
        seeds = [self.current(v) for v in carried] + [self._escape_init(v) for v in escaping]
        self.versions.push()
        iter_args = self._loop_header(loop, inits, carried, escaping, seeds)
        condition = self.expr(loop.condition)  # evaluated in the body's scope
        body, surely_runs = self._loop_body(loop, carried, iter_args)
        body_stmt, return_vars = self._loop_exit(loop, body, carried + escaping, iter_args,
                                                 surely_runs)
        return self._checked(loop.replace(condition=condition, iter_args=tuple(iter_args),
                                          body=body_stmt, return_vars=tuple(return_vars)))

    # -- if ---------------------------------------------------------------------------
    def _branch(self, body: Stmt,
                candidates: list[E.Var]) -> tuple[list[Stmt], Sequence[E.Var | None]]:
        self.versions.push()
        stmts = self.block(body)
        versions = [self.versions.lookup(v) for v in candidates] if candidates else ()
        self.versions.pop()
        return stmts, versions

    def if_stmt(self, stmt: St.IfStmt) -> Stmt:
        condition = self.expr(stmt.condition)
        found = self.index.candidates.get(stmt)
        candidates: list[E.Var] = []
        if found:
            dead = self.dead
            candidates = [v for v in found if not (dead and (stmt, v) in dead)]
        before = [self.versions.lookup(v) for v in candidates]
        then_body, then_versions = self._branch(stmt.then_body, candidates)
        if stmt.else_body is not None:
            else_body, else_versions = self._branch(stmt.else_body, candidates)
        else:
            else_body, else_versions = None, before
        # (source, then version, else version, version before): the filter drops the
        # Nones of the branch versions, which mypy does not see through the tuple.
        merged: _Merged = [
            (v, t, e, b) for v, t, e, b in zip(candidates, then_versions, else_versions, before)
            if t is not None and e is not None and t is not e] if candidates else []
        if len(merged) > 1:
            first = self.index.first_def_pos
            merged.sort(key=lambda item: (item[0].name_hint, first(item[0])))
        has_own = bool(stmt.return_vars)
        then_body = self._finish_body(then_body, [t for _, t, _, _ in merged], has_own, stmt,
                                      "IfStmt then-branch")
        if else_body is not None:
            else_body = self._finish_body(else_body, [e for _, _, e, _ in merged], has_own,
                                          stmt, "IfStmt else-branch")
        elif has_own:
            raise self._fail(f"an if with {len(stmt.return_vars)} return value(s) has no else "
                             "branch", stmt.span)
        elif merged:
            # no else: the else versions are the versions from before the if
            else_body = [St.YieldStmt([e for _, _, e, _ in merged], stmt.span)]
        return_vars = [self.define(rv, "rv", self.type(rv.type), rv.span)
                       for rv in stmt.return_vars]
        unsure = self._unsure
        for var, then_version, else_version, _ in merged:
            if type(then_version.type) is not ScalarType and type_vars(then_version.type):
                self.doubts.append(then_version)
            phi = self.define(var, "phi", then_version.type, stmt.span)
            return_vars.append(phi)
            self._slot(stmt, var, (phi,), (then_version, else_version))
            if unsure:
                origin = unsure.get(then_version) or unsure.get(else_version)
                if origin is not None:
                    unsure[phi] = origin
        return self._checked(stmt.replace(
            condition=condition,
            then_body=rebuilt_block(then_body, stmt.then_body, stmt.then_body.span),
            else_body=None if else_body is None else rebuilt_block(
                else_body, stmt.else_body,
                stmt.else_body.span if stmt.else_body is not None else stmt.span),
            return_vars=tuple(return_vars)))

    def _checked(self, stmt: Stmt) -> Stmt:
        """``stmt``, doubted if its arities or yields are wrong (the input's own
        iter_args, return vars and yields come through as they are; without any, the
        conversion's own match by construction)."""
        if self.index.own_carries and not shape_is_valid(cast(St.ForStmt, stmt)):
            self.doubts.append(stmt)
        return stmt

    # -- yields -----------------------------------------------------------------------
    def _finish_body(self, body: list[Stmt], extra: Sequence[Expr], must_yield: bool,
                     owner: Stmt, what: str) -> list[Stmt]:
        """Append ``extra`` to the yield that ends ``body`` (created if needed)."""
        extended = extend_trailing_yield(body, extra)
        if extended is not None:
            return extended
        if must_yield:
            raise self._fail(f"{what} with return values does not end with pl.yield_(...)",
                             owner.span)
        if extra:
            body = body + [St.YieldStmt(list(extra), owner.span)]
        return body


def _first_read_after(body: Stmt, loop: Stmt, var: E.Var) -> Stmt | None:
    """The first statement after ``loop`` (in program order, outside it) reading ``var``."""
    inside: set[int] | None = None
    for stmt in iter_stmts(body):
        if inside is None:
            if stmt is loop:
                inside = {id(s) for s in iter_stmts(loop)}
            continue
        if id(stmt) not in inside and any(v is var for e in stmt_exprs(stmt)
                                          for v in var_uses(e)):
            return stmt
    return None


def _read_or_loop_span(read: Stmt | None, loop: Stmt) -> Span:
    return read.span if read is not None and read.span.is_valid() else loop.span


def _inline_source(converter: _Converter, stmt: Stmt) -> Stmt:
    return unchanged(stmt)  # (the SSA verifier does not walk inline source)


def _unchanged(converter: _Converter, stmt: Stmt) -> Stmt:
    converter.doubts.append(stmt)  # a statement kind the conversion does not know
    return unchanged(stmt)


# The conversion of each statement kind, keyed by the IR's classes.  A class not
# listed converts as the first listed class of its MRO (every ScopeStmt kind, at any
# depth below ScopeStmt, as a scope), so no subclass is left out by design.
_CONVERSIONS: Mapping[type, Callable[[_Converter, Any], Stmt]] = MappingProxyType({
    St.AssignStmt: _Converter.assign_stmt, St.EvalStmt: _Converter.eval_stmt,
    St.ReturnStmt: _Converter.values_stmt, St.YieldStmt: _Converter.values_stmt,
    St.ForStmt: _Converter.for_stmt, St.WhileStmt: _Converter.while_stmt,
    St.IfStmt: _Converter.if_stmt, S.ScopeStmt: _Converter.scope_stmt,
    St.SeqStmts: _Converter.seq_stmts, St.BreakStmt: _Converter.jump_stmt,
    St.ContinueStmt: _Converter.jump_stmt, St.InlineStmt: _inline_source})


def _conversion_of(cls: type) -> Callable[[_Converter, Any], Stmt]:
    """The conversion of statement class ``cls``: that of its nearest listed base."""
    for base in cls.__mro__:
        conversion = _CONVERSIONS.get(base)
        if conversion is not None:
            return conversion
    return _unchanged


def transform(func: Function) -> Function:
    """``func`` in SSA form (HOST-level SubWorker functions are returned unchanged)."""
    if _is_host_subworker(func):
        return func
    with nesting_guard(func):
        converter = _Converter(func)
        converter.check_scoped_escapes()
        converted = converter.run()
        dead = converter.dead_slots()
        pruned = converter.prunable(dead)
        if pruned:
            converter = _Converter(func, converter.index, pruned)
            converted = converter.run()
        converter.check_unroll()
        converter.check_jumps(dead)
        converter.check_escapes()
        if _named_as_converted(func, converter.index) \
                and structural_equal(converted, func, enable_auto_mapping=True):
            return func  # SSA text printed by pypto: only the names would change
        if converter.by_construction:
            note(SSA_BY_CONSTRUCTION, converted, True)
        return converted


def _named_as_converted(func: Function, index: SSAIndex) -> bool:
    """Is ``func`` already in SSA form with pass-minted names (a compiled program read
    back)?  Then converting only renames, and keeping its names makes compiling the
    printed output again a fixpoint.  (Parsed text has one Var per name, so
    distinct minted names are distinct Vars, and keeping them shadows nothing.)"""
    for var, definitions in index.defs.items():
        if len(definitions) != 1 or not _is_minted(var.name_hint):
            return False
    return True


def _is_minted(name: str) -> bool:
    return split_auto_name(name) is not None or (name.endswith(STORE_SUFFIX)
                                                 and base_name(name) != name)


def _keep_memref(value_type: Type, declared: Type) -> Type:
    """The value's type with the memref (and a tile's memory space, which a memref
    needs) the variable was declared with: the memref says where the data lies, and
    is no part of type equality, so the value's type may not carry it."""
    if isinstance(value_type, TensorType) and type(value_type) is TensorType \
            and type(declared) is TensorType:  # (a distributed tensor keeps its type)
        if value_type.memref is declared.memref:
            return value_type
        return TensorType(value_type.shape, value_type.dtype, declared.memref,
                          value_type.tensor_view)
    if isinstance(value_type, TileType) and isinstance(declared, TileType) \
            and type(value_type) is TileType and type(declared) is TileType:
        if value_type.memref is declared.memref:
            return value_type
        space = value_type.memory_space
        if space is None:
            space = declared.memory_space
        return TileType(value_type.shape, value_type.dtype, declared.memref,
                        value_type.tile_view, space)
    return value_type


def _runs_at_least_once(loop: St.ForStmt) -> bool:
    bounds = (loop.start, loop.stop, loop.step)
    if not all(type(b) is E.ConstInt for b in bounds):
        return False
    start, stop, step = cast(_Bounds, bounds)
    return step.value != 0 and len(range(start.value, stop.value, step.value)) > 0

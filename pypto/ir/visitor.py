"""``IRVisitor`` and ``IRMutator`` (02-ir.md §15).

Dispatch goes through each node class's snake-case hook name
(``TupleGetItemExpr`` -> ``visit_tuple_get_item_expr``); every binary / unary
class delegates to ``visit_binary_expr`` / ``visit_unary_expr`` by default, so a
subclass can override one group hook or one class hook.  Defaults call the
overridable hooks, so overrides are seen at every depth.

The mutator is copy-on-write: a handler rebuilds a node only when one of its
children came back as a different object, otherwise it returns the original.
"""

from __future__ import annotations

from typing import Any, Callable, Iterable, cast

from .depth import nesting_guard
from . import expr as E
from . import scope as S
from . import stmt as St
from .function import Function, Program
from .node import Expr, Stmt
from .distributed_types import CommDomainScopeStmt, DistributedTensorType, WindowBuffer
from .types import MemRef, ScalarType, ShapedType, TensorType, TileType, TupleType, Type

__all__ = ["IRVisitor", "IRMutator", "map_attrs", "is_static_type"]


def _attr_exprs(attrs: dict) -> Iterable[Expr]:
    for value in attrs.values():
        if isinstance(value, Expr):
            yield value
        elif isinstance(value, (list, tuple)):
            for item in value:
                if isinstance(item, Expr):
                    yield item


def _bad_node(walker: Any, op: Any, base: type) -> None:
    """Dispatch failed: ``op`` is not an IR node of a known class."""
    what = base.__name__
    raise TypeError(f"{type(walker).__name__}.visit_{what.lower()}: expected an IR {what}, "
                    f"got {type(op).__name__}")


def _group_default(group: str, hook: str) -> Callable[[Any, Any], Any]:
    """``visit_add(op)`` forwarding to ``visit_binary_expr(op)``: the group is closed over,
    so the hook has PyPTO's one-parameter signature."""
    def default(self: Any, op: Any) -> Any:
        return getattr(self, group)(op)
    default.__name__ = hook
    return default


def _install_group_defaults(cls: type, group: str, classes: tuple) -> None:
    for klass in classes:
        hook = klass._visit_name
        if hook not in cls.__dict__:
            default = _group_default(group, hook)
            default.__qualname__ = f"{cls.__name__}.{hook}"
            setattr(cls, hook, default)


class IRVisitor:
    """Read-only traversal; every hook returns ``None``."""

    # -- entry points ---------------------------------------------------------------
    def __call__(self, node: Any) -> None:
        with nesting_guard(node):
            if isinstance(node, Program):
                self.visit_program(node)
            elif isinstance(node, Function):
                self.visit_function(node)
            elif isinstance(node, Stmt):
                self.visit_stmt(node)
            elif isinstance(node, Expr):
                self.visit_expr(node)
            else:
                raise TypeError(f"IRVisitor cannot visit {type(node).__name__}")

    def visit_program(self, program: Program) -> None:
        with nesting_guard(program):
            for func in program._functions.values():
                self.visit_function(func)

    def visit_function(self, func: Function) -> None:
        with nesting_guard(func):
            for param in func.params:
                self.visit_expr(param)
            for value in _attr_exprs(func._attrs):
                self.visit_expr(value)
            self.visit_stmt(func.body)

    def visit_expr(self, expr: Expr) -> None:
        try:
            hook = getattr(self, expr._visit_name)
        except AttributeError:
            _bad_node(self, expr, Expr)
        hook(expr)

    def visit_stmt(self, stmt: Stmt) -> None:
        try:
            hook = getattr(self, stmt._visit_name)
        except AttributeError:
            _bad_node(self, stmt, Stmt)
        hook(stmt)

    # -- expressions ----------------------------------------------------------------
    def visit_var_like(self, op: E.Var) -> None:
        t = op.type
        if isinstance(t, TensorType):
            for dim in t.shape:
                self.visit_expr(dim)
        if isinstance(t, ShapedType) and t.memref is not None:
            self.visit_mem_ref(t.memref)

    def visit_mem_ref(self, op: MemRef) -> None:
        """The expressions of a variable's memref: its base variable, byte offset and slot."""
        self.visit_expr(op.base_)
        self.visit_expr(op.byte_offset_)
        if op.slot_index_ is not None:
            self.visit_expr(op.slot_index_)

    def visit_var(self, op: E.Var) -> None:
        self.visit_var_like(op)

    def visit_iter_arg(self, op: E.IterArg) -> None:
        self.visit_var_like(op)
        self.visit_expr(op.initValue)

    def visit_const_int(self, op: E.ConstInt) -> None:
        pass

    def visit_const_float(self, op: E.ConstFloat) -> None:
        pass

    def visit_const_bool(self, op: E.ConstBool) -> None:
        pass

    def visit_call(self, op: E.Call) -> None:
        for arg in op.args:
            self.visit_expr(arg)
        for value in _attr_exprs(op._attrs):
            self.visit_expr(value)

    def visit_submit(self, op: E.Submit) -> None:
        for arg in op.args:
            self.visit_expr(arg)
        for dep in op.deps:
            self.visit_expr(dep)
        if op.core_num is not None:
            self.visit_expr(op.core_num)
        if op.predicate is not None:
            self.visit_expr(op.predicate)
        for value in _attr_exprs(op._attrs):
            self.visit_expr(value)

    def visit_make_tuple(self, op: E.MakeTuple) -> None:
        for element in op.elements:
            self.visit_expr(element)

    def visit_tuple_get_item_expr(self, op: E.TupleGetItemExpr) -> None:
        self.visit_expr(op.tuple)

    def visit_binary_expr(self, op: E.BinaryExpr) -> None:
        self.visit_expr(op.left)
        self.visit_expr(op.right)

    def visit_unary_expr(self, op: E.UnaryExpr) -> None:
        self.visit_expr(op.operand)

    # -- statements -----------------------------------------------------------------
    def visit_assign_stmt(self, op: St.AssignStmt) -> None:
        self.visit_expr(op.var)
        self.visit_expr(op.value)

    def visit_eval_stmt(self, op: St.EvalStmt) -> None:
        self.visit_expr(op.expr)

    def visit_return_stmt(self, op: St.ReturnStmt) -> None:
        for value in op.value:
            self.visit_expr(value)

    def visit_yield_stmt(self, op: St.YieldStmt) -> None:
        for value in op.value:
            self.visit_expr(value)

    def visit_seq_stmts(self, op: St.SeqStmts) -> None:
        for stmt in op.stmts:
            self.visit_stmt(stmt)

    def visit_if_stmt(self, op: St.IfStmt) -> None:
        self.visit_expr(op.condition)
        self.visit_stmt(op.then_body)
        if op.else_body is not None:
            self.visit_stmt(op.else_body)
        for var in op.return_vars:
            self.visit_expr(var)

    def visit_for_stmt(self, op: St.ForStmt) -> None:
        self.visit_expr(op.loop_var)
        self.visit_expr(op.start)
        self.visit_expr(op.stop)
        self.visit_expr(op.step)
        for arg in op.iter_args:
            self.visit_expr(arg)
        self.visit_stmt(op.body)
        for var in op.return_vars:
            self.visit_expr(var)

    def visit_while_stmt(self, op: St.WhileStmt) -> None:
        self.visit_expr(op.condition)
        for arg in op.iter_args:
            self.visit_expr(arg)
        self.visit_stmt(op.body)
        for var in op.return_vars:
            self.visit_expr(var)

    def visit_break_stmt(self, op: St.BreakStmt) -> None:
        pass

    def visit_continue_stmt(self, op: St.ContinueStmt) -> None:
        pass

    def visit_inline_stmt(self, op: St.InlineStmt) -> None:
        pass

    def visit_scope_stmt(self, op: S.ScopeStmt) -> None:
        """Shared default of every scope kind: attr expressions, then the body."""
        for value in _attr_exprs(op._attrs):
            self.visit_expr(value)
        self.visit_stmt(op.body)

    def visit_spmd_scope_stmt(self, op: S.SpmdScopeStmt) -> None:
        self.visit_expr(op.core_num)
        self.visit_scope_stmt(op)

    # -- distributed programs ---------------------------------------------------------
    def visit_window_buffer(self, op: WindowBuffer) -> None:
        self.visit_expr(op.size)

    def visit_comm_domain_scope_stmt(self, op: CommDomainScopeStmt) -> None:
        for value in (*op.devices, *op.slots):
            self.visit_expr(value)
        self.visit_scope_stmt(op)


_SCOPES = (S.InCoreScopeStmt, S.ClusterScopeStmt, S.HierarchyScopeStmt, S.RuntimeScopeStmt,
           S.GraphScopeStmt, S.SplitAivScopeStmt)
_install_group_defaults(IRVisitor, "visit_binary_expr", E.BINARY_CLASSES)
_install_group_defaults(IRVisitor, "visit_unary_expr", E.UNARY_CLASSES)
_install_group_defaults(IRVisitor, "visit_scope_stmt", _SCOPES)


class IRMutator:
    """Copy-on-write rewriting.  Override ``visit_*`` and return a replacement node.

    ``var_remap`` maps old Vars to replacement expressions; it is consulted by
    ``visit_var`` and filled when a Var must be re-minted because its type changed.
    """

    # Is ``visit_const_int`` the identity?  Then a static shape never changes (see
    # ``visit_type``).  ``_fixed_static_types`` adds: and ``visit_type`` is this class's,
    # so a scalar or static-shaped type is returned as is without asking it.  Both are
    # set per subclass once, not tested per visited node.
    _identity_const_int: bool = True
    _fixed_static_types: bool = True

    # Node class -> this mutator class's hook (a plain function), filled on first sight:
    # one dict lookup per visited node instead of a bound-method lookup by name.
    _hooks: dict[type, Any] = {}

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        cls._hooks = {}
        cls._identity_const_int = cls.visit_const_int is IRMutator.visit_const_int
        cls._fixed_static_types = (cls._identity_const_int
                                   and cls.visit_type is IRMutator.visit_type)

    def __init__(self) -> None:
        self.var_remap: dict[E.Var, Expr] = {}

    def __call__(self, node: Any) -> Any:
        with nesting_guard(node):
            if isinstance(node, Program):
                return self.visit_program(node)
            if isinstance(node, Function):
                return self.visit_function(node)
            if isinstance(node, Stmt):
                return self.visit_stmt(node)
            if isinstance(node, Expr):
                return self.visit_expr(node)
            raise TypeError(f"IRMutator cannot mutate {type(node).__name__}")

    # -- entry points -------------------------------------------------------------
    def visit_program(self, program: Program) -> Program:
        with nesting_guard(program):
            funcs = [self.visit_function(f) for f in program._functions.values()]
        if _same(funcs, list(program._functions.values())):
            return program
        return Program(funcs, program.name, program.span)

    def visit_function(self, func: Function) -> Function:
        with nesting_guard(func):
            params = _def_vars(self, func.params, f"Function '{func.name}'", "params")
            return_types = tuple([self.visit_type(t) for t in func.return_types])
            body = self.visit_stmt(func.body)
            attrs = self._mutate_attrs(func._attrs)
        if (_same(params, func.params) and _same(return_types, func.return_types)
                and body is func.body and attrs is func._attrs):
            return func
        return func.replace(params=params, return_types=return_types, body=body, _attrs=attrs)

    def visit_expr(self, expr: Expr) -> Expr:
        hook = self._hooks.get(type(expr))
        if hook is None:
            hook = self._resolve_hook(expr, Expr)
        return hook(self, expr)

    def visit_stmt(self, stmt: Stmt) -> Stmt:
        hook = self._hooks.get(type(stmt))
        if hook is None:
            hook = self._resolve_hook(stmt, Stmt)
        return hook(self, stmt)

    def _resolve_hook(self, op: Any, base: type) -> Any:
        cls = type(self)
        hook = getattr(cls, getattr(op, "_visit_name", ""), None)
        if hook is None or not callable(hook):
            _bad_node(self, op, base)
        cls._hooks[type(op)] = hook
        return hook

    # -- types --------------------------------------------------------------------
    def visit_type(self, t: Type) -> Type:
        """Rebuild a type whose dims (or element types) changed."""
        cls = type(t)
        if cls is ScalarType:
            return t
        if isinstance(t, ShapedType):
            memref = t.memref
            if memref is not None:
                new_memref = self.visit_mem_ref(memref)
                if new_memref is not memref:
                    t = _with_memref(t, new_memref)
            if self._identity_const_int and t.static_shape:
                return t  # a static shape (the common case) has nothing to rewrite
            shape = tuple([self.visit_expr(d) for d in t.shape])
            if _same(shape, t.shape):
                return t
            if isinstance(t, DistributedTensorType):
                return t.with_shape(shape)
            if isinstance(t, TensorType):
                return TensorType(shape, t.dtype, t.memref, t.tensor_view)
            assert isinstance(t, TileType)
            return TileType(shape, t.dtype, t.memref, t.tile_view, t.memory_space)
        if isinstance(t, TupleType):
            types = tuple([self.visit_type(x) for x in t.types])
            return t if _same(types, t.types) else TupleType(types)
        return t

    def visit_mem_ref(self, op: MemRef) -> MemRef:
        """A memref whose base variable, byte offset and slot are mutated (``op`` itself
        if none changed): a pass that renames the ``pl.Ptr`` a ``pl.tile.alloc`` defines
        renames it in the types too."""
        base = self.visit_expr(op.base_)
        offset = self.visit_expr(op.byte_offset_)
        slot = op.slot_index_
        new_slot = None if slot is None else self.visit_expr(slot)
        if base is op.base_ and offset is op.byte_offset_ and new_slot is slot:
            return op
        if not isinstance(base, E.Var):
            raise TypeError(f"IRMutator: a MemRef's base must stay a Var, but "
                            f"'{op.base_.name_hint}' was mutated into a {type(base).__name__}")
        return op._replace(base=base, byte_offset=offset, slot=new_slot)

    def _mutate_attrs(self, attrs: dict) -> dict:
        return map_attrs(attrs, self.visit_expr) if attrs else attrs

    # -- expressions --------------------------------------------------------------
    def visit_var(self, op: E.Var) -> Expr:
        mapped = self.var_remap.get(op)
        if mapped is not None:
            return mapped
        t = op.type
        if self._fixed_static_types and is_static_type(t):
            return op
        new_type = self.visit_type(t)
        if new_type is op.type:
            return op
        fresh = E.Var(op.name_hint, new_type, op.span)
        self.var_remap[op] = fresh
        return fresh

    def visit_iter_arg(self, op: E.IterArg) -> Expr:
        mapped = self.var_remap.get(op)
        if mapped is not None:
            return mapped
        init = self.visit_expr(op.initValue)
        new_type = self.visit_type(op.type)
        if init is op.initValue and new_type is op.type:
            return op
        fresh = E.IterArg(op.name_hint, new_type, init, op.span)
        self.var_remap[op] = fresh
        return fresh

    def visit_const_int(self, op: E.ConstInt) -> Expr:
        return op

    def visit_const_float(self, op: E.ConstFloat) -> Expr:
        return op

    def visit_const_bool(self, op: E.ConstBool) -> Expr:
        return op

    def visit_call(self, op: E.Call) -> Expr:
        args = tuple([self.visit_expr(a) for a in op.args])
        attrs = self._mutate_attrs(op._attrs) if op._attrs else op._attrs
        t = op.type
        new_type = t if self._fixed_static_types and is_static_type(t) else self.visit_type(t)
        if new_type is t and attrs is op._attrs and _same(args, op.args):
            return op
        return op.replace(args=args, _attrs=attrs, type=new_type)

    def visit_submit(self, op: E.Submit) -> Expr:
        args = tuple([self.visit_expr(a) for a in op.args])
        deps = tuple([self.visit_expr(d) for d in op.deps])
        core_num = None if op.core_num is None else self.visit_expr(op.core_num)
        predicate = None if op.predicate is None else self.visit_expr(op.predicate)
        attrs = self._mutate_attrs(op._attrs)
        new_type = self.visit_type(op.type)
        if (_same(args, op.args) and _same(deps, op.deps) and core_num is op.core_num
                and predicate is op.predicate and attrs is op._attrs and new_type is op.type):
            return op
        return op.replace(args=args, deps=deps, core_num=core_num, predicate=predicate,
                          _attrs=attrs, type=new_type)

    def visit_make_tuple(self, op: E.MakeTuple) -> Expr:
        elements = tuple([self.visit_expr(e) for e in op.elements])
        if _same(elements, op.elements):
            return op
        return E.MakeTuple(elements, op.span)

    def visit_tuple_get_item_expr(self, op: E.TupleGetItemExpr) -> Expr:
        tup = self.visit_expr(op.tuple)
        if tup is op.tuple:
            return op
        return E.TupleGetItemExpr(tup, op.index, op.span)

    def visit_binary_expr(self, op: E.BinaryExpr) -> Expr:
        left = self.visit_expr(op.left)
        right = self.visit_expr(op.right)
        if left is op.left and right is op.right:
            return op
        return op.replace(left=left, right=right)

    def visit_unary_expr(self, op: E.UnaryExpr) -> Expr:
        operand = self.visit_expr(op.operand)
        if operand is op.operand:
            return op
        return op.replace(operand=operand)

    # -- statements ---------------------------------------------------------------
    def visit_assign_stmt(self, op: St.AssignStmt) -> Stmt:
        value = self.visit_expr(op.value)
        var = _def_vars(self, (op.var,), "AssignStmt", "var")[0]
        if var is op.var and value is op.value:
            return op
        return op.replace(var=var, value=value)

    def visit_eval_stmt(self, op: St.EvalStmt) -> Stmt:
        expr = self.visit_expr(op.expr)
        return op if expr is op.expr else op.replace(expr=expr)

    def visit_return_stmt(self, op: St.ReturnStmt) -> Stmt:
        values = tuple([self.visit_expr(v) for v in op.value])
        return op if _same(values, op.value) else op.replace(value=values)

    def visit_yield_stmt(self, op: St.YieldStmt) -> Stmt:
        values = tuple([self.visit_expr(v) for v in op.value])
        return op if _same(values, op.value) else op.replace(value=values)

    def visit_seq_stmts(self, op: St.SeqStmts) -> Stmt:
        stmts = [self.visit_stmt(s) for s in op.stmts]
        if _same(stmts, op.stmts):
            return op
        return St.SeqStmts.flatten(stmts, op.span)

    def visit_if_stmt(self, op: St.IfStmt) -> Stmt:
        cond = self.visit_expr(op.condition)
        then_body = self.visit_stmt(op.then_body)
        else_body = None if op.else_body is None else self.visit_stmt(op.else_body)
        rvs = _def_vars(self, op.return_vars, "IfStmt", "return_vars")
        if (cond is op.condition and then_body is op.then_body and else_body is op.else_body
                and _same(rvs, op.return_vars)):
            return op
        return op.replace(condition=cond, then_body=then_body, else_body=else_body,
                          return_vars=rvs)

    def visit_for_stmt(self, op: St.ForStmt) -> Stmt:
        loop_var = _def_vars(self, (op.loop_var,), "ForStmt", "loop_var")[0]
        start = self.visit_expr(op.start)
        stop = self.visit_expr(op.stop)
        step = self.visit_expr(op.step)
        iter_args = _def_vars(self, op.iter_args, "ForStmt", "iter_args", E.IterArg)
        body = self.visit_stmt(op.body)  # old->new iter_arg mapping is in var_remap
        rvs = _def_vars(self, op.return_vars, "ForStmt", "return_vars")
        if (loop_var is op.loop_var and start is op.start and stop is op.stop
                and step is op.step and _same(iter_args, op.iter_args) and body is op.body
                and _same(rvs, op.return_vars)):
            return op
        return op.replace(loop_var=loop_var, start=start, stop=stop, step=step,
                          iter_args=iter_args, body=body, return_vars=rvs)

    def visit_while_stmt(self, op: St.WhileStmt) -> Stmt:
        iter_args = _def_vars(self, op.iter_args, "WhileStmt", "iter_args", E.IterArg)
        cond = self.visit_expr(op.condition)
        body = self.visit_stmt(op.body)
        rvs = _def_vars(self, op.return_vars, "WhileStmt", "return_vars")
        if (cond is op.condition and _same(iter_args, op.iter_args) and body is op.body
                and _same(rvs, op.return_vars)):
            return op
        return op.replace(condition=cond, iter_args=iter_args, body=body, return_vars=rvs)

    def visit_break_stmt(self, op: St.BreakStmt) -> Stmt:
        return op

    def visit_continue_stmt(self, op: St.ContinueStmt) -> Stmt:
        return op

    def visit_inline_stmt(self, op: St.InlineStmt) -> Stmt:
        return op

    def visit_scope_stmt(self, op: S.ScopeStmt) -> Stmt:
        """Shared default of every scope kind: attr expressions, then the body."""
        attrs = self._mutate_attrs(op._attrs)
        body = self.visit_stmt(op.body)
        if attrs is op._attrs and body is op.body:
            return op
        return op.replace(_attrs=attrs, body=body)

    def visit_spmd_scope_stmt(self, op: S.SpmdScopeStmt) -> Stmt:
        core_num = self.visit_expr(op.core_num)
        if core_num is not op.core_num:
            op = op.replace(core_num=core_num)  # then the group hook sees the updated scope
        return self.visit_scope_stmt(op)

    # -- distributed programs ---------------------------------------------------------
    def visit_window_buffer(self, op: WindowBuffer) -> Expr:
        mapped = self.var_remap.get(op)
        if mapped is not None:
            return mapped
        size = self.visit_expr(op.size)
        if size is op.size:
            return op
        fresh = WindowBuffer(op.base, size, op.load_from_host, op.store_to_host, op.span)
        self.var_remap[op] = fresh
        return fresh

    def visit_comm_domain_scope_stmt(self, op: CommDomainScopeStmt) -> Stmt:
        devices = tuple([self.visit_expr(d) for d in op.devices])
        slots = tuple([self.visit_expr(d) for d in op.slots])
        if not (_same(devices, op.devices) and _same(slots, op.slots)):
            op = op.replace(devices=devices, slots=slots)
        return self.visit_scope_stmt(op)


_install_group_defaults(IRMutator, "visit_binary_expr", E.BINARY_CLASSES)
_install_group_defaults(IRMutator, "visit_unary_expr", E.UNARY_CLASSES)
_install_group_defaults(IRMutator, "visit_scope_stmt", _SCOPES)


def map_attrs(attrs: dict, rewrite: Callable[[Expr], Expr]) -> dict:
    """``attrs`` with each expression in it (a value, or an item of a list/tuple value)
    passed through ``rewrite``; the same dict when nothing changed."""
    changed = False
    out = {}
    for key, value in attrs.items():
        new: object
        if isinstance(value, Expr):
            new = rewrite(value)
        elif isinstance(value, (list, tuple)) and any(isinstance(v, Expr) for v in value):
            items = [rewrite(v) if isinstance(v, Expr) else v for v in value]
            new = value if _same(items, value) else type(value)(items)
        else:
            new = value
        changed = changed or new is not value
        out[key] = new
    return out if changed else attrs


def is_static_type(t: Type) -> bool:
    """A scalar, or a tensor / tile type whose dims are all constants: nothing in it
    a mutator could rewrite (and no memref: its base variable could be renamed)."""
    cls = type(t)
    if cls is ScalarType:
        return True
    if cls is not TensorType and cls is not TileType:
        return False
    shaped = cast(ShapedType, t)
    return shaped.static_shape and shaped.memref is None


def _same(new: Any, old: Any) -> bool:
    if len(new) != len(old):
        return False
    for a, b in zip(new, old):
        if a is not b:
            return False
    return True


def _def_vars(mutator: IRMutator, old: tuple, owner: str, field: str,
              kind: type = E.Var) -> tuple:
    """Mutate the Vars of a definition field; they must stay Vars (IterArgs for iter_args)."""
    new = tuple([mutator.visit_expr(v) for v in old])
    for i, var in enumerate(new):
        if var is not old[i] and not isinstance(var, kind):
            raise TypeError(f"IRMutator: {owner} field '{field}' must hold {kind.__name__}s, "
                            f"but item {i} was mutated into a {type(var).__name__}")
    return new


def _with_memref(t: ShapedType, memref: MemRef) -> ShapedType:
    if isinstance(t, DistributedTensorType):
        return DistributedTensorType(t.shape, t.dtype, memref, t.tensor_view, t.window_buffer)
    if isinstance(t, TensorType):
        return TensorType(t.shape, t.dtype, memref, t.tensor_view)
    assert isinstance(t, TileType)
    return TileType(t.shape, t.dtype, memref, t.tile_view, t.memory_space)

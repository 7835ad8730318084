"""Expressions, constants and types as DSL text (02-ir.md §12.5-§12.6).

Expressions are emitted into a parts list (no re-concatenation of sub-results), so
printing is linear even for long operator chains.  Parentheses are decided from the
child's precedence, which is known from its class without printing it.
"""

from __future__ import annotations

import math
from typing import Any, Callable, Mapping, Sequence, cast

from ...errors import InternalError
from .. import expr as E
from ..array_types import (ArrayType, AsyncEventType, AsyncSessionType,
                           PrefetchAsyncContextType, PtrType)
from ..depth import ExpansionMemo, check_expansion
from ..distributed_types import CommCtxType, DistributedTensorType, WindowBufferType
from ..dtype import DataType
from ..ops.registry import OpDef
from ..ops.signature import holds_defaults, print_layout, prints_operands_as_given
from ..node import Expr, GlobalVar
from ..walk import LEAF_TYPES
from ..enums import PadValue, TensorLayout
from ..types import (MemRef, ScalarType, TensorType, TensorView, TileType, TileView, TupleType,
                     Type, UnknownType)
from .spelling import (DISTRIBUTED_PREFIX, ValueContext, dict_text, dtype_text, enum_text, float_literal,
                       op_callee_text, quote, sanitize_identifier, shadow_reserved, value_text)

__all__ = ["ExprPrinter", "SharedTexts"]

_INDEX, _FP32 = DataType.INDEX, DataType.FP32

# Operators printed infix: class -> (text between operands, precedence).
_INFIX: dict[type, tuple[str, int]] = {
    E.Or: (" or ", 1), E.And: (" and ", 3),
    E.Eq: (" == ", 5), E.Ne: (" != ", 5), E.Lt: (" < ", 5), E.Le: (" <= ", 5),
    E.Gt: (" > ", 5), E.Ge: (" >= ", 5),
    E.BitOr: (" | ", 6), E.BitXor: (" ^ ", 7), E.BitAnd: (" & ", 8),
    E.BitShiftLeft: (" << ", 9), E.BitShiftRight: (" >> ", 9),
    E.Add: (" + ", 10), E.Sub: (" - ", 10),
    E.Mul: (" * ", 11), E.FloatDiv: (" / ", 11), E.FloorDiv: (" // ", 11), E.FloorMod: (" % ", 11),
    E.Pow: (" ** ", 13),
}
# Prefix operators: class -> (text before the operand, precedence).
_PREFIX: dict[type, tuple[str, int]] = {E.Neg: ("-", 12), E.BitNot: ("~", 12), E.Not: ("not ", 4)}
# Binary nodes printed as calls: class -> callee after the prefix.  Logical Xor has no DSL
# spelling; it prints as a call so the text stays valid Python.
_BINARY_CALLS: dict[type, str] = {E.Min: "min", E.Max: "max", E.Xor: "xor"}

_COMPARE = 5
# How Python evaluates an operator tree of the parser's closure values (``_fold_kind``).
_NOT_FOLDED, _CONSTANT, _DIM = 0, 1, 2
# The operators a dynamic dim implements at Python level (``language/typing/dynamic.py``):
# over dims and ints they build an inert dim expression, which the parser reads as IR.
_DIM_ARITHMETIC = frozenset((E.Add, E.Sub, E.Mul, E.FloorDiv, E.FloorMod))
_UNARY = 12
_CALL = 14
_ATOM = 15

_DEFAULT_TILE_VIEW = TileView()
# The parameterless handle types and their DSL annotations (``pl.Ptr`` ...).
_HANDLE_NAMES: dict[type[Type], str] = {
    PtrType: "Ptr", PrefetchAsyncContextType: "PrefetchAsyncContext",
    AsyncSessionType: "AsyncSession", AsyncEventType: "AsyncEvent"}


class SharedTexts:
    """Texts that are the same in every function of one print (same prefix, layout
    option and callee spelling): the types that name no Var, by object (kept alive
    next to the text, so an id is not reused while the print runs), the callees, by op
    (a ``GlobalVar``, made per call, by its name), and which ops print plainly."""

    __slots__ = ("type_texts", "callees", "plain_ops")

    def __init__(self) -> None:
        self.type_texts: dict[int, tuple[Type, str]] = {}
        self.callees: dict[Any, str] = {}
        # op -> does its wrapper take the operands as they are (``_plain_call``)
        self.plain_ops: dict[OpDef, bool] = {}


def _index_list(items: tuple) -> str | None:
    """``[0, 16]`` when every item is an INDEX constant (offsets, shapes), else ``None``."""
    parts = []
    for item in items:
        if type(item) is not E.ConstInt or item.dtype is not _INDEX:
            return None
        parts.append(str(item.value))
    return f"[{', '.join(parts)}]"


def _names_nothing(type_: Type) -> bool:
    """Does ``type_`` print without naming a Var (constant dims, no memref, no view)?"""
    cls = type(type_)
    if cls is ScalarType:
        return True
    if cls is TensorType:
        tensor = cast(TensorType, type_)
        return tensor.static_shape and tensor.memref is None and tensor.tensor_view is None
    if cls is TileType:
        tile = cast(TileType, type_)
        return tile.static_shape and tile.memref is None and tile.tile_view is None
    if cls is TupleType:
        return all(_names_nothing(item) for item in cast(TupleType, type_).types)
    return False


class ExprPrinter:
    """Prints expressions and types with one naming table.

    ``names`` maps Var objects to printed names (Vars missing from it print their
    sanitised ``name_hint``); ``closure_vars`` are the Vars the parser resolves from the
    closure (dynamic dims), which count like constants for the typed-leaf rule;
    ``callee`` renders a ``GlobalVar`` callee (``self.f`` in a program, ``f`` alone).
    """

    def __init__(self, prefix: str, names: dict[E.Var, str] | None = None,
                 closure_vars: Mapping[E.Var, object] | None = None,
                 callee: Callable[[str], str] | None = None, *,
                 explicit_layout: bool = False,
                 base_names: Mapping[E.Var, str] | None = None,
                 shared: SharedTexts | None = None) -> None:
        self.prefix = prefix
        # Views print every layout field, defaults included (python_print's explicit_layout).
        self.explicit_layout = explicit_layout
        self.names: dict[E.Var, str] = names if names is not None else {}
        self.closure_vars = closure_vars if closure_vars is not None else {}
        self.callee = callee if callee is not None else sanitize_identifier
        # Printed names of the memref bases no statement defines (spelled as strings).
        self.base_names: Mapping[E.Var, str] = base_names if base_names is not None else {}
        self._closure_only_memo: dict[Expr, int] = {}
        self._expansion_memo: ExpansionMemo = ExpansionMemo()
        # Type text by object identity (types are often shared); the type is kept
        # alive next to its text so its id cannot be reused during this print.
        self._type_memo: dict[int, tuple[Type, str]] = {}
        if shared is None:
            shared = SharedTexts()
        self._shared_type_memo = shared.type_texts
        self._callees = shared.callees
        self._plain_ops = shared.plain_ops

    # -- public --------------------------------------------------------------------
    @property
    def values(self) -> ValueContext:
        """What ``value_text`` needs; made per use: kept on ``self`` its bound methods
        would make every printer a reference cycle, left for the cycle collector."""
        return ValueContext(self.prefix, self.expr, self.type)

    def expr(self, node: Expr) -> str:
        # ``Any``: dispatched on the exact class below (a cast() call would cost per node)
        leaf: Any = node
        cls = type(node)
        if cls is E.Var or cls is E.IterArg:
            name = self.names.get(leaf)
            return name if name is not None else self.var_name(leaf)
        if cls is E.Call:
            text = self._plain_call(leaf)
            if text is not None:
                return text
        if cls not in LEAF_TYPES:  # a shared sub-expression is written per use
            check_expansion(node, self._expansion_memo)
        out: list[str] = []
        self._emit(node, out, False)
        return "".join(out)

    def _plain_call(self, node: E.Call) -> str | None:
        """The text of the most common statement values -- a call of a program function
        or of an op whose wrapper takes the operands as they are, over names, INDEX
        constants and lists of them (``self.kernel(x, acc)``, ``pl.tile.load(t, [0, 0],
        [16, 64])``) -- in one pass, or ``None`` for any other call (``_call`` prints
        it).  Over leaves a call writes out a handful of nodes: no expansion check."""
        if node._attrs:
            return None
        op: Any = node.op
        kind = type(op)
        if kind is GlobalVar:
            if node._kwargs:
                return None
        else:
            if kind is not OpDef or len(node.args) > len(op.params):
                return None
            plain = self._plain_ops.get(op)
            if plain is None:
                plain = self._plain_ops[op] = prints_operands_as_given(op)
            if not plain or (node._kwargs and not holds_defaults(op, node._kwargs)):
                return None
        names = self.names
        parts = []
        arg: Any
        for arg in node.args:
            cls = type(arg)
            if cls is E.Var or cls is E.IterArg:
                name = names.get(arg)
                parts.append(name if name is not None else self.var_name(arg))
            elif cls is E.ConstInt and arg.dtype is _INDEX:
                parts.append(str(arg.value))
            elif cls is E.MakeTuple:
                text = _index_list(arg.elements)
                if text is None:
                    return None
                parts.append(text)
            else:
                return None
        return f"{self._callee(op)}({', '.join(parts)})"

    def var_name(self, var: E.Var) -> str:
        name = self.names.get(var)
        if name is None:
            name = self.names[var] = sanitize_identifier(var.name_hint,
                                                         shadow_reserved(self.prefix))
        return name

    def type(self, type_: Type) -> str:
        memo = self._type_memo
        found = memo.get(id(type_))
        if found is not None:
            return found[1]
        shared = self._shared_type_memo
        found = shared.get(id(type_))
        if found is not None:
            return found[1]
        out: list[str] = []
        self._type(type_, out)
        text = "".join(out)
        # A type that names no Var prints the same in every function of the print.
        (shared if _names_nothing(type_) else memo)[id(type_)] = (type_, text)
        return text

    # -- precedence ----------------------------------------------------------------
    def _prec(self, node: Expr, typed: bool) -> int:
        cls = type(node)
        infix = _INFIX.get(cls)
        if infix is not None:
            return infix[1]
        prefix = _PREFIX.get(cls)
        if prefix is not None:
            return prefix[1]
        if cls is E.ConstInt or cls is E.ConstFloat:
            const = cast("E.ConstInt | E.ConstFloat", node)
            if typed or const.dtype is not (_INDEX if cls is E.ConstInt else _FP32):
                return _CALL  # pl.const(...)
            value = const.value
            if cls is E.ConstFloat:
                if math.isnan(value):  # printed as a call
                    return _CALL
                return _UNARY if math.copysign(1.0, value) < 0 else _ATOM
            return _UNARY if value < 0 else _ATOM
        if isinstance(node, E.Var) or cls is E.ConstBool or cls is E.MakeTuple:
            return _ATOM
        return _CALL

    def _closure_only(self, node: Expr) -> bool:
        """True when the parser would fold ``node`` in Python if its constants printed bare.

        That is an operator tree of constants only (``8 > 2`` would read back as
        ``True``), or one over constants and closure-resolved Vars (dynamic dims) with
        an operator Python answers by itself (``M == 8`` is ``False``: a dim compares
        by identity); its constant leaves then print typed (``pl.const(8, pl.INDEX)``).
        Dim arithmetic (``M - 8``) is inert in Python and reads back as IR, so it prints
        bare, as PyPTO prints it.  Memoised, so nested trees are inspected once in total.
        """
        return self._fold_kind(node) is _CONSTANT

    def _fold_kind(self, node: Expr) -> int:
        """``_CONSTANT`` (Python folds it to a number or bool), ``_DIM`` (Python builds
        an inert dim expression) or ``_NOT_FOLDED`` (it names a local value)."""
        memo = self._closure_only_memo
        found = memo.get(node)
        if found is not None:
            return found
        cls = type(node)
        if cls is E.ConstInt or cls is E.ConstFloat or cls is E.ConstBool:
            result = _CONSTANT
        elif isinstance(node, E.Var):
            result = _DIM if node in self.closure_vars else _NOT_FOLDED
        elif cls in _INFIX:
            binary = cast(E.BinaryExpr, node)
            left, right = self._fold_kind(binary.left), self._fold_kind(binary.right)
            if left is _NOT_FOLDED or right is _NOT_FOLDED:
                result = _NOT_FOLDED
            elif left is _CONSTANT and right is _CONSTANT:
                result = _CONSTANT
            else:
                result = _DIM if cls in _DIM_ARITHMETIC else _CONSTANT
        elif cls in _PREFIX:
            operand = self._fold_kind(cast(E.UnaryExpr, node).operand)
            result = operand if operand is _NOT_FOLDED else _CONSTANT
        else:
            result = _NOT_FOLDED
        memo[node] = result
        return result

    # -- emission ------------------------------------------------------------------
    def _emit(self, node: Expr, out: list[str], typed: bool) -> None:
        cls = type(node)
        if cls is E.Var or cls is E.IterArg:  # most operands: a name
            var: Any = node
            name = self.names.get(var)
            out.append(name if name is not None else self.var_name(var))
            return
        infix = _INFIX.get(cls)
        if infix is not None:
            if not typed and self._closure_only(node):
                typed = True
            text, prec = infix
            binary = cast(E.BinaryExpr, node)  # the keys of _INFIX are operator classes
            left, right = binary.left, binary.right
            left_prec, right_prec = self._prec(left, typed), self._prec(right, typed)
            # Python chains comparisons, so both sides of a comparison are wrapped at equal
            # precedence; `**` is right-associative, so its left side is.
            paren_left = left_prec < prec or (left_prec == prec
                                              and (cls is E.Pow or prec == _COMPARE))
            paren_right = right_prec < prec or (right_prec == prec and cls is not E.Pow)
            self._operand(left, out, typed, paren_left)
            out.append(text)
            self._operand(right, out, typed, paren_right)
            return
        prefix = _PREFIX.get(cls)
        if prefix is not None:
            if not typed and self._closure_only(node):
                typed = True
            text, prec = prefix
            operand = cast(E.UnaryExpr, node).operand
            out.append(text)
            self._operand(operand, out, typed, self._prec(operand, typed) < prec)
            return
        if isinstance(node, E.Var):
            out.append(self.var_name(node))
        elif cls is E.ConstInt:
            self._const_int(cast(E.ConstInt, node), out, typed)
        elif cls is E.ConstFloat:
            self._const_float(cast(E.ConstFloat, node), out, typed)
        elif cls is E.ConstBool:
            out.append("True" if cast(E.ConstBool, node).value else "False")
        elif cls is E.Call:
            self._call(cast(E.Call, node), out)
        elif cls is E.Submit:
            self._submit(cast(E.Submit, node), out)
        elif cls is E.MakeTuple:
            elements = cast(E.MakeTuple, node).elements
            listed = _index_list(elements)
            if listed is not None:
                out.append(listed)
            else:
                out.append("[")
                self._args(elements, out)
                out.append("]")
        elif cls is E.TupleGetItemExpr:
            item = cast(E.TupleGetItemExpr, node)
            self._operand(item.tuple, out, False, self._prec(item.tuple, False) < _CALL)
            out.append(f"[{item.index}]")
        elif cls in _BINARY_CALLS:
            binary = cast(E.BinaryExpr, node)
            out.append(f"{self.prefix}.{_BINARY_CALLS[cls]}(")
            self._emit(binary.left, out, False)
            out.append(", ")
            self._emit(binary.right, out, False)
            out.append(")")
        elif cls is E.Cast:
            cast_node = cast(E.UnaryExpr, node)
            out.append(f"{self.prefix}.cast(")
            self._emit(cast_node.operand, out, False)
            out.append(f", {dtype_text(cast_node.dtype, self.prefix)})")
        elif cls is E.Abs:
            out.append("abs(")
            self._emit(cast(E.UnaryExpr, node).operand, out, False)
            out.append(")")
        else:
            raise InternalError(f"printer: no spelling for expression {cls.__name__}")

    def _operand(self, node: Expr, out: list[str], typed: bool, paren: bool) -> None:
        if paren:
            out.append("(")
            self._emit(node, out, typed)
            out.append(")")
        else:
            self._emit(node, out, typed)

    def _const_int(self, node: E.ConstInt, out: list[str], typed: bool) -> None:
        if typed or node.dtype is not _INDEX:
            out.append(f"{self.prefix}.const({node.value}, {dtype_text(node.dtype, self.prefix)})")
        else:
            out.append(str(node.value))

    def _const_float(self, node: E.ConstFloat, out: list[str], typed: bool) -> None:
        text = float_literal(node.value)
        if typed or node.dtype is not _FP32:
            out.append(f"{self.prefix}.const({text}, {dtype_text(node.dtype, self.prefix)})")
        else:
            out.append(text)

    def _args(self, args: tuple, out: list[str]) -> None:
        for i, arg in enumerate(args):
            if i:
                out.append(", ")
            self._emit(arg, out, False)

    def _callee(self, op: Any) -> str:
        key = op.name if type(op) is GlobalVar else op  # (a GlobalVar is made per call)
        callee = self._callees.get(key)
        if callee is None:
            callee = self._callees[key] = self._callee_text(op)
        return callee

    def _callee_text(self, op: Any) -> str:
        if isinstance(op, GlobalVar):
            return self.callee(op.name)
        if isinstance(op, OpDef) and op.router is not None:  # PyPTO's wrapper that builds it
            name = op.router[0]
            if name.startswith("pl."):  # a unified op: pl.aic_gather
                return f"{self.prefix}.{name[3:]}"
            return op_callee_text(f"{op.namespace}.{name}", self.prefix)
        return op_callee_text(op.name, self.prefix)

    def _call(self, node: E.Call, out: list[str]) -> None:
        out.append(self._callee(node.op))
        out.append("(")
        op = node.op
        attrs = node._attrs
        args: Sequence[Any]
        if isinstance(op, OpDef) and len(node.args) <= len(op.params):
            # PyPTO's wrapper layout: what it accepts, and nothing it does not.
            args, keywords = print_layout(op, node.args, node._kwargs, node.type, attrs)
            if op.call_attrs and attrs:  # printed as the wrapper's own keywords
                attrs = {k: v for k, v in attrs.items() if k not in op.call_attrs}
        else:
            args, keywords = node.args, list(node._kwargs.items())
        sep = ""
        for arg in args:
            out.append(sep)
            if isinstance(arg, Expr):
                self._emit(arg, out, False)
            else:  # an enum operand, printed as its member
                out.append(value_text(arg, self.values, "operand"))
            sep = ", "
        for key, value in keywords:
            if isinstance(value, Expr):
                out.append(f"{sep}{key}=")
                self._emit(value, out, False)
            else:
                out.append(f"{sep}{key}={value_text(value, self.values, f'kwarg {key!r}')}")
            sep = ", "
        if isinstance(op, GlobalVar) and "device" in attrs:  # self.kernel(..., device=r)
            out.append(f"{sep}device=")
            self._emit(attrs["device"], out, False)
            sep = ", "
            attrs = {k: v for k, v in attrs.items() if k != "device"}
        if attrs:
            out.append(f"{sep}attrs={dict_text(attrs, self.values, 'call attr')}")
        out.append(")")

    def _submit(self, node: E.Submit, out: list[str]) -> None:
        spmd = node.core_num is not None
        out.append(f"{self.prefix}.{'spmd_submit' if spmd else 'submit'}({self._callee(node.op)}")
        for arg in node.args:
            out.append(", ")
            self._emit(arg, out, False)
        for key, value in node._kwargs.items():
            out.append(f", {key}={value_text(value, self.values, f'kwarg {key!r}')}")
        if node.core_num is not None:  # (spmd)
            out.append(f", core_num={self.expr(node.core_num)}")
            if node.sync_start:
                out.append(", sync_start=True")
        elif node.sync_start:  # no DSL meaning without core_num; printed so nothing is lost
            out.append(", sync_start=True")
        if node.deps:
            out.append(", deps=[")
            self._args(node.deps, out)
            out.append("]")
        if node.allow_early_resolve:
            out.append(", allow_early_resolve=True")
        if node.predicate is not None:
            out.append(f", predicate={self.expr(node.predicate)}")
        if node._attrs:
            out.append(f", attrs={dict_text(node._attrs, self.values, 'submit attr')}")
        out.append(")")

    # -- types ---------------------------------------------------------------------
    def _type(self, type_: Type, out: list[str]) -> None:
        prefix = self.prefix
        if isinstance(type_, ScalarType):
            out.append(f"{prefix}.Scalar[{dtype_text(type_.dtype, prefix)}]")
        elif isinstance(type_, TensorType):
            # A distributed tensor's window buffer is not spelled: ``pld.window`` deduces it.
            out.append(DISTRIBUTED_PREFIX + ".DistributedTensor["
                       if isinstance(type_, DistributedTensorType) else f"{prefix}.Tensor[")
            self._shape(type_.shape, out)
            out.append(f", {dtype_text(type_.dtype, prefix)}")
            if type_.memref is not None:
                out.append(", ")
                self._memref(type_.memref, out)
            if type_.tensor_view is not None:
                out.append(", ")
                self._tensor_view(type_.tensor_view, out)
            out.append("]")
        elif isinstance(type_, TileType):
            out.append(f"{prefix}.Tile[")
            self._shape(type_.shape, out)
            out.append(f", {dtype_text(type_.dtype, prefix)}")
            if type_.memref is not None:
                out.append(", ")
                self._memref(type_.memref, out)
            if type_.memory_space is not None:
                out.append(f", {enum_text(type_.memory_space, prefix)}")
            if type_.tile_view is not None:
                out.append(", ")
                self._tile_view(type_.tile_view, out)
            out.append("]")
        elif isinstance(type_, TupleType):
            out.append(f"{prefix}.Tuple[")
            if not type_.types:
                out.append("()")
            for i, item in enumerate(type_.types):
                if i:
                    out.append(", ")
                self._type(item, out)
            out.append("]")
        elif isinstance(type_, UnknownType):
            out.append(f"{prefix}.UnknownType")
        elif isinstance(type_, WindowBufferType):
            out.append(DISTRIBUTED_PREFIX + ".WindowBuffer")
        elif isinstance(type_, CommCtxType):
            out.append(DISTRIBUTED_PREFIX + ".CommCtx")
        elif isinstance(type_, ArrayType):
            out.append(f"{prefix}.Array[{type_.extent}, {dtype_text(type_.dtype, prefix)}]")
        elif type(type_) in _HANDLE_NAMES:
            out.append(f"{prefix}.{_HANDLE_NAMES[type(type_)]}")
        else:
            raise InternalError(f"printer: no spelling for type {type(type_).__name__}")

    def _dim(self, dim: Expr, out: list[str]) -> None:
        """A shape-like item: composite dims print with typed leaves so they never fold."""
        if isinstance(dim, E.Var) or type(dim) is E.ConstInt:
            self._emit(dim, out, False)
        else:
            self._emit(dim, out, True)

    def _shape(self, dims: tuple, out: list[str]) -> None:
        text = _index_list(dims)
        if text is not None:
            out.append(text)
            return
        out.append("[")
        for i, dim in enumerate(dims):
            if i:
                out.append(", ")
            self._dim(dim, out)
        out.append("]")

    def _memref(self, memref: MemRef, out: list[str]) -> None:
        """PyPTO's ``pl.MemRef(base, byte_offset, size)``: a base the code defines prints
        as its Var, any other as its name in a string; the offset is an INT64 expression
        (``pl.const(0, pl.INT64)``)."""
        base = memref.base_
        base_text = self.names.get(base)
        if base_text is None:
            name = self.base_names.get(base)
            base_text = quote(name if name is not None else sanitize_identifier(base.name_hint),
                              '"')
        out.append(f"{self.prefix}.MemRef({base_text}, ")
        self._dim(memref.byte_offset_, out)
        out.append(f", {memref.size_}")
        if memref.is_pinned_:
            out.append(", is_pinned=True")
        if memref.slot_count_ != 1:
            out.append(f", slots={memref.slot_count_}")
        if memref.slot_index_ is not None:
            out.append(", slot=")
            self._dim(memref.slot_index_, out)
        out.append(")")

    def _tensor_view(self, view: TensorView, out: list[str]) -> None:
        # A layout-only view uses the layout shorthand, except DN, which the parser
        # rejects as a tensor layout annotation, and ND, which reads as no view.
        explicit = self.explicit_layout
        if not view.stride and not view.valid_shape and view.pad is PadValue.null \
                and view.layout not in (TensorLayout.DN, TensorLayout.ND) and not explicit:
            out.append(f"{self.prefix}.{view.layout.name}")
            return
        parts: list[str] = []
        if view.stride:
            parts.append(f"stride={self._shape_text(view.stride)}")
        if view.layout is not TensorLayout.ND or explicit:
            parts.append(f"layout={enum_text(view.layout, self.prefix)}")
        if view.valid_shape:
            parts.append(f"valid_shape={self._shape_text(view.valid_shape)}")
        if view.pad is not PadValue.null or explicit:
            parts.append(f"pad={enum_text(view.pad, self.prefix)}")
        out.append(f"{self.prefix}.TensorView({', '.join(parts)})")

    def _tile_view(self, view: TileView, out: list[str]) -> None:
        default = _DEFAULT_TILE_VIEW
        explicit = self.explicit_layout
        parts: list[str] = []
        if view.valid_shape:
            parts.append(f"valid_shape={self._shape_text(view.valid_shape)}")
        if view.stride:
            parts.append(f"stride={self._shape_text(view.stride)}")
        if view.start_offset is not None:
            dim: list[str] = []
            self._dim(view.start_offset, dim)
            parts.append(f"start_offset={''.join(dim)}")
        # Keyword order follows the ir.TileView constructor.
        for field in ("blayout", "slayout"):
            value = getattr(view, field)
            if value is not getattr(default, field) or explicit:
                parts.append(f"{field}={enum_text(value, self.prefix)}")
        if view.fractal != default.fractal or explicit:
            parts.append(f"fractal={view.fractal}")
        if view.pad is not default.pad or explicit:
            parts.append(f"pad={enum_text(view.pad, self.prefix)}")
        if view.compact is not default.compact or explicit:
            parts.append(f"compact={enum_text(view.compact, self.prefix)}")
        out.append(f"{self.prefix}.TileView({', '.join(parts)})")

    def _shape_text(self, dims: tuple) -> str:
        out: list[str] = []
        self._shape(dims, out)
        return "".join(out)


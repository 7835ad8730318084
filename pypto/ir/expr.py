"""Expression nodes: variables, constants, scalar operators, calls and tuples."""

from __future__ import annotations

from typing import Any, ClassVar, Iterable, Mapping

from .dtype import DataType
from .node import Expr, FieldKind, Op, _ids, as_tuple, check_type
from .span import Span
from .types import ScalarType, ShapedType, TupleType, Type, UnknownType

__all__ = [
    "Var", "IterArg", "ConstInt", "ConstFloat", "ConstBool", "BinaryExpr", "UnaryExpr",
    "Add", "Sub", "Mul", "FloorDiv", "FloorMod", "FloatDiv", "Min", "Max", "Pow", "Eq", "Ne",
    "Lt", "Le", "Gt", "Ge", "And", "Or", "Xor", "BitAnd", "BitOr", "BitXor", "BitShiftLeft",
    "BitShiftRight", "Abs", "Neg", "Not", "BitNot", "Cast", "Call", "MakeTuple",
    "TupleGetItemExpr", "Submit", "BINARY_CLASSES", "UNARY_CLASSES",
]

_set = object.__setattr__
_new = object.__new__
_UNKNOWN_SPAN = Span.unknown()
_U, _D, _I = FieldKind.USUAL, FieldKind.DEF, FieldKind.IGNORE


def _span(owner: str, span: Any) -> Span:
    if span is None:
        return Span.unknown()
    check_type(owner, "span", span, Span, "Span")
    return span


# -- variables ---------------------------------------------------------------------

class Var(Expr):
    """A variable.  Identity is the object; ``name_hint`` is cosmetic."""

    __slots__ = ("name_hint", "unique_id")
    _fields: ClassVar[tuple[tuple[str, FieldKind], ...]]
    name_hint: str
    unique_id: int
    _fields = (("name_hint", _I), ("type", _U))

    def __init__(self, name_hint: str, type: Type, span: Span | None = None) -> None:
        # The hottest constructor of the passes: checks inline, messages only on failure.
        if name_hint.__class__ is not str:
            check_type("Var", "name_hint", name_hint, str, "str")
        if not isinstance(type, Type):
            check_type("Var", "type", type, Type, "Type")
        _set(self, "name_hint", name_hint)
        _set(self, "type", type)
        _set(self, "span", span if span.__class__ is Span else _span("Var", span))
        _set(self, "unique_id", next(_ids))



class IterArg(Var):
    """A loop-carried variable; ``initValue`` seeds the first iteration."""

    __slots__ = ("initValue",)
    initValue: Expr
    _fields = (("name_hint", _I), ("type", _U), ("initValue", _U))

    def __init__(self, name_hint: str, type: Type, initValue: Expr,
                 span: Span | None = None) -> None:
        super().__init__(name_hint, type, span)
        check_type("IterArg", "initValue", initValue, Expr, "Expr")
        _set(self, "initValue", initValue)


# -- constants ---------------------------------------------------------------------

class ConstInt(Expr):
    __slots__ = ("value",)
    value: int
    type: ScalarType
    _fields = (("type", _U), ("value", _U))

    def __init__(self, value: int, dtype: DataType, span: Span | None = None) -> None:
        if dtype is _INDEX_DTYPE and value.__class__ is int and span.__class__ is Span:
            # The literal the parser and the shapes make most: nothing left to check.
            _set(self, "value", value)
            _set(self, "type", _INDEX_SCALAR)
            _set(self, "span", span)
            return
        if isinstance(value, bool) or not isinstance(value, int):
            raise TypeError(f"ConstInt: field 'value' expects int, got {type(value).__name__}")
        check_type("ConstInt", "dtype", dtype, DataType, "DataType")
        if dtype.is_float():
            raise ValueError(f"ConstInt: dtype {dtype.to_string()} is a floating-point type; "
                             "a float constant is a ConstFloat")
        _set(self, "value", value)
        _set(self, "type", _scalar(dtype))
        _set(self, "span", _span("ConstInt", span))

    @property
    def dtype(self) -> DataType:
        return self.type.dtype


def index_const(value: int, span: Span | None = None) -> ConstInt:
    """``ConstInt(value, DataType.INDEX, span)`` for a value the caller knows is an
    ``int`` (shapes, loop bounds): the node the public constructor would build, without
    its checks.  Internal; users call ``ConstInt``, which checks."""
    node = _new(ConstInt)
    _set(node, "value", value)
    _set(node, "type", _INDEX_SCALAR)
    _set(node, "span", _UNKNOWN_SPAN if span is None else span)
    return node


class ConstFloat(Expr):
    __slots__ = ("value",)
    value: float
    type: ScalarType
    _fields = (("type", _U), ("value", _U))

    def __init__(self, value: float, dtype: DataType, span: Span | None = None) -> None:
        if dtype is _FP32_DTYPE and value.__class__ is float and span.__class__ is Span:
            _set(self, "value", value)
            _set(self, "type", _FP32_SCALAR)
            _set(self, "span", span)
            return
        if isinstance(value, bool) or not isinstance(value, (int, float)):
            raise TypeError(f"ConstFloat: field 'value' expects float, got {type(value).__name__}")
        check_type("ConstFloat", "dtype", dtype, DataType, "DataType")
        _set(self, "value", float(value))
        _set(self, "type", _scalar(dtype))
        _set(self, "span", _span("ConstFloat", span))

    @property
    def dtype(self) -> DataType:
        return self.type.dtype


class ConstBool(Expr):
    __slots__ = ("value",)
    value: bool
    type: ScalarType
    _fields = (("type", _U), ("value", _U))

    def __init__(self, value: bool, span: Span | None = None) -> None:
        check_type("ConstBool", "value", value, bool, "bool")
        _set(self, "value", value)
        _set(self, "type", _scalar(DataType.BOOL))
        _set(self, "span", _span("ConstBool", span))

    @property
    def dtype(self) -> DataType:
        return DataType.BOOL


_SCALAR_TYPES: dict[DataType, ScalarType] = {}


def _scalar(dtype: DataType) -> ScalarType:
    """Shared ScalarType instance per dtype (types are immutable)."""
    found = _SCALAR_TYPES.get(dtype)
    if found is None:  # setdefault: threads racing on the first one all get the same
        found = _SCALAR_TYPES.setdefault(dtype, ScalarType(dtype))
    return found


_INDEX_DTYPE, _FP32_DTYPE = DataType.INDEX, DataType.FP32
_INDEX_SCALAR, _FP32_SCALAR = _scalar(_INDEX_DTYPE), _scalar(_FP32_DTYPE)


# -- scalar operators --------------------------------------------------------------

def _check_scalar_operand(owner: str, field: str, operand: Expr) -> None:
    """Scalar operators take scalars: a tensor or tile operand is an op call
    (``tensor.add``), never an ``Add`` (the passes would meet a kind they cannot handle)."""
    if isinstance(operand.type, (ShapedType, TupleType)):
        kind = type(operand.type).__name__.replace("Type", "")
        raise TypeError(f"{owner}: field '{field}' is a {kind}; a scalar operator takes scalar "
                        "operands (use the op of its kind, e.g. tensor.add)")


class BinaryExpr(Expr):
    """Abstract binary scalar operator.  Raw constructors do not check operands;
    the ``ir.add`` ... builder functions do (promotion, casts)."""

    __slots__ = ("left", "right")
    left: Expr
    right: Expr
    type: ScalarType
    _fields = (("type", _U), ("left", _U), ("right", _U))

    def __init__(self, left: Expr, right: Expr, dtype: DataType, span: Span | None = None) -> None:
        name = type(self).__name__
        if type(self) is BinaryExpr:
            raise TypeError("BinaryExpr is abstract; use Add, Sub, ...")
        check_type(name, "left", left, Expr, "Expr")
        check_type(name, "right", right, Expr, "Expr")
        check_type(name, "dtype", dtype, DataType, "DataType")
        _check_scalar_operand(name, "left", left)
        _check_scalar_operand(name, "right", right)
        _set(self, "left", left)
        _set(self, "right", right)
        _set(self, "type", _scalar(dtype))
        _set(self, "span", _span(name, span))

    @property
    def dtype(self) -> DataType:
        return self.type.dtype


class UnaryExpr(Expr):
    """Abstract unary scalar operator (for ``Cast`` the dtype is the target)."""

    __slots__ = ("operand",)
    operand: Expr
    type: ScalarType
    _fields = (("type", _U), ("operand", _U))

    def __init__(self, operand: Expr, dtype: DataType, span: Span | None = None) -> None:
        name = type(self).__name__
        if type(self) is UnaryExpr:
            raise TypeError("UnaryExpr is abstract; use Neg, Not, ...")
        check_type(name, "operand", operand, Expr, "Expr")
        check_type(name, "dtype", dtype, DataType, "DataType")
        _check_scalar_operand(name, "operand", operand)
        _set(self, "operand", operand)
        _set(self, "type", _scalar(dtype))
        _set(self, "span", _span(name, span))

    @property
    def dtype(self) -> DataType:
        return self.type.dtype


# The operators: classes without fields of their own, written out (not made by a loop)
# so that a type checker knows them (``isinstance(e, Add)`` gives ``e.left``).
class Add(BinaryExpr): __slots__ = ()
class Sub(BinaryExpr): __slots__ = ()
class Mul(BinaryExpr): __slots__ = ()
class FloorDiv(BinaryExpr): __slots__ = ()
class FloorMod(BinaryExpr): __slots__ = ()
class FloatDiv(BinaryExpr): __slots__ = ()
class Min(BinaryExpr): __slots__ = ()
class Max(BinaryExpr): __slots__ = ()
class Pow(BinaryExpr): __slots__ = ()
class Eq(BinaryExpr): __slots__ = ()
class Ne(BinaryExpr): __slots__ = ()
class Lt(BinaryExpr): __slots__ = ()
class Le(BinaryExpr): __slots__ = ()
class Gt(BinaryExpr): __slots__ = ()
class Ge(BinaryExpr): __slots__ = ()
class And(BinaryExpr): __slots__ = ()
class Or(BinaryExpr): __slots__ = ()
class Xor(BinaryExpr): __slots__ = ()
class BitAnd(BinaryExpr): __slots__ = ()
class BitOr(BinaryExpr): __slots__ = ()
class BitXor(BinaryExpr): __slots__ = ()
class BitShiftLeft(BinaryExpr): __slots__ = ()
class BitShiftRight(BinaryExpr): __slots__ = ()
class Abs(UnaryExpr): __slots__ = ()
class Neg(UnaryExpr): __slots__ = ()
class Not(UnaryExpr): __slots__ = ()
class BitNot(UnaryExpr): __slots__ = ()
class Cast(UnaryExpr): __slots__ = ()

BINARY_CLASSES = (Add, Sub, Mul, FloorDiv, FloorMod, FloatDiv, Min, Max, Pow, Eq, Ne, Lt, Le,
                  Gt, Ge, And, Or, Xor, BitAnd, BitOr, BitXor, BitShiftLeft, BitShiftRight)
UNARY_CLASSES = (Abs, Neg, Not, BitNot, Cast)


# -- calls and tuples --------------------------------------------------------------

def _ordered_dict(owner: str, field: str, value: Any) -> dict:
    if not value:
        if value is None or type(value) is dict:
            return {}
    if type(value) is dict:
        for key in value:
            if type(key) is not str:
                check_type(owner, f"{field} key", key, str, "str")
        return dict(value)
    if not isinstance(value, Mapping):
        raise TypeError(f"{owner}: field '{field}' expects a dict, got {type(value).__name__}")
    for key in value:
        check_type(owner, f"{field} key", key, str, "str")
    return dict(value)


class Call(Expr):
    """A call of a registered op or of a program function (``GlobalVar``).

    Constructor forms: ``Call(op, args, span)``, ``Call(op, args, type, span)``,
    ``Call(op, args, kwargs, span)``, ``Call(op, args, kwargs, type, span)``,
    ``Call(op, args, kwargs, attrs, type, span)``.  Without a type it is
    ``UnknownType``; ``ir.create_op_call`` deduces it.
    """

    __slots__ = ("op", "args", "_attrs", "_kwargs")
    op: Op
    args: tuple[Expr, ...]
    _attrs: dict[str, Any]
    _kwargs: dict[str, Any]
    _fields = (("type", _U), ("op", _U), ("args", _U), ("attrs", _U), ("kwargs", _U))

    def __init__(self, op: Op, args: Iterable[Expr], *rest: Any, **kw: Any) -> None:
        kwargs, attrs, type_, span = _call_rest(rest, kw)
        if not isinstance(op, Op):
            check_type("Call", "op", op, Op, "Op or GlobalVar")
        _set(self, "op", op)
        if args.__class__ is tuple or args.__class__ is list:
            items = tuple(args)
            for item in items:  # only checks: the general path names a failing index
                if not isinstance(item, Expr):
                    as_tuple("Call", "args", items, Expr, "Expr")
        else:
            items = as_tuple("Call", "args", args, Expr, "Expr")
        _set(self, "args", items)
        _set(self, "_kwargs", {} if kwargs is None else _ordered_dict("Call", "kwargs", kwargs))
        attrs = {} if attrs is None else _ordered_dict("Call", "attrs", attrs)
        _set(self, "_attrs", attrs)
        if type_ is None:
            type_ = UnknownType.get()
        elif not isinstance(type_, Type):
            check_type("Call", "type", type_, Type, "Type")
        _set(self, "type", type_)
        _set(self, "span", span if span.__class__ is Span else _span("Call", span))
        directions = attrs.get("arg_directions") if attrs else None
        if directions and len(directions) != len(self.args):
            raise ValueError(f"Call: attrs['arg_directions'] has {len(directions)} entries "
                             f"but the call has {len(self.args)} args")

    @property
    def attrs(self) -> dict:
        return dict(self._attrs)

    @property
    def kwargs(self) -> dict:
        return dict(self._kwargs)

    @property
    def arg_directions(self) -> list:
        return list(self._attrs.get("arg_directions", ()))


def _call_rest(rest: tuple, kw: dict) -> tuple:
    """Decode the overloaded tail of ``Call(op, args, ...)`` positionally by type."""
    if not kw and len(rest) == 2:
        type_, span = rest
        # (type, span): a call the passes and the outliners rebuild
        if span.__class__ is Span and isinstance(type_, Type):
            return None, None, type_, span
    if not kw and len(rest) == 4:
        kwargs, attrs, type_, span = rest
        # The form the parser and the op registry use: (kwargs, attrs, type, span)
        # with plain dicts -- decoded without the generic checks below.
        if kwargs.__class__ is dict and attrs.__class__ is dict \
                and span.__class__ is Span and isinstance(type_, Type):
            return kwargs, attrs, type_, span
    kwargs = kw.pop("kwargs", None)
    attrs = kw.pop("attrs", None)
    type_ = kw.pop("type", None)
    span = kw.pop("span", None)
    if kw:
        raise TypeError(f"Call: unexpected keyword argument '{next(iter(kw))}'")
    dicts: list[Any] = []
    for item in rest:
        if item.__class__ is Span:
            span = item
        elif item is None or item.__class__ is dict:
            dicts.append(item)
        elif isinstance(item, Type):
            type_ = item
        elif isinstance(item, Span):
            span = item
        elif isinstance(item, Mapping):
            dicts.append(item)
        else:
            raise TypeError(f"Call: unexpected argument of type {type(item).__name__}; "
                            "expected kwargs/attrs dict, Type or Span")
    if len(dicts) > 2:
        raise TypeError("Call: at most two dicts (kwargs, attrs) may be given")
    if dicts:
        kwargs = dicts[0]
    if len(dicts) == 2:
        attrs = dicts[1]
    return kwargs, attrs, type_, span


class MakeTuple(Expr):
    __slots__ = ("elements",)
    elements: tuple[Expr, ...]
    type: TupleType
    _fields = (("type", _U), ("elements", _U))

    def __init__(self, elements: Iterable[Expr], span: Span | None = None) -> None:
        elems = as_tuple("MakeTuple", "elements", elements, Expr, "Expr")
        _set(self, "elements", elems)
        # Every Expr's type is a Type (its constructor checked): not checked again.
        _set(self, "type", TupleType._of_checked(tuple([e.type for e in elems])))
        _set(self, "span", span if span.__class__ is Span else _span("MakeTuple", span))


class TupleGetItemExpr(Expr):
    __slots__ = ("tuple", "index")
    tuple: Expr
    index: int
    _fields = (("type", _U), ("tuple", _U), ("index", _U))

    def __init__(self, tuple: Expr, index: int, span: Span | None = None) -> None:  # noqa: A002
        check_type("TupleGetItemExpr", "tuple", tuple, Expr, "Expr")
        if isinstance(index, bool) or not isinstance(index, int):
            raise TypeError("TupleGetItemExpr: field 'index' expects int")
        ttype = tuple.type
        if not isinstance(ttype, TupleType):
            raise ValueError(f"TupleGetItemExpr: field 'tuple' must have a TupleType, "
                             f"got {ttype}")
        if not 0 <= index < len(ttype.types):
            raise ValueError(f"TupleGetItemExpr: index {index} out of range for a tuple of "
                             f"{len(ttype.types)} element(s)")
        _set(self, "tuple", tuple)
        _set(self, "index", index)
        _set(self, "type", ttype.types[index])
        _set(self, "span", _span("TupleGetItemExpr", span))


class Submit(Expr):
    """An asynchronous task launch; typed ``Tuple[<callee results...>, Scalar[TASK_ID]]``."""

    __slots__ = ("op", "args", "deps", "core_num", "sync_start", "allow_early_resolve",
                 "predicate", "_attrs", "_kwargs")
    op: Op
    args: tuple[Expr, ...]
    deps: tuple[Expr, ...]
    core_num: Expr | None
    sync_start: bool
    allow_early_resolve: bool
    predicate: Expr | None
    _attrs: dict[str, Any]
    _kwargs: dict[str, Any]
    _fields = (("type", _U), ("op", _U), ("args", _U), ("deps", _U), ("core_num", _U),
               ("sync_start", _U), ("allow_early_resolve", _U), ("predicate", _U),
               ("attrs", _U), ("kwargs", _U))

    def __init__(self, op: Op, args: Iterable[Expr], deps: Iterable[Expr], type: Type,
                 span: Span | None = None, core_num: Expr | int | None = None,
                 sync_start: bool = False, allow_early_resolve: bool = False,
                 predicate: Expr | None = None, attrs: Mapping | None = None,
                 kwargs: Mapping | None = None) -> None:
        check_type("Submit", "op", op, Op, "Op or GlobalVar")
        check_type("Submit", "type", type, Type, "Type")
        if isinstance(core_num, int) and not isinstance(core_num, bool):
            core_num = ConstInt(core_num, DataType.INDEX)
        if core_num is not None:
            check_type("Submit", "core_num", core_num, Expr, "Expr or int")
        if predicate is not None:
            check_type("Submit", "predicate", predicate, Expr, "Expr")
        check_type("Submit", "sync_start", sync_start, bool, "bool")
        check_type("Submit", "allow_early_resolve", allow_early_resolve, bool, "bool")
        _set(self, "op", op)
        _set(self, "args", as_tuple("Submit", "args", args, Expr, "Expr"))
        _set(self, "deps", as_tuple("Submit", "deps", deps, Expr, "Expr"))
        _set(self, "type", type)
        _set(self, "core_num", core_num)
        _set(self, "sync_start", sync_start)
        _set(self, "allow_early_resolve", allow_early_resolve)
        _set(self, "predicate", predicate)
        _set(self, "_attrs", _ordered_dict("Submit", "attrs", attrs))
        _set(self, "_kwargs", _ordered_dict("Submit", "kwargs", kwargs))
        _set(self, "span", _span("Submit", span))

    @property
    def attrs(self) -> dict:
        return dict(self._attrs)

    @property
    def arg_directions(self) -> list:
        return list(self._attrs.get("arg_directions", ()))

    @property
    def kwargs(self) -> dict:
        return dict(self._kwargs)

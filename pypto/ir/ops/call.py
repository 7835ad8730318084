"""``create_op_call``: validate a call against its ``OpDef`` and build a typed ``Call``.

Order of checks: op name, argument count, positional conversion (Python values ->
IR constants / ``MakeTuple``), keywords (unknown names, value kinds, choices),
operand kinds, then the op's deduction rule.  Every message starts with the op's
qualified name so the parser's wrapper (01-language.md §14.3) can see it is named.

Canonical kwargs: the Call holds every declared keyword whose value is not
``None`` -- defaults included -- in declaration order.  So the unified ``pl.load``
and the namespaced ``pl.tile.load(..., target_memory=pl.Mem.Vec)`` build equal IR,
and the printer's output (all kwargs) reparses to the same Call.
"""

from __future__ import annotations

import enum
from typing import Any, Iterable, Mapping, cast

from ..builders import to_expr
from ..dtype import DataType
from ..expr import Call, ConstInt, MakeTuple
from ..node import Expr
from ..span import Span, ambient_span
from .registry import EMPTY, BadKwargValue, OpDef, get_op

__all__ = ["create_op_call", "to_ir_arg"]


def to_ir_arg(value: Any, span: Span) -> Expr:
    """Python values as IR: int -> ConstInt(INDEX), float -> ConstFloat(FP32),
    bool -> ConstBool, list/tuple -> MakeTuple (recursively).  ``TypeError`` otherwise."""
    if isinstance(value, Expr):
        return value
    if isinstance(value, (list, tuple)):
        return MakeTuple([item if isinstance(item, Expr) else to_ir_arg(item, span)
                          for item in value], span)
    if isinstance(value, enum.Enum):  # IntEnums are ints; never turn them into numbers
        raise TypeError(f"cannot use {type(value).__name__}.{value.name} as an operand")
    return to_expr(value, span)


def _value_text(value: Any) -> str:
    if isinstance(value, enum.Enum):
        return f"{type(value).__name__}.{value.name}"
    if isinstance(value, DataType):
        return f"DataType.{value.name}"
    return repr(value)


def _fill_omitted(op: OpDef, args: list[Any]) -> list[Any]:
    """``None`` marks an omitted optional operand: trailing ones are dropped unless
    their spec fills them from another operand; inner ones take their ``fill``."""
    given = len(args)
    while given and args[given - 1] is None:
        given -= 1
    out = list(args[:given])
    for position in range(given, len(op.params)):
        fill = op.params[position].fill
        if fill in (None, EMPTY) or not op.params[position].optional:
            break
        out.append(None)
        given = position + 1
    for position, value in enumerate(out):
        if value is not None or position >= len(op.params):
            continue
        spec = op.params[position]
        if not spec.optional:
            raise TypeError(f"{op.name}: missing required operand '{spec.name}'")
        if spec.fill == EMPTY:
            out[position] = []
        elif spec.fill is not None:
            # OpDef checked that ``fill`` names an earlier operand
            out[position] = out[cast(int, op.param_index(spec.fill))]
        else:
            raise TypeError(f"{op.name}: operand '{spec.name}' (position {position}) cannot "
                            "be omitted when a later operand is given")
    return out


def _convert_args(op: OpDef, args: list[Any], span: Span) -> tuple[Expr, ...]:
    out: list[Expr] = []
    for position, value in enumerate(args):
        if isinstance(value, Expr):  # (no Expr is an enum member: nothing below applies)
            out.append(value)
            continue
        enum_cls = op.params[position].enum if position < len(op.params) else None
        if enum_cls is not None and isinstance(value, enum_cls):
            out.append(ConstInt(int(value), DataType.INDEX, span))
            continue
        try:
            out.append(to_ir_arg(value, span))
        except TypeError as exc:
            raise TypeError(f"{op.name}: operand {_operand_label(op, position)} must be an IR "
                            f"expression, int, float, bool or list: {exc}") from None
    return tuple(out)


def _operand_label(op: OpDef, position: int) -> str:
    if position < len(op.params):
        return f"'{op.params[position].name}' (position {position})"
    return f"at position {position}"


def _check_count(op: OpDef, count: int) -> None:
    low, high = op.min_args, op.max_args
    if low <= count <= high:
        return
    expected = str(low) if low == high else f"{low} to {high}"
    names = ", ".join(p.name for p in op.params) or "no operands"
    raise TypeError(f"{op.name} takes {expected} positional argument(s) ({names}), "
                    f"got {count}")


def _canonical_kwargs(op: OpDef, given: Mapping[str, Any] | None,
                      specs: tuple | None = None) -> dict[str, Any]:
    """``given`` checked against ``specs`` (default: the attributes) and canonicalised."""
    specs = op.keywords if specs is None else specs
    given = dict(given or {})
    for key in given:
        if not isinstance(key, str):
            raise TypeError(f"{op.name}: keyword names must be str, got {type(key).__name__}")
        spec = None
        for candidate in specs:  # (a loop: no generator frame per keyword of every call)
            if candidate.name == key:
                spec = candidate
                break
        if spec is None or (spec.hidden and given[key] != spec.default):
            valid = ", ".join(k.name for k in specs if not k.hidden) or "none"
            raise TypeError(f"{op.name}: unexpected keyword argument '{key}' "
                            f"(valid keywords: {valid})")
    out: dict[str, Any] = {}
    for spec in specs:
        value = given.get(spec.name, spec.default)
        if value is None:
            if spec.required:
                raise TypeError(f"{op.name}: missing required keyword argument '{spec.name}'")
            continue
        try:
            value = spec.value.convert(value)
        except BadKwargValue:
            raise TypeError(f"{op.name}: keyword '{spec.name}' expects {spec.value.label}, "
                            f"got {type(value).__name__} {_value_text(value)}") from None
        if value is None:  # a converter may canonicalise "empty" to absent
            continue
        if spec.choices is not None and value not in spec.choices:
            allowed = ", ".join(_value_text(c) for c in spec.choices)
            raise ValueError(f"{op.name}: keyword '{spec.name}' must be one of {allowed}; "
                             f"got {_value_text(value)}")
        out[spec.name] = value
    return out


def _is_absent(spec: Any, arg: Expr) -> bool:
    """``[]`` standing in for an omitted optional operand of a non-tuple kind."""
    return spec.fill == EMPTY and isinstance(arg, MakeTuple) and not arg.elements


def _check_kinds(op: OpDef, args: tuple[Expr, ...]) -> None:
    for position, (spec, arg) in enumerate(zip(op.params, args)):
        if not spec.kind.accepts(arg) and not _is_absent(spec, arg):
            raise ValueError(f"{op.name}: operand '{spec.name}' (position {position}) must be "
                             f"{spec.kind.description}, got {_describe(arg)}")


def _describe(arg: Expr) -> str:
    if isinstance(arg, MakeTuple):
        return f"a tuple of ({', '.join(str(e.type) for e in arg.elements)})"
    return str(arg.type)


def create_op_call(op_name: str, args: Iterable[Any], kwargs: Mapping[str, Any] | None = None,
                   span: Span | None = None, attrs: Mapping[str, Any] | None = None,
                   type_args: Mapping[str, Any] | None = None) -> Call:
    """Validate a call of the registered op ``op_name`` and return it typed.

    PyPTO's ``create_op_call(op_name, args, span)`` works too: a Span in the third
    position is the span (this one's keywords then come by name).

    ``type_args`` are the op's ``type_params`` (checked like attributes): the type rule
    reads them together with the attributes, the Call does not keep them.

    ``TypeError``: wrong argument count, a non-convertible operand, unknown or
    missing keywords, keyword values of the wrong kind.  ``ValueError``: unknown
    op, wrong operand kind, a keyword value outside its choices, and shape/dtype
    problems found by the deduction rule.  All messages name the op.
    """
    op = get_op(op_name)
    if kwargs is not None and span is None and isinstance(kwargs, Span):
        kwargs, span = None, kwargs  # PyPTO's form: create_op_call(op_name, args, span)
    if span is None:
        span = ambient_span()
    elif span.__class__ is not Span and not isinstance(span, Span):
        raise TypeError(f"{op.name}: span must be an ir.Span, got {type(span).__name__}")
    # (exact-class tests first: an isinstance against the typing ABCs costs microseconds)
    if args.__class__ is not list and args.__class__ is not tuple and (
            isinstance(args, (str, bytes)) or not isinstance(args, Iterable)):
        raise TypeError(f"{op.name}: args must be a list of operands, got {type(args).__name__}")
    raw_args = _fill_omitted(op, list(args))
    _check_count(op, len(raw_args))
    ir_args = _convert_args(op, raw_args, span)
    if kwargs is not None and kwargs.__class__ is not dict and not isinstance(kwargs, Mapping):
        raise TypeError(f"{op.name}: kwargs must be a dict, got {type(kwargs).__name__}")
    canonical = _canonical_kwargs(op, kwargs)
    rule_kwargs = canonical
    if op.type_params or type_args:
        rule_kwargs = {**canonical, **_canonical_kwargs(op, type_args, op.type_params)}
    _check_kinds(op, ir_args)
    try:
        result_type = op.deduce(ir_args, rule_kwargs)
    except ValueError as exc:
        raise ValueError(f"{op.name}: {exc}") from None
    except TypeError as exc:
        raise TypeError(f"{op.name}: {exc}") from None
    return Call(op, ir_args, kwargs=canonical, attrs=attrs, type=result_type, span=span)

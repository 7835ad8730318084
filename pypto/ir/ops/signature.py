"""The signatures of PyPTO's 1:1 op wrappers, read off the registry entries.

``pl.<ns>.<op>`` (flavour ``"pl"``) and ``ir.op.<ns>.<op>`` (flavour ``"ir"``) take an
op's operands and its visible attributes.  By default the signature follows the entry:
operands in order (optional ones default to ``None``), then the attributes in
declaration order with their defaults (a required attribute after a defaulted
parameter is keyword-only); the ``ir`` flavour adds ``span=None`` before the
keyword-only parameters.  Where PyPTO's signature differs, the entry says so with a
spec string (``OpDef(pl="shape, dtype, value")``): parameter names in order, ``*``
starting the keyword-only ones, ``span`` where the span goes (ir flavour; a ``pl``
wrapper whose span is positional names it too), ``wrapper_name:entry_name`` when the
wrapper names a parameter differently, ``name=literal`` when it spells the default
differently (``atomic=0``) and ``name!`` when it requires what the entry makes
optional (``ir.op.tile.alloc``'s ``addr``).  Besides operands and attributes a
parameter may name one of the op's ``type_params`` or ``call_attrs``.

The printer prints calls in the ``pl`` layout (``print_layout``), or in the layout of
the router that builds the op (``OpDef.router``), so what it emits is exactly what
PyPTO's wrapper accepts.
"""

from __future__ import annotations

import ast
import inspect
from dataclasses import dataclass
from functools import lru_cache
from typing import Any, Mapping

from ..expr import ConstInt, MakeTuple
from .registry import DERIVED, EMPTY, ArgKind, OpDef

__all__ = ["SigParam", "REQUIRED", "wrapper_params", "router_params", "derived_params",
           "print_layout"]

REQUIRED = inspect.Parameter.empty


@dataclass(frozen=True)
class SigParam:
    """One wrapper parameter: ``target`` is ``"operand"`` (``slot`` = operand index),
    ``"attr"`` (``slot`` = attribute name), ``"type"`` (a type parameter),
    ``"call_attr"`` (a key of the Call's attrs) or ``"span"``."""

    name: str
    target: str
    slot: Any
    keyword_only: bool
    default: Any


def _resolve(op: OpDef, wrapper_name: str, entry_name: str, keyword_only: bool) -> SigParam:
    if entry_name == "span":
        return SigParam("span", "span", None, keyword_only, None)
    index = op.param_index(entry_name)
    if index is not None:
        default = None if op.params[index].optional else REQUIRED
        return SigParam(wrapper_name, "operand", index, keyword_only, default)
    if entry_name in op.call_attrs:
        return SigParam(wrapper_name, "call_attr", entry_name, keyword_only, REQUIRED)
    target, spec = "attr", op.keyword(entry_name)
    if spec is None:
        target, spec = "type", op.type_param(entry_name)
    if spec is None or spec.hidden:
        raise ValueError(f"OpDef '{op.name}': wrapper parameter '{entry_name}' is neither an "
                         "operand nor a visible attribute")
    default = REQUIRED if spec.required else spec.default
    return SigParam(wrapper_name, target, entry_name, keyword_only, default)


def _parse_spec(op: OpDef, spec: str) -> list[SigParam]:
    out: list[SigParam] = []
    keyword_only = False
    for token in (t.strip() for t in spec.split(",")):
        if not token:
            continue
        if token == "*":
            keyword_only = True
            continue
        token, _, literal = token.partition("=")
        required = token.endswith("!")
        wrapper_name, _, entry_name = token.rstrip("!").partition(":")
        param = _resolve(op, wrapper_name, entry_name or wrapper_name, keyword_only)
        if literal or required:  # the wrapper's own default (``atomic=0``) or none
            param = SigParam(param.name, param.target, param.slot, keyword_only,
                             REQUIRED if required else ast.literal_eval(literal))
        out.append(param)
    return out


def _derived(op: OpDef) -> list[SigParam]:
    out = [_resolve(op, p.name, p.name, False) for p in op.params]
    defaulted = any(p.default is not REQUIRED for p in out)
    for spec in op.keywords:
        if spec.hidden:
            continue
        param = _resolve(op, spec.name, spec.name, False)
        if param.default is REQUIRED and defaulted:
            param = SigParam(param.name, "attr", param.slot, True, REQUIRED)
        defaulted = defaulted or param.default is not REQUIRED
        out.append(param)
    out += [_resolve(op, spec.name, spec.name, True) for spec in op.type_params]
    out += [_resolve(op, name, name, True) for name in op.call_attrs]
    return out


def _with_span(params: list[SigParam]) -> list[SigParam]:
    if any(p.target == "span" for p in params):
        return params
    cut = next((i for i, p in enumerate(params) if p.keyword_only), len(params))
    return [*params[:cut], SigParam("span", "span", None, False, None), *params[cut:]]


@lru_cache(maxsize=None)
def wrapper_params(op: OpDef, flavour: str) -> tuple[SigParam, ...] | None:
    """The parameters of ``op``'s ``flavour`` wrapper, or ``None`` if PyPTO has none.

    The ``pl`` flavour has no span parameter (the generated functions add a
    keyword-only ``span=None`` of their own, which PyPTO's parser-facing wrappers
    lack); the ``ir`` flavour always has one."""
    spec = op.pl if flavour == "pl" else op.ir
    if spec is None:
        return None
    if spec == DERIVED:
        if flavour == "ir" and op.pl not in (None, DERIVED):
            params = _parse_spec(op, op.pl)
        else:
            params = _derived(op)
    else:
        params = _parse_spec(op, spec)
    if flavour == "ir":
        params = _with_span(params)
    _check_order(op, params)
    return tuple(params)


@lru_cache(maxsize=None)
def router_params(op: OpDef) -> tuple[SigParam, ...] | None:
    """The layout of ``op`` in the PyPTO router that builds it (``OpDef.router``)."""
    return None if op.router is None else tuple(_parse_spec(op, op.router[1]))


def derived_params(op: OpDef, flavour: str) -> tuple[SigParam, ...]:
    """The layout the entry implies, whatever its ``pl``/``ir`` specs say (for ops
    PyPTO has no wrapper of: the parser still reads what the printer writes)."""
    params = _derived(op)
    return tuple(_with_span(params) if flavour == "ir" else params)


def _check_order(op: OpDef, params: list[SigParam]) -> None:
    defaulted = False
    for param in params:
        if param.keyword_only:
            continue
        if param.default is REQUIRED and defaulted:
            raise ValueError(f"OpDef '{op.name}': wrapper parameter '{param.name}' has no "
                             "default but follows one that has")
        defaulted = defaulted or param.default is not REQUIRED
    operands = {p.slot for p in params if p.target == "operand"}
    missing = [s.name for i, s in enumerate(op.params) if i not in operands and not s.optional]
    if missing:
        raise ValueError(f"OpDef '{op.name}': wrapper takes no operand {missing}")


def _is_default(op: OpDef, name: str, value: Any) -> bool:
    spec = op.keyword(name)
    default = spec.default if spec is not None else None
    return default is not None and type(value) is type(default) and value == default


def _operand_value(op: OpDef, slot: int, value: Any) -> Any:
    """An operand as printed: an ``enum`` operand's constant as its member again."""
    enum_cls = op.params[slot].enum
    if enum_cls is not None and isinstance(value, ConstInt):
        try:
            return enum_cls(value.value)
        except ValueError:
            return value
    return value


def _absent(op: OpDef, slot: int, value: Any) -> bool:
    """An omitted optional Tile/Tensor operand, held as ``[]`` (``fill=EMPTY``)."""
    spec = op.params[slot]
    return (spec.fill == EMPTY and spec.kind is not ArgKind.IndexTuple
            and isinstance(value, MakeTuple) and not value.elements)


def prints_operands_as_given(op: OpDef) -> bool:
    """Does ``print_layout`` give a call of ``op`` without attributes its operands as they
    are, all positional, and no keyword (when every kwarg holds its default)?  True for
    most ops: their wrapper takes the operands first, in order, none an enum or an
    omissible tile, and reads no parameter off the result type.  (Not cached here: the
    printer keeps the answer per print, ``SharedTexts.plain_ops``.)"""
    params = wrapper_params(op, "pl") or router_params(op) or derived_params(op, "pl")
    slot = 0
    for param in params:
        if param.target == "type":
            return False
        if param.target == "operand":
            spec = op.params[param.slot]
            if (param.slot != slot or param.keyword_only or spec.enum is not None
                    or spec.fill == EMPTY):
                return False
            slot += 1
    return True


def holds_defaults(op: OpDef, kwargs: Mapping[str, Any]) -> bool:
    """Does every kwarg hold its default (so ``print_layout`` prints none of them)?"""
    return all(_is_default(op, key, value) for key, value in kwargs.items())


def print_layout(op: OpDef, args: tuple, kwargs: Mapping[str, Any], result_type: Any = None,
                 attrs: Mapping[str, Any] | None = None
                 ) -> tuple[list[Any], list[tuple[str, Any]]]:
    """How to print a call of ``op`` so that PyPTO's ``pl`` wrapper reads it back:
    ``(positional operands, [(keyword, value)])``.  Operands go positionally while
    they line up with the wrapper's leading positional parameters, the rest by
    keyword; attributes by keyword, unless they hold their default (the reparse fills
    it in again); hidden attributes not at all.  Type parameters are read off
    ``result_type`` (its field of the same name), call-attr parameters off ``attrs``."""
    params = wrapper_params(op, "pl") or router_params(op) or derived_params(op, "pl")
    positional: list[Any] = []
    keywords: list[tuple[str, Any]] = []
    in_order = True
    for param in params:
        if param.target == "operand":
            if param.slot >= len(args):
                in_order = False
                continue
            value = _operand_value(op, param.slot, args[param.slot])
            if _absent(op, param.slot, value):  # the reparse fills it again
                in_order = False
                continue
            if in_order and not param.keyword_only and param.slot == len(positional):
                positional.append(value)
            else:
                in_order = False
                keywords.append((param.name, value))
        elif param.target == "type":
            in_order = False
            value = getattr(result_type, param.slot, None)
            if value is not None:
                keywords.append((param.name, list(value) if isinstance(value, tuple) else value))
        elif param.target == "call_attr":
            in_order = False
            if attrs and param.slot in attrs:
                keywords.append((param.name, attrs[param.slot]))
        elif param.target == "attr":
            in_order = False
            if param.slot in kwargs and not _is_default(op, param.slot, kwargs[param.slot]):
                keywords.append((param.name, kwargs[param.slot]))
    shown = {p.slot for p in params if p.target == "attr"}
    for key, value in kwargs.items():
        # keywords of a hand-built Call, and attributes the wrapper takes no parameter
        # for (the parser reads them): kept unless they hold their default
        spec = op.keyword(key)
        if key not in shown and (spec is None or not (spec.hidden or
                                                      _is_default(op, key, value))):
            keywords.append((key, value))
    return positional, keywords

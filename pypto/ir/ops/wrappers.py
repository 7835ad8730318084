"""Generate PyPTO's 1:1 op wrappers (``pl.tensor.add``, ``ir.op.tensor.add`` ...) from
the registry entries: one real Python function per op and flavour, with the signature
``signature.wrapper_params`` gives (so ``inspect.signature``, keyword operands and
Python's own argument errors all behave like a hand-written function).

The functions of a namespace are compiled from one generated source text, once, when
the wrapper module is first imported; each body is a single ``create_op_call`` with the
op's name as a literal.
"""

from __future__ import annotations

import enum
import keyword
from typing import Any, Callable

from ..expr import Call
from ..node import Expr
from ..types import ScalarType
from .call import create_op_call
from .registry import OpDef, get_op, ops_in
from .signature import REQUIRED, SigParam, derived_params, wrapper_params

__all__ = ["generate_wrappers", "wrapper_name", "route_scalar"]


def wrapper_name(op_short_name: str) -> str:
    """``and`` -> ``and_``: Python keywords get a trailing underscore."""
    return op_short_name + "_" if keyword.iskeyword(op_short_name) else op_short_name


def _param_text(param: SigParam, defaults: list) -> str:
    if param.default is REQUIRED:
        return param.name
    defaults.append(param.default)
    return f"{param.name}=_D[{len(defaults) - 1}]"


def _function_source(op: OpDef, name: str, params: tuple[SigParam, ...], flavour: str,
                     defaults: list) -> str:
    positional = [_param_text(p, defaults) for p in params if not p.keyword_only]
    keyword_only = [_param_text(p, defaults) for p in params if p.keyword_only]
    if flavour == "pl" and not any(p.target == "span" for p in params):
        keyword_only.append("span=None")
    signature = ", ".join([*positional, *(["*", *keyword_only] if keyword_only else [])])
    by_slot = {p.slot: p.name for p in params if p.target == "operand"}
    operands = ", ".join(by_slot.get(i, "None") for i in range(len(op.params)))

    def mapping(target: str) -> str:
        return "{" + ", ".join(f"{p.slot!r}: {p.name}" for p in params
                               if p.target == target) + "}"

    attrs = mapping("attr")
    if op.scalar_form is not None:
        scalar = f"{op.namespace}.{op.scalar_form}"
        return (f"def {name}({signature}):\n"
                f"    return _route({op.name!r}, {scalar!r}, [{operands}], {attrs}, span)\n")
    extra = ""
    if op.type_params:
        extra += f", type_args={mapping('type')}"
    if op.call_attrs:
        extra += f", attrs={mapping('call_attr')}"
    return (f"def {name}({signature}):\n"
            f"    return _make({op.name!r}, [{operands}], {attrs}, span{extra})\n")


def _is_scalar(value: Any) -> bool:
    if isinstance(value, Expr):
        return isinstance(value.type, ScalarType)
    return isinstance(value, (int, float)) and not isinstance(value, enum.Enum)


def route_scalar(op_name: str, scalar_name: str, operands: list, attrs: dict,
                 span: Any) -> Call:
    """PyPTO's ``add(t, 2.0)`` is ``adds``: a scalar second operand picks the scalar
    form; attributes it does not declare may only hold their defaults."""
    if len(operands) < 2 or not _is_scalar(operands[1]):
        return create_op_call(op_name, operands, attrs, span)
    scalar_op, op = get_op(scalar_name), get_op(op_name)
    kept = {}
    for key, value in attrs.items():
        if scalar_op.keyword(key) is not None:
            kept[key] = value
        elif (spec := op.keyword(key)) is None or value != spec.default:
            raise TypeError(f"{scalar_name}: '{key}' is not supported with a scalar rhs")
    return create_op_call(scalar_name, operands, kept, span)


def _unreachable_attrs(op: OpDef, params: tuple[SigParam, ...]) -> tuple[SigParam, ...]:
    """Visible attributes the wrapper takes no parameter for (``pl.tile.aic_gather(x)``
    has no ``split``), as keyword-only parameters with their defaults."""
    taken = {p.slot for p in params if p.target == "attr"} | {p.name for p in params}
    return tuple(SigParam(k.name, "attr", k.name, True, k.default) for k in op.keywords
                 if not k.hidden and k.name not in taken)


def generate_wrappers(namespace: str, flavour: str, module: str,
                      include_hidden: bool = False) -> dict[str, Callable[..., Any]]:
    """``{wrapper name: function}`` for the ops of ``namespace`` that have a
    ``flavour`` wrapper (``"pl"`` or ``"ir"``), aliases included.  With
    ``include_hidden`` ops without one get a function in their derived layout too,
    under ``"_" + name`` (the parser reads back what the printer writes for them), and
    so do ops whose wrapper cannot set some attribute (the wrapper's layout plus those
    attributes, keyword-only)."""
    defaults: list = []
    sources: list[str] = []
    names: dict[str, str] = {}
    for op in ops_in(namespace):
        params = wrapper_params(op, flavour)
        if params is None:
            if not include_hidden:
                continue
            params = derived_params(op, flavour)
            name = wrapper_name(op.short_name)
            sources.append(_function_source(op, name, params, flavour, defaults))
            names["_" + name] = name
            continue
        name = wrapper_name(op.short_name)
        sources.append(_function_source(op, name, params, flavour, defaults))
        names[name] = name
        for alias in op.aliases:
            names[alias] = name
        unreachable = _unreachable_attrs(op, params) if include_hidden else ()
        if unreachable:  # the parser also reads what only ir.op builders can set
            sources.append(_function_source(op, "_parse_" + name, params + unreachable,
                                            flavour, defaults))
            names["_" + name] = "_parse_" + name
    namespace_globals: dict[str, Any] = {"_D": defaults, "_make": create_op_call,
                                         "_route": route_scalar, "__name__": module}
    exec(compile("".join(sources), f"<{module} wrappers>", "exec"), namespace_globals)
    out = {}
    for public, defined in names.items():
        function = namespace_globals[defined]
        function.__module__ = module
        function.__doc__ = f"Build a ``{namespace}.{defined.rstrip('_')}`` call."
        out[public] = function
    return out

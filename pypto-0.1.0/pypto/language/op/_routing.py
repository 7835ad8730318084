"""Routing of the unified ``pl.*`` functions: the kind of an operand picks the
``pl.tensor`` or ``pl.tile`` wrapper of the same name."""

from __future__ import annotations

import enum
from typing import Any, Callable

from pypto import ir
from . import tensor_ops, tile_ops

__all__ = ["kind_of", "describe", "route", "routed", "SHAPED_KINDS"]

_MODULES = {"tensor": tensor_ops, "tile": tile_ops}


def _kind(value: Any) -> str | None:
    """``"tensor"``, ``"tile"``, ``"scalar"`` (IR scalar or Python number), or None."""
    if isinstance(value, ir.Expr):
        t = value.type
        if isinstance(t, ir.TensorType):
            return "tensor"
        if isinstance(t, ir.TileType):
            return "tile"
        return "scalar" if isinstance(t, ir.ScalarType) else None
    if isinstance(value, (bool, int, float)) and not isinstance(value, enum.Enum):
        return "scalar"
    return None


def _describe(value: Any) -> str:
    return str(value.type) if isinstance(value, ir.Expr) else f"{type(value).__name__} {value!r}"


def _route(unified: str, param: str, value: Any, op: str | None = None,
           **rejected: Any) -> Callable[..., ir.Expr]:
    """The ``pl.tensor``/``pl.tile`` wrapper ``op`` (default: ``unified``) chosen by
    ``value``; keywords in ``rejected`` must hold their defaults on the Tile path."""
    kind = _kind(value)
    if kind not in _MODULES:
        raise TypeError(f"pl.{unified}: '{param}' must be a Tensor or Tile, got "
                        f"{_describe(value)}")
    fn = getattr(_MODULES[kind], op or unified, None)
    if fn is None:
        other = "Tensor" if kind == "tile" else "Tile"
        raise TypeError(f"pl.{unified} has no {kind} form; it takes a {other}")
    if kind == "tile":
        for key, value in rejected.items():
            if value is not None and value is not False:
                raise TypeError(f"pl.{unified}: '{key}' is not supported for tile operands")
    return fn


def _shaped(name: str, first: Any, *args: Any, span: Any = None, **kwargs: Any) -> ir.Expr:
    return _route(name, "input", first)(first, *args, span=span, **kwargs)


kind_of, describe, route, routed = _kind, _describe, _route, _shaped
SHAPED_KINDS = frozenset(_MODULES)  # the operand kinds that pick a wrapper module

"""PyPTO's ``pypto.ir.directions``: the argument-direction constants and ``make_call``,
which builds a Call carrying per-argument directions (``attrs['arg_directions']``)."""

from __future__ import annotations

from typing import Any, Sequence

from .enums import ArgDirection
from .expr import Call
from .node import Expr, Op
from .span import Span
from .types import Type

__all__ = ["ArgDirection", "inout", "input", "make_call", "no_dep", "output", "output_existing",
           "scalar"]

input = ArgDirection.Input  # noqa: A001 - PyPTO's name
output = ArgDirection.Output
inout = ArgDirection.InOut
output_existing = ArgDirection.OutputExisting
no_dep = ArgDirection.NoDep
scalar = ArgDirection.Scalar


def make_call(op: Op, args: Sequence[Expr], *, directions: Sequence[ArgDirection] | None = None,
              kwargs: dict[str, Any] | None = None, type: Type | None = None,  # noqa: A002
              span: Span | None = None) -> Call:
    """``Call(op, args, kwargs, type)`` with one direction per argument, if given.

    The call is built as given: no type is deduced (``ir.create_op_call`` does that).
    """
    attrs = None
    if directions is not None:
        directions = [ArgDirection(d) for d in directions]
        attrs = {"arg_directions": directions}
    return Call(op, list(args), kwargs=kwargs, attrs=attrs, type=type, span=span)

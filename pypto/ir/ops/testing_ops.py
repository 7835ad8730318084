"""PyPTO's ``test.*`` ops (reference: ops.md, group ``test``): entries that exist so
tests can reach the registry's own paths -- attribute handling (``test.op``), a type
rule that fails with a user error (``deduce_raises_type``: a ``TypeError``, prefixed
with the op name like any rule's) or with a bug (``deduce_raises_internal``: an
``InternalError``, which nothing wraps), and a tensor op no tile lowering knows
(``tensor_op_no_conv``).

PyPTO has no wrappers for them and no DSL spelling, so neither has pypto: they are
built with ``ir.create_op_call`` only.  On the executor ``tensor_op_no_conv`` is the
identity; ``test.op`` has no meaning and is refused by name.
"""

from __future__ import annotations

from typing import Any, Mapping

from ...errors import InternalError
from ..types import Type
from .registry import BOOL, INT, STR, ArgKind, KwargSpec, OpDef, ParamSpec, Semantics, register_op

__all__ = ["TESTING_OPS"]

V, T = ArgKind.Value, ArgKind.Tensor
P, K, X = ParamSpec, KwargSpec, Semantics


def _first(args: tuple, kwargs: Mapping[str, Any]) -> Type:
    return args[0].type


def _raises_type(args: tuple, kwargs: Mapping[str, Any]) -> Type:
    raise TypeError("this op's type rule always fails with a TypeError")


def _raises_internal(args: tuple, kwargs: Mapping[str, Any]) -> Type:
    raise InternalError("test.deduce_raises_internal: this op's type rule always fails "
                        "with an internal error")


TESTING_OPS: tuple[OpDef, ...] = (
    OpDef("test.op", [P("arg1", V), P("arg2", V)], _first,
          [K("bool_attr", BOOL, default=False), K("string_attr", STR, default=""),
           K("int_attr", INT, default=0)], semantics=X("test_only"), pl=None, ir=None),
    OpDef("test.deduce_raises_internal", [P("x", V)], _raises_internal,
          semantics=X("test_only"), pl=None, ir=None),
    OpDef("test.deduce_raises_type", [P("x", V)], _raises_type, semantics=X("test_only"),
          pl=None, ir=None),
    OpDef("test.tensor_op_no_conv", [P("x", T)], _first, semantics=X("identity"),
          pl=None, ir=None),
)

for _entry in TESTING_OPS:
    register_op(_entry)

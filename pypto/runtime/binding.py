"""Binding call arguments to a function's parameters, with the checks a user needs.

Each parameter's declared type is compiled once into a checker:

* Tensor/Tile params take a ``numpy.ndarray`` whose dtype is the param dtype's
  storage dtype (``dtypes.numpy_dtype``) and whose shape matches: static dims
  exactly, a dynamic dim ``M`` binds ``M`` on first sight (the body may read it as
  a scalar) and must agree afterwards, composite dims (``M * 2``) are checked once
  every plain dim is bound -- and a dim that appears only inside them is solved from
  one (``dim_solver``).
* Scalar params take a Python (or NumPy) number of the right category; integers
  must fit the dtype.
* Tuple params take a tuple/list of the element kinds.

At the program's entry, ``In`` tensor arguments are copied, so the caller's
inputs are never modified; ``Out``/``InOut`` arguments are the caller's own arrays,
written in place.  Between functions every argument is passed by reference: the
pypto passes rely on a callee writing into its caller's buffers.
"""

from __future__ import annotations

import numbers
from typing import Any, Callable

from ..ir.dtype import DataType
from ..ir.enums import ParamDirection
from ..ir.expr import ConstInt, Var
from ..ir.function import Function
from ..ir.node import Expr
from ..ir.span import Span
from ..ir.types import ScalarType, ShapedType, TensorType, TupleType, Type
from ._windows import shape_text
from .dim_solver import CompositeDim, DimMismatch, settle
from .dtypes import dtype_label, np, numpy_dtype
from .errors import ExecutionError
from .values import UNSET, describe_value

__all__ = ["ParamBinder"]

Frame = list
Pending = list  # deferred composite-dim checks: (CompositeDim, the argument's extent)


class _ArgMismatch(Exception):
    """A bad argument; carries the bare detail for the binder's message."""


def _type_text(t: Type) -> str:
    try:
        return t.as_python()
    except Exception:  # printing is best effort inside an error message
        return type(t).__name__


def _int_checker(dtype: DataType) -> Callable[[Any], int]:
    bits = 64 if dtype is DataType.TASK_ID else dtype.get_bit()
    low = 0 if dtype.is_unsigned_int() else -(1 << (bits - 1))
    high = (1 << bits) if dtype.is_unsigned_int() else (1 << (bits - 1))

    def check_int(value: Any) -> int:
        if type(value) is int and low <= value < high:  # the common case, kept cheap
            return value
        if isinstance(value, (bool, np.bool_)) or not isinstance(value, (numbers.Integral,
                                                                         np.integer)):
            raise _ArgMismatch(f"expected an integer for pl.{dtype.name}, got "
                               f"{describe_value(value)}")
        value = int(value)
        if not low <= value < high:
            raise _ArgMismatch(f"value {value} is out of range for pl.{dtype.name}")
        return value
    return check_int


def _scalar_checker(dtype: DataType) -> Callable[[Any], Any]:
    if dtype is DataType.BOOL:
        def check_bool(value: Any) -> bool:
            if type(value) is bool:
                return value
            if not isinstance(value, np.bool_):
                raise _ArgMismatch(f"expected a bool for pl.BOOL, got {describe_value(value)}")
            return bool(value)
        return check_bool
    if dtype.is_float():
        def check_float(value: Any) -> float:
            if type(value) is float:
                return value
            if isinstance(value, (bool, np.bool_)) or not isinstance(
                    value, (numbers.Real, np.integer, np.floating)):
                raise _ArgMismatch(f"expected a number for pl.{dtype.name}, got "
                                   f"{describe_value(value)}")
            return float(value)
        return check_float
    return _int_checker(dtype)


class _Param:
    """One parameter: its slot, checker and the dims its type declares."""

    __slots__ = ("name", "slot", "check", "copy_at_entry", "span")

    def __init__(self, name: str, slot: int, check: Callable[[Any, Frame, Pending], Any],
                 copy_at_entry: bool, span: Span | None = None) -> None:
        self.name = name
        self.span = span  # where the parameter is written: an entry's mismatch points there
        self.slot = slot
        self.check = check
        self.copy_at_entry = copy_at_entry


class ParamBinder:
    """Checks arguments against ``function``'s params and writes them into a frame."""

    def __init__(self, function: Function, slot_of: Callable[[Var], int],
                 compile_expr: Callable[[Expr], Callable[[Frame], Any]]) -> None:
        self.function = function
        self._slot_of = slot_of
        self._compile_expr = compile_expr
        self.params = [
            _Param(var.name_hint, slot_of(var), self._checker(var.type, var.name_hint),
                   direction is ParamDirection.In and isinstance(var.type, ShapedType),
                   var.span if var.span.is_valid() else None)
            for var, direction in zip(function.params, function.param_directions)]
        self.signature = ", ".join(p.name for p in self.params)
        # Tensor results are checked against the declared return types as arguments
        # are: a function returning a tensor of another shape (possible where a dynamic
        # dim let the parser accept it) fails at its return, wherever it was called
        # from -- so outlining, which moves calls into new functions, keeps the error.
        self.tensor_returns = tuple(
            (index, self._shaped_checker(t, f"return value {index}"))
            for index, t in enumerate(function.return_types) if isinstance(t, TensorType))

    # -- compiling checkers -------------------------------------------------------------

    def _checker(self, t: Type, param: str) -> Callable[[Any, Frame, Pending], Any]:
        if isinstance(t, ShapedType):
            return self._shaped_checker(t, param)
        if isinstance(t, ScalarType):
            scalar = _scalar_checker(t.dtype)
            return lambda value, frame, pending: scalar(value)
        if isinstance(t, TupleType):
            items = [self._checker(item, param) for item in t.types]

            def check_tuple(value: Any, frame: Frame, pending: Pending) -> tuple:
                if not isinstance(value, (tuple, list)) or len(value) != len(items):
                    raise _ArgMismatch(f"expected a tuple of {len(items)} item(s), got "
                                       f"{describe_value(value)}")
                return tuple(check(v, frame, pending) for check, v in zip(items, value))
            return check_tuple
        return lambda value, frame, pending: value  # UnknownType: anything goes

    def _shaped_checker(self, t: ShapedType, param: str) -> Callable[[Any, Frame, Pending], Any]:
        storage = numpy_dtype(t.dtype)
        rank = len(t.shape)
        static: list[tuple[int, int]] = []
        dynamic: list[tuple[int, int, str]] = []
        composite: list[CompositeDim] = []
        for axis, dim in enumerate(t.shape):
            if isinstance(dim, ConstInt):
                static.append((axis, dim.value))
            elif isinstance(dim, Var):
                dynamic.append((axis, self._slot_of(dim), dim.name_hint))
            else:
                composite.append(CompositeDim(param, axis, dim, self._compile_expr(dim),
                                              self._slot_of))
        declared = _type_text(t)

        def check_array(value: Any, frame: Frame, pending: Pending) -> Any:
            if not isinstance(value, np.ndarray):
                raise _ArgMismatch(f"expected a numpy.ndarray for {declared}, got "
                                   f"{describe_value(value)}")
            if value.dtype != storage:
                raise _ArgMismatch(f"expected dtype {dtype_label(t.dtype)}, got numpy "
                                   f"{value.dtype} ({declared})")
            shape = value.shape
            if len(shape) != rank:
                raise _ArgMismatch(f"expected rank {rank}, got shape {shape_text(shape)} "
                                   f"({declared})")
            for axis, extent in static:
                if shape[axis] != extent:
                    raise _ArgMismatch(f"expected shape {declared}, got {shape_text(shape)}")
            for axis, slot, name in dynamic:
                bound = frame[slot]
                if bound is UNSET:
                    frame[slot] = shape[axis]
                elif bound != shape[axis]:
                    raise _ArgMismatch(f"dim {axis} is {shape[axis]}, but dynamic dim '{name}' "
                                       f"is already bound to {bound} ({declared})")
            for dim in composite:
                pending.append((dim, shape[dim.axis]))
            return value
        return check_array

    # -- binding -------------------------------------------------------------------------

    def _fail(self, what: str, span: Span | None, detail: str) -> ExecutionError:
        return ExecutionError.at(what, span if span is not None else self.function.span,
                                 detail, self.function.name)

    def check_returns(self, frame: Frame, values: tuple) -> None:
        """Check the tensor values of a return against their declared types."""
        for index, check in self.tensor_returns:
            if index < len(values) and isinstance(values[index], np.ndarray):
                try:
                    check(values[index], frame, [])
                except _ArgMismatch as exc:
                    raise self._fail(f"return value {index} of '{self.function.name}'",
                                     self.function.span, str(exc)) from None

    def bind(self, frame: Frame, args: tuple, span: Span | None, at_entry: bool) -> None:
        """Check ``args`` and store them (and dynamic dims) into ``frame``."""
        params = self.params
        if len(args) != len(params):
            name = self.function.name
            raise self._fail(f"call of '{name}'", span,
                             f"function '{name}' takes {len(params)} argument(s) "
                             f"({self.signature}), got {len(args)}")
        for param, value in zip(params, args):
            frame[param.slot] = value  # scalars first, so dims can be checked against them
        pending: Pending = []
        for param, value in zip(params, args):
            try:
                checked = param.check(value, frame, pending)
            except _ArgMismatch as exc:
                # A call in the program points at the call; pypto.run's own arguments
                # at the parameter whose annotation they do not meet.
                raise self._fail(f"argument '{param.name}' of '{self.function.name}'",
                                 span if span is not None else param.span, str(exc)) from None
            if at_entry and param.copy_at_entry:
                checked = checked.copy()
            frame[param.slot] = checked
        if pending:
            try:
                settle(frame, pending)
            except DimMismatch as exc:
                raise self._fail(f"call of '{self.function.name}'", span, str(exc)) from None

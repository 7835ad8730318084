"""The IR of distributed programs (``import pypto.language.distributed as pld``).

* ``WindowBufferType``: the type of a communication window buffer, the memory every
  rank exposes to its peers (``pld.alloc_window_buffer``).
* ``WindowBuffer``: a variable of that type, naming the buffer (``base``) and its size
  in bytes; ``load_from_host`` / ``store_to_host`` say whether the host fills it before
  a launch and reads it back after.
* ``DistributedTensorType``: a tensor that lives in a window, one copy per rank
  (``pld.DistributedTensor[[16], pl.FP32]``).  Within one rank it is an ordinary tensor;
  the distributed ops reach the peers' copies.  ``window_buffer`` is the buffer the
  tensor was cut from (``pld.window``), or ``None`` for a parameter.
* ``CommCtxType``: the communication context of a distributed tensor (its rank, the
  number of ranks, the window addresses; ``pypto.ir.comm_layout`` gives the layout).
* ``CommDomainScopeStmt``: a region whose body runs on a set of devices sharing window
  slots.

They live apart from ``types.py`` so the rest of the IR does not depend on them.
"""

from __future__ import annotations

from typing import Any, Iterable, Mapping, Sequence

from .dtype import DataType
from .enums import ScopeKind
from .expr import ConstInt, Var
from .node import Expr, FieldKind, check_type
from .scope import _COMMON, ScopeStmt
from .span import Span
from .types import TensorType, TensorView, MemRef, Type

__all__ = ["WindowBufferType", "CommCtxType", "WindowBuffer", "DistributedTensorType",
           "CommDomainScopeStmt"]

_set = object.__setattr__
_I, _U = FieldKind.IGNORE, FieldKind.USUAL


class _UnitType(Type):
    """A type without parameters: one shared instance, ``get()``."""

    __slots__ = ()
    _instances: dict = {}

    def __new__(cls) -> "_UnitType":
        found = _UnitType._instances.get(cls)
        if found is None:  # setdefault: threads racing on the first one all get the same
            found = _UnitType._instances.setdefault(cls, object.__new__(cls))
        return found

    @classmethod
    def get(cls) -> "_UnitType":
        return cls()

    def __reduce__(self) -> tuple:
        return type(self), ()  # the one instance of its class

    def _compute_plain_key(self) -> tuple | None:
        return (type(self).__name__,)


class WindowBufferType(_UnitType):
    """The type of a communication window buffer (``pld.alloc_window_buffer``)."""

    __slots__ = ()


class CommCtxType(_UnitType):
    """The type of a communication context (``pld.get_comm_ctx``)."""

    __slots__ = ()


def _size_expr(owner: str, size: Any) -> Expr:
    if isinstance(size, bool):
        raise TypeError(f"{owner}: field 'size' expects int or Expr, got bool")
    if isinstance(size, int):
        return ConstInt(size, DataType.INDEX)
    check_type(owner, "size", size, Expr, "int or Expr")
    return size


class WindowBuffer(Var):
    """A window buffer variable: ``base`` names the buffer (its allocation on every
    rank), ``size`` is its size in bytes."""

    __slots__ = ("base", "size", "load_from_host", "store_to_host")
    base: str
    size: Expr
    load_from_host: bool
    store_to_host: bool
    _fields = (("name_hint", _I), ("type", _U), ("base", _U), ("size", _U),
               ("load_from_host", _U), ("store_to_host", _U))

    def __init__(self, base: str, size: Any, load_from_host: bool = False,
                 store_to_host: bool = False, span: Span | None = None) -> None:
        check_type("WindowBuffer", "base", base, str, "str")
        check_type("WindowBuffer", "load_from_host", load_from_host, bool, "bool")
        check_type("WindowBuffer", "store_to_host", store_to_host, bool, "bool")
        super().__init__(base, WindowBufferType.get(), span)
        _set(self, "base", base)
        _set(self, "size", _size_expr("WindowBuffer", size))
        _set(self, "load_from_host", load_from_host)
        _set(self, "store_to_host", store_to_host)


class DistributedTensorType(TensorType):
    """A tensor with one copy per rank, in a communication window.

    ``DistributedTensorType(shape, dtype)``, ``(shape, dtype, memref, tensor_view)`` or
    ``(shape, dtype, window_buffer)``."""

    # ``window_buffer`` is a back-reference, not part of the type's identity: like two
    # tensors of one shape, two windows of one shape and dtype have the same type (so a
    # parameter annotated ``pld.DistributedTensor[...]`` takes any window of that shape).
    __slots__ = ("window_buffer",)
    window_buffer: WindowBuffer | None

    def __init__(self, shape: Sequence[Any], dtype: DataType, memref: Any = None,
                 tensor_view: TensorView | None = None,
                 window_buffer: WindowBuffer | None = None) -> None:
        if isinstance(memref, WindowBuffer):  # the (shape, dtype, window_buffer) form
            memref, window_buffer = None, memref
        if memref is not None:
            check_type("DistributedTensorType", "memref", memref, MemRef, "MemRef or None")
        super().__init__(shape, dtype, memref, tensor_view)
        if window_buffer is not None:
            check_type("DistributedTensorType", "window_buffer", window_buffer, WindowBuffer,
                       "WindowBuffer or None")
        _set(self, "window_buffer", window_buffer)

    def with_shape(self, shape: Sequence[Any]) -> "DistributedTensorType":
        return DistributedTensorType(shape, self.dtype, self.memref, self.tensor_view,
                                     self.window_buffer)


def _exprs(owner: str, field: str, items: Iterable[Any]) -> tuple:
    if isinstance(items, (str, bytes)) or not isinstance(items, Iterable):
        raise TypeError(f"{owner}: field '{field}' expects a list of int or Expr, "
                        f"got {type(items).__name__}")
    out = []
    for i, item in enumerate(items):
        if isinstance(item, int) and not isinstance(item, bool):
            item = ConstInt(item, DataType.INDEX)
        if not isinstance(item, Expr):
            raise TypeError(f"{owner}: field '{field}[{i}]' expects int or Expr, "
                            f"got {type(item).__name__}")
        out.append(item)
    return tuple(out)


class CommDomainScopeStmt(ScopeStmt):
    """A region run by the ``devices`` of one communication domain, which share the
    window ``slots``.  The executor runs its body in place."""

    __slots__ = ("devices", "slots")
    devices: tuple[Expr, ...]
    slots: tuple[Expr, ...]
    _KIND = ScopeKind.CommDomain
    _fields = _COMMON + (("devices", _U), ("slots", _U))

    def __init__(self, devices: Iterable[Any], slots: Iterable[Any], name_hint: str = "",
                 body: Any = None, span: Span | None = None,
                 attrs: Mapping | None = None) -> None:
        if body is None:
            raise TypeError("CommDomainScopeStmt: missing required argument 'body'")
        _set(self, "devices", _exprs("CommDomainScopeStmt", "devices", devices))
        _set(self, "slots", _exprs("CommDomainScopeStmt", "slots", slots))
        self._init_scope(name_hint, body, span, attrs)


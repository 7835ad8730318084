"""``pld.DistributedTensor[[d0, d1], dtype]``: a tensor with one copy per rank, in a
communication window (IR: ``ir.DistributedTensorType``).

Like ``pl.Tensor``, it is an annotation: the parser reads it from the AST; at Python
level subscribing it gives an inert record.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ...typing.tensor import Tensor, TensorMeta

__all__ = ["DistributedTensor"]


class DistributedTensorMeta(TensorMeta):
    def __repr__(cls) -> str:
        return f"pld.{cls.__name__}"


if TYPE_CHECKING:
    # To type checkers a distributed tensor is a Tensor: the tensor ops take it and give
    # back a plain Tensor type (docs/guide/typing.md).
    DistributedTensor = Tensor
else:
    class DistributedTensor(Tensor, metaclass=DistributedTensorMeta):
        """``pld.DistributedTensor[[d0, d1], dtype(, layout | pl.TensorView(...))]``"""

        __slots__ = ()
        _ir_type = "DistributedTensorType"

        def __init__(self, *args: Any, **kwargs: Any) -> None:
            if args or set(kwargs) != {"expr"}:
                raise TypeError("pld.DistributedTensor is an annotation; make one with "
                                "pld.window(pld.alloc_window_buffer(...), shape, dtype=...) "
                                "(pld.DistributedTensor(expr=e) wraps an IR expression)")
            self._wrap(kwargs["expr"])




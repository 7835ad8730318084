"""Annotation types of the DSL: ``pl.Tensor[[64], pl.FP32]``, ``pl.InOut[...]``, ...

One module per family, at PyPTO's paths (``pypto.language.typing.tensor`` ...).  The
parser reads annotations from the AST and never evaluates them; these classes make
``def`` statements evaluate at Python level, give ``@pl.jit`` users something to write
for bare tensor parameters, and wrap IR expressions built at Python level
(``pl.Tensor(expr=e).unwrap()``).
"""

from __future__ import annotations

from typing import Any

from ...ir.dtype import DataType
from ...ir.node import Expr
# typing.array / ptr / prefetch_handle re-export pypto/language/array_types.py, which
# imports this package: they load on first import, not here.
from . import direction, memref, scalar, tensor, tile, tuple
from ._annotation import AnnotationMeta, AnnotationRecord
from .direction import InOut, Out
from .dynamic import DimExpr, DynVar, dynamic
from .memref import MemRef
from .scalar import RUNTIME, RuntimeScalarMarker, Scalar, predicate_to_expr
from .tensor import Tensor
from .tile import Tile
from .tuple import Tuple

# pl.TaskId: the Scalar[TASK_ID] pl.submit returns (PyPTO: an instance, not a class).
TaskId = Scalar[DataType.TASK_ID]

# The distributed annotations subclass this metaclass (pld.DistributedTensor).
_AnnotationMeta = AnnotationMeta

# PyPTO's names of this package that live in array_types (which imports this package):
# looked up there on first access.
_FROM_ARRAY_TYPES = ("Array", "AsyncEvent", "AsyncSession", "PrefetchAsyncContext", "Ptr")


def __getattr__(name: str) -> Any:
    if name in _FROM_ARRAY_TYPES:
        from .. import array_types
        return getattr(array_types, name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(_FROM_ARRAY_TYPES))

__all__ = ["Tensor", "Tile", "Scalar", "Tuple", "InOut", "Out", "TaskId", "DynVar", "dynamic",
           "MemRef", "RUNTIME", "RuntimeScalarMarker", "predicate_to_expr", "AnnotationRecord",
           *_FROM_ARRAY_TYPES]

"""``pl.prefetch``: PyPTO's wrappers of the ``prefetch.*`` ops (asynchronous
prefetches), generated from the registry entries (``pypto/ir/ops/array_ops.py``)."""

from __future__ import annotations

from ..array_types import AsyncEvent, AsyncSession, PrefetchAsyncContext
from ..typing import Scalar, Tensor
from ._namespace import fill_namespace

__all__ = fill_namespace(globals(), "prefetch")
# PyPTO's module-level names besides the wrappers
_ = (AsyncEvent, AsyncSession, PrefetchAsyncContext, Scalar, Tensor)

"""PyPTO's ``pypto.language.typing.prefetch_handle`` path: the prefetch handles
(``pypto/language/array_types.py``)."""

from __future__ import annotations

from ..array_types import AsyncEvent, AsyncSession, PrefetchAsyncContext
from ...ir.node import Expr  # noqa: F401  (PyPTO's module-level name)

__all__ = ["AsyncEvent", "AsyncSession", "PrefetchAsyncContext"]

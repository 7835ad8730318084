"""``@pl.jit``: DSL functions specialised from their arguments (01-language.md §17).

``pl.jit`` is :data:`jit`; ``TensorSpec`` describes a tensor argument without data.
"""

from __future__ import annotations

from .cache import CacheInfo
from .compiled import CompiledProgram
from .decorator import JITFunction, jit
from .kinds import JitKind
from .specs import TensorSpec

__all__ = ["jit", "JITFunction", "JitKind", "TensorSpec", "CompiledProgram", "CacheInfo"]

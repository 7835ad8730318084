"""The op surface of ``pypto.language``: the unified ``pl.*`` functions
(``UNIFIED_OPS``) and the ``pl.tensor`` / ``pl.tile`` / ``pl.system`` namespaces."""

from __future__ import annotations

from .unified import *  # noqa: F401,F403
from .unified import UNIFIED_OPS, __all__ as _UNIFIED_NAMES
from .namespaces import OpNamespace, system, tensor, tile

__all__ = [*_UNIFIED_NAMES, "OpNamespace", "tensor", "tile", "system"]

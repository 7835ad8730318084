"""The op surface of ``pypto.language``: the unified ``pl.*`` functions
(``unified_ops``) and the per-namespace wrapper modules ``tensor_ops``, ``tile_ops``,
``system_ops``, ``array_ops``, ``prefetch_ops`` (PyPTO's aliases ``op.tensor`` ...,
and ``pl.tensor`` ... on the package above)."""

from __future__ import annotations

from . import array_ops, prefetch_ops, system_ops, tensor_ops, tile_ops, unified_ops
from .unified_ops import *  # noqa: F401,F403
from .unified_ops import UNIFIED_OPS, __all__ as _UNIFIED_NAMES

tensor, tile, system, array, prefetch = tensor_ops, tile_ops, system_ops, array_ops, prefetch_ops

# The parser's table: ``pl.<namespace>.<name>`` -> the function it calls.
NAMESPACES = {"tensor": tensor_ops, "tile": tile_ops, "system": system_ops,
              "array": array_ops, "prefetch": prefetch_ops}

__all__ = [*_UNIFIED_NAMES, "tensor", "tile", "system", "array", "prefetch"]

"""The jit layer as the command line sees it: looked up, never imported.

``pypto.jit`` costs about 80 ms to import (a sixth of the compiler's import time), and
a value can only be a ``JITFunction`` -- and an error a ``MissingArgumentError`` --
once something has imported it: ``@pl.jit`` in the user's file does (``pl.jit`` is a
lazy attribute of ``pypto.language``).  So the command line asks ``sys.modules``; a
file without a jit entry never loads the layer.
"""

from __future__ import annotations

import sys
from typing import TYPE_CHECKING, Any, TypeGuard

if TYPE_CHECKING:
    from ..jit import JITFunction

__all__ = ["is_jit_function", "is_jit_entry", "is_missing_argument"]


def is_jit_function(value: Any) -> "TypeGuard[JITFunction]":
    jit = sys.modules.get("pypto.jit")
    return jit is not None and isinstance(value, jit.JITFunction)


def is_jit_entry(value: Any) -> bool:
    """A ``@pl.jit`` / ``@pl.jit.host`` entry (kernels are dependencies, not entries)."""
    if not is_jit_function(value):
        return False
    kinds = sys.modules["pypto.jit"].JitKind
    return value.kind in (kinds.ORCHESTRATION, kinds.HOST)


def is_missing_argument(exc: BaseException) -> bool:
    """A jit entry that cannot be specialised without a call (``MissingArgumentError``)."""
    signature = sys.modules.get("pypto.jit.signature")
    return signature is not None and isinstance(exc, signature.MissingArgumentError)

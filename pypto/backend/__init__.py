"""``pypto.backend``: the target chips and the process's backend choice (PyPTO's names).

``set_backend_type(BackendType.Ascend950)`` records the target; ``get_backend_instance``
describes a target's memories, cores and data paths.  See ``config.py`` for what the
choice affects (only the target the pass manager is given when the caller names none).
"""

from __future__ import annotations

from .config import get_backend_type, is_backend_configured, reset_for_testing, set_backend_type
from .hardware import Cluster, Core, Die, Mem, SoC
from .targets import Backend, Backend910B, Backend950, BackendType, get_backend_instance

__all__ = ["Backend", "Backend910B", "Backend950", "BackendType", "Cluster", "Core", "Die", "Mem",
           "SoC", "get_backend_instance", "get_backend_type", "is_backend_configured",
           "reset_for_testing", "set_backend_type"]

"""pypto: a pure-Python front end and scope-outlining compiler for the PyPTO tile DSL.

``import pypto.language as pl`` for the DSL; ``from pypto import ir, passes`` for the
IR and the compiler passes.

The package root imports nothing heavy: ``pypto.ir``, ``pypto.passes``,
``pypto.language``, ``pypto.DataType`` and ``pypto.run`` are loaded on first use, so
``pypto --help`` and ``pypto --version`` start in a few milliseconds.
"""

from __future__ import annotations

__version__ = "0.1.0"

from ._lazy import install_lazy_attributes as _install_lazy_attributes
from .errors import Error, InternalError

__all__ = ["DataType", "Error", "InternalError", "ir", "language", "passes", "run", "__version__"]

_install_lazy_attributes(__name__, {
    "ir": ("pypto.ir", None),
    "passes": ("pypto.passes", None),
    "language": ("pypto.language", None),
    "DataType": ("pypto.ir.dtype", "DataType"),
    "run": ("pypto.runtime", "execute"),  # NumPy is imported only when a program runs
})


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(__all__))

"""pypto: a pure-Python front end and scope-outlining compiler for the PyPTO tile DSL.

``import pypto.language as pl`` for the DSL; ``from pypto import ir, passes`` for the
IR and the compiler passes.
"""

from __future__ import annotations

__version__ = "0.1.0"

from .errors import Error, InternalError
from .ir.dtype import DataType
from . import ir, passes
from . import language
from .jit import JITFunction as _JITFunction, jit as _jit

# pl.jit / pl.JITFunction: the language layer cannot import the jit above it.
language.jit = _jit
language.JITFunction = _JITFunction
from .runtime import execute as run  # NumPy is imported only when a program runs

__all__ = ["DataType", "Error", "InternalError", "ir", "language", "passes", "run", "__version__"]

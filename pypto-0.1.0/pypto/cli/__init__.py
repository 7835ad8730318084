"""The ``pypto`` command line (``compile``, ``check``, ``passes``, ``graph``, ``diff``).

The package is the top layer: it drives the parser, the passes, the jit and the
executor, and nothing below imports it.
"""

from __future__ import annotations

from .commands import main

__all__ = ["main"]

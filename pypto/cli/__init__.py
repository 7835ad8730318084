"""The ``pypto`` command line (``pypto compile``, ``pypto check``, ``pypto passes``).

The package is the top layer: it drives the parser, the passes, the jit and the
executor, and nothing below imports it.
"""

from __future__ import annotations

from .commands import main

__all__ = ["main"]

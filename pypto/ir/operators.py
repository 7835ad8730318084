"""PyPTO's ``pypto.ir.operators``: importing it is all PyPTO's module does (it installs
the Python operators on expressions).  pypto's expressions have them from their class
(``x + 1`` is an ``Add``), so there is nothing left to install."""

from __future__ import annotations

__all__: list[str] = []

"""Lazy re-exports for PyPTO's module paths that sit below their code's layer.

``pypto.ir.pass_manager`` is a PyPTO path, but the pass manager belongs to the
passes, which import ``pypto.ir``.  Such a path is a module whose attributes are
looked up in the real home on first access, so importing it never imports upward.
"""

from __future__ import annotations

import importlib
from typing import Any, Callable, Iterable


def lazy_reexport(module_name: str, home: str,
                  names: Iterable[str]) -> tuple[Callable[[str], Any], Callable[[], list[str]]]:
    """``(__getattr__, __dir__)`` for a module that re-exports ``names`` from ``home``."""
    exported = frozenset(names)

    def __getattr__(name: str) -> Any:
        if name in exported:
            return getattr(importlib.import_module(home), name)
        raise AttributeError(f"module {module_name!r} has no attribute {name!r}")

    def __dir__() -> list[str]:
        return sorted(exported)

    return __getattr__, __dir__

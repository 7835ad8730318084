"""Loading NumPy, the executor's one (optional) dependency.

Only the executor modules import NumPy, and only when a program is run, so
``import pypto`` keeps working without it.
"""

from __future__ import annotations

import importlib
from types import ModuleType

from .errors import NumPyUnavailableError

__all__ = ["load_numpy", "MIN_NUMPY"]

MIN_NUMPY = (1, 23)


def load_numpy() -> ModuleType:
    """The ``numpy`` module, or ``NumPyUnavailableError`` with the install hint."""
    try:
        numpy = importlib.import_module("numpy")
    except ImportError as exc:
        raise NumPyUnavailableError(str(exc)) from None
    version = tuple(int(part) for part in _leading_ints(numpy.__version__))
    if version[:2] < MIN_NUMPY:
        raise NumPyUnavailableError(f"found numpy {numpy.__version__}, need >= "
                                    f"{MIN_NUMPY[0]}.{MIN_NUMPY[1]}")
    return numpy


def _leading_ints(version: str) -> list[str]:
    parts = []
    for piece in version.split(".")[:2]:
        digits = "".join(ch for ch in piece if ch.isdigit()) or "0"
        parts.append(digits)
    return parts

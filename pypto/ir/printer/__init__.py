"""IR printer (placeholder until the printer lands)."""

from __future__ import annotations

from typing import Any, Callable

__all__ = ["python_print", "register_format_callback"]


def python_print(node: Any, prefix: str = "pl", concise: bool = False, format: bool = True) -> str:
    return f"<{type(node).__name__}>"


def register_format_callback(fn: Callable[[str], str] | None) -> None:
    raise NotImplementedError

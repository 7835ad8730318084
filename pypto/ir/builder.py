"""IRBuilder (placeholder: being written)."""

from __future__ import annotations

__all__ = ["IRBuilder"]


class IRBuilder:
    def __init__(self, *args, **kwargs) -> None:
        raise NotImplementedError("IRBuilder not written yet")

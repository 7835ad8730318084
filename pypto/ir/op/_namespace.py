"""Fill one builder module (``ir.op.tensor`` ...) from the op registry."""

from __future__ import annotations

from typing import Any, Callable, Protocol

from ..expr import Call
from ..ops.wrappers import generate_wrappers

__all__ = ["Builder", "fill_builders"]


class Builder(Protocol):
    """What a type checker knows of a generated builder: it builds a ``Call``.  Each
    builder module declares its builders this way (a ``__getattr__`` seen by checkers
    only), since ``fill_builders`` defines them at import."""

    def __call__(self, *args: Any, **kwargs: Any) -> Call: ...


def fill_builders(module_globals: dict[str, Any], namespace: str,
                  extra: dict[str, Callable[..., Any]] | None = None) -> list[str]:
    """Define the ``ir`` flavour of ``namespace``'s wrappers (plus ``extra``) in
    ``module_globals``; return their names."""
    builders = generate_wrappers(namespace, "ir", module_globals["__name__"])
    builders.update(extra or {})
    module_globals.update(builders)
    return sorted(builders)

"""Fill one wrapper module (``pl.tensor`` ...) from the op registry."""

from __future__ import annotations

from typing import Any, Callable

from ...ir.ops.wrappers import generate_wrappers

__all__ = ["fill_namespace"]


def fill_namespace(module_globals: dict[str, Any], namespace: str,
                   extra: dict[str, Callable[..., Any]] | None = None) -> list[str]:
    """Define PyPTO's 1:1 wrappers of ``namespace``'s ops (plus the hand-written
    ``extra`` routers) in ``module_globals``; set ``PARSER_ENTRIES``, the functions the
    parser calls for ``pl.<namespace>.<name>`` (every op, printed or written); return
    the public names (the module's ``__all__``)."""
    generated = generate_wrappers(namespace, "pl", module_globals["__name__"],
                                  include_hidden=True)
    public = {name: fn for name, fn in generated.items() if not name.startswith("_")}
    public.update(extra or {})
    module_globals.update(public)
    entries = dict(public)
    # the parser's own functions (ops without a pl wrapper, attributes it cannot set) win
    entries.update({name.lstrip("_"): fn for name, fn in generated.items()
                    if name.startswith("_")})
    module_globals["PARSER_ENTRIES"] = entries
    return sorted(public)

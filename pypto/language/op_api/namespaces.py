"""``pl.tensor``, ``pl.tile``, ``pl.system``: direct access to registered ops.

``pl.tile.load(t, [0, 0], [8, 8], target_memory=pl.Mem.Vec)`` calls
``create_op_call("tile.load", ...)``.  These functions accept exactly the layout
the printer emits -- positional IR operands, the op's keywords, an optional
``attrs={...}`` -- so every printed op call reparses (02-ir.md §12.6).

Python keywords are escaped with a trailing ``_``: ``pl.tile.and_`` is
``tile.and``, and a keyword argument ``mode_=`` is passed as ``mode``.
"""

from __future__ import annotations

import keyword
from typing import Any, Callable

from pypto import ir
from pypto.ir.ops import create_op_call, get_op, is_op_registered, list_ops

__all__ = ["OpNamespace", "tensor", "tile", "system"]


def _strip_escape(name: str) -> str:
    return name[:-1] if name.endswith("_") else name


def _make_caller(op_name: str, attr: str) -> Callable[..., ir.Call]:
    def call(*args: Any, span: ir.Span | None = None, attrs: dict | None = None,
             **kwargs: Any) -> ir.Call:
        canonical: dict[str, Any] = {}
        for key, value in kwargs.items():
            name = _strip_escape(key)
            if name in canonical:
                raise TypeError(f"{op_name}: keyword '{name}' given twice "
                                f"('{name}' and '{name}_')")
            canonical[name] = value
        return create_op_call(op_name, args, canonical, span, attrs)

    call.__name__ = attr
    call.__qualname__ = f"{op_name.split('.')[0]}.{attr}"
    call.__doc__ = get_op(op_name).doc or f"Build a ``{op_name}`` call (see the op registry)."
    return call


class OpNamespace:
    """The ops of one namespace as attributes; unknown names raise ``ValueError``
    (``Unknown operation 'pl.tile.foo'``) for the parser to wrap."""

    __slots__ = ("_prefix", "_callers")

    def __init__(self, prefix: str) -> None:
        object.__setattr__(self, "_prefix", prefix)
        object.__setattr__(self, "_callers", {})

    def __setattr__(self, name: str, value: object) -> None:
        raise AttributeError(f"pl.{self._prefix} is read-only")

    def __getattr__(self, attr: str) -> Callable[..., ir.Call]:
        if attr.startswith("_"):  # Python protocol probes (copy, pickle, IPython ...)
            raise AttributeError(attr)
        caller = self._callers.get(attr)
        if caller is None:
            caller = self._callers[attr] = _make_caller(self._resolve(attr), attr)
        return caller

    def _resolve(self, attr: str) -> str:
        full = f"{self._prefix}.{attr}"
        if is_op_registered(full):
            return full
        if attr.endswith("_") and is_op_registered(full[:-1]):
            return full[:-1]
        raise ValueError(f"Unknown operation 'pl.{full}': {full} is not a registered op")

    def __dir__(self) -> list[str]:
        names = [n.split(".", 1)[1] for n in list_ops() if n.startswith(self._prefix + ".")]
        return [n + "_" if keyword.iskeyword(n) else n for n in names]

    def __repr__(self) -> str:
        return f"<pl.{self._prefix} op namespace>"


tensor = OpNamespace("tensor")
tile = OpNamespace("tile")
system = OpNamespace("system")

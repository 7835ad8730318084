"""``ir.set_call_attrs``: a Call with other attributes (Calls are immutable)."""

from __future__ import annotations

from typing import Any, Mapping

from .expr import Call

__all__ = ["set_call_attrs"]


def set_call_attrs(call: Call, attrs: Mapping[str, Any]) -> Call:
    """A copy of ``call`` whose ``attrs`` are ``attrs`` (replacing the old ones)."""
    if not isinstance(call, Call):
        raise TypeError(f"set_call_attrs expects an ir.Call, got {call.__class__.__name__}")
    if not isinstance(attrs, Mapping):
        raise TypeError(f"set_call_attrs: attrs must be a dict, got {attrs.__class__.__name__}")
    return Call(call.op, call.args, kwargs=call.kwargs, attrs=dict(attrs), type=call.type,
                span=call.span)

"""Op registry (placeholder: being written; the names below are its public API)."""

from __future__ import annotations

from typing import Any

__all__ = ["get_op", "is_op_registered", "create_op_call", "deduce_call_return_type",
           "call_write_targets"]


def _todo(*args: Any, **kwargs: Any) -> Any:
    raise NotImplementedError("op registry not written yet")


get_op = is_op_registered = create_op_call = deduce_call_return_type = call_write_targets = _todo

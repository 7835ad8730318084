"""IR utilities (placeholder: being written; the names below are its public API)."""

from __future__ import annotations

from typing import Any

__all__ = ["flatten_to_stmts", "collect_def_vars", "find_yield_stmt", "get_last_yield_stmt",
           "substitute_expr", "substitute_stmt", "deep_clone"]


def _todo(*args: Any, **kwargs: Any) -> Any:
    raise NotImplementedError("ir.utils not written yet")


flatten_to_stmts = collect_def_vars = find_yield_stmt = get_last_yield_stmt = _todo
substitute_expr = substitute_stmt = deep_clone = _todo

"""The ``system.*`` op table."""

from __future__ import annotations

from . import deduce as rule
from .registry import OpDef, register_op

__all__ = ["SYSTEM_OPS"]

SYSTEM_OPS: tuple[OpDef, ...] = (
    # The TASK_ID sentinel: "no task" (a `None` dependency, a scope's task-id placeholder).
    OpDef("system.task_invalid", [], rule.task_id),
)

for _entry in SYSTEM_OPS:
    register_op(_entry)

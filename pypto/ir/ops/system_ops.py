"""The ``system.*`` op table (reference: ops.md)."""

from __future__ import annotations

from . import deduce as rule
from .registry import OpDef, Semantics, register_op

__all__ = ["SYSTEM_OPS"]

SYSTEM_OPS: tuple[OpDef, ...] = (
    # The TASK_ID sentinel: "no task" (a `None` dependency, a scope's task-id placeholder).
    OpDef("system.task_invalid", [], rule.task_id, semantics=Semantics("task_invalid"),
          pl="*", ir="*, span"),
)

for _entry in SYSTEM_OPS:
    register_op(_entry)

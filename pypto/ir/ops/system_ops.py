"""The ``system.*`` op table (reference: ops.md): task ids, barriers, pipe and flag
synchronisation, cache maintenance and the core counts.  The cross-core pipes and
their buffers are in ``cross_core_ops``.

Synchronisation orders what concurrent pipes and cores do.  The executor runs one
statement after the other, so every barrier, fence, flag and wait already holds when
it is reached: they have the sequential meaning "nothing to do" (``noop``).
"""

from __future__ import annotations

from ..enums import PipeType
from . import deduce as rule
from . import deduce_gather as sys_rule
from .registry import (INT, STR, ArgKind, DeduceRule, KwargSpec, OpDef, ParamSpec, Semantics,
                       enum_kind, register_op)

__all__ = ["SYSTEM_OPS"]

T, S, IDX = ArgKind.Tensor, ArgKind.Scalar, ArgKind.IndexTuple
P, K, X = ParamSpec, KwargSpec, Semantics
PIPE = enum_kind(PipeType)
NOOP = X("noop")


def _plain(name: str, deduce: DeduceRule = sys_rule.no_value, semantics: Semantics = NOOP) -> OpDef:
    """An op without operands or attributes: ``pl.system.<name>(*, span=None)``."""
    return OpDef(f"system.{name}", [], deduce, semantics=semantics, pl="*", ir="*, span")


def _pipe_sync(name: str) -> OpDef:
    return OpDef(f"system.{name}", [], sys_rule.no_value,
                 [K("event_id", INT, required=True), K("wait_pipe", PIPE, required=True),
                  K("set_pipe", PIPE, required=True)], semantics=NOOP,
                 pl="*, set_pipe, wait_pipe, event_id", ir="*, set_pipe, wait_pipe, event_id, span")


def _flag(name: str, ffts: bool) -> OpDef:
    # ``event_id`` is a constant (the attribute) or a runtime scalar (the operand);
    # the router in ``composite`` picks one.
    extra = [K("ffts_mode", INT)] if ffts else []
    tail = "pipe, ffts_mode, core_type" if ffts else "pipe, core_type"
    return OpDef(f"system.{name}", [P("event_id_dyn", S, optional=True)], sys_rule.no_value,
                 [K("core_type", STR), *extra, K("event_id", INT), K("pipe", PIPE, required=True)],
                 semantics=NOOP, pl=f"event_id:event_id_dyn!, *, {tail}",
                 ir=f"event_id:event_id_dyn!, *, {tail}, span")


SYSTEM_OPS: tuple[OpDef, ...] = (
    # The TASK_ID sentinel: "no task" (a `None` dependency, a scope's task-id placeholder).
    _plain("task_invalid", rule.task_id, X("task_invalid")),
    # A task that only joins its dependencies: its id stands for all of them.
    OpDef("system.task_dummy", [], sys_rule.task_id, semantics=X("task_dummy"),
          call_attrs=("deps",), pl="*, deps", ir=None),
    OpDef("system.task_is_valid", [P("task_id", S)], sys_rule.bool_scalar,
          semantics=X("task_is_valid"), pl=None, ir=None),
    _plain("bar_all"), _plain("bar_m"), _plain("bar_v"), _plain("fence"),
    _plain("available_aiv_count", sys_rule.count, X("core_count", ("aiv",))),
    _plain("available_cluster_count", sys_rule.count, X("core_count", ("cluster",))),
    _pipe_sync("sync_src"), _pipe_sync("sync_dst"),
    _flag("sync_set", ffts=True), _flag("sync_wait", ffts=False),
    OpDef("system.syncall", [P("gm_workspace", T, optional=True),
                             P("used_cores", S, optional=True)], sys_rule.no_value,
          [K("mode", STR, "hard", choices=("hard", "soft")), K("core_type", STR, "mix")],
          semantics=NOOP, pl="*, core_type, mode, gm_workspace, used_cores",
          ir="*, core_type, span"),
    OpDef("system.cacheinvalid", [P("tensor", T, optional=True), P("shapes", IDX, optional=True),
                                  P("offsets", IDX, optional=True)], sys_rule.no_value,
          semantics=NOOP, ir="tensor, shapes, offsets, *, span"),
)

for _entry in SYSTEM_OPS:
    register_op(_entry)

"""Where a region may sit: the nesting rules of ``pl.at``, ``pl.cluster``, ``pl.spmd``
and ``pl.graph``, in one place.

The parser checks them as it reads a region, against the regions around it in the
source.  InlineFunctions checks them where it splices an Inline function's body: the
regions of the body against those around the call site, so a spliced body is held to
what the same text written at the call site would be (without the check, a
``pl.graph`` in an Inline helper called inside ``pl.at`` compiled to a program the
parser refuses).

A rule gets the enclosing regions innermost first and returns a ``Refusal`` (the
message, a hint and the region refused against) or ``None``; each caller raises its
own diagnostic from it.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Iterable, Optional, Protocol

from . import scope as S
from .enums import FunctionType, Level, level_to_linqu_level
from .span import Span

__all__ = ["Region", "Refusal", "KERNEL_LEVEL", "GRAPH_FORBIDDEN_FUNCS", "at_region",
           "function_region", "scope_region", "at_refusal", "launch_refusal",
           "graph_refusal", "region_refusal", "start_note"]

KERNEL_LEVEL = Level.CORE_GROUP.value  # a pl.at at this level or below is one kernel
_KERNEL_FUNCS = (FunctionType.InCore, FunctionType.AIC, FunctionType.AIV)
GRAPH_FORBIDDEN_FUNCS = (FunctionType.InCore, FunctionType.AIC, FunctionType.AIV,
                         FunctionType.Group, FunctionType.Spmd)


class Region(Protocol):
    """What a rule reads of an enclosing region (the parser's ``RegionFrame`` is one)."""

    @property
    def construct(self) -> str: ...  # "at", "cluster", "spmd", "graph", "split_aiv", ...
    @property
    def name(self) -> str: ...  # as the user writes it: pl.at(level=pl.Level.HOST)
    @property
    def span(self) -> Span: ...
    @property
    def device_task(self) -> bool: ...  # becomes one device task
    @property
    def inner_limit(self) -> Optional[int]: ...  # highest pl.at level value inside
    @property
    def kernel(self) -> bool: ...  # the body runs in one kernel


@dataclass(frozen=True)
class _Region:
    construct: str
    name: str
    span: Span
    device_task: bool = True
    inner_limit: Optional[int] = None
    kernel: bool = False


@dataclass(frozen=True)
class Refusal:
    message: str
    hint: str
    region: Region  # the enclosing region the rule refused against
    note: Optional[str]  # where that region starts, as the diagnostic's note


def start_note(region: Region) -> Optional[str]:
    if region.construct == "function":
        return None
    return f"the enclosing region starts at {region.span.filename}:{region.span.begin_line}"


def at_region(level: Level, span: Span) -> _Region:
    """A ``pl.at(level=...)``: below CHIP one device task, inside which levels go down;
    at CORE_GROUP or below one kernel."""
    device_task = level_to_linqu_level(level) < level_to_linqu_level(Level.CHIP)
    return _Region("at", f"pl.at(level=pl.Level.{level.name})", span, device_task,
                   level.value - 1 if device_task else None, level.value <= KERNEL_LEVEL)


def function_region(func_type: FunctionType) -> Optional[_Region]:
    """A kernel function's body as the outermost region: it is one kernel.  (A function's
    level says less: Orchestration functions default to CHIP and keep the HOST regions
    written in them.)"""
    if func_type not in _KERNEL_FUNCS:
        return None
    return _Region("function", f"a @pl.function(type=pl.FunctionType.{func_type.name})",
                   Span.unknown(), inner_limit=KERNEL_LEVEL - 1, kernel=True)


def scope_region(stmt: S.ScopeStmt) -> Optional[_Region]:
    """The region an IR scope statement is, for these rules (``None``: one they ignore)."""
    span = stmt.span
    if isinstance(stmt, S.InCoreScopeStmt):
        return at_region(Level.CORE_GROUP, span)
    if isinstance(stmt, S.HierarchyScopeStmt):
        return at_region(stmt.level, span)
    if isinstance(stmt, S.ClusterScopeStmt):
        return _Region("cluster", "pl.cluster()", span, inner_limit=KERNEL_LEVEL)
    if isinstance(stmt, S.SpmdScopeStmt):
        # ``for b in pl.spmd(n)`` holds its kernel as an InCore scope: that one is kernel
        return _Region("spmd", "pl.spmd()", span, inner_limit=KERNEL_LEVEL)
    if isinstance(stmt, S.SplitAivScopeStmt):
        return _Region("split_aiv", "pl.split_aiv()", span, inner_limit=KERNEL_LEVEL - 1,
                       kernel=True)
    if isinstance(stmt, S.GraphScopeStmt):
        return _Region("graph", f'pl.graph("{stmt.name_hint}")', span)
    return None


def at_refusal(level: Level, regions: Iterable[Optional[Region]]) -> Optional[Refusal]:
    """Inside a device task levels nest downwards: a pl.at runs below an enclosing
    pl.at under CHIP, and on the core group of an enclosing pl.cluster / pl.spmd (a
    nested kernel would be a kernel calling a kernel, a HOST region inside one a host
    inside a core).  Above CHIP the hierarchy outliner chains any nesting."""
    for region in regions:
        if region is None or region.inner_limit is None:
            continue
        if level.value <= region.inner_limit:
            return None
        this = f"pl.at(level=pl.Level.{level.name})"
        if region.kernel and level.value <= KERNEL_LEVEL:
            why, hint = ("its body is already one kernel",
                         "Drop the inner `with`: its statements already run in the kernel")
        elif region.construct in ("cluster", "spmd"):
            why, hint = ("it runs on one core group",
                         f"Put the {this} region around {region.name} instead")
        else:
            why, hint = ("a nested region runs at a lower level than the one around it",
                         f"Put the {this} region around {region.name} instead")
        return Refusal(f"{this} cannot be nested inside {region.name}: {why}", hint, region,
                       start_note(region))
    return None


def launch_refusal(construct: str, regions: Iterable[Optional[Region]]) -> Optional[Refusal]:
    """pl.cluster / pl.spmd launch kernels: not from inside a kernel, nor from a
    pl.spmd's body (one kernel dispatch, or kernel code)."""
    for region in regions:
        if region is not None and region.kernel:
            return Refusal(f"pl.{construct}() cannot be nested inside {region.name}: a kernel "
                           "cannot launch kernels",
                           f"Put the pl.{construct}() region around the kernel code instead",
                           region, start_note(region))
        if region is not None and region.construct == "spmd":
            return Refusal(f"pl.{construct}() cannot be nested inside {region.name}: a "
                           "pl.spmd() region dispatches exactly one kernel",
                           f"Put the pl.{construct}() region around the pl.spmd() region "
                           "instead", region, start_note(region))
    return None


def graph_refusal(name: str, regions: Iterable[Optional[Region]]) -> Optional[Refusal]:
    """A graph records a topology of tasks: not inside another graph, any pl.at
    (graph x distributed is out of scope), a pl.cluster or a pl.spmd."""
    for region in regions:
        if region is None:
            continue
        if region.construct == "graph":
            return Refusal(f'pl.graph("{name}") cannot be nested inside another pl.graph '
                           f"({region.name} at line {region.span.begin_line})",
                           "Keep graph regions disjoint: the runtime cannot record a graph "
                           "inside a graph", region,
                           f"the enclosing region {region.name} starts at "
                           f"{region.span.filename}:{region.span.begin_line}")
        if region.construct == "at" and not region.device_task:
            return Refusal(f'pl.graph("{name}") cannot be nested inside `pl.at`: a graph '
                           f"inside any pl.at region, {region.name} included, is out of "
                           "scope (graph x distributed)",
                           "Put the pl.graph region beside the pl.at region, in the "
                           "orchestration body", region, start_note(region))
        if region.construct in ("at", "cluster", "spmd"):
            return Refusal(f'pl.graph("{name}") cannot be nested inside `pl.{region.construct}`',
                           f"A graph region records a topology of tasks, while {region.name} "
                           "becomes a single task: put the pl.graph region around it instead",
                           region, None)
    return None


def region_refusal(stmt: S.ScopeStmt, regions: Iterable[Optional[Region]]) -> Optional[Refusal]:
    """The refusal of IR scope ``stmt`` inside ``regions`` (innermost first)."""
    if isinstance(stmt, S.InCoreScopeStmt):
        return at_refusal(Level.CORE_GROUP, regions)
    if isinstance(stmt, S.HierarchyScopeStmt):
        return at_refusal(stmt.level, regions)
    if isinstance(stmt, S.ClusterScopeStmt):
        return launch_refusal("cluster", regions)
    if isinstance(stmt, S.SpmdScopeStmt):
        return launch_refusal("spmd", regions)
    if isinstance(stmt, S.GraphScopeStmt):
        return graph_refusal(stmt.name_hint, regions)
    return None

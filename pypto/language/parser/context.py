"""Parser state that is not the AST walk itself: name frames, loop and region stacks,
and the per-program context shared by the methods of one ``@pl.program``."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from ...ir.array_types import PtrType
from ...ir.enums import ForKind
from ...ir.expr import Var
from ...ir.function import Function
from ...ir.node import GlobalVar
from ...ir.scalar_types import INDEX_TYPE
from ...ir.span import Span
from ..typing import DynVar
from .recovery import POISONED, DependentError

__all__ = ["NameFrame", "NameTable", "LoopFrame", "YieldTarget", "YieldContext", "RegionFrame",
           "ProgramContext"]


class NameFrame:
    """One level of DSL name bindings.

    ``leaky`` frames (loop variables, iter_args, inline parameters) only hold
    their own bindings: new names defined inside them are written to the nearest
    non-leaky frame, because loop and scope bodies leak their definitions.
    """

    __slots__ = ("names", "leaky", "first_spans")

    def __init__(self, leaky: bool) -> None:
        self.names: dict[str, Any] = {}
        self.leaky = leaky
        self.first_spans: dict[str, Span] = {}


class NameTable:
    __slots__ = ("frames",)

    def __init__(self) -> None:
        self.frames: list[NameFrame] = [NameFrame(leaky=False)]

    def lookup(self, name: str) -> Any:
        for frame in reversed(self.frames):
            value = frame.names.get(name)
            if value is not None:
                if value is POISONED:  # its statement failed: this one depends on it
                    raise DependentError(f"'{name}' is undefined after an earlier error")
                return value
        return None

    def frame_of(self, name: str) -> NameFrame | None:
        for frame in reversed(self.frames):
            if name in frame.names:
                return frame
        return None

    def bind_new(self, name: str, value: Any, span: Span) -> None:
        """Bind a new name where definitions land (the nearest non-leaky frame)."""
        for frame in reversed(self.frames):
            if not frame.leaky:
                frame.names[name] = value
                frame.first_spans.setdefault(name, span)
                return

    def bind_here(self, name: str, value: Any, span: Span) -> None:
        """Bind in the innermost frame (loop vars, iter_args, inline params)."""
        frame = self.frames[-1]
        frame.names[name] = value
        frame.first_spans.setdefault(name, span)

    def first_span(self, name: str) -> Span | None:
        frame = self.frame_of(name)
        return None if frame is None else frame.first_spans.get(name)

    def push(self, leaky: bool = True) -> NameFrame:
        frame = NameFrame(leaky)
        self.frames.append(frame)
        return frame

    def pop(self) -> None:
        self.frames.pop()


@dataclass
class YieldTarget:
    name: str
    annotation: Any  # ir.Type or None
    span: Span


@dataclass
class YieldContext:
    """Collects ``x = pl.yield_(...)`` targets of the loop or if being parsed."""

    kind: str  # "for", "while", "if"
    explicit: bool = False  # a loop with init_values: its yield must name the return vars
    targets: list[YieldTarget] = field(default_factory=list)
    values: list[tuple] = field(default_factory=list)  # the yielded Expr tuples, in order


@dataclass
class LoopFrame:
    kind: ForKind | None  # None for while loops
    span: Span
    region_depth: int = 0  # regions open when the loop started: those opened later are inside it
    jumps: bool = False  # the body breaks or continues this loop
    body_depth: int = -1  # open binding logs at the body's own level (not inside an if)
    carried: list = field(default_factory=list)  # the loop's IterArgs (explicit carry)


@dataclass
class RegionFrame:
    """An enclosing ``with pl.at/cluster/spmd/graph/scope`` (for nesting rules)."""

    construct: str  # "at", "cluster", "spmd", "graph", "scope"
    name: str
    span: Span
    device_task: bool = True  # becomes one device task (pl.at below CHIP, cluster, spmd)
    # The highest pl.at level allowed inside (None: any); kernels cannot launch kernels.
    inner_limit: Any = None  # Level | None
    kernel: bool = False  # the body runs in one kernel (pl.at at CORE_GROUP or below, spmd body)
    no_dep: list = field(default_factory=list)  # tensors marked pl.no_dep(t) in a pl.at body

    @property
    def outlined(self) -> bool:
        """Does the region become a function of its own (every kind but pl.scope)?"""
        return self.construct != "scope"


@dataclass
class ProgramContext:
    """State shared by the methods of one ``@pl.program`` (or one standalone function)."""

    name: str
    global_vars: dict[str, GlobalVar] = field(default_factory=dict)
    functions: dict[str, Function] = field(default_factory=dict)
    dyn_vars: dict[str, Var] = field(default_factory=dict)
    base_ptrs: dict[str, Var] = field(default_factory=dict)  # memref bases named in strings
    externals: dict[str, Function] = field(default_factory=dict)
    param_counts: dict[str, int] = field(default_factory=dict)  # methods not parsed yet
    unchecked_calls: list = field(default_factory=list)  # calls of methods parsed later
    in_program: bool = False
    # ``@pl.jit``: ``self.k(...)`` (or ``pl.submit(self.k, ...)``) where the closure maps
    # ``k`` to a jit function becomes a method made for the call's argument types, on
    # demand.  Called as ``resolver(parser, name, jit_function, arg_nodes, keyword_nodes,
    # call_node)``; returns ``(GlobalVar, Function, args)``, the arguments parsed in the
    # callee's parameter order.
    call_resolver: Any = None
    errors: list = field(default_factory=list)  # ParserErrors recorded so far (recovery)
    failed: set = field(default_factory=set)  # methods that failed to parse
    # Calls already checked (``calls._remember_fit``): (id(callee), *ids of the argument
    # types) -> (callee, types); and per callee whether its signature is static.
    fitting_calls: dict = field(default_factory=dict)
    static_callees: dict = field(default_factory=dict)

    def dyn_var(self, dyn: DynVar, span: Span | None = None) -> Var:
        """One ``Var`` per dynamic-dim name, shared by every method."""
        var = self.dyn_vars.get(dyn.name)
        if var is None:
            var = self.dyn_vars[dyn.name] = Var(dyn.name, INDEX_TYPE, span)
        return var

    def interned_base_ptr(self, name: str, span: Span | None = None) -> Var:
        """One ``pl.Ptr`` per memref base named in a string (``pl.MemRef("mem_ddr_0",
        ...)``), shared by every method: the annotations naming it share the buffer."""
        var = self.base_ptrs.get(name)
        if var is None:
            var = self.base_ptrs[name] = Var(name, PtrType.get(), span)
        return var

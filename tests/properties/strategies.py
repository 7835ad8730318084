"""Hypothesis strategy for random *valid* DSL programs, as text a user would write.

A program has one or two InCore kernels, up to two helpers returning a tuple
(Opaque, Orchestration, Inline, or Inline written as graph code, which may be called
inside a ``pl.graph``), and a ``main`` entry.  The helper's second result may be read
after the region that called it (it leaves the outlined region as a result); in a
third of the programs ``x``'s rows are a dynamic dim (``pl.dynamic``).  Bodies nest
every region kind -- ``pl.at`` at several levels (InCore at CORE_GROUP, Hierarchy at
GLOBAL/HOST/CHIP and device levels), ``pl.graph``, ``pl.cluster``, ``pl.spmd``,
runtime scopes -- with loops carrying values implicitly and through ``init_values``,
``pl.while_`` loops, ifs with and without explicit yields, and tuple returns.

Validity is by construction.  The rules the generator respects, and why:

* One accumulator tensor is threaded through the code (``acc``); a nested body ends
  by rebinding the name it started with, so implicit carries and if-merges always
  see one name.  Every other local gets a fresh name, so nothing becomes
  loop-carried by accident.
* Every region that stores into a tensor loads from it first: a Graph function may
  not take a write-only (``Out``) tensor (LegalizeGraphBoundary).
* ``pl.graph`` only where the parser and the passes allow it: in Opaque,
  Orchestration and Inline bodies, or inside ``pl.at`` at CHIP level or above --
  never inside a device-level ``pl.at``, ``pl.cluster``, ``pl.spmd`` or another graph.
  Inside a graph: no ``if``/``while``, only constant-trip loops, at least one task,
  scalar task arguments only as Vars from outside the graph (or graph loop
  variables), no definitions that outlive the graph except the accumulator.
* Hierarchy ``pl.at`` only in Opaque functions (only those are outlined) and never
  inside a graph; levels decrease inward.
* No InCore region defines a scalar used after it (a kernel cannot return one).
* Conditions only read scalar parameters, loop variables and scalar locals, so the
  op-trace interpreter (``optrace``) can decide every branch.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from hypothesis import strategies as st

ROWS = 16
T = f"pl.Tensor[[{ROWS}, {ROWS}], pl.FP32]"
XT = f"pl.Tensor[[{4 * ROWS}, {ROWS}], pl.FP32]"  # room for constant row offsets 0..3
IDX = "pl.Scalar[pl.INDEX]"
DYNAMIC = 'M = pl.dynamic("M")'
XT_DYNAMIC = f"pl.Tensor[[M, {ROWS}], pl.FP32]"
TILE_BINARY = ("pl.add", "pl.sub", "pl.mul", "pl.maximum")
TILE_UNARY = ("pl.exp", "pl.sqrt", "pl.neg", "pl.abs")
ORCH_LEVELS = ("pl.Level.GLOBAL", "pl.Level.CLUSTER_0", "pl.Level.HOST", "pl.Level.CHIP")
DEVICE_LEVELS = ("pl.Level.CHIP_DIE", "pl.Level.AIC", "pl.Level.AIV")


@dataclass(frozen=True)
class GeneratedProgram:
    text: str
    scalar_args: tuple[int, ...]   # values of main's scalar parameters, after x and acc

    def __repr__(self) -> str:  # hypothesis prints this on failure: show the program
        return f"GeneratedProgram(scalar_args={self.scalar_args!r}, text=\n{self.text})"


@dataclass
class Ctx:
    """Where the code being generated sits.  ``scalars`` grows as a block defines
    scalars; nested blocks work on a copy, so their definitions stay inside."""

    indent: str
    depth: int                 # nesting budget left
    func_type: str             # "opaque", "orch", "inline"
    scalars: tuple[str, ...]   # scalar Vars readable here
    graph_ok: bool             # may a pl.graph region start here?
    hierarchy_level: int       # index into ORCH_LEVELS of the enclosing pl.at (-1: none)
    in_graph: bool = False
    in_cluster: bool = False
    in_device_at: bool = False  # inside a device-level Hierarchy pl.at
    graph_scalars: tuple[str, ...] = ()  # scalars a task inside a graph may receive
    auto_scope: bool = True  # a hand-placed AUTO pl.scope() needs auto_scope=False
    # Tensors of x's type readable here: x, and the second value of a helper's tuple
    # (defined inside a pl.at or pl.scope, it leaves the outlined region as a result).
    xs: tuple[str, ...] = ("x",)

    def deeper(self, **changes) -> "Ctx":
        return replace(self, indent=self.indent + "    ", depth=self.depth - 1, **changes)


class _Writer:
    def __init__(self, draw, kernels: int, helpers: tuple[str, ...]) -> None:
        self.draw = draw
        self.lines: list[str] = []
        self.counter = 0
        self.kernels = kernels
        self.helpers = helpers     # callable helper functions (name) from main
        self.inline_graph_helpers: set[str] = set()  # Inline helpers holding a pl.graph
        self.graph_safe_helpers: set[str] = set()  # Inline helpers written as graph code
        self.graph_names = 0

    # -- small helpers ----------------------------------------------------------------
    def fresh(self, base: str) -> str:
        self.counter += 1
        return f"{base}{self.counter}"

    def emit(self, ctx: Ctx, line: str) -> None:
        self.lines.append(ctx.indent + line)

    def choice(self, options):
        return options[self.draw(st.integers(0, len(options) - 1))]

    def flag(self) -> bool:
        return self.draw(st.booleans())

    def x_operand(self, ctx: Ctx) -> str:
        return self.choice(ctx.xs) if len(ctx.xs) > 1 else "x"

    def scalar_operand(self, ctx: Ctx) -> str:
        pool = ctx.graph_scalars if ctx.in_graph else ctx.scalars
        if pool and self.flag():
            return self.choice(pool)
        return str(self.draw(st.integers(0, 3)))

    def loop_bound(self, ctx: Ctx) -> str:
        """A constant, or (outside graphs) a scalar parameter: trip counts stay small."""
        if not ctx.in_graph and self.flag():
            return self.choice([s for s in ("n", "m") if s in ctx.scalars])
        return str(self.draw(st.integers(1, 3)))

    def condition(self, ctx: Ctx) -> str:
        lhs = self.choice(ctx.scalars)
        op = self.choice(("<", ">", "==", "!=", "<=", ">="))
        return f"{lhs} {op} {self.draw(st.integers(0, 4))}"

    # -- statements ----------------------------------------------------------------------
    def block(self, ctx: Ctx, acc: str, min_stmts: int = 1) -> str:
        """A list of statements; returns the accumulator's name at the end."""
        count = self.draw(st.integers(min_stmts, max(min_stmts, 3 if ctx.depth > 0 else 2)))
        for _ in range(count):
            acc = self.statement(ctx, acc)
        return acc

    def rebind(self, ctx: Ctx, name: str, current: str) -> None:
        if current != name:
            self.emit(ctx, f"{name} = {current}")

    def statement(self, ctx: Ctx, acc: str) -> str:
        kinds = ["kernel", "incore"]
        if not ctx.in_graph:
            kinds += ["scalar"]
        if ctx.depth > 0:
            kinds += ["for", "for_init", "scope"]
            if not ctx.in_graph:
                kinds += ["if", "if_yield", "while", "while_init", "cluster", "spmd"]
                if self.callable_helpers(ctx) and not ctx.in_cluster and not ctx.in_device_at:
                    kinds += ["helper"]
            elif self.callable_helpers(ctx) and ctx.graph_scalars:
                kinds += ["helper"]  # an Inline helper spliced into the graph
            if ctx.graph_ok and not ctx.in_graph:
                kinds += ["graph", "graph"]
            if ctx.func_type == "opaque" and not ctx.in_graph and not ctx.in_cluster:
                kinds += ["at", "at"]
        if ctx.in_device_at:
            kinds = [k for k in kinds if k in ("kernel", "scalar", "for", "if", "scope")]
        return getattr(self, "stmt_" + self.choice(kinds))(ctx, acc)

    def stmt_kernel(self, ctx: Ctx, acc: str) -> str:
        k = self.draw(st.integers(0, self.kernels - 1))
        if k == 1:  # the kernel taking a scalar offset
            self.emit(ctx, f"{acc} = self.kern_1({self.x_operand(ctx)}, "
                           f"{self.scalar_operand(ctx)}, {acc})")
        else:
            self.emit(ctx, f"{acc} = self.kern_0({self.x_operand(ctx)}, {acc})")
        return acc

    def stmt_scalar(self, ctx: Ctx, acc: str) -> str:
        name = self.fresh("s")
        lhs, op = self.scalar_operand(ctx), self.choice(("+", "*", "-", "//"))
        rhs = str(self.draw(st.integers(1, 3))) if op == "//" else self.scalar_operand(ctx)
        self.emit(ctx, f"{name} = {lhs} {op} {rhs}")
        ctx.scalars += (name,)  # visible to the following statements
        return acc

    def incore_body(self, ctx: Ctx, acc: str) -> str:
        """Tile code: load ``x`` and the accumulator, compute, store into it."""
        src, cur = self.fresh("t"), self.fresh("a")
        offset = self.scalar_operand(ctx)
        self.emit(ctx, f"{src} = pl.load({self.x_operand(ctx)}, [{offset}, 0], [{ROWS}, {ROWS}])")
        self.emit(ctx, f"{cur} = pl.load({acc}, [0, 0], [{ROWS}, {ROWS}])")
        value = f"{self.choice(TILE_BINARY)}({src}, {cur})"
        for _ in range(self.draw(st.integers(0, 2))):
            if self.flag():
                value = f"{self.choice(TILE_UNARY)}({value})"
            else:
                value = f"pl.mul({value}, {self.draw(st.sampled_from(('0.5', '2.0', '1.5')))})"
        if self.flag():
            tmp = self.fresh("r")
            self.emit(ctx, f"{tmp} = {value}")
            value = tmp
        if self.flag():
            self.emit(ctx, f"{acc} = pl.store({value}, [0, 0], {acc})")
        else:
            self.emit(ctx, f"pl.store({value}, [0, 0], {acc})")
        return acc

    def stmt_incore(self, ctx: Ctx, acc: str) -> str:
        self.emit(ctx, "with pl.at(level=pl.Level.CORE_GROUP):")
        return self.incore_body(ctx.deeper(), acc)

    def stmt_for(self, ctx: Ctx, acc: str) -> str:
        loop_var = self.fresh("i")
        bound = self.loop_bound(ctx)
        # No pl.unroll: a carried value would give an Unroll loop with iter_args,
        # which the printer refuses by design.
        kind = "range" if ctx.in_graph else self.choice(("range", "range", "parallel"))
        self.emit(ctx, f"for {loop_var} in pl.{kind}({bound}):")
        inner = ctx.deeper(scalars=ctx.scalars + (loop_var,),
                           graph_scalars=ctx.graph_scalars + ((loop_var,) if ctx.in_graph
                                                              else ()))
        end = self.block(inner, acc)
        self.rebind(inner, acc, end)
        return acc

    def stmt_for_init(self, ctx: Ctx, acc: str) -> str:
        loop_var, carried, result = self.fresh("j"), self.fresh("c"), self.fresh("acc")
        bound = self.loop_bound(ctx)
        with_scalar = not ctx.in_graph and self.flag()
        if with_scalar:
            counter, counted = self.fresh("k"), self.fresh("kr")
            self.emit(ctx, f"for {loop_var}, ({carried}, {counter}) in pl.range({bound}, "
                           f"init_values=({acc}, {self.scalar_operand(ctx)})):")
        else:
            self.emit(ctx, f"for {loop_var}, ({carried},) in pl.range({bound}, "
                           f"init_values=({acc},)):")
        extra = (loop_var, counter) if with_scalar else (loop_var,)
        inner = ctx.deeper(scalars=ctx.scalars + extra,
                           graph_scalars=ctx.graph_scalars + ((loop_var,) if ctx.in_graph
                                                              else ()))
        end = self.block(inner, carried)
        if with_scalar:
            self.emit(inner, f"{result}, {counted} = pl.yield_({end}, {counter} + {loop_var})")
            ctx.scalars += (counted,)
        else:
            self.emit(inner, f"{result} = pl.yield_({end})")
        return result

    def stmt_while(self, ctx: Ctx, acc: str) -> str:
        counter = self.fresh("w")
        self.emit(ctx, f"{counter} = 0")
        self.emit(ctx, f"while {counter} < {self.draw(st.integers(1, 3))}:")
        inner = ctx.deeper(scalars=ctx.scalars + (counter,))
        end = self.block(inner, acc)
        self.rebind(inner, acc, end)
        self.emit(inner, f"{counter} = {counter} + 1")
        ctx.scalars += (counter,)
        return acc

    def stmt_while_init(self, ctx: Ctx, acc: str) -> str:
        counter, carried = self.fresh("w"), self.fresh("c")
        done, result = self.fresh("wr"), self.fresh("acc")
        self.emit(ctx, f"for ({counter}, {carried}) in pl.while_(init_values=(0, {acc})):")
        inner = ctx.deeper(scalars=ctx.scalars + (counter,))
        self.emit(inner, f"pl.cond({counter} < {self.draw(st.integers(1, 3))})")
        end = self.block(inner, carried)
        self.emit(inner, f"{done}, {result} = pl.yield_({counter} + 1, {end})")
        ctx.scalars += (done,)
        return result

    def stmt_if(self, ctx: Ctx, acc: str) -> str:
        self.emit(ctx, f"if {self.condition(ctx)}:")
        branch = ctx.deeper()
        self.rebind(branch, acc, self.block(branch, acc))
        if self.flag():
            self.emit(ctx, "else:")
            branch = ctx.deeper()  # both branches start from the same names
            self.rebind(branch, acc, self.block(branch, acc))
        return acc

    def stmt_if_yield(self, ctx: Ctx, acc: str) -> str:
        result = self.fresh("acc")
        self.emit(ctx, f"if {self.condition(ctx)}:")
        branch = ctx.deeper()
        self.emit(branch, f"{result} = pl.yield_({self.block(branch, acc)})")
        self.emit(ctx, "else:")
        branch = ctx.deeper()
        self.emit(branch, f"{result} = pl.yield_({self.block(branch, acc)})")
        return result

    def stmt_scope(self, ctx: Ctx, acc: str) -> str:
        manual = ("with pl.manual_scope():", "with pl.scope(mode=pl.ScopeMode.MANUAL):")
        self.emit(ctx, self.choice(manual if ctx.auto_scope else manual + ("with pl.scope():",)))
        inner = ctx.deeper()
        self.rebind(inner, acc, self.block(inner, acc))
        ctx.xs = inner.xs
        return acc

    def stmt_graph(self, ctx: Ctx, acc: str) -> str:
        self.graph_names += 1
        name = f"g{self.graph_names}" if self.draw(st.integers(0, 4)) else "g1"
        self.emit(ctx, f'with pl.graph("{name}"):')
        inner = ctx.deeper(in_graph=True, graph_ok=False, graph_scalars=ctx.scalars)
        if ctx.scalars and self.flag():  # a derived scalar: LegalizeGraphBoundary hoists it
            base = self.fresh("base")
            self.emit(inner, f"{base} = {self.choice(ctx.scalars)} * {ROWS}")
            inner = replace(inner, scalars=inner.scalars + (base,),
                            graph_scalars=inner.graph_scalars + (base,))
        acc = self.stmt_kernel(inner, acc) if self.flag() else self.stmt_incore(inner, acc)
        end = self.block(inner, acc, min_stmts=0) if inner.depth > 0 else acc
        self.rebind(inner, acc, end)
        return acc

    def stmt_at(self, ctx: Ctx, acc: str) -> str:
        if self.draw(st.integers(0, 3)) == 0:
            level = self.choice(DEVICE_LEVELS)
            self.emit(ctx, f"with pl.at(level={level}):")
            inner = ctx.deeper(in_device_at=True, graph_ok=False)
        else:
            index = self.draw(st.integers(max(0, ctx.hierarchy_level + 1), len(ORCH_LEVELS)))
            if index == len(ORCH_LEVELS):
                index = len(ORCH_LEVELS) - 1
            level = ORCH_LEVELS[index]
            role = ", role=pl.Role.Orchestrator" if self.flag() else ""
            self.emit(ctx, f"with pl.at(level={level}{role}):")
            # graph x distributed is out of scope: no pl.graph inside any pl.at
            inner = ctx.deeper(hierarchy_level=index, graph_ok=False)
        self.rebind(inner, acc, self.block(inner, acc))
        ctx.xs = inner.xs  # a `with` keeps its names: a helper's result leaves the region
        return acc

    def stmt_cluster(self, ctx: Ctx, acc: str) -> str:
        self.emit(ctx, "with pl.cluster():")
        inner = ctx.deeper(in_cluster=True, graph_ok=False)
        if self.flag():
            self.emit(inner, f"with pl.spmd({self.draw(st.integers(1, 4))}):")
            self.stmt_kernel(inner.deeper(), acc)
        else:
            for _ in range(self.draw(st.integers(1, 2))):
                self.stmt_kernel(inner, acc) if self.flag() else self.stmt_incore(inner, acc)
        return acc

    def stmt_spmd(self, ctx: Ctx, acc: str) -> str:
        blocks = self.draw(st.integers(1, 4))
        if self.flag():
            self.emit(ctx, f"with pl.spmd({blocks}):")
            return self.stmt_kernel(ctx.deeper(graph_ok=False), acc)
        block_var = self.fresh("b")
        self.emit(ctx, f"for {block_var} in pl.spmd({blocks}):")
        return self.incore_body(ctx.deeper(graph_ok=False), acc)

    def callable_helpers(self, ctx: Ctx) -> tuple[str, ...]:
        """Helpers a call here may name: an Inline helper's body is spliced at the call,
        so one holding a pl.graph only where a graph may stand (InlineFunctions P103),
        and inside a graph only one written as graph code."""
        if ctx.in_graph:
            return tuple(h for h in self.helpers if h in self.graph_safe_helpers)
        if ctx.graph_ok:
            return self.helpers
        return tuple(h for h in self.helpers if h not in self.inline_graph_helpers)

    def stmt_helper(self, ctx: Ctx, acc: str) -> str:
        helper = self.choice(self.callable_helpers(ctx))
        other = self.fresh("o")
        scalar = self.choice(ctx.graph_scalars if ctx.in_graph else ctx.scalars)
        self.emit(ctx, f"{acc}, {other} = self.{helper}({self.x_operand(ctx)}, {acc}, {scalar})")
        ctx.xs += (other,)  # visible to the following statements
        return acc


KERNELS = [
    [
        "    @pl.function(type=pl.FunctionType.InCore)",
        f"    def kern_0(x: {XT}, acc: pl.InOut[{T}]) -> {T}:",
        f"        t = pl.load(x, [0, 0], [{ROWS}, {ROWS}])",
        f"        a = pl.load(acc, [0, 0], [{ROWS}, {ROWS}])",
        "        acc = pl.store(pl.add(t, a), [0, 0], acc)",
        "        return acc",
    ],
    [
        "    @pl.function(type=pl.FunctionType.InCore)",
        f"    def kern_1(x: {XT}, off: {IDX}, acc: pl.InOut[{T}]) -> {T}:",
        f"        t = pl.load(x, [off, 0], [{ROWS}, {ROWS}])",
        f"        a = pl.load(acc, [0, 0], [{ROWS}, {ROWS}])",
        "        acc = pl.store(pl.exp(pl.sub(a, t)), [0, 0], acc)",
        "        return acc",
    ],
]


def _function(writer: _Writer, name: str, func_type: str, max_depth: int) -> None:
    """A helper ``name(x, acc, m) -> tuple[T, T]`` or ``main(x, acc, n, m) -> ...``."""
    is_main = name == "main"
    graph_code = func_type == "graph_inline"  # an Inline body that may stand in a graph
    if graph_code:
        func_type = "inline"
    decorator = {"opaque": "@pl.function",
                 "orch": "@pl.function(type=pl.FunctionType.Orchestration)",
                 "inline": "@pl.function(type=pl.FunctionType.Inline)"}[func_type]
    # Inline bodies are spliced into auto-scoped callers: they keep to manual scopes.
    auto_scope = func_type == "inline" or writer.flag()
    if not auto_scope:
        decorator = decorator[:-1] + ", auto_scope=False)" if "(" in decorator \
            else decorator + "(auto_scope=False)"
    scalars = ("n", "m") if is_main else ("m",)
    params = ", ".join(f"{s}: {IDX}" for s in scalars)
    returns = f"tuple[{T}, {IDX}]" if is_main else f"tuple[{T}, {XT}]"
    writer.lines += [f"    {decorator}",
                     f"    def {name}(self, x: {XT}, acc: pl.InOut[{T}], {params}) -> {returns}:"]
    ctx = Ctx(indent="        ", depth=max_depth, func_type=func_type, scalars=scalars,
              graph_ok=not graph_code, hierarchy_level=-1, auto_scope=auto_scope,
              in_graph=graph_code, graph_scalars=scalars if graph_code else ())
    writer.emit(ctx, "k0 = 0")
    ctx = replace(ctx, scalars=ctx.scalars + ("k0",))
    end = writer.block(ctx, "acc", min_stmts=1)
    writer.emit(ctx, f"return {end}, {ctx.scalars[-1] if is_main else writer.x_operand(ctx)}")


@st.composite
def programs(draw, max_depth: int = 3) -> GeneratedProgram:
    """A random valid ``@pl.program`` with a ``main(x, acc, n, m)`` entry."""
    kernels = draw(st.integers(1, 2))
    helper_types = draw(st.lists(st.sampled_from(("opaque", "orch", "inline", "graph_inline")),
                                 max_size=2))
    helpers = tuple(f"helper_{i}" for i in range(len(helper_types)))
    writer = _Writer(draw, kernels, ())
    writer.lines += ["import pypto.language as pl", "", "", "@pl.program",
                     "class Random:"]
    for kernel in KERNELS[:kernels]:
        writer.lines += kernel + [""]
    for name, func_type in zip(helpers, helper_types):
        first_line = len(writer.lines)
        _function(writer, name, func_type, max(1, max_depth - 1))
        if func_type == "inline" and any("pl.graph(" in line
                                         for line in writer.lines[first_line:]):
            writer.inline_graph_helpers.add(name)
        if func_type == "graph_inline":
            writer.graph_safe_helpers.add(name)
        writer.lines.append("")
    writer.helpers = helpers
    _function(writer, "main", draw(st.sampled_from(("opaque", "orch"))), max_depth)
    scalar_args = (draw(st.integers(0, 3)), draw(st.integers(0, 3)))
    text = "\n".join(writer.lines) + "\n"
    if draw(st.booleans()):  # x's rows a dynamic dim: bound from the argument at run time
        text = text.replace(XT, XT_DYNAMIC).replace(
            "import pypto.language as pl\n", f"import pypto.language as pl\n\n{DYNAMIC}\n", 1)
    return GeneratedProgram(text, scalar_args)

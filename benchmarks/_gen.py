"""Program generators shared by the benchmarks and the scale tests.

Two kinds of input:

* **DSL source text**, as a user would write it (``many_functions_source``,
  ``long_function_source``, ``nested_source``): what ``pl.parse`` is measured on.
  Every generated program is valid: it parses, and the default pipeline compiles it
  (graph regions read what they store, so no Graph function gets an ``Out``-only
  tensor; every region launches at least one kernel).
* **IR built with ``ir`` constructors** (``deep_regions_ir``): nesting far deeper than
  Python source can express.  CPython's tokenizer refuses a statement more than 99
  levels in (``too many levels of indentation``) and its compiler more than 20
  nested ``for``/``with`` blocks (``too many statically nested blocks``), so
  500-deep *source* cannot exist; ``nested_source`` reaches the first limit (97
  blocks inside a method of a class) and stays below the second.

The IR shapes of ``bench_outline.py`` and ``bench_passes_front.py`` cover single
passes; the generators here cover the whole path source -> IR -> pipeline -> text.
"""

from __future__ import annotations

from pypto import ir
from pypto.ir import DataType as D

ROWS, COLS = 16, 64
TENSOR = f"pl.Tensor[[{ROWS}, {COLS}], pl.FP32]"
INDEX = "pl.Scalar[pl.INDEX]"
HEADER = "import pypto.language as pl\n\n\n@pl.program\nclass Generated:\n"

# Python's parser limits (see the module docstring).  The tokenizer keeps a stack of
# 100 indentation columns, the first of them column 0: a statement can sit 99 levels in.
PYTHON_MAX_INDENT = 100
PYTHON_MAX_DEPTH = PYTHON_MAX_INDENT - 1
PYTHON_MAX_BLOCKS = 20


def _kernel(k: int) -> list[str]:
    """An InCore kernel: reads ``x`` and ``acc``, stores into ``acc`` (InOut)."""
    return [
        "    @pl.function(type=pl.FunctionType.InCore)",
        f"    def kern_{k}(x: {TENSOR}, acc: pl.InOut[{TENSOR}]) -> {TENSOR}:",
        f"        t = pl.load(x, [0, 0], [{ROWS}, {COLS}])",
        f"        a = pl.load(acc, [0, 0], [{ROWS}, {COLS}])",
        "        s = pl.add(pl.mul(t, 0.5), a)",
        "        acc = pl.store(pl.exp(s), [0, 0], acc)",
        "        return acc",
    ]


def _helper(k: int) -> list[str]:
    """An Inline function holding a loop and a graph region (spliced by InlineFunctions)."""
    return [
        "    @pl.function(type=pl.FunctionType.Inline)",
        f"    def help_{k}(self, x: {TENSOR}, acc: {TENSOR}) -> {TENSOR}:",
        "        for r in pl.range(2):",
        f'            with pl.graph("hg_{k}"):',
        f"                acc = self.kern_{k}(x, acc)",
        "        return acc",
    ]


def _unit_body(k: int, indent: str, u: str = "") -> list[str]:
    """One unit of orchestration code: every region kind, a carried loop, an if.

    ``u`` suffixes every local name: a name reassigned in a later loop would become
    loop-carried (ConvertToSSA), turning region-local tiles into region outputs.
    """
    lines = [
        f"for i{u} in pl.range(4):",
        f'    with pl.graph("g_{k}"):',
        f"        base{u} = i{u} * {ROWS}",
        "        with pl.at(level=pl.Level.CORE_GROUP):",
        f"            band{u} = pl.load(x, [0, 0], [{ROWS}, {COLS}])",
        f"            cur{u} = pl.load(acc, [0, 0], [{ROWS}, {COLS}])",
        f"            acc = pl.store(pl.add(cur{u}, pl.mul(band{u}, 2.0)), [0, 0], acc)",
        f"        acc = self.kern_{k}(x, acc)",
        "with pl.at(level=pl.Level.CORE_GROUP):",
        f"    t{u} = pl.load(acc, [0, 0], [{ROWS}, {COLS}])",
        f"    acc = pl.store(pl.sqrt(t{u}), [0, 0], acc)",
        "with pl.cluster():",
        f"    acc = self.kern_{k}(x, acc)",
        f"for b{u} in pl.spmd(2):",
        f"    v{u} = pl.load(x, [0, 0], [{ROWS}, {COLS}])",
        f"    acc = pl.store(v{u}, [0, 0], acc)",
        f"for j{u}, (c{u},) in pl.range(n, init_values=(acc,)):",
        f"    d{u} = self.kern_{k}(x, c{u})",
        f"    e{u} = pl.yield_(d{u})",
        "if n > 2:",
        f"    acc = self.kern_{k}(x, e{u})",
        "else:",
        f"    acc = self.help_{k}(x, e{u})",
    ]
    return [indent + line for line in lines]


def _orchestration(k: int) -> list[str]:
    return [
        "    @pl.function(type=pl.FunctionType.Orchestration)",
        f"    def main_{k}(self, x: {TENSOR}, acc: pl.InOut[{TENSOR}], n: {INDEX}) -> {TENSOR}:",
        *_unit_body(k, "        "),
        "        return acc",
    ]


def _host(k: int) -> list[str]:
    """An Opaque function with nested Hierarchy scopes (OutlineHierarchyScopes) and, beside
    them (a graph inside a pl.at is out of scope), a graph region."""
    return [
        "    @pl.function",
        f"    def host_{k}(self, x: {TENSOR}, acc: pl.InOut[{TENSOR}]) -> {TENSOR}:",
        "        with pl.at(level=pl.Level.HOST, role=pl.Role.Orchestrator):",
        "            y = pl.add(x, x)",
        "            with pl.at(level=pl.Level.CHIP):",
        "                with pl.at(level=pl.Level.CORE_GROUP):",
        f"                    v = pl.load(y, [0, 0], [{ROWS}, {COLS}])",
        f"                    w = pl.load(acc, [0, 0], [{ROWS}, {COLS}])",
        "                    acc = pl.store(pl.add(v, w), [0, 0], acc)",
        f'        with pl.graph("hostg_{k}"):',
        "            with pl.at(level=pl.Level.CORE_GROUP):",
        f"                g = pl.load(acc, [0, 0], [{ROWS}, {COLS}])",
        "                acc = pl.store(pl.exp(g), [0, 0], acc)",
        "        return acc",
    ]


UNIT_FUNCTIONS = 4  # kern, help, main, host


def many_functions_source(functions: int) -> str:
    """A program of ``functions`` functions (rounded up to whole units of 4)."""
    units = max(1, -(-functions // UNIT_FUNCTIONS))
    lines: list[str] = []
    for k in range(units):
        for part in (_kernel(k), _helper(k), _orchestration(k), _host(k)):
            lines.extend(part)
            lines.append("")
    return HEADER + "\n".join(lines) + "\n"


def long_function_source(units: int) -> str:
    """One orchestration function holding ``units`` copies of the unit body."""
    lines = [*_kernel(0), "", *_helper(0), "",
             "    @pl.function(type=pl.FunctionType.Orchestration)",
             f"    def main(self, x: {TENSOR}, acc: pl.InOut[{TENSOR}], n: {INDEX}) -> {TENSOR}:"]
    for unit in range(units):
        lines.extend(_unit_body(0, "        ", f"_{unit}"))
    lines.append("        return acc")
    return HEADER + "\n".join(lines) + "\n"


def flat_function_source(statements: int) -> str:
    """One orchestration function of ``statements`` top-level statements: kernel calls,
    with a kernel region, a graph region and a scalar update in every ten."""
    lines = [*_kernel(0), "",
             "    @pl.function(type=pl.FunctionType.Orchestration)",
             f"    def main(self, x: {TENSOR}, acc: pl.InOut[{TENSOR}], n: {INDEX}) -> {TENSOR}:",
             "        k = n"]
    for i in range(statements):
        step = i % 10
        if step == 3:
            lines += ["        with pl.at(level=pl.Level.CORE_GROUP):",
                      f"            t{i} = pl.load(acc, [0, 0], [{ROWS}, {COLS}])",
                      f"            acc = pl.store(pl.exp(t{i}), [0, 0], acc)"]
        elif step == 6:
            lines += [f'        with pl.graph("g{i}"):', "            acc = self.kern_0(x, acc)"]
        elif step == 8:
            lines.append("        k = k + 1")
        else:
            lines.append("        acc = self.kern_0(x, acc)")
    lines.append("        return acc")
    return HEADER + "\n".join(lines) + "\n"


def _nest(depth: int, suffix: str = "") -> list[str]:
    """``depth`` nested blocks under ``main``'s body, a kernel call at the bottom.

    Ifs do not count towards the 20-block limit, so most levels are ifs; every
    fifth level is a ``pl.range`` loop or a region (``pl.at(HOST)``, ``pl.scope``),
    and a kernel call sits at the bottom (a ``pl.graph`` region could not: it may not
    sit inside a ``pl.at``).
    """
    if depth + 2 > PYTHON_MAX_DEPTH:  # main's body is two levels in (class, def)
        raise ValueError(f"nesting depth {depth} exceeds what CPython can parse")
    lines = []
    blocks = 0
    for level in range(depth):
        indent = "    " * (level + 2)
        if level % 5 == 2 and blocks < PYTHON_MAX_BLOCKS - 2:
            blocks += 1
            kind = blocks % 3
            if kind == 0:
                lines.append(f"{indent}for i{suffix}{level} in pl.range(2):")
            elif kind == 1:
                lines.append(f"{indent}with pl.at(level=pl.Level.HOST):")
            else:
                lines.append(f"{indent}with pl.scope():")
        else:
            lines.append(f"{indent}if k > {level}:")
        lines.append(f"{indent}    k = k + 1")
    indent = "    " * (depth + 2)
    lines += [f"{indent}acc = self.kern_0(x, acc)"]
    return lines


def _nests_program(nests: list[list[str]]) -> str:
    # auto_scope=False: the nests hold hand-placed pl.scope() regions.
    lines = [*_kernel(0), "",
             "    @pl.function(auto_scope=False)",
             f"    def main(self, x: {TENSOR}, acc: pl.InOut[{TENSOR}], n: {INDEX}) -> {TENSOR}:",
             "        k = n"]
    for nest in nests:
        lines += nest
    lines.append("        return acc")
    return HEADER + "\n".join(lines) + "\n"


def nested_source(depth: int) -> str:
    """``depth`` nested blocks, as deep as CPython accepts (``depth`` <= 97): mostly
    ifs, a loop or region every fifth level, a kernel call at the bottom (see
    ``_nest``)."""
    return _nests_program([_nest(depth)])


DEEPEST_NEST = PYTHON_MAX_DEPTH - 2  # 97: main's body already sits two levels in


def deep_nests_source(copies: int, depth: int = DEEPEST_NEST) -> str:
    """One Opaque function holding ``copies`` nests, each ``depth`` blocks deep (the
    shape of ``nested_source``): size grows by count while every nest stays at the
    deepest level CPython parses."""
    return _nests_program([_nest(depth, f"{copy}_") for copy in range(copies)])


# -- IR built with constructors: nesting beyond what source can express -------------------

_F32 = ir.TensorType([ROWS, COLS], D.FP32)
_INDEX_T = ir.ScalarType(D.INDEX)


def deep_regions_ir(depth: int) -> ir.Program:
    """A program whose ``main`` nests ``depth`` levels cycling loop / if / region.

    Regions rotate through ``pl.at(HOST)`` (Hierarchy), ``pl.scope`` (Runtime) and
    loops; a graph region launching one InCore scope sits at the bottom.  ``main`` is
    Opaque, so every region kind is outlined by the pipeline.
    """
    x = ir.Var("x", _F32)
    acc = ir.Var("acc", _F32)
    n = ir.Var("n", _INDEX_T)
    k = ir.Var("k", _INDEX_T)
    zero = ir.ConstInt(0, D.INDEX)
    tile_t = ir.TileType([ROWS, COLS], D.FP32, memory_space=ir.MemorySpace.Vec)
    t, a, s = (ir.Var(name, tile_t) for name in ("t", "a", "s"))
    # The kernel reads ``acc`` before storing into it: a Graph function may not take
    # a write-only tensor (LegalizeGraphBoundary).
    kernel = ir.InCoreScopeStmt(body=ir.SeqStmts.flatten([
        ir.AssignStmt(t, ir.create_op_call("tile.load", [x, [zero, zero], [ROWS, COLS]])),
        ir.AssignStmt(a, ir.create_op_call("tile.load", [acc, [zero, zero], [ROWS, COLS]])),
        ir.AssignStmt(s, ir.create_op_call("tile.add", [t, a])),
        ir.AssignStmt(acc, ir.create_op_call("tile.store", [s, [zero, zero], acc]))]))
    body: ir.Stmt = ir.GraphScopeStmt("bottom", body=kernel)
    cond = ir.Gt(n, ir.ConstInt(1, D.INDEX), D.BOOL)
    for level in range(depth):
        bump = ir.AssignStmt(k, ir.Add(k, ir.ConstInt(1, D.INDEX), D.INDEX))
        inner = ir.SeqStmts.flatten([bump, body])
        kind = level % 4
        if kind == 0:
            body = ir.ForStmt(ir.Var(f"i{level}", _INDEX_T), 0, 2, 1, [], inner, [])
        elif kind == 1:
            body = ir.IfStmt(cond, inner, None, [])
        elif kind == 2:
            body = ir.HierarchyScopeStmt(ir.Level.HOST, body=inner)
        else:
            body = ir.RuntimeScopeStmt(body=inner)
    stmts = [ir.AssignStmt(k, n), body, ir.ReturnStmt([acc])]
    main = ir.Function("main", [x, (acc, ir.ParamDirection.InOut), n], [_F32],
                       ir.SeqStmts.flatten(stmts))
    return ir.Program([main], "Deep")


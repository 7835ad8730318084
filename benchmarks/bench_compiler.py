"""The whole compiler, end to end: parse, every pass, the pipeline, print, reparse.

    python benchmarks/bench_compiler.py [--quick] [--markdown] [--profile SHAPE]

For each input shape (``_gen.py``) the program is built at size N and 2N and every
stage is timed (best of k, garbage collector paused, the two sizes measured
alternately so machine drift hits both alike).  Times are the process's CPU time
(``time.process_time``): on a shared 2-core machine wall time also counts the
moments another job holds the core, which is noise, not pypto's work.  Reported per stage:

* ``us/line``  -- time per source line (for IR-built shapes, per printed line);
* ``x ast``    -- time over CPython's ``ast.parse`` of the same source;
* ``2N/N``     -- the doubling ratio (2.0 is linear; 4.0 would be quadratic);
* ``B/node``   -- peak memory during the stage (``tracemalloc``) per IR node.

Targets (the exit status is 1 when one is missed), issue 19's: end to end (parse +
pipeline + print) <= 4x ``ast.parse`` of the same text; the whole pipeline <= 1.5x
``ast.parse``; and, kept from before, parse <= 8x ``ast.parse``, print <= 0.5x parse,
every doubling ratio <= 2.2 (``bench_scale.py`` judges doublings up to 80k
statements).  The ratios are checked on a paired measurement at 2N (each stage timed
in alternation with its reference), printed under each table; the tables' ``x ast``
and ``x parse`` columns divide times taken at different moments of the run.  Doubling
ratios of stages under a millisecond at 2N are shown but not judged (noise).
The pipeline runs as users run it, ``PassManager.run_passes`` at the default
verification level (BASIC: each verified property is checked once); the single
passes run without verification, each on the previous pass's output.

Shapes: ``functions`` (N functions: kernels, Inline helpers, orchestration units
with every region kind, Opaque hosts with nested ``pl.at``), ``long`` (one function
of N units), ``nested`` (blocks nested as deep as CPython parses, <= 95 levels),
``deep-ir`` (regions and loops built with ``ir`` constructors, up to pypto's nesting
limit of 100; no source form exists, so it has no parse stage and no reparse).
"""

from __future__ import annotations

import argparse
import ast
import cProfile
import gc
import io
import os
import pstats
import sys
import tracemalloc
from dataclasses import dataclass, field
from typing import Callable

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))

import _gen  # noqa: E402
from _timing import best_pair  # noqa: E402
import pypto.language as pl  # noqa: E402
from pypto import ir, passes  # noqa: E402
from pypto.ir.walk import iter_exprs, iter_stmts, stmt_exprs  # noqa: E402

PARSE_TARGET = 8.0        # parse / ast.parse
PIPELINE_TARGET = 1.5     # pipeline / ast.parse (issue 19; was pipeline / parse)
END_TO_END_TARGET = 4.0   # (parse + pipeline + print) / ast.parse (issue 19)
PRINT_TARGET = 0.5        # print / parse
DOUBLING_TARGET = 2.2     # t(2N) / t(N)
# A stage that takes under a millisecond at 2N (a pass with nothing to do on a shape)
# has a doubling ratio made of timer and scheduler noise: shown, not judged.
DOUBLING_MIN_SECONDS = 0.001


# -- inputs ---------------------------------------------------------------------------------

@dataclass
class Shape:
    name: str
    size: int                                   # N (the run also builds 2N)
    source: Callable[[int], str] | None = None  # DSL text of size N
    build_ir: Callable[[int], ir.Program] | None = None  # when no source form exists


SHAPES = [
    Shape("functions", 200, source=_gen.many_functions_source),
    Shape("long", 100, source=_gen.long_function_source),
    Shape("nested", 45, source=_gen.nested_source),
    Shape("deep-ir", 50, build_ir=_gen.deep_regions_ir),
]
QUICK_SIZES = {"functions": 60, "long": 30, "nested": 45, "deep-ir": 25}


@dataclass
class Input:
    """One size of one shape, with every stage's input precomputed."""

    source: str | None
    program: ir.Program
    pass_inputs: list[ir.Program] = field(default_factory=list)
    compiled: ir.Program | None = None
    printed: str = ""

    @property
    def lines(self) -> int:
        text = self.source if self.source is not None else self.printed
        return text.count("\n") + 1


def make_input(shape: Shape, size: int) -> Input:
    if shape.source is not None:
        source = shape.source(size)
        program = pl.parse(source)
    else:
        source, program = None, shape.build_ir(size)
    data = Input(source, program)
    current = program
    with passes.PassContext([], verification_level=passes.VerificationLevel.NONE):
        for p in _pipeline().passes:
            data.pass_inputs.append(current)
            current = p(current)
    data.compiled = _pipeline().run_passes(program)
    data.printed = ir.python_print(data.compiled)
    return data


def _pipeline() -> ir.PassManager:
    return ir.PassManager.get_strategy(ir.OptimizationStrategy.Default)


def count_nodes(program: ir.Program) -> int:
    """IR nodes of ``program``: functions, params, statements, expressions (iterative)."""
    total = 0
    for func in program._functions.values():
        total += 1 + len(func.params)
        for stmt in iter_stmts(func.body):
            total += 1
            for root in stmt_exprs(stmt):
                total += sum(1 for _ in iter_exprs(root))
    return total


# -- stages ---------------------------------------------------------------------------------

@dataclass
class Stage:
    name: str
    run: Callable[[Input], object]      # the work measured
    result: Callable[[Input], ir.Program | None]  # the IR whose nodes B/node divides by


def _run_pass(index: int) -> Callable[[Input], object]:
    def run(data: Input) -> object:
        with passes.PassContext([], verification_level=passes.VerificationLevel.NONE):
            return _pipeline().passes[index](data.pass_inputs[index])
    return run


def stages(has_source: bool) -> list[Stage]:
    out: list[Stage] = []
    if has_source:
        out.append(Stage("ast.parse", lambda d: ast.parse(d.source), lambda d: None))
        out.append(Stage("parse", lambda d: pl.parse(d.source), lambda d: d.program))
    for index, p in enumerate(_pipeline().passes):
        out.append(Stage(p.get_name(), _run_pass(index), lambda d: d.compiled))
    out.append(Stage("pipeline", lambda d: _pipeline().run_passes(d.program),
                     lambda d: d.compiled))
    out.append(Stage("print", lambda d: ir.python_print(d.compiled), lambda d: d.compiled))
    if has_source:
        out.append(Stage("reparse", lambda d: pl.parse(d.printed), lambda d: d.compiled))
    return out


# -- measurement ----------------------------------------------------------------------------

def peak_bytes(run: Callable[[], object]) -> int:
    """Peak memory allocated while ``run`` executes, beyond what was live before."""
    gc.collect()
    tracemalloc.start()
    try:
        before = tracemalloc.get_traced_memory()[0]
        tracemalloc.reset_peak()
        result = run()
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    del result
    return max(0, peak - before)


@dataclass
class Row:
    stage: str
    t_small: float
    t_large: float
    per_line_us: float
    vs_ast: float | None
    bytes_per_node: float | None

    @property
    def doubling(self) -> float:
        return self.t_large / self.t_small


def measure_shape(shape: Shape, size: int, repeats: int) -> tuple[list[Row], Input, Input]:
    small, large = make_input(shape, size), make_input(shape, 2 * size)
    rows: list[Row] = []
    ast_time: float | None = None
    for stage in stages(shape.source is not None):
        t_small, t_large = best_pair(lambda: stage.run(small), lambda: stage.run(large),
                                     repeats)
        if stage.name == "ast.parse":
            ast_time = t_large
        result = stage.result(large)
        per_node = None
        if result is not None:
            per_node = peak_bytes(lambda: stage.run(large)) / count_nodes(result)
        rows.append(Row(stage.name, t_small, t_large, t_large / large.lines * 1e6,
                        t_large / ast_time if ast_time else None, per_node))
    return rows, small, large


def paired_ratios(large: Input, repeats: int) -> dict[str, float]:
    """The target ratios at 2N, each stage timed in alternation with its
    reference: stages measured minutes apart would also measure the machine's drift
    (on a shared 2-core machine a whole run can be 15% slower than the next)."""
    parse = lambda: pl.parse(large.source)  # noqa: E731
    reference = lambda: ast.parse(large.source)  # noqa: E731

    def end_to_end() -> None:
        ir.python_print(_pipeline().run_passes(pl.parse(large.source)))

    pairs = {"parse": (reference, parse),
             "pipeline": (reference, lambda: _pipeline().run_passes(large.program)),
             "end to end": (reference, end_to_end),
             "print": (parse, lambda: ir.python_print(large.compiled))}
    ratios = {}
    for name, (reference, stage) in pairs.items():
        t_reference, t_stage = best_pair(reference, stage, repeats)
        ratios[name] = t_stage / t_reference
    return ratios


# -- report ---------------------------------------------------------------------------------

def check_targets(shape: str, rows: list[Row], paired: dict[str, float]) -> list[str]:
    """Human-readable descriptions of every missed target (ratios from ``paired``)."""
    missed = [f"{shape}/{row.stage}: doubling {row.doubling:.2f} > {DOUBLING_TARGET}"
              for row in rows if row.stage != "ast.parse" and row.doubling > DOUBLING_TARGET
              and row.t_large >= DOUBLING_MIN_SECONDS]
    for stage, limit, reference in (("parse", PARSE_TARGET, "ast.parse"),
                                    ("pipeline", PIPELINE_TARGET, "ast.parse"),
                                    ("end to end", END_TO_END_TARGET, "ast.parse"),
                                    ("print", PRINT_TARGET, "parse")):
        if stage in paired and paired[stage] > limit:
            missed.append(f"{shape}/{stage}: {paired[stage]:.2f}x {reference} > {limit}")
    return missed


def print_paired(paired: dict[str, float], repeats: int) -> None:
    if paired:
        print(f"\nTarget ratios at 2N, each stage timed in alternation with its reference "
              f"(best of {repeats}): parse {paired['parse']:.2f}x ast.parse, pipeline "
              f"{paired['pipeline']:.2f}x ast.parse, end to end {paired['end to end']:.2f}x "
              f"ast.parse, print {paired['print']:.2f}x parse.")


def print_table(shape: Shape, size: int, rows: list[Row], small: Input, large: Input,
                markdown: bool) -> None:
    parse = next((row for row in rows if row.stage == "parse"), None)
    title = (f"{shape.name}: N = {size} ({small.lines} / {large.lines} lines, "
             f"{count_nodes(small.program)} / {count_nodes(large.program)} IR nodes in, "
             f"{len(large.compiled._functions)} functions out at 2N)")
    header = ["stage", "t(N) ms", "t(2N) ms", "us/line", "x ast", "x parse", "2N/N", "B/node"]
    cells = []
    for row in rows:
        cells.append([
            row.stage, f"{row.t_small * 1e3:.2f}", f"{row.t_large * 1e3:.2f}",
            f"{row.per_line_us:.1f}",
            "-" if row.vs_ast is None else f"{row.vs_ast:.2f}",
            "-" if parse is None else f"{row.t_large / parse.t_large:.2f}",
            "-" if row.stage == "ast.parse" else f"{row.doubling:.2f}",
            "-" if row.bytes_per_node is None else f"{row.bytes_per_node:.0f}",
        ])
    render_table(title, header, cells, markdown)


def render_table(title: str, header: list[str], cells: list[list[str]],
                 markdown: bool) -> None:
    """A titled table: Markdown, or aligned columns (first left, the rest right)."""
    if markdown:
        print(f"\n**{title}**\n")
        print("| " + " | ".join(header) + " |")
        print("|" + "|".join(["---"] + ["---:"] * (len(header) - 1)) + "|")
        for line in cells:
            print("| " + " | ".join(line) + " |")
        return
    print(f"\n{title}")
    widths = [max(len(header[i]), *(len(c[i]) for c in cells)) for i in range(len(header))]
    print("  ".join(h.ljust(w) if i == 0 else h.rjust(w)
                    for i, (h, w) in enumerate(zip(header, widths))))
    for line in cells:
        print("  ".join(c.ljust(w) if i == 0 else c.rjust(w)
                        for i, (c, w) in enumerate(zip(line, widths))))


def profile(shape: Shape, size: int, limit: int = 30) -> None:
    """cProfile of parse, the pipeline and print for one shape (where the time goes)."""
    data = make_input(shape, size)
    work: list[tuple[str, Callable[[], object]]] = []
    if data.source is not None:
        work.append(("parse", lambda: pl.parse(data.source)))
    work.append(("pipeline", lambda: _pipeline().run_passes(data.program)))
    work.append(("print", lambda: ir.python_print(data.compiled)))
    for name, run in work:
        profiler = cProfile.Profile()
        gc.collect()
        gc.disable()  # as in the timed runs: a collection would be billed to whichever call triggered it
        try:
            profiler.runcall(run)
        finally:
            gc.enable()
        out = io.StringIO()
        stats = pstats.Stats(profiler, stream=out)
        stats.sort_stats("tottime").print_stats(limit)
        print(f"\n===== {shape.name} N={size}: {name} (sorted by own time) =====")
        print(out.getvalue())


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="small sizes, fewer repeats")
    parser.add_argument("--markdown", action="store_true", help="Markdown tables")
    parser.add_argument("--profile", metavar="SHAPE", choices=[s.name for s in SHAPES],
                        help="print a cProfile of one shape instead of the tables")
    parser.add_argument("--shape", action="append", choices=[s.name for s in SHAPES],
                        help="measure only this shape (repeatable)")
    args = parser.parse_args(argv)
    chosen = [s for s in SHAPES if not args.shape or s.name in args.shape]
    repeats = 3 if args.quick else 5
    if args.profile:
        shape = next(s for s in SHAPES if s.name == args.profile)
        profile(shape, QUICK_SIZES[shape.name] if args.quick else shape.size)
        return 0
    print(f"pypto compiler benchmark; Python {sys.version.split()[0]}; best of {repeats}, "
          f"gc paused; pipeline verification: "
          f"{passes.get_default_verification_level().name}")
    missed: list[str] = []
    for shape in chosen:
        size = QUICK_SIZES[shape.name] if args.quick else shape.size
        rows, small, large = measure_shape(shape, size, repeats)
        paired = paired_ratios(large, repeats) if large.source is not None else {}
        print_table(shape, size, rows, small, large, args.markdown)
        print_paired(paired, repeats)
        missed += check_targets(shape.name, rows, paired)
    print()
    if missed:
        print("targets missed:\n  " + "\n  ".join(missed))
        return 1
    print(f"all targets met (parse <= {PARSE_TARGET}x ast.parse, pipeline <= "
          f"{PIPELINE_TARGET}x ast.parse, end to end <= {END_TO_END_TARGET}x ast.parse, "
          f"print <= {PRINT_TARGET}x parse, doubling <= {DOUBLING_TARGET})")
    return 0


if __name__ == "__main__":
    sys.exit(main())

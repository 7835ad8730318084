"""Scale: every stage from 5k to 80k statements, judged per doubling (issue 19).

    python benchmarks/bench_scale.py [--sizes 5000,10000,...] [--functions 625,...]
                                     [--shape NAME] [--repeats K] [--quick]
                                     [--markdown] [--no-rss]

Shapes (generators in ``_gen.py``), each built at every size in statements (the
count of Python statements in the generated source):

* ``flat``      -- one function of top-level statements (kernel calls, a kernel and
  a graph region in every ten);
* ``functions`` -- many functions, about twelve statements each; its sizes are
  counted in functions (``--functions``, default 625 to 10,000: 7.5k to 120k
  statements, so the doublings span 5k-80k statements and reach 10,000 functions);
* ``nested``    -- one function of nests as deep as CPython parses (97 blocks each,
  the innermost statement 99 indentation levels in);
* ``regions``   -- one function with a region every five lines, of every kind.

``--quick`` measures 5k-20k statements (625-2,500 functions), best of 2.

Stages: ``ast.parse`` (the reference), ``parse``, each pass of the Default pipeline
alone (no verification, on the previous pass's output), ``pipeline`` (as users run
it, BASIC verification), ``print``, ``ast.parse*`` (CPython on the printed text) and
``reparse`` (``pl.parse`` of the printed text).

Times are CPU seconds (``time.process_time``), best of K, garbage collector paused.
Each doubling N -> 2N is measured as a pair: the two sizes alternate K times, so a
slow spell of the shared machine hits both.  A ratio above 2.2 fails (exit status
1); stages under 20 ms at 2N are shown but not judged (timer noise).  The ratio
lines below each table compare, at every size, end to end (parse + pipeline +
print) and the pipeline with ``ast.parse`` of the same text (targets 4x and 1.5x,
reported, not judged: see docs/performance.md).  Peak RSS (the kernel's ``VmHWM``)
is measured in a fresh process per shape at 50k statements: compiling (parse,
pipeline, print), then reparsing the printed text; target 1 GB.
"""

from __future__ import annotations

import argparse
import ast
import os
import resource
import subprocess
import sys
from dataclasses import dataclass
from typing import Callable

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))

import _gen  # noqa: E402
from _timing import best_of, best_pair  # noqa: E402
from bench_compiler import Input, Shape, make_input, render_table, stages  # noqa: E402
import pypto.language as pl  # noqa: E402
from pypto import ir  # noqa: E402

SIZES = (5_000, 10_000, 20_000, 40_000, 80_000)
FUNCTION_COUNTS = (625, 1_250, 2_500, 5_000, 10_000)
QUICK_SIZES = SIZES[:3]
QUICK_FUNCTION_COUNTS = FUNCTION_COUNTS[:3]
QUICK_REPEATS = 2
DOUBLING_TARGET = 2.2
JUDGE_MIN_SECONDS = 0.02
END_TO_END_TARGET = 4.0   # (parse + pipeline + print) / ast.parse
PIPELINE_TARGET = 1.5     # pipeline / ast.parse
RSS_STATEMENTS = 50_000
RSS_TARGET_MB = 1024

SHAPES = [
    Shape("flat", 0, source=_gen.flat_function_source),
    Shape("functions", 0, source=_gen.many_functions_source),
    Shape("nested", 0, source=_gen.deep_nests_source),
    Shape("regions", 0, source=_gen.long_function_source),
]
_PROBE = {"flat": 400, "functions": 40, "nested": 4, "regions": 20}


def count_statements(source: str) -> int:
    return sum(isinstance(node, ast.stmt) for node in ast.walk(ast.parse(source)))


def argument_for(shape: Shape, size: int) -> int:
    """The generator argument for ``size``: a function count for ``functions``, else
    the argument giving about ``size`` statements (the generators are linear in it)."""
    if shape.name == "functions":
        return size
    return statements_argument(shape, size)


def statements_argument(shape: Shape, statements: int) -> int:
    per_unit = count_statements(shape.source(_PROBE[shape.name])) / _PROBE[shape.name]
    return max(1, round(statements / per_unit))


def scale_stages() -> list:
    """bench_compiler's stages plus CPython on the printed text (reparse's reference)."""
    out = stages(True)
    at = next(i for i, s in enumerate(out) if s.name == "reparse")
    reference = type(out[0])("ast.parse*", lambda d: ast.parse(d.printed), lambda d: None)
    return out[:at] + [reference] + out[at:]


# -- measurement ----------------------------------------------------------------------------

@dataclass
class Table:
    sizes: list[int]
    lines: dict[int, int]
    statements: dict[int, int]
    best: dict[tuple[str, int], float]          # (stage, size) -> seconds
    doubling: dict[tuple[str, int], float]      # (stage, N) -> t(2N)/t(N), paired

    def time(self, stage: str, size: int) -> float:
        return self.best[(stage, size)]


def measure(shape: Shape, sizes: list[int], repeats: int,
            log: Callable[[str], None]) -> Table:
    table = Table(sizes, {}, {}, {}, {})
    todo = scale_stages()
    previous: Input | None = None
    previous_size = 0
    for size in sizes:
        log(f"  building {shape.name} at {size} {unit(shape)}")
        current = make_input(shape, argument_for(shape, size))
        table.lines[size] = current.lines
        table.statements[size] = count_statements(current.source)
        for stage in todo:
            key = (stage.name, size)
            if previous is None:
                table.best[key] = best_of(lambda: stage.run(current), repeats)
                continue
            small_best, large_best = best_pair(lambda: stage.run(previous),
                                               lambda: stage.run(current), repeats)
            small = (stage.name, previous_size)
            table.best[key] = large_best
            table.best[small] = min(table.best[small], small_best)
            table.doubling[small] = large_best / small_best
            # progress on stderr: a run cut short still leaves its doublings
            log(f"    {stage.name}: {previous_size} {small_best:.3f} s -> {size} "
                f"{large_best:.3f} s x{large_best / small_best:.2f}")
        previous, previous_size = current, size
    return table


def judged(table: Table) -> list[tuple[str, int, float]]:
    """(stage, N, ratio) of every doubling the target applies to: pypto's stages (not
    CPython's), at least ``JUDGE_MIN_SECONDS`` at 2N."""
    return [(stage, size, ratio) for (stage, size), ratio in sorted(table.doubling.items())
            if not stage.startswith("ast.parse")
            and table.time(stage, 2 * size) >= JUDGE_MIN_SECONDS]


def misses(shape: str, table: Table) -> list[str]:
    return [f"{shape}/{stage}: {size} -> {2 * size} x{ratio:.2f} > {DOUBLING_TARGET}"
            for stage, size, ratio in judged(table) if ratio > DOUBLING_TARGET]


def summary_line(shape: str, table: Table) -> str:
    """How many doublings were judged, how many passed, and the worst of them."""
    ratios = judged(table)
    if not ratios:
        return f"  {shape}: no stage long enough to judge"
    stage, size, worst = max(ratios, key=lambda item: item[2])
    within = sum(ratio <= DOUBLING_TARGET for _, _, ratio in ratios)
    return (f"  {shape}: {within} of {len(ratios)} judged doublings <= {DOUBLING_TARGET}; "
            f"worst x{worst:.2f} ({stage}, {_size_label(size)} -> {_size_label(2 * size)})")


# -- peak memory (a fresh process, so its high-water mark is this run's alone) -------------

def peak_rss_kb() -> int:
    """This process's peak resident set in kB.

    Linux keeps ``ru_maxrss`` across ``execve``, so a child started from a big parent (this
    benchmark, after measuring 80k statements) reports the parent's size; the kernel's
    ``VmHWM`` belongs to the new address space and starts afresh.  Elsewhere ``ru_maxrss``
    is all there is (bytes on macOS)."""
    try:
        with open("/proc/self/status") as status:
            for line in status:
                if line.startswith("VmHWM:"):
                    return int(line.split()[1])
    except OSError:
        pass
    peak = peak_rss_kb()
    return peak // 1024 if sys.platform == "darwin" else peak


def rss_child(shape_name: str, statements: int) -> None:
    """Prints MB after imports, the peak of compiling (parse, pipeline, print) and the
    peak once the printed text is parsed again (only the text kept alive)."""
    shape = next(s for s in SHAPES if s.name == shape_name)
    base = peak_rss_kb()
    source = shape.source(statements_argument(shape, statements))
    compiled = ir.PassManager.get_strategy(ir.OptimizationStrategy.Default) \
        .run_passes(pl.parse(source))
    text = ir.python_print(compiled)
    compiling = peak_rss_kb()
    del compiled, source
    pl.parse(text)
    peak = peak_rss_kb()
    print(f"{base / 1024:.0f} {compiling / 1024:.0f} {peak / 1024:.0f}")


def peak_rss_mb(shape: Shape, statements: int) -> tuple[float, float, float]:
    """(MB after imports, peak MB compiling, peak MB after the reparse)."""
    out = subprocess.run([sys.executable, os.path.abspath(__file__), "--rss-child",
                          shape.name, str(statements)], capture_output=True, text=True,
                         check=True).stdout.split()
    return float(out[0]), float(out[1]), float(out[2])


# -- report ---------------------------------------------------------------------------------

def unit(shape: Shape) -> str:
    return "functions" if shape.name == "functions" else "statements"


def _size_label(size: int) -> str:
    return f"{size // 1000}k" if size % 1000 == 0 else str(size)


def print_table(shape: Shape, table: Table, markdown: bool) -> None:
    sizes = table.sizes
    header = (["stage"] + [f"{_size_label(s)} s" for s in sizes]
              + [f"x{_size_label(2 * s)}/{_size_label(s)}" for s in sizes[:-1]])
    rows = []
    for stage in scale_stages():
        cells = [stage.name] + [f"{table.time(stage.name, s):.3f}" for s in sizes]
        for s in sizes[:-1]:
            ratio = table.doubling[(stage.name, s)]
            judged = (not stage.name.startswith("ast.parse")
                      and table.time(stage.name, 2 * s) >= JUDGE_MIN_SECONDS)
            mark = "" if judged or stage.name.startswith("ast.parse") else "~"
            flag = " !" if judged and ratio > DOUBLING_TARGET else ""
            cells.append(f"{mark}{ratio:.2f}{flag}")
        rows.append(cells)
    statements = ", ".join(f"{table.statements[s]}" for s in sizes)
    lines = ", ".join(f"{table.lines[s]}" for s in sizes)
    title = (f"{shape.name} (sizes in {unit(shape)}): statements {statements}; "
             f"source lines {lines}")
    render_table(title, header, rows, markdown)
    e2e = [(table.time("parse", s) + table.time("pipeline", s) + table.time("print", s))
           / table.time("ast.parse", s) for s in sizes]
    pipe = [table.time("pipeline", s) / table.time("ast.parse", s) for s in sizes]
    again = [table.time("reparse", s) / table.time("ast.parse*", s) for s in sizes]
    print(f"\nx ast.parse by size: end to end {_ratios(e2e)} (target {END_TO_END_TARGET}); "
          f"pipeline {_ratios(pipe)} (target {PIPELINE_TARGET}); reparse / ast.parse* "
          f"{_ratios(again)}")
    print("(~ ratio not judged: stage under 20 ms; ! above the doubling target)")


def _doubling_sizes(parser: argparse.ArgumentParser, option: str, text: str | None,
                    default: tuple[int, ...]) -> list[int]:
    sizes = list(default) if text is None else [int(s) for s in text.split(",")]
    if any(b != 2 * a for a, b in zip(sizes, sizes[1:])):
        parser.error(f"{option}: each size must double the previous")
    return sizes


def _ratios(values: list[float]) -> str:
    return " / ".join(f"{v:.2f}" for v in values)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", help="statement counts, each double the previous "
                        f"(default {','.join(map(str, SIZES))})")
    parser.add_argument("--functions", help="function counts for the functions shape, each "
                        f"double the previous (default {','.join(map(str, FUNCTION_COUNTS))})")
    parser.add_argument("--quick", action="store_true", help="5k-20k statements, best of "
                        f"{QUICK_REPEATS}, unless --sizes, --functions or --repeats say otherwise")
    parser.add_argument("--shape", action="append", choices=[s.name for s in SHAPES])
    parser.add_argument("--repeats", type=int)
    parser.add_argument("--markdown", action="store_true")
    parser.add_argument("--no-rss", action="store_true", help="skip the peak-RSS runs")
    parser.add_argument("--rss-child", nargs=2, metavar=("SHAPE", "N"), help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.rss_child:
        rss_child(args.rss_child[0], int(args.rss_child[1]))
        return 0
    sizes = _doubling_sizes(parser, "--sizes", args.sizes,
                            QUICK_SIZES if args.quick else SIZES)
    counts = _doubling_sizes(parser, "--functions", args.functions,
                             QUICK_FUNCTION_COUNTS if args.quick else FUNCTION_COUNTS)
    if args.repeats is None:
        args.repeats = QUICK_REPEATS if args.quick else 3
    chosen = [s for s in SHAPES if not args.shape or s.name in args.shape]
    print(f"pypto scale benchmark; Python {sys.version.split()[0]}; CPU time, best of "
          f"{args.repeats}, gc paused, sizes in statements; each doubling timed as a pair")
    missed: list[str] = []
    summary: list[str] = []
    log = lambda text: print(text, file=sys.stderr, flush=True)  # noqa: E731
    for shape in chosen:
        table = measure(shape, counts if shape.name == "functions" else sizes,
                        args.repeats, log)
        print_table(shape, table, args.markdown)
        missed += misses(shape.name, table)
        summary.append(summary_line(shape.name, table))
        sys.stdout.flush()
    if not args.no_rss:
        print(f"\npeak RSS at {RSS_STATEMENTS} statements (parse, pipeline, print, reparse; "
              f"target {RSS_TARGET_MB} MB):")
        for shape in chosen:
            base, compiling, peak = peak_rss_mb(shape, RSS_STATEMENTS)
            print(f"  {shape.name}: {peak:.0f} MB (compiling {compiling:.0f} MB, after "
                  f"imports {base:.0f} MB)")
            if peak > RSS_TARGET_MB:
                missed.append(f"{shape.name}: peak RSS {peak:.0f} MB > {RSS_TARGET_MB} MB")
    print("\ndoublings judged:\n" + "\n".join(summary))
    print()
    if missed:
        print("targets missed:\n  " + "\n  ".join(missed))
        return 1
    print(f"every judged doubling <= {DOUBLING_TARGET}")
    return 0


if __name__ == "__main__":
    sys.exit(main())

"""Python calls per stage, per doubling: a clock-free linearity check (issue 19).

    python benchmarks/bench_calls.py [--shape NAME] [--sizes ...] [--functions ...]

The same shapes, sizes and stages as ``bench_scale.py``, but each stage is counted,
not timed: ``cProfile``'s count of Python and built-in calls while the stage runs
once.  A count does not drift with the machine's load, so a doubling ratio above
``CALLS_TARGET`` is the code's, never the machine's.  It complements the timings
rather than replacing them: a C-level cost that grows per call (a ``list.insert`` at
the front of a long list, a set copied per statement) keeps the count linear while
the time bends, and only ``bench_scale.py`` sees that.
"""

from __future__ import annotations

import argparse
import cProfile
import gc
import pstats
import sys

import bench_scale as scale
from bench_compiler import Input, render_table

CALLS_TARGET = 2.05


def stages() -> list:
    """bench_scale's stages without CPython's own (its calls are not Python's)."""
    return [s for s in scale.scale_stages() if not s.name.startswith("ast.parse")]


def calls_of(run, data: Input) -> int:
    profile = cProfile.Profile()
    profile.enable()
    try:
        run(data)
    finally:
        profile.disable()
    return pstats.Stats(profile).total_calls  # type: ignore[attr-defined]


def count(shape_name: str, sizes: list[int], log=lambda text: None) -> dict[str, list[int]]:
    """stage -> its call count at each size."""
    shape = next(s for s in scale.SHAPES if s.name == shape_name)
    counts: dict[str, list[int]] = {}
    for size in sizes:
        log(f"  counting {shape.name} at {size} {scale.unit(shape)}")
        data = scale.make_input(shape, scale.argument_for(shape, size))
        for stage in stages():
            counts.setdefault(stage.name, []).append(calls_of(stage.run, data))
        del data
        gc.collect()
    return counts


def doublings(calls: list[int]) -> list[float]:
    return [b / a for a, b in zip(calls, calls[1:])]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--shape", action="append", choices=[s.name for s in scale.SHAPES])
    parser.add_argument("--sizes", help="statement counts, each double the previous")
    parser.add_argument("--functions", help="function counts for the functions shape")
    parser.add_argument("--markdown", action="store_true")
    args = parser.parse_args(argv)
    sizes = scale._doubling_sizes(parser, "--sizes", args.sizes, scale.SIZES)
    counts = scale._doubling_sizes(parser, "--functions", args.functions,
                                   scale.FUNCTION_COUNTS)
    log = lambda text: print(text, file=sys.stderr, flush=True)  # noqa: E731
    missed = []
    for name in args.shape or [s.name for s in scale.SHAPES]:
        chosen = counts if name == "functions" else sizes
        table = count(name, chosen, log)
        header = (["stage"] + [f"{scale._size_label(s)} calls" for s in chosen]
                  + [f"x{scale._size_label(2 * s)}/{scale._size_label(s)}"
                     for s in chosen[:-1]])
        rows = []
        for stage, calls in table.items():
            ratios = doublings(calls)
            rows.append([stage] + [str(c) for c in calls]
                        + [f"{r:.3f}" + (" !" if r > CALLS_TARGET else "") for r in ratios])
            missed += [f"{name}/{stage}: x{r:.3f}" for r in ratios if r > CALLS_TARGET]
        unit = "functions" if name == "functions" else "statements"
        render_table(f"{name} (sizes in {unit}): Python calls per stage", header, rows,
                     args.markdown)
        sys.stdout.flush()
    if missed:
        print(f"\ncall counts growing faster than x{CALLS_TARGET}:\n  " + "\n  ".join(missed))
        return 1
    print(f"\nevery stage's call count grows at most x{CALLS_TARGET} per doubling")
    return 0


if __name__ == "__main__":
    sys.exit(main())

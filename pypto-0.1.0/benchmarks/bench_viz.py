"""Doubling benchmark of the program picture (``pypto.viz.draw_program``).

A compiled program with N graph regions (2N+1 functions) is drawn at N and 2N; the
ratio t(2N)/t(N) stays near 2 for a linear layout (above 2.3 would be a complexity
bug in the layering, ordering or edge routing).

    python benchmarks/bench_viz.py [--quick]
"""

from __future__ import annotations

import argparse

from _timing import best_pair
import pypto.language as pl
from pypto import ir, passes
from pypto.viz import draw_program

LIMIT = 2.3


def compiled_graphs(count: int) -> tuple[ir.Program, ir.Program]:
    lines = ["import pypto.language as pl", "T = pl.Tensor[[64], pl.FP32]", "@pl.program",
             "class P:", "    @pl.function(type=pl.FunctionType.Orchestration)",
             "    def main(self, x: T, acc: pl.InOut[T]) -> T:"]
    for i in range(count):
        lines += [f"        with pl.graph('g{i}'):",
                  "            with pl.at(level=pl.Level.CORE_GROUP):",
                  "                t = pl.add(pl.load(x, [0], [64]), pl.load(acc, [0], [64]))",
                  "                pl.store(t, [0], acc)"]
    source = pl.parse("\n".join(lines + ["        return acc", ""]))
    with passes.PassContext([], verification_level=passes.VerificationLevel.NONE):
        compiled = ir.PassManager.get_strategy().run_passes(source)
    return source, compiled


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="smaller sizes")
    args = parser.parse_args()
    sizes = [50, 100] if args.quick else [100, 200, 400]
    print(f"{'N':>6} {'functions':>10} {'t(N) ms':>9} {'t(2N) ms':>9} {'ratio':>6}")
    worst = 0.0
    for n in sizes:
        small, large = compiled_graphs(n), compiled_graphs(2 * n)
        t_small, t_large = best_pair(lambda: draw_program(*small),
                                     lambda: draw_program(*large), repeats=5)
        ratio = t_large / t_small
        worst = max(worst, ratio)
        print(f"{n:>6} {len(large[1].functions):>10} {t_small * 1e3:>9.1f} "
              f"{t_large * 1e3:>9.1f} {ratio:>6.2f}")
    print(f"worst doubling ratio {worst:.2f} (limit {LIMIT}): "
          f"{'ok' if worst <= LIMIT else 'TOO STEEP'}")


if __name__ == "__main__":
    main()

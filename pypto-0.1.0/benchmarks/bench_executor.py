"""Overhead of the reference executor (``pypto.run``) per executed op and per loop iteration.

    python benchmarks/bench_executor.py [--quick]

Small tensors and many iterations, so the time measured is the executor's own
work (closure calls, frame slots, argument checks), not NumPy's arithmetic.  Each
case runs a program through one ``pypto.runtime.Executor`` (compiled once) and
reports microseconds per loop iteration and per executed op (tensor/tile op or
scalar operator), next to the same computation written directly in NumPy.  A
second row per case runs the program after the default pass pipeline when the
pipeline is available (outlined kernels add a call per iteration).
"""

from __future__ import annotations

import argparse
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))

import numpy as np  # noqa: E402

from _timing import best_of  # noqa: E402
import pypto.language as pl  # noqa: E402
from pypto import ir  # noqa: E402
from pypto.runtime import Executor  # noqa: E402

ROWS, COLS = 8, 16


@pl.program
class ScalarLoop:
    """Per-iteration cost of a loop whose body is 4 scalar operators."""

    @pl.function
    def main(self, n: pl.Scalar[pl.INDEX]) -> pl.Scalar[pl.INDEX]:
        acc = 0
        for i in pl.range(n):
            acc = (acc + i * 3) % 1000003 - 1
        return acc


@pl.program
class TileLoop:
    """Per-iteration cost of load / add / muls / store on an 8x16 tile (5 ops + 2 scalar)."""

    @pl.function
    def main(self, x: pl.Tensor[[8, 16], pl.FP32], n: pl.Scalar[pl.INDEX],
             out: pl.Out[pl.Tensor[[8, 16], pl.FP32]]) -> pl.Tensor[[8, 16], pl.FP32]:
        for i in pl.range(n):
            with pl.at(level=pl.Level.CORE_GROUP):
                a = pl.load(x, [0, 0], [8, 16])
                b = pl.load(out, [0, 0], [8, 16])
                c = pl.add(a, b)
                d = pl.mul(c, 0.5)
                pl.store(d, [i % 1, i // n], out)
        return out


def _numpy_tile_loop(x: np.ndarray, n: int, out: np.ndarray) -> None:
    for i in range(n):
        a = x[0:8, 0:16].copy()
        b = out[0:8, 0:16].copy()
        d = (a + b) * np.float32(0.5)
        out[i % 1:i % 1 + 8, i // n:i // n + 16] = d


def _numpy_scalar_loop(n: int) -> int:
    acc = 0
    for i in range(n):
        acc = (acc + i * 3) % 1000003 - 1
    return acc


def _lowered(program: ir.Program) -> ir.Program | None:
    try:
        return ir.PassManager.get_strategy(ir.OptimizationStrategy.Default).run_passes(program)
    except Exception as exc:  # a pass still missing: report and carry on
        print(f"  (default pipeline unavailable: {type(exc).__name__}: {exc})")
        return None


def _report(label: str, seconds: float, iterations: int, ops_per_iteration: int,
            baseline: float) -> None:
    per_iter = seconds / iterations * 1e6
    per_op = per_iter / ops_per_iteration
    print(f"  {label:<28} {per_iter:9.2f} us/iteration {per_op:8.2f} us/op "
          f"  ({seconds / baseline:5.1f}x plain NumPy/Python)")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--quick", action="store_true", help="fewer iterations")
    options = parser.parse_args()
    iterations = 2_000 if options.quick else 20_000
    repeats = 2 if options.quick else 5
    x = np.random.default_rng(0).random((ROWS, COLS), dtype=np.float32)

    print(f"scalar loop: {iterations} iterations, 4 scalar operators each")
    baseline = best_of(lambda: _numpy_scalar_loop(iterations), repeats)
    expected = _numpy_scalar_loop(iterations)
    for label, program in (("pre-pass", ScalarLoop), ("post-pass", _lowered(ScalarLoop))):
        if program is None:
            continue
        executor = Executor(program)
        assert executor.run(iterations) == expected
        _report(label, best_of(lambda: executor.run(iterations), repeats), iterations, 4,
                baseline)

    print(f"tile loop: {iterations} iterations, 5 tile ops + 2 scalar operators each "
          f"on {ROWS}x{COLS} float32")
    out = np.zeros((ROWS, COLS), np.float32)
    baseline = best_of(lambda: _numpy_tile_loop(x, iterations, out), repeats)
    for label, program in (("pre-pass", TileLoop), ("post-pass", _lowered(TileLoop))):
        if program is None:
            continue
        executor = Executor(program)
        _report(label, best_of(lambda: executor.run(x, iterations, out), repeats),
                iterations, 7, baseline)


if __name__ == "__main__":
    main()

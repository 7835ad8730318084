"""Timing shared by the benchmarks.

Samples run with the garbage collector paused (a collection landing in one sample
only would skew a ratio) and on the process CPU clock (time the scheduler gives to
other processes is not the benchmark's).
"""

from __future__ import annotations

import gc
import math
import time
from typing import Callable

__all__ = ["MIN_SAMPLE_SECONDS", "once", "best_of", "best_pair"]

MIN_SAMPLE_SECONDS = 0.05  # shorter samples are dominated by timer and scheduler noise


def once(run: Callable[[], object], loops: int = 1) -> float:
    """Seconds per call of ``run``, averaged over ``loops`` back-to-back calls."""
    gc.collect()
    gc.disable()
    try:
        start = time.process_time()
        for _ in range(loops):
            run()
        return (time.process_time() - start) / loops
    finally:
        gc.enable()


def best_of(run: Callable[[], object], repeats: int) -> float:
    """The best of ``repeats`` single-call samples of ``run``."""
    return min(once(run) for _ in range(repeats))


def best_pair(small: Callable[[], object], large: Callable[[], object],
              repeats: int) -> tuple[float, float]:
    """Best-of-``repeats`` seconds for both sizes, measured alternately so drift hits
    both alike; short runs are looped up to ``MIN_SAMPLE_SECONDS`` per sample."""
    loops = max(1, math.ceil(MIN_SAMPLE_SECONDS / max(once(small), 1e-6)))
    best_small = best_large = float("inf")
    for _ in range(repeats):
        best_small = min(best_small, once(small, loops))
        best_large = min(best_large, once(large, loops))
    return best_small, best_large

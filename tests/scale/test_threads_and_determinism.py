"""Threads and determinism (issue 15, point 3).

* 8 threads x 100 parses and compiles of different programs, each with the default
  filename: every result equals that program's single-threaded compile, and no
  thread changes the recursion limit under the others;
* the same program compiled twice in one process, and in two worker processes, prints
  the same text (names depend only on the program: ``t_inline0`` every time).
"""

from __future__ import annotations

import concurrent.futures
import multiprocessing
import sys
import threading

import pypto.language as pl
from pypto import ir, passes

THREADS = 8
ROUNDS = 100


def source(k: int) -> str:
    """Program ``k``: its own constants, loop count and names, an Inline helper."""
    return f'''
import pypto.language as pl


@pl.program
class P{k}:
    @pl.function(type=pl.FunctionType.Inline)
    def helper(self, x: pl.Tensor[[16, 16], pl.FP32]) -> pl.Tensor[[16, 16], pl.FP32]:
        t = pl.add(x, x)
        return t

    @pl.function
    def main(self, x: pl.Tensor[[16, 16], pl.FP32], n: pl.Scalar[pl.INDEX]) -> pl.Tensor[[16, 16], pl.FP32]:
        y = self.helper(x)
        for i in pl.range({k + 1}):
            y = pl.mul(y, {k}.5)
        if n > {k}:
            z = self.helper(y)
        else:
            z = y
        deep = n {"+ n " * (20 + k)}
        return z
'''


def compiled_text(text: str) -> str:
    with passes.PassContext([], verification_level=passes.VerificationLevel.BASIC):
        program = ir.PassManager.get_strategy(ir.OptimizationStrategy.Default).run_passes(
            pl.parse(text))
    return ir.python_print(program)


def test_threads_each_get_their_own_program():
    texts = [source(k) for k in range(THREADS)]
    expected = [compiled_text(t) for t in texts]
    limit = sys.getrecursionlimit()
    barrier = threading.Barrier(THREADS)
    failures: list[str] = []
    limits_seen: set[int] = set()

    def work(k: int) -> None:
        try:
            rounds(k)
        except BaseException as exc:  # noqa: BLE001 - a dead thread must fail the test
            failures.append(f"thread {k} raised {type(exc).__name__}: {exc}")

    def rounds(k: int) -> None:
        barrier.wait()
        for round_ in range(ROUNDS):
            which = (k + round_) % THREADS  # every thread compiles every program
            parsed = pl.parse(texts[which])  # the default filename, in every thread
            if parsed.name != f"P{which}":
                failures.append(f"thread {k} got {parsed.name} for P{which}")
            text = compiled_text(texts[which])
            if text != expected[which]:
                failures.append(f"thread {k}, round {round_}: P{which} compiled differently")
            limits_seen.add(sys.getrecursionlimit())

    threads = [threading.Thread(target=work, args=(k,)) for k in range(THREADS)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert failures == []
    assert limits_seen == {limit}


def test_the_same_program_compiles_to_the_same_text_twice():
    first, second = compiled_text(source(3)), compiled_text(source(3))
    assert "t_inline0" in first
    assert first == second


def test_worker_processes_print_what_this_process_prints():
    texts = [source(k) for k in range(4)]
    here = [compiled_text(t) for t in texts]
    context = multiprocessing.get_context("spawn")  # fresh interpreters: no shared state
    with concurrent.futures.ProcessPoolExecutor(2, mp_context=context) as pool:
        there = list(pool.map(compiled_text, texts + texts))
    assert there == here + here

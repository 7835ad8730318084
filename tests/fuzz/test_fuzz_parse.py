"""Fuzzing with damaged programs: ``pl.parse`` and the pipeline end cleanly (``fuzzcheck``).

Valid seed programs are damaged by ``fuzzcheck.mutate`` under a fixed seed; every
result must parse or fail with a located diagnostic, and every result that parses
must compile or fail with a pypto error.  ``PYPTO_FUZZ_CASES=N`` runs N cases per
seed program (default 2,000: 6,000 in all, about 10 s); ``PYPTO_FUZZ_SEED=text`` draws
other damage.  Inputs that once broke pypto live
in ``regressions/`` and are replayed by ``test_regressions.py``.
"""

from __future__ import annotations

import collections
import os
import random

import pytest

from fuzzcheck import mutate, outcome, run_with_pipeline_context

CASES_PER_SEED = int(os.environ.get("PYPTO_FUZZ_CASES", "") or 2000)
# ``PYPTO_FUZZ_SEED=text`` salts the random damage: other damage, for crash hunting.
SEED_SALT = os.environ.get("PYPTO_FUZZ_SEED", "")

_KERNEL = '''\
    @pl.function(type=pl.FunctionType.InCore)
    def kern(x: pl.Tensor[[64, 16], pl.FP32], acc: pl.InOut[pl.Tensor[[16, 16], pl.FP32]]) -> pl.Tensor[[16, 16], pl.FP32]:
        t = pl.load(x, [0, 0], [16, 16])
        a = pl.load(acc, [0, 0], [16, 16])
        acc = pl.store(pl.add(t, a), [0, 0], acc)
        return acc
'''

SEEDS = {
    "orchestration": '''\
import pypto.language as pl


@pl.program
class Orch:
''' + _KERNEL + '''
    @pl.function(type=pl.FunctionType.Orchestration)
    def main(self, x: pl.Tensor[[64, 16], pl.FP32], acc: pl.InOut[pl.Tensor[[16, 16], pl.FP32]], n: pl.Scalar[pl.INDEX]) -> pl.Tensor[[16, 16], pl.FP32]:
        for i in pl.range(4):
            with pl.graph("layer"):
                base = i * 16
                with pl.at(level=pl.Level.CORE_GROUP):
                    band = pl.load(x, [base, 0], [16, 16])
                    cur = pl.load(acc, [0, 0], [16, 16])
                    acc = pl.store(pl.add(cur, band), [0, 0], acc)
                acc = self.kern(x, acc)
        for j, (c,) in pl.range(n, init_values=(acc,)):
            c2 = self.kern(x, c)
            c3 = pl.yield_(c2)
        if n > 2:
            r = pl.yield_(c3)
        else:
            r = pl.yield_(acc)
        with pl.cluster():
            with pl.spmd(4):
                r = self.kern(x, r)
        for b in pl.spmd(2):
            u = pl.load(x, [0, 0], [16, 16])
            r = pl.store(pl.exp(u), [0, 0], r)
        return r
''',
    "hierarchy": '''\
import pypto.language as pl

M = pl.dynamic("M")


@pl.program
class Host:
''' + _KERNEL + '''
    @pl.function(auto_scope=False)
    def main(self, x: pl.Tensor[[64, 16], pl.FP32], acc: pl.InOut[pl.Tensor[[16, 16], pl.FP32]], n: pl.Scalar[pl.INDEX]) -> tuple[pl.Tensor[[16, 16], pl.FP32], pl.Scalar[pl.INDEX]]:
        k = 0
        with pl.at(level=pl.Level.GLOBAL, role=pl.Role.Orchestrator):
            with pl.at(level=pl.Level.HOST):
                y = pl.add(acc, acc)
        with pl.graph("g"):
            acc = self.kern(x, acc)
        while k < n:
            with pl.scope():
                acc = self.kern(x, acc)
            k = k + 1
        for (w, c) in pl.while_(init_values=(0, acc)):
            pl.cond(w < 2)
            c2 = self.kern(x, c)
            w2, c3 = pl.yield_(w + 1, c2)
        with pl.at(level=pl.Level.AIV):
            c3 = self.kern(x, c3)
        return c3, k
''',
    "functions": '''\
import pypto.language as pl


@pl.program
class Funcs:
''' + _KERNEL + '''
    @pl.function(type=pl.FunctionType.Inline)
    def helper(self, x: pl.Tensor[[64, 16], pl.FP32], acc: pl.Tensor[[16, 16], pl.FP32]) -> pl.Tensor[[16, 16], pl.FP32]:
        with pl.graph("inlined"):
            acc = self.kern(x, acc)
        return acc

    @pl.function(type=pl.FunctionType.Graph)
    def layer(self, x: pl.Tensor[[64, 16], pl.FP32], acc: pl.InOut[pl.Tensor[[16, 16], pl.FP32]]) -> pl.Tensor[[16, 16], pl.FP32]:
        acc = self.kern(x, acc)
        return acc

    @pl.function(type=pl.FunctionType.Orchestration)
    def main(self, x: pl.Tensor[[64, 16], pl.FP32], acc: pl.InOut[pl.Tensor[[16, 16], pl.FP32]], flag: pl.Scalar[pl.BOOL]) -> pl.Tensor[[16, 16], pl.FP32]:
        acc = self.helper(x, acc)
        acc = self.layer(x, acc)
        out, tid = pl.submit(self.kern, x, acc)
        out2, tid2 = pl.submit(self.kern, x, out, deps=[tid])
        if flag:
            out2 = self.kern(x, out2)
        t0 = pl.tensor.read(out2, [0, 0])
        s = out2[0:8, :]
        return out2
''',
}


@pytest.mark.parametrize("name", sorted(SEEDS))
def test_seed_programs_compile(name):
    assert run_with_pipeline_context(outcome, SEEDS[name]) == "compiled"


@pytest.mark.parametrize("name", sorted(SEEDS))
def test_damaged_programs_end_cleanly(name):
    rng = random.Random(f"pypto-fuzz-{name}{SEED_SALT}")
    seen: set[str] = set()
    endings: collections.Counter = collections.Counter()
    for _ in range(CASES_PER_SEED):
        text = mutate(SEEDS[name], rng)
        if text in seen:
            continue
        seen.add(text)
        endings[run_with_pipeline_context(outcome, text)] += 1
    # The damage must reach every stage, or the test proves little.  The parser refuses
    # most damage itself since it checks call/return types and possibly-unbound reads,
    # so fewer damaged programs reach the passes than parse errors.
    assert endings["parse-error"] > CASES_PER_SEED // 20, endings
    assert endings["compiled"] + endings["pass-error"] > CASES_PER_SEED // 40, endings

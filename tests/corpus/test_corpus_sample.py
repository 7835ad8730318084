"""A fast sample of the corpus check (``corpus_check.py``), and checks of the check.

``data/sample.jsonl`` holds 50 programs of the conformance corpus (their inputs: DSL
text printed by pypto's own tests), chosen where the check compares something (each
returns a value or writes an ``Out``/``InOut`` argument on the CPU executor), spread
over the corpus and its constructs.  Every one must round-trip at every stage and
compute bitwise the same before and after each stage and the Default pipeline.
The whole corpus runs with ``python tests/corpus/corpus_check.py`` (minutes).
"""

from __future__ import annotations

import json
import os
from typing import Iterator

import pypto.language as pl
from pypto import ir

import corpus_check as check

HERE = os.path.dirname(os.path.abspath(__file__))

ADD = '''\
import pypto.language as pl


@pl.program
class P:
    @pl.function
    def main(self, x: pl.Tensor[[4, 8], pl.FP32], y: pl.Tensor[[4, 8], pl.FP32]) -> pl.Tensor[[4, 8], pl.FP32]:
        z: pl.Tensor[[4, 8], pl.FP32] = pl.add(x, y)
        return z
'''


def _sample() -> list[tuple[str, str]]:
    with open(os.path.join(HERE, "data", "sample.jsonl")) as f:
        return [(rec["id"], rec["input"]) for rec in map(json.loads, f)]


def test_the_sample_round_trips_and_runs_bitwise_equal_after_every_stage():
    outcomes = check.run_corpus(_sample())
    assert len(outcomes) == 50
    bad = [f"{o.pid} {o.status}: {o.reason} {o.notes}" for o in outcomes
           if o.status != "executed-equal" or not o.observable or o.errored]
    assert not bad, "\n".join(bad)
    # every stage of the chain and the Default pipeline ran on every program
    assert all(o.compiled and o.executed >= len(check.STAGES) + 1 for o in outcomes)


def _only(stage_text: str):
    def stages(parsed: ir.Program, outcome: check.Outcome) -> Iterator[tuple[str, ir.Program]]:
        yield "broken", pl.parse(stage_text)
    return stages


def test_a_stage_that_changes_the_result_is_reported_as_differing():
    outcome = check.check_program("add", ADD, stages=_only(ADD.replace("pl.add", "pl.sub")))
    assert outcome.status == "differing"
    assert outcome.reason.startswith("broken, entry main: before (float32[4, 8] sum=")


def test_a_stage_that_keeps_the_result_compares_equal():
    outcome = check.check_program("add", ADD, stages=_only(ADD))
    assert (outcome.status, outcome.executed, outcome.observable) == ("executed-equal", 3, True)


def test_a_raw_exception_from_a_stage_is_a_crash():
    def stages(parsed: ir.Program, outcome: check.Outcome) -> Iterator[tuple[str, ir.Program]]:
        raise KeyError("slot")
        yield  # a generator, like the real stages

    outcome = check.check_program("add", ADD, stages=stages)
    assert outcome.status == "crash" and "KeyError: 'slot'" in outcome.reason


def test_a_parser_diagnostic_is_a_rejection_not_a_crash():
    outcome = check.check_program("bad", ADD.replace("pl.add(x, y)", "pl.add(x, w)"))
    assert outcome.status == "parse-rejected"
    assert "Undefined variable 'w'" in outcome.reason


def test_arguments_bind_dynamic_dims_and_scalars_consistently():
    program = pl.parse('''\
import pypto.language as pl

M = pl.dynamic("M")


@pl.program
class P:
    @pl.function
    def main(self, x: pl.Tensor[[M, 4], pl.FP32], y: pl.Tensor[[M * 2], pl.INT32], n: pl.Scalar[pl.INDEX], b: pl.Scalar[pl.BOOL]):
        return
''')
    function = program.get_function("main")
    x, y, n, b = check.make_args(function, check.VARIANTS[1])
    assert (x.shape, str(x.dtype), y.shape, str(y.dtype)) == ((16, 4), "float32", (32,), "int32")
    assert (n, b) == (0, False) and y.min() >= 1  # integer tensors hold no zero divisor
    again = check.make_args(function, check.VARIANTS[1])
    assert x.tobytes() == again[0].tobytes()  # the same variant gives the same bits

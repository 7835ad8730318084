"""The stand-alone front-end passes (Simplify, UnrollLoops, DeriveCallDirections,
CanonicalizeIOOrder, NormalizeReturnOrder, ClassifyIterArgCarry) never change what a
random valid program computes on pypto's CPU executor (bitwise), before and after the
default pipeline, and their output verifies and round-trips."""

from __future__ import annotations

from hypothesis import given

import pypto.language as pl
from pypto import ir, passes

from execution import Refused, execute_main
from strategies import programs
from test_random_programs import PROPERTY_SETTINGS

_FRONT = ("unroll_loops", "simplify", "derive_call_directions", "canonicalize_io_order",
          "normalize_return_order")
_AFTER_PIPELINE = ("simplify", "classify_iter_arg_carry", "derive_call_directions",
                   "canonicalize_io_order", "normalize_return_order")


def _run(program: ir.Program, names: tuple[str, ...]) -> ir.Program:
    for name in names:
        program = getattr(passes, name)()(program)
    return program


@PROPERTY_SETTINGS
@given(programs())
def test_stand_alone_passes_keep_the_result(generated):
    program = pl.parse(generated.text)
    compiled = ir.PassManager.get_strategy(ir.OptimizationStrategy.Default).run_passes(program)
    variants = [_run(program, _FRONT), _run(compiled, _AFTER_PIPELINE)]
    for seed in (0, 1):
        expected = execute_main(program, generated.scalar_args, seed)
        if isinstance(expected, Refused):
            return
        for variant in variants:
            assert execute_main(variant, generated.scalar_args, seed) == expected, \
                ir.python_print(variant)

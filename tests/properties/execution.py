"""Run a generated program's ``main`` on pypto's CPU executor, for comparing results.

``execute_main(program, scalars, seed)`` runs ``main(x, acc, *scalars)`` with ``x`` and
``acc`` drawn from ``numpy.random.default_rng(seed)`` (fresh arrays per call, so the
program before and after the pipeline start from the same bits) and returns a
``Result``: the bytes of ``acc`` after the run (it is ``InOut``, written in place), of
every returned value, or the op and detail of an ``ExecutionError`` (variable names
in it as the source wrote them).  Results compare
bitwise: no pass of the default pipeline reorders, fuses or re-associates a
floating-point operation (inlining, SSA renaming, flattening nested calls into
temporaries and outlining keep every op and its operands), so each op runs the same
NumPy kernel on the same bits before and after.

Where the executor refuses a program by name -- a device-only op, a function bound at
run time, inline host source (``pypto.runtime``'s documented refusals) -- the result is
``Refused`` and there is nothing to compare.
"""

from __future__ import annotations

from dataclasses import dataclass

import re

import numpy as np

import pypto.runtime as runtime
from pypto import ir
from pypto.passes.names import base_name

from strategies import ROWS

__all__ = ["Result", "Refused", "execute_main"]

# The detail texts of the executor's refusals by name (pypto/runtime/op_semantics.py,
# executor.py, compile_stmt.py).
REFUSALS = ("is a device-only op: the CPU executor refuses it",
            "cannot run on the reference executor")


@dataclass(frozen=True)
class Refused:
    reason: str


@dataclass(frozen=True)
class Result:
    values: tuple  # per value: (dtype, shape, bytes) of an array, or a Python number
    error: tuple[str | None, str] | None = None  # (op, detail) of an ExecutionError

    def __str__(self) -> str:
        if self.error is not None:
            return f"ExecutionError in {self.error[0]}: {self.error[1]}"
        shown = [f"{v[0]}{list(v[1])} sum={np.frombuffer(v[2], v[0]).sum()!r}"
                 if isinstance(v, tuple) else repr(v) for v in self.values]
        return "(" + ", ".join(shown) + ")"


def _frozen(value: object) -> object:
    if isinstance(value, np.ndarray):
        return (value.dtype.str, value.shape, value.tobytes())
    if isinstance(value, np.generic):
        return value.item()
    return value


_QUOTED_NAME = re.compile(r"'([A-Za-z_]\w*)'")


def _source_names(text: str) -> str:
    """``text`` with each quoted variable name as the source wrote it: ConvertToSSA
    renames ``acc`` to ``acc__ssa_v0``, so the same error names it apart before and
    after the pipeline."""
    return _QUOTED_NAME.sub(lambda found: f"'{base_name(found.group(1))}'", text)


def execute_main(program: ir.Program, scalars: tuple, seed: int) -> Result | Refused:
    rng = np.random.default_rng(seed)
    x = rng.standard_normal((4 * ROWS, ROWS), dtype=np.float32)
    acc = rng.standard_normal((ROWS, ROWS), dtype=np.float32)
    try:
        with np.errstate(all="ignore"):  # exp overflows, sqrt of negatives: same bits
            returned = runtime.execute(program, x, acc, *scalars, entry="main")
    except runtime.ExecutionError as err:
        if any(refusal in err.detail for refusal in REFUSALS):
            return Refused(err.detail)
        return Result((), (_source_names(err.what), _source_names(err.detail)))
    values = returned if isinstance(returned, tuple) else (returned,)
    return Result((_frozen(acc), *map(_frozen, values)))

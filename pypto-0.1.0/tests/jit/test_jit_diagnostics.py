"""Diagnostics and spans of specialised code point at the user's code (§13, §17.3)."""

from __future__ import annotations

import importlib
import sys
import textwrap

import numpy as np
import pytest

from pypto import ir
import pypto.language as pl
from pypto.language.parser.diagnostics import (InvalidOperationError, ParserTypeError,
                                               UndefinedVariableError)
from pypto.runtime import ExecutionError

from _jit_helpers import f32, marker_position

KERNELS = """\
import pypto.language as pl

WIDTH = 8


@pl.jit.incore
def kern(a: pl.Tensor, out: pl.Out[pl.Tensor]):
    t = pl.load(a, [0, 0], [WIDTH, WIDTH])
    pl.store(t, [0, 0], out, bogus=1)
    return out
"""

ENTRY = """\
import pypto.language as pl
from jit_diag_kernels import kern

ROWS = 16


@pl.jit
def entry(x: pl.Tensor, y: pl.Out[pl.Tensor]):
    # comment lines shift nothing
    n = x.shape[0]
    z = pl.add(pl.full([ROWS, x.shape[1]], pl.FP32, 0.0), missing)
    return y


@pl.jit
def calls_kernel(x: pl.Tensor, y: pl.Out[pl.Tensor]):
    y = kern(x, y)
    return y


@pl.jit
def fine(x: pl.Tensor, y: pl.Out[pl.Tensor]):
    y = pl.add(x, x)
    return y
"""


@pytest.fixture
def modules(tmp_path, monkeypatch):
    (tmp_path / "jit_diag_kernels.py").write_text(KERNELS)
    (tmp_path / "jit_diag_entry.py").write_text(ENTRY)
    monkeypatch.syspath_prepend(str(tmp_path))
    yield importlib.import_module("jit_diag_entry"), tmp_path
    for name in ("jit_diag_kernels", "jit_diag_entry"):
        sys.modules.pop(name, None)


def test_an_error_renders_the_users_line_with_the_caret_under_the_token(modules):
    module, folder = modules
    with pytest.raises(UndefinedVariableError) as info:
        module.entry.specialize(f32(16, 8), f32(16, 8))
    path = folder / "jit_diag_entry.py"
    assert info.value.render(use_color=False) == textwrap.dedent(f"""\
        Error: Undefined variable 'missing'
          --> {path}:11:59
           |
         9 |     # comment lines shift nothing
        10 |     n = x.shape[0]
        11 |     z = pl.add(pl.full([ROWS, x.shape[1]], pl.FP32, 0.0), missing)
           |                                                           ^^^^^^^ Undefined variable 'missing'
        12 |     return y
        13 |
           |""")
    assert info.value.source_lines == ENTRY.splitlines()


def test_an_error_inside_a_dependency_points_into_its_own_file(modules):
    module, folder = modules
    with pytest.raises(InvalidOperationError) as info:
        module.calls_kernel.specialize(f32(8, 8), f32(8, 8))
    err = info.value
    assert (err.span["filename"], err.span["line"], err.span["column"]) == \
        (str(folder / "jit_diag_kernels.py"), 9, 5)
    assert err.source_lines == KERNELS.splitlines()
    rendered = err.render(use_color=False)
    assert " 9 |     pl.store(t, [0, 0], out, bogus=1)\n   |     ^^^^^^^^" in rendered
    assert "<jit:" not in rendered and "_jit_" not in rendered


def test_ir_spans_are_in_user_coordinates(modules):
    module, folder = modules
    program = module.fine.specialize(f32(4), f32(4))
    path = str(folder / "jit_diag_entry.py")
    assert (program.span.filename, program.span.begin_line, program.span.begin_column) == \
        (path, 21, 1)
    func = program.get_function("fine")
    assert (func.span.filename, func.span.begin_line) == (path, 22)
    x = func.params[0]
    assert (x.span.begin_line, x.span.begin_column) == (22, 10)
    assign = func.body.stmts[0] if isinstance(func.body, ir.SeqStmts) else func.body
    call = assign.value
    assert (call.span.filename, call.span.begin_line, call.span.begin_column) == (path, 23, 9)
    assert (call.span.end_line, call.span.end_column) == (23, 21)


def test_a_bad_call_of_a_dependency_is_reported_at_the_call(modules):
    from jit_diag_kernels import kern

    @pl.jit
    def too_many(x: pl.Tensor, y: pl.Out[pl.Tensor]):
        y = kern(x, y, 3)  # @too-many
        return y

    with pytest.raises(ParserTypeError) as info:
        too_many.specialize(f32(8, 8), f32(8, 8))
    assert info.value.message == "Function 'kern' expects 2 argument(s), got 3"
    assert (info.value.span["filename"], info.value.span["line"], info.value.span["column"]) \
        == (__file__,) + marker_position("too-many", "kern(")


def test_a_failure_while_running_names_the_users_line():
    @pl.jit
    def reads_past_the_end(x: pl.Tensor, rows: pl.Tensor, y: pl.Out[pl.Tensor]):
        with pl.at(level=pl.Level.CORE_GROUP):
            row = pl.read(rows, [0])
            t = pl.load(x, [row, 0], [4, 8])  # @past-the-end
            y = pl.store(t, [0, 0], y)
        return y

    with pytest.raises(ExecutionError) as info:
        reads_past_the_end(f32(8, 8), np.array([6], np.int32), f32(4, 8))
    line, column = marker_position("past-the-end", "pl.load")
    assert (info.value.span.filename, info.value.span.begin_line) == (__file__, line)
    assert f"{__file__}:{line}:{column}: offsets [6, 0] + shape [4, 8] exceed" in str(info.value)

"""Errors after the passes in a real Jupyter kernel (nbclient + ipykernel), as the tour
checks its parser error: a failure on the executor and a ``@pl.jit`` call's argument
error show the snippet at the cell's line, IPython's cell name, the note -- and no
frame of pypto's."""

from __future__ import annotations

import re

import nbformat
import pytest

from _user_programs import OFFSETS, RUN_OFFSETS
from tour_runner import _ANSI, execute

pytest.importorskip("numpy")

SETUP = """\
import numpy as np
import pypto
import pypto.language as pl
T = pl.Tensor[[64], pl.FP32]
"""

RUN = OFFSETS + "\n" + RUN_OFFSETS

JIT_DEF = """\
@pl.jit
def scale(x: pl.Tensor[[64], pl.FP32], out: pl.Out[pl.Tensor]):
    out = pl.mul(x, 2.0)
    return out
"""

JIT_CALL = "scale(np.ones(64, np.int32), np.zeros(64, np.float32))\n"


@pytest.fixture(scope="module")
def cells(tmp_path_factory):
    notebook = nbformat.v4.new_notebook()
    raising = {"tags": ["raises-exception"]}
    notebook.cells = [nbformat.v4.new_code_cell(SETUP),
                      nbformat.v4.new_code_cell(RUN, metadata=raising),
                      nbformat.v4.new_code_cell(JIT_DEF),
                      nbformat.v4.new_code_cell(JIT_CALL, metadata=raising)]
    path = tmp_path_factory.mktemp("nb") / "errors.ipynb"
    nbformat.write(notebook, path)
    return execute(path).cells


def error_of(cell) -> tuple[str, list[str]]:
    (error,) = [o for o in cell.outputs if o.output_type == "error"]
    return error.ename, [_ANSI.sub("", line) for line in error.traceback]


def test_an_execution_error_shows_the_kernel_line_and_the_call(cells):
    ename, lines = error_of(cells[1])
    assert ename == "ExecutionError"
    assert lines[0] == ("Error: tile.load: offsets [8] + shape [64] exceed tensor shape [64] "
                        "(in function 'k')")
    assert re.fullmatch(r"  --> Cell In\[\d+\], line 5", lines[1])
    assert "5 |         t = pl.load(x, [n], [64])" in lines
    caret = lines[lines.index("5 |         t = pl.load(x, [n], [64])") + 1]
    assert caret == "  |             ^^^^^^^"
    assert re.fullmatch(r"   = note: 'k' was called at Cell In\[\d+\], line 11", lines[-1])
    assert not any("pypto/" in line or "Traceback" in line for line in lines)


def test_a_jit_argument_error_shows_the_parameter_in_its_cell_and_the_calling_cell(cells):
    ename, lines = error_of(cells[3])
    assert ename == "ArgumentTypeError"
    assert lines[0] == ("Error: scale(): parameter 'x' is annotated pl.Tensor[[64], pl.FP32] "
                        "but the argument's dtype is INT32")
    defined = re.fullmatch(r"  --> Cell In\[(\d+)\], line 2", lines[1])
    assert defined is not None
    assert "2 | def scale(x: pl.Tensor[[64], pl.FP32], out: pl.Out[pl.Tensor]):" in lines
    called = re.fullmatch(r"   = note: in the call at Cell In\[(\d+)\], line 1", lines[-1])
    assert called is not None and int(called.group(1)) == int(defined.group(1)) + 1
    assert not any("pypto/" in line or "Traceback" in line for line in lines)

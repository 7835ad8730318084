"""Pass refusals, failed verifications, several parser errors and ``pl.parse`` syntax
errors in IPython and in scripts: snippets at the user's lines (``Cell In[N], line L``
in a notebook), no pypto frames unless ``PTO_BACKTRACE=1``."""

from __future__ import annotations

import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from _user_programs import OFFSETS, RUN_OFFSETS
from test_error_display import subprocess_env

SETUP_CELL = """\
import pypto.language as pl
from pypto import ir, passes
T = pl.Tensor[[64], pl.FP32]
"""

CELLS = {
    "pass refusal": ("""\
@pl.program
class CarriedCondition:
    @pl.function
    def main(self, x: T) -> T:
        k = 0
        while pl.tensor.read(x, [k]) > 0.0:
            k = k + 1
        y = pl.tensor.adds(x, k)
        return y

ir.PassManager.get_strategy().run_passes(CarriedCondition)
""", "PassError", [
        "Error: FlattenCallExpr: in function 'main': the while condition calls 'tensor.read' "
        "on the loop-carried value 'k'; a call hoisted before the loop cannot see "
        "it. Compute the condition value in the loop body and yield it",
        "  --> Cell In[2], line 6",
        "  |",
        "4 |     def main(self, x: T) -> T:",
        "5 |         k = 0",
        "6 |         while pl.tensor.read(x, [k]) > 0.0:",
        "  |         ^^^^^",
        "7 |             k = k + 1",
        "8 |         y = pl.tensor.adds(x, k)",
        "  |"]),
    "failed verification": ("""\
@pl.function
def twice(x: T) -> T:
    y = pl.add(x, x)
    y = pl.mul(y, y)
    return y

passes.run_verifier()(ir.Program([twice], "P"))
""", "VerificationError", [
        "Error: [SSAVerify] Variable 'y' is assigned more than once (2 times), violating SSA "
        "form (in function 'twice')",
        "  --> Cell In[2], line 4",
        "  |",
        "2 | def twice(x: T) -> T:",
        "3 |     y = pl.add(x, x)",
        "4 |     y = pl.mul(y, y)",
        "  |     ^",
        "5 |     return y",
        "6 |",
        "  |"]),
    "several parser errors": ("""\
@pl.function
def two(x: T) -> T:
    a = pl.add(x, q)
    return zz
""", "UndefinedVariableError", [
        "Error: Undefined variable 'q'",
        "  --> Cell In[2], line 3",
        "  |",
        "1 | @pl.function",
        "2 | def two(x: T) -> T:",
        "3 |     a = pl.add(x, q)",
        "  |                   ^ Undefined variable 'q'",
        "4 |     return zz",
        "  |",
        "",
        "Error: Undefined variable 'zz'",
        "  --> Cell In[2], line 4",
        "  |",
        "2 | def two(x: T) -> T:",
        "3 |     a = pl.add(x, q)",
        "4 |     return zz",
        "  |            ^^ Undefined variable 'zz'",
        "  |",
        "",
        "found 2 errors"]),
    "pl.parse syntax error": ("""\
pl.parse("def f(:\\n    pass\\n", filename="text.py")
""", "DSLSyntaxError", [
        "Error: Failed to compile code from text.py: invalid syntax",
        "  --> text.py:1:7",
        "  |",
        "1 | def f(:",
        "  |       ^",
        "2 |     pass",
        "  |"]),
}

DRIVER = '''\
from IPython.core.interactiveshell import InteractiveShell
shell = InteractiveShell.instance()
shell.run_cell({setup!r}, store_history=True)
print("=== cell output ===")
result = shell.run_cell({cell!r}, store_history=True)
print("=== end ===")
print("error type:", type(result.error_in_exec).__name__)
'''


def run_cell(tmp_path: Path, cell: str, **env: str) -> tuple[list[str], str]:
    script = DRIVER.format(setup=SETUP_CELL, cell=cell)
    proc = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True,
                          env=subprocess_env(tmp_path, NO_COLOR="1", **env), cwd=tmp_path,
                          timeout=120)
    assert proc.returncode == 0, proc.stderr
    shown = proc.stdout.split("=== cell output ===\n", 1)[1]
    cell_output, summary = shown.split("=== end ===\n")
    return cell_output.splitlines(), summary


@pytest.mark.parametrize("name", CELLS)
def test_a_notebook_cell_shows_snippets_not_pypto_frames(tmp_path, name):
    cell, error_type, expected = CELLS[name]
    lines, summary = run_cell(tmp_path, cell)
    assert lines == expected
    assert f"error type: {error_type}" in summary


def test_the_backtrace_on_request(tmp_path):
    cell, _, expected = CELLS["pass refusal"]
    lines, _ = run_cell(tmp_path, cell, PTO_BACKTRACE="1")
    separator = lines.index("---------- Python backtrace (PTO_BACKTRACE=1) ----------")
    assert lines[:separator] == expected
    assert lines[separator + 1] == "Traceback (most recent call last):"
    assert any("pypto/passes/" in line for line in lines[separator:])


SCRIPT = '''\
import pypto.language as pl
from pypto import ir

T = pl.Tensor[[64], pl.FP32]


@pl.function
def f(x: T) -> T:
    k = 0
    while pl.tensor.read(x, [k]) > 0.0:
        k = k + 1
    y = pl.tensor.adds(x, k)
    return y


ir.PassManager.get_strategy().run_passes(ir.Program([f], "P"))
'''


def test_an_uncaught_pass_refusal_in_a_script_is_a_snippet(tmp_path):
    path = tmp_path / "script.py"
    path.write_text(SCRIPT, encoding="utf-8")
    proc = subprocess.run([sys.executable, str(path)], capture_output=True, text=True,
                          env=subprocess_env(tmp_path, NO_COLOR="1"), cwd=tmp_path, timeout=120)
    assert proc.returncode == 1
    assert proc.stderr.startswith(textwrap.dedent(f"""\
        Error: FlattenCallExpr: in function 'f': the while condition calls 'tensor.read' on the \
loop-carried value 'k'; a call hoisted before the loop cannot see it. Compute the \
condition value in the loop body and yield it
          --> {path}:10:5
        """))
    assert "Traceback" not in proc.stderr
    assert proc.stderr.endswith("note: run with PTO_BACKTRACE=1 to show the Python backtrace\n")


# -- errors after the passes: the executor's and a @pl.jit call's ------------------------

RUN_CELLS = {
    "execution error": ("import numpy as np\nimport pypto\n\n" + OFFSETS + "\n" + RUN_OFFSETS,
                        "ExecutionError", [
        "Error: tile.load: offsets [8] + shape [64] exceed tensor shape [64] (in function 'k')",
        "  --> Cell In[2], line 8",
        "   |",
        " 6 |     @pl.function(type=pl.FunctionType.InCore)",
        " 7 |     def k(self, x: T, n: pl.Scalar[pl.INDEX], o: pl.Out[T]) -> T:",
        " 8 |         t = pl.load(x, [n], [64])",
        "   |             ^^^^^^^",
        " 9 |         r = pl.store(t, [0], o)",
        "10 |         return r",
        "   |",
        "   = note: 'k' was called at Cell In[2], line 14"]),
    "jit argument error": ("""\
import numpy as np

@pl.jit
def scale(x: pl.Tensor[[64], pl.FP32], out: pl.Out[pl.Tensor]):
    out = pl.mul(x, 2.0)
    return out

scale(np.ones(64, np.int32), np.zeros(64, np.float32))
""", "ArgumentTypeError", [
        "Error: scale(): parameter 'x' is annotated pl.Tensor[[64], pl.FP32] but the "
        "argument's dtype is INT32",
        "  --> Cell In[2], line 4",
        "  |",
        "2 |",
        "3 | @pl.jit",
        "4 | def scale(x: pl.Tensor[[64], pl.FP32], out: pl.Out[pl.Tensor]):",
        "  |           ^",
        "5 |     out = pl.mul(x, 2.0)",
        "6 |     return out",
        "  |",
        "   = note: in the call at Cell In[2], line 8"]),
}


@pytest.mark.parametrize("name", RUN_CELLS)
def test_a_notebook_cell_shows_a_run_time_error_as_a_snippet(tmp_path, name):
    pytest.importorskip("numpy")
    cell, error_type, expected = RUN_CELLS[name]
    lines, summary = run_cell(tmp_path, cell)
    assert lines == expected
    assert f"error type: {error_type}" in summary


def test_an_uncaught_execution_error_in_a_script_is_a_snippet(tmp_path):
    pytest.importorskip("numpy")
    cell, _, expected = RUN_CELLS["execution error"]
    path = tmp_path / "script.py"
    path.write_text(SETUP_CELL + cell, encoding="utf-8")
    proc = subprocess.run([sys.executable, str(path)], capture_output=True, text=True,
                          env=subprocess_env(tmp_path, NO_COLOR="1"), cwd=tmp_path, timeout=120)
    assert proc.returncode == 1
    lines = proc.stderr.splitlines()
    assert lines[0] == expected[0]
    assert lines[1] == f"  --> {path}:11:13"
    assert "11 |         t = pl.load(x, [n], [64])" in lines
    assert lines[-2] == f"   = note: 'k' was called at {path}:17:13"
    assert lines[-1] == "note: run with PTO_BACKTRACE=1 to show the Python backtrace"
    assert "Traceback" not in proc.stderr

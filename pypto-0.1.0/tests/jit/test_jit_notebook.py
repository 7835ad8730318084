"""``@pl.jit`` on code from IPython/Jupyter cells and ``python -c`` (01-language.md §15)."""

from __future__ import annotations

import re
import subprocess

from _jit_helpers import PYTHON, subprocess_env

IPYTHON_DRIVER = '''\
from IPython.core.interactiveshell import InteractiveShell
shell = InteractiveShell.instance()

def cell(text):
    print("=== cell ===")
    result = shell.run_cell(text)
    print("=== error:", type(result.error_in_exec).__name__)

cell("""\\
import numpy as np
import pypto.language as pl
ROWS = 4
x = np.zeros((4, 4), np.float32)
""")
cell("""\\
@pl.jit.incore
def kern(a: pl.Tensor, out: pl.Out[pl.Tensor]):
    t = pl.load(a, [0, 0], [ROWS, ROWS])
    pl.store(t, [0, 0], out)
    return out
""")
cell("""\\
@pl.jit
def entry(x: pl.Tensor, y: pl.Out[pl.Tensor]):
    y = kern(x, y)
    return y
""")
cell("""\\
first = entry.compile(x, x)
print(first.program.as_python())
""")
cell("""\\
@pl.jit.incore
def kern(a: pl.Tensor, out: pl.Out[pl.Tensor]):
    t = pl.load(a, [0, 0], [ROWS, ROWS])
    pl.store(pl.add(t, t), [0, 0], out)
    return out
""")
cell("""\\
second = entry.compile(x, x)
print("recompiled:", second is not first, "pl.tile.add(" in second.program.as_python())
print("info:", entry.cache_info())
""")
cell("""\\
@pl.jit
def broken(x: pl.Tensor):
    return missing
""")
cell("broken.specialize(x)")
'''


def run_cells(tmp_path) -> list[str]:
    result = subprocess.run([PYTHON, "-c", IPYTHON_DRIVER], capture_output=True, text=True,
                            env=subprocess_env(tmp_path), cwd=tmp_path, timeout=180)
    assert result.returncode == 0, result.stderr
    return result.stdout.split("=== cell ===\n")[1:]


def test_jit_functions_defined_in_ipython_cells(tmp_path):
    cells = run_cells(tmp_path)
    assert all(c.endswith("=== error: NoneType\n") for c in cells[:7]), cells
    program = cells[3]
    assert "class _jit_entry:" in program
    assert re.search(r": pl.Tensor\[\[4, 4\], pl.FP32\] = self.kern\(x\w*, y\w*\)", program)
    assert re.search(r"pl.tile.load\(a\w*, \[0, 0\], \[4, 4\]", program)
    assert "recompiled: True True\n" in cells[5]  # the redefined cell's kernel is picked up
    assert "info: CacheInfo(hits=0, misses=2, size=2)\n" in cells[5]
    error = cells[7]
    assert error.endswith("=== error: UndefinedVariableError\n")
    cell_name = re.search(r"Cell In\[\d+\], line 3", error).group(0)  # IPython's naming
    assert error.startswith(
        "Error: Undefined variable 'missing'\n"
        f"  --> {cell_name}\n"
        "  |\n"
        "1 | @pl.jit\n"
        "2 | def broken(x: pl.Tensor):\n"
        "3 |     return missing\n"
        "  |            ^^^^^^^ Undefined variable 'missing'\n"
        "  |\n")
    assert "_jit_" not in error and "<jit:" not in error


DASH_C_PROGRAM = """\
import numpy as np
import pypto.language as pl

@pl.jit
def entry(x: pl.Tensor):
    y = pl.add(x, x)
    return y

print(entry.specialize(np.zeros(8, np.float32)).as_python())

@pl.jit
def broken(x: pl.Tensor):
    return pl.add(x, nothing)

broken.specialize(np.zeros(8, np.float32))
"""


def test_jit_functions_defined_in_python_dash_c(tmp_path):
    result = subprocess.run([PYTHON, "-c", DASH_C_PROGRAM], capture_output=True, text=True,
                            env=subprocess_env(tmp_path), cwd=tmp_path, timeout=180)
    assert result.returncode == 1
    assert "    def entry(self, x: pl.Tensor[[8], pl.FP32]) -> pl.Tensor[[8], pl.FP32]:\n" \
        in result.stdout
    assert "y: pl.Tensor[[8], pl.FP32] = pl.tensor.add(x, x)" in result.stdout
    assert result.stderr.startswith(
        "Error: Undefined variable 'nothing'\n"
        "  --> <string>:13:22\n"
        "   |\n"
        "11 | @pl.jit\n"
        "12 | def broken(x: pl.Tensor):\n"
        "13 |     return pl.add(x, nothing)\n"
        "   |                      ^^^^^^^ Undefined variable 'nothing'\n"
        "14 |\n"
        "15 | broken.specialize(np.zeros(8, np.float32))\n"
        "   |\n")
    assert "Traceback" not in result.stderr

"""``examples/tour.ipynb`` runs in a real Jupyter kernel (nbclient + ipykernel), and its
outputs are what a notebook user should see: programs as highlighted DSL text, parser
errors as source snippets."""

from __future__ import annotations

import json
import re
import sys
from pathlib import Path

import nbclient
import nbformat
import pytest

REPO = Path(__file__).resolve().parents[2]
TOUR = REPO / "examples" / "tour.ipynb"
KERNEL = "pypto-tour-test"
_ANSI = re.compile(r"\x1b\[[0-9;]*m")


@pytest.fixture(scope="module")
def executed(tmp_path_factory):
    """The tour after a full run, in a kernel that runs *this* interpreter.

    A private kernelspec found through ``JUPYTER_PATH`` (searched first) keeps a
    user-level ``python3`` kernelspec for some other interpreter out of the test.
    """
    root = tmp_path_factory.mktemp("jupyter")
    spec_dir = root / "kernels" / KERNEL
    spec_dir.mkdir(parents=True)
    (spec_dir / "kernel.json").write_text(json.dumps({
        "argv": [sys.executable, "-m", "ipykernel_launcher", "-f", "{connection_file}"],
        "display_name": "pypto test", "language": "python"}), encoding="utf-8")
    patch = pytest.MonkeyPatch()
    patch.setenv("JUPYTER_PATH", str(root))
    patch.setenv("NO_COLOR", "1")
    patch.delenv("PTO_BACKTRACE", raising=False)
    try:
        notebook = nbformat.read(TOUR, as_version=4)
        client = nbclient.NotebookClient(notebook, timeout=300, kernel_name=KERNEL,
                                         resources={"metadata": {"path": str(TOUR.parent)}})
        client.execute()
    finally:
        patch.undo()
    return [cell for cell in notebook.cells if cell.cell_type == "code"]


def result(cell) -> dict:
    outputs = [o for o in cell.outputs if o.output_type == "execute_result"]
    assert len(outputs) == 1, cell.source
    return outputs[0].data


def test_the_notebook_is_stored_without_outputs():
    notebook = nbformat.read(TOUR, as_version=4)
    nbformat.validate(notebook)
    assert all(not c.get("outputs") for c in notebook.cells if c.cell_type == "code")


def test_only_the_tagged_cell_raises(executed):
    failing = [c for c in executed if any(o.output_type == "error" for o in c.outputs)]
    assert [c.metadata.get("tags") for c in failing] == [["raises-exception"]]


def test_a_program_displays_as_highlighted_dsl_text(executed):
    data = result(executed[0])
    assert data["text/plain"].startswith("# pypto.program: GraphLayers\n")
    assert '        for i in pl.range(4):\n            with pl.graph("accumulate_band"):' \
        in data["text/plain"]
    html = data["text/html"]
    assert html.startswith('<div class="pypto-ir" style=')
    assert '<span style="color: #008000; font-weight: bold">class</span>' in html


def test_compiled_program_and_round_trip(executed):
    printed = [o.text for o in executed[1].outputs if o.output_type == "stream"]
    assert printed[0].startswith("['InlineFunctions', 'ConvertToSSA',")
    compiled = result(executed[1])["text/plain"]
    assert "def accumulate_band(self, i__idx_v0: pl.Scalar[pl.INDEX]," in compiled
    assert result(executed[2])["text/plain"] == (
        "{'accumulate_band': 'Graph',\n 'accumulate_band_incore_0': 'InCore',\n"
        " 'entry': 'Orchestration'}")


def test_a_single_function_displays_too(executed):
    graph = result(executed[3])["text/plain"]
    assert graph.startswith("@pl.function(type=pl.FunctionType.Graph, level=pl.Level.CHIP, "
                            "role=pl.Role.Orchestrator)\ndef accumulate_band(")


def test_parser_error_shows_the_snippet_not_a_stack(executed):
    (error,) = [o for o in executed[4].outputs if o.output_type == "error"]
    assert error.ename == "UndefinedVariableError"
    lines = [_ANSI.sub("", line) for line in error.traceback]
    assert lines[0] == "Error: Undefined variable 'acc'"
    assert re.fullmatch(r"  --> Cell In\[\d+\], line 4", lines[1])  # IPython's cell naming
    assert lines[2:] == [
        "  |",
        "2 | def broken(x: pl.Tensor[[8], pl.FP32]) -> pl.Tensor[[8], pl.FP32]:",
        "3 |     y = pl.add(x, x)",
        "4 |     return acc",
        "  |            ^^^ Undefined variable 'acc'",
        "  |",
    ]


def test_jit_entry_compiles_from_its_signature(executed):
    program = result(executed[5])["text/plain"]
    assert program.startswith("# pypto.program: _jit_scale\n")
    assert "def scale_incore_0(" in program

"""``examples/tour.ipynb`` is committed with its outputs; it runs in a real Jupyter
kernel (nbclient + ipykernel) and a fresh run shows what the committed one shows.

Outputs are compared after ``tour_runner.normal_outputs`` (colour codes and the
kernel's temporary cell file names removed); everything else a cell shows is
deterministic and compared exactly: DSL text, HTML, Markdown, SVG pictures, printed
text and the rendered parser error.  Refresh with ``python tests/notebook/tour_runner.py``.
"""

from __future__ import annotations

import re
import time
import xml.etree.ElementTree as ET

import nbformat
import pytest

from tour_runner import _ANSI, TOUR, execute, normal_outputs

SVG = "{http://www.w3.org/2000/svg}"


@pytest.fixture(scope="module")
def committed():
    notebook = nbformat.read(TOUR, as_version=4)
    return [cell for cell in notebook.cells if cell.cell_type == "code"]


@pytest.fixture(scope="module")
def executed():
    started = time.perf_counter()
    notebook = execute()
    print(f"tour.ipynb executed in {time.perf_counter() - started:.1f} s")
    return [cell for cell in notebook.cells if cell.cell_type == "code"]


def result(cell) -> dict:
    outputs = [o for o in cell.outputs if o.output_type in ("execute_result", "display_data")]
    assert len(outputs) == 1, cell.source
    return outputs[0].data


def test_the_notebook_is_committed_with_its_outputs(committed):
    nbformat.validate(nbformat.read(TOUR, as_version=4))
    assert all(cell.outputs for cell in committed), "run python tests/notebook/tour_runner.py"
    assert [c.execution_count for c in committed] == list(range(1, len(committed) + 1))


def test_a_fresh_run_shows_the_committed_outputs(committed, executed):
    assert [c.source for c in executed] == [c.source for c in committed]
    for number, (fresh, stored) in enumerate(zip(executed, committed), 1):
        assert normal_outputs(fresh) == normal_outputs(stored), (
            f"code cell {number} shows something else now; if that is intended, "
            f"refresh the notebook (python tests/notebook/tour_runner.py)\n{fresh.source}")


def test_only_the_tagged_cell_raises(executed):
    failing = [c for c in executed if any(o.output_type == "error" for o in c.outputs)]
    assert [c.metadata.get("tags") for c in failing] == [["raises-exception"]]


def test_a_program_displays_as_highlighted_dsl_text(executed):
    data = result(executed[0])
    assert data["text/plain"].startswith("# pypto.program: GraphLayers\n")
    assert '        for i in pl.range(4):\n            with pl.graph("accumulate_band"):' \
        in data["text/plain"]
    html = data["text/html"]
    assert html.startswith('<pre class="pypto-ir" style=')
    assert re.search(r'<span class="pypto-keyword" style="[^"]*">class</span>', html)
    assert re.search(r'<span class="pypto-region" style="[^"]*">pl.graph</span>', html)
    assert data["text/markdown"].startswith("```python\n# pypto.program: GraphLayers\n")


def test_compiled_program_and_round_trip(executed):
    printed = [o.text for o in executed[1].outputs if o.output_type == "stream"]
    assert printed[0].startswith("['InlineFunctions', 'ConvertToSSA',")
    compiled = result(executed[1])["text/plain"]
    assert "    def accumulate_band(\n            self, i__idx_v0: pl.Scalar[pl.INDEX]," \
        in compiled  # the long signature wraps
    assert result(executed[2])["text/plain"] == (
        "{'accumulate_band': 'Graph',\n 'accumulate_band_incore_0': 'InCore',\n"
        " 'entry': 'Orchestration'}")


def test_the_program_draws_as_an_svg_picture(executed):
    cell = next(c for c in executed if "show_graph()" in c.source)
    picture = ET.fromstring(result(cell)["image/svg+xml"])
    assert picture.tag == f"{SVG}svg"
    labels = {"".join(t.itertext()) for t in picture.iter(f"{SVG}text")}
    assert {"accumulate_band", "accumulate_band_incore_0", "entry"} <= labels


def test_a_diff_shows_what_a_pass_changed(executed):
    cell = next(c for c in executed if "ir.diff(" in c.source)
    text = "".join(o.text for o in cell.outputs if o.output_type == "stream")
    assert text.startswith("--- ")
    assert "\n+    def accumulate_band(" in text


def test_a_single_function_displays_too(executed):
    cell = next(c for c in executed if 'ssa["accumulate_band"]' in c.source)
    graph = result(cell)["text/plain"]
    assert graph.startswith("@pl.function(type=pl.FunctionType.Graph, level=pl.Level.CHIP, "
                            "role=pl.Role.Orchestrator)\ndef accumulate_band(")


def test_parser_error_shows_the_snippet_not_a_stack(executed):
    cell = next(c for c in executed if c.metadata.get("tags") == ["raises-exception"])
    (error,) = [o for o in cell.outputs if o.output_type == "error"]
    assert error.ename == "UndefinedVariableError"
    lines = normal_outputs(cell)[0]["traceback"]
    assert lines[0] == "Error: Undefined variable 'acc'"
    assert lines[1] == "  --> <cell>"
    raw = [_ANSI.sub("", line) for line in error.traceback]
    assert re.fullmatch(r"  --> Cell In\[\d+\], line 4", raw[1])  # as IPython names cells
    assert lines[2:] == [
        "  |",
        "2 | def broken(x: pl.Tensor[[8], pl.FP32]) -> pl.Tensor[[8], pl.FP32]:",
        "3 |     y = pl.add(x, x)",
        "4 |     return acc",
        "  |            ^^^ Undefined variable 'acc'",
        "  |",
    ]


def test_jit_entry_compiles_from_its_signature(executed):
    program = result(executed[-1])["text/plain"]
    assert program.startswith("# pypto.program: _jit_scale\n")
    assert "def scale_incore_0(" in program

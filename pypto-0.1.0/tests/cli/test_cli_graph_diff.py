"""``pypto graph FILE [-o OUT.svg]`` and ``pypto diff A B``."""

from __future__ import annotations

import xml.etree.ElementTree as ET

from _cli_helpers import EXAMPLES, run_cli

NS = "{http://www.w3.org/2000/svg}"


def names_in(svg: str) -> set[str]:
    root = ET.fromstring(svg)
    return {g.get("data-name") for g in root.iter(f"{NS}g")
            if g.get("class") in ("function", "graph-group")}


def test_graph_writes_the_compiled_program_as_svg(capsys, tmp_path):
    out = tmp_path / "decoder.svg"
    result = run_cli(capsys, "graph", str(EXAMPLES / "decoder.py"), "-o", str(out))
    assert (result.code, result.out, result.err) == (0, "", "")
    svg = out.read_text(encoding="utf-8")
    assert names_in(svg) == {"decode", "decoder_layer", "rms_norm", "linear_residual"}
    regions = [g for g in ET.fromstring(svg).iter(f"{NS}g") if g.get("class") == "region"]
    assert [r.get("data-kind") for r in regions] == ["function", "graph"]
    assert regions[1].get("data-functions") == "decoder_layer"


def test_graph_to_stdout_with_a_chosen_entry_and_pipeline(capsys):
    result = run_cli(capsys, "graph", str(EXAMPLES / "hierarchy_seed.py"), "--entry",
                     "NestedScopes", "-p", "convert-to-ssa,outline-hierarchy-scopes")
    assert result.code == 0, result.err
    assert names_in(result.out) == {"main", "main_global_orch_0",
                                    "main_global_orch_0_host_orch_0"}


def test_graph_reports_usage_mistakes(capsys, tmp_path):
    result = run_cli(capsys, "graph", str(tmp_path / "missing.py"))
    assert result.code == 2 and "no such file" in result.err
    result = run_cli(capsys, "graph", str(EXAMPLES / "decoder.py"), "-p", "no-such-pass")
    assert result.code == 2 and "Unknown pass 'no-such-pass'" in result.err


def test_graph_reports_a_pass_refusal_as_the_users_problem(capsys, tmp_path):
    source = tmp_path / "bad.py"
    source.write_text(
        "import pypto.language as pl\n"
        "T = pl.Tensor[[64], pl.FP32]\n\n"
        "@pl.program\n"
        "class Bad:\n"
        "    @pl.function(type=pl.FunctionType.Orchestration)\n"
        "    def main(self, x: T, out: pl.Out[T]) -> T:\n"
        "        with pl.graph('g'):\n"
        "            with pl.at(level=pl.Level.CORE_GROUP):\n"
        "                t = pl.load(x, [0], [64])\n"
        "                out = pl.store(t, [0], out)\n"
        "        return out\n", encoding="utf-8")
    result = run_cli(capsys, "graph", str(source))
    assert result.code == 1, result.err
    assert "Traceback" not in result.err and "LegalizeGraphBoundary" in result.err


def test_diff_of_a_file_with_itself_is_empty(capsys):
    result = run_cli(capsys, "diff", str(EXAMPLES / "decoder.py"), str(EXAMPLES / "decoder.py"))
    assert (result.code, result.out, result.err) == (0, "", "")


def test_diff_shows_what_a_pass_did(capsys, tmp_path):
    before, after = tmp_path / "ssa.txt", tmp_path / "outlined.txt"
    for path, passes in ((before, "convert-to-ssa"),
                         (after, "convert-to-ssa,outline-graph-scopes")):
        assert run_cli(capsys, "compile", str(EXAMPLES / "decoder.py"), "-p", passes,
                       "-o", str(path)).code == 0
    result = run_cli(capsys, "diff", str(before), str(after), "-U", "0")
    assert result.code == 1, result.err
    lines = result.out.splitlines()
    assert lines[:2] == [f"--- {before}", f"+++ {after}"]
    assert '-            with pl.graph("decoder_layer"):' in lines
    assert any(line.startswith("+    def decoder_layer(self, ") for line in lines)
    assert all(line[:1] in "-+@" for line in lines)  # no context lines with -U 0


def test_diff_runs_the_same_passes_on_both(capsys):
    result = run_cli(capsys, "diff", str(EXAMPLES / "graph_layers.py"),
                     str(EXAMPLES / "graph_layers.py"), "-p", "convert-to-ssa")
    assert (result.code, result.out) == (0, "")


def test_diff_trouble_is_exit_2(capsys, tmp_path):
    broken = tmp_path / "broken.py"
    broken.write_text("import pypto.language as pl\n\n@pl.function\ndef f(x: pl.Tensor[[8], "
                      "pl.FP32]) -> pl.Tensor[[8], pl.FP32]:\n    return y\n", encoding="utf-8")
    result = run_cli(capsys, "diff", str(broken), str(EXAMPLES / "decoder.py"))
    assert result.code == 2
    assert "Undefined variable 'y'" in result.err and "Traceback" not in result.err
    result = run_cli(capsys, "diff", str(EXAMPLES / "decoder.py"))
    assert result.code == 2 and "the following arguments are required: B" in result.err
    result = run_cli(capsys, "diff", "-U", "-1", str(EXAMPLES / "decoder.py"),
                     str(EXAMPLES / "decoder.py"))
    assert result.code == 2 and "-U: the number of context lines must be 0 or more" in result.err

"""Every example compiles through ``pypto compile`` in a separate process, and what it
prints is DSL text that reparses (and reprints identically)."""

from __future__ import annotations

import os
import runpy
import subprocess
import sys
from pathlib import Path

import pytest

import pypto.language as pl
from pypto import ir

REPO = Path(__file__).resolve().parents[2]
EXAMPLES = REPO / "examples"
F = ir.FunctionType

# (file, --entry or None) -> {function name: function type} after the default pipeline
EXPECTED: dict[tuple[str, str | None], dict[str, ir.FunctionType]] = {
    ("graph_layers.py", None): {
        "accumulate_band": F.Graph, "accumulate_band_incore_0": F.InCore,
        "entry": F.Orchestration},
    ("hierarchy_levels.py", None): {
        "main": F.Opaque, "main_global_orch_0": F.Opaque,
        "main_global_orch_0_host_orch_0": F.Opaque,
        "main_global_orch_0_host_orch_0_chip_0": F.Orchestration,
        "main_global_orch_0_host_orch_0_chip_0_incore_0": F.InCore},
    ("hierarchy_seed.py", "SingleScope"): {"main": F.Opaque, "main_host_orch_0": F.Opaque},
    ("hierarchy_seed.py", "NestedScopes"): {
        "main": F.Opaque, "main_global_orch_0": F.Opaque,
        "main_global_orch_0_host_orch_0": F.Opaque},
    ("decoder.py", None): {
        "decode": F.Orchestration, "decoder_layer": F.Graph, "linear_residual": F.InCore,
        "rms_norm": F.InCore},
    ("jit_entry.py", None): {"scaled_add": F.Orchestration, "scaled_add_kernel": F.InCore},
}


def python(*args: str) -> subprocess.CompletedProcess:
    env = {k: v for k, v in os.environ.items() if k not in ("FORCE_COLOR", "PTO_BACKTRACE")}
    env["NO_COLOR"] = "1"
    return subprocess.run([sys.executable, *args], cwd=REPO, env=env, capture_output=True,
                          text=True, timeout=300)


def compile_example(name: str, entry: str | None) -> str:
    args = ["-m", "pypto", "compile", f"examples/{name}"] + (["--entry", entry] if entry else [])
    proc = python(*args)
    assert (proc.returncode, proc.stderr) == (0, ""), proc.stderr
    return proc.stdout


# PyPTO-style scripts: they run their @pl.jit program on the CPU and check a golden.
# script -> the lines it prints on success (for one array library)
SCRIPTS: dict[str, list[str]] = {
    "elementwise.py": ["elementwise: OK"],
    "matmul.py": ["matmul: OK"],
    "softmax.py": ["softmax: OK"],
    "normalization.py": ["normalization: OK"],
    "assemble.py": ["assemble: OK"],
    "dynamic_valid_shapes.py": ["dynamic_valid_shapes[40 rows]: OK",
                                "dynamic_valid_shapes[72 rows]: OK",
                                "compiled once for both row counts: "
                                "CacheInfo(hits=1, misses=1, size=1)"],
    "task_graph.py": ["task_graph[scratch]: OK", "task_graph[y]: OK"],
    "paged_attention.py": ["paged_attention: OK"],
    "transformer_layer.py": ["transformer_layer: OK"],
    "distributed_ranks.py": ["distributed_ranks[ring]: OK", "distributed_ranks[allreduce]: OK"],
}


SCRIPT_DIR = EXAMPLES / "scripts"


def test_every_example_is_covered():
    assert {name for name, _ in EXPECTED} == {p.name for p in EXAMPLES.glob("*.py")}
    assert set(SCRIPTS) == {p.name for p in SCRIPT_DIR.glob("*.py") if not p.name.startswith("_")}


def run_script(name: str, library: str, monkeypatch, capsys) -> list[str]:
    """Run an example script in this process (so the test harness's pass checks apply)."""
    monkeypatch.syspath_prepend(str(SCRIPT_DIR))
    monkeypatch.setattr(sys, "argv", [str(SCRIPT_DIR / name)] + (["--numpy"] if library == "numpy"
                                                                   else []))
    for module in ("_arrays", name[:-3]):
        monkeypatch.delitem(sys.modules, module, raising=False)
    runpy.run_path(str(SCRIPT_DIR / name), run_name="__main__")
    return capsys.readouterr().out.splitlines()


@pytest.mark.parametrize("name", sorted(SCRIPTS))
def test_script_runs_its_jit_program_on_the_cpu_and_its_golden_check_passes(name, monkeypatch,
                                                                              capsys):
    lines = run_script(name, "numpy", monkeypatch, capsys)
    assert lines == [line.replace(": OK", ": OK (numpy)") if line.endswith(": OK") else line
                     for line in SCRIPTS[name]]


@pytest.mark.parametrize("name", sorted(SCRIPTS))
def test_script_with_torch_tensors(name, monkeypatch, capsys):
    pytest.importorskip("torch")
    lines = run_script(name, "torch", monkeypatch, capsys)
    assert lines == [line.replace(": OK", ": OK (torch)") if line.endswith(": OK") else line
                     for line in SCRIPTS[name]]


@pytest.mark.parametrize("name, entry", list(EXPECTED), ids=lambda v: str(v))
def test_example_compiles_and_reparses(name, entry):
    text = compile_example(name, entry)
    program = pl.parse(text)
    assert isinstance(program, ir.Program)
    assert program.as_python() + "\n" == text
    assert {f.name: f.func_type for f in program.functions.values()} == EXPECTED[(name, entry)]


@pytest.mark.parametrize("name, entry", list(EXPECTED), ids=lambda v: str(v))
def test_compiling_the_printed_output_again_is_a_fixpoint(name, entry, tmp_path):
    # `pypto compile -o` output compiled again: the same text (it used to fail with
    # "shadows a variable ... defined in an enclosing scope").
    first = tmp_path / "compiled.py"
    first.write_text(compile_example(name, entry))
    proc = python("-m", "pypto", "compile", str(first))
    assert (proc.returncode, proc.stderr) == (0, ""), proc.stderr
    assert proc.stdout == first.read_text()


def test_graph_layers_matches_the_design_note():
    program = pl.parse(compile_example("graph_layers.py", None))
    graph = program["accumulate_band"]
    assert (graph.level, graph.role) == (ir.Level.CHIP, ir.Role.Orchestrator)
    # LegalizeGraphBoundary moved `base = i * ROWS` to the call site: a new last parameter.
    assert [p.name_hint for p in graph.params] == \
        ["i__idx_v0", "w__ssa_v0", "acc__ssa_v0", "base__ssa_v0"]
    assert graph.param_directions[2] is ir.ParamDirection.InOut
    assert "self.accumulate_band(i__idx_v0, w__ssa_v0, acc__iter_v0, i__idx_v0 * 8)" in \
        program.as_python()


def test_decoder_region_becomes_one_graph_call_per_layer():
    text = compile_example("decoder.py", None)
    program = pl.parse(text)
    layer = program["decoder_layer"]
    directions = dict(zip((p.name_hint for p in layer.params), layer.param_directions))
    assert directions["h__iter_v1"] is ir.ParamDirection.InOut
    assert directions["normed__iter_v1"] is ir.ParamDirection.InOut
    assert text.count("self.decoder_layer(") == 1
    assert "layer__idx_v0 * 64)" in text  # the layer's weight row, computed at the call


@pytest.mark.parametrize("name", ["graph_layers.py", "hierarchy_levels.py", "decoder.py",
                                  "jit_entry.py"])
def test_running_the_example_prints_the_same_program(name):
    proc = python(f"examples/{name}")
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout == compile_example(name, None)


def test_running_hierarchy_seed_prints_both_outlined_programs():
    proc = python("examples/hierarchy_seed.py")
    assert proc.returncode == 0, proc.stderr
    expected = ""
    for entry in ("SingleScope", "NestedScopes"):
        result = python("-m", "pypto", "compile", "examples/hierarchy_seed.py", "--entry", entry,
                        "-p", "convert-to-ssa,outline-hierarchy-scopes")
        expected += result.stdout + "\n"
    assert proc.stdout == expected

"""``pypto passes``, ``--version``, ``--help``."""

from __future__ import annotations

import pypto
from pypto import passes

from _cli_helpers import run_cli, run_process


def test_passes_lists_every_registered_pass_with_its_properties(capsys):
    result = run_cli(capsys, "passes")
    assert (result.code, result.err) == (0, "")
    lines = result.out.splitlines()
    assert lines[0] == ("Registered passes. The default pipeline runs passes 1-9 in this "
                        "order; -p takes the names in the first column.")
    assert lines[2:8] == [
        " 1. inline-functions           InlineFunctions          program pass",
        "      Splice every FunctionType.Inline function into its call sites and drop it.",
        "      requires:    -",
        "      produces:    InlineFunctionsEliminated",
        "      invalidates: -",
        "",
    ]
    flatten = lines.index(" 4. flatten-call-expr          FlattenCallExpr          function pass")
    assert lines[flatten + 2:flatten + 5] == [
        "      requires:    SSAForm, NormalizedStmtStructure",
        "      produces:    SSAForm, NoNestedCalls, NormalizedStmtStructure",
        "      invalidates: -",
    ]
    assert ("    run-verifier               IRVerifier               program pass "
            "(not in the default pipeline)") in lines
    for spec in passes.list_passes():
        assert sum(spec.cli_name in line and spec.name in line for line in lines) == 1


def test_passes_listing_follows_the_default_pipeline_order(capsys):
    lines = run_cli(capsys, "passes").out.splitlines()
    numbered = [line.split()[2] for line in lines if line[:3].strip().rstrip(".").isdigit()]
    assert numbered == __import__("pypto").ir.PassManager.get_strategy().pass_names


def test_version(capsys):
    result = run_cli(capsys, "--version")
    assert (result.code, result.out, result.err) == (0, f"pypto {pypto.__version__}\n", "")


def test_help_names_the_commands(capsys):
    result = run_cli(capsys, "--help")
    assert result.code == 0
    assert result.out.startswith("usage: pypto [-h] [--version] COMMAND ...\n")
    for command in ("compile", "check", "passes"):
        assert f"    {command} " in result.out


def test_compile_help(capsys):
    result = run_cli(capsys, "compile", "--help")
    assert result.code == 0
    for option in ("-p PIPELINE", "--entry NAME", "--print-after-all", "--dump-dir DIR",
                   "-o OUT"):
        assert option in result.out


def test_python_dash_m_help_uses_the_command_name():
    result = run_process("--help")
    assert result.code == 0
    assert result.out.startswith("usage: pypto ")

"""Seeing the pipeline: ``--print-before/after[-all]``, ``--print-changed``,
``--print-on-failure``, ``--time-passes``, ``--pass-statistics`` -- and the same
instruments through the Python API."""

from __future__ import annotations

import io
import re

import pytest

import pypto.language as pl
from pypto import ir, passes

from _cli_helpers import EXAMPLES, run_cli, write

GRAPH = str(EXAMPLES / "graph_layers.py")
DEFAULT = ["InlineFunctions", "ConvertToSSA", "NormalizeStmtStructure", "FlattenCallExpr",
           "OutlineHierarchyScopes", "OutlineGraphScopes", "OutlineIncoreScopes",
           "OutlineClusterScopes", "LegalizeGraphBoundary"]
HEADER = re.compile(r"^# ===== IR (before|after) (\w+) \(pass (\d+) of (\d+)\)(.*) =====$")


def headers(err: str) -> list[tuple[str, str, int, str]]:
    found = []
    for line in err.splitlines():
        match = HEADER.match(line)
        if match:
            assert match.group(4) == str(len(DEFAULT))
            found.append((match.group(1), match.group(2), int(match.group(3)), match.group(5)))
    return found


def test_print_after_names_passes_in_any_spelling(capsys):
    result = run_cli(capsys, "compile", GRAPH, "--print-after=convert-to-ssa,OutlineGraphScopes")
    assert result.code == 0
    assert headers(result.err) == [("after", "ConvertToSSA", 2, ""),
                                   ("after", "OutlineGraphScopes", 6, "")]
    # stdout is the program alone; each dump is a whole program that parses back.
    assert result.out.startswith("# pypto.program: GraphLayers\n")
    dumps = re.split(r"^# ===== .* =====\n", result.err, flags=re.M)[1:]
    assert all(isinstance(pl.parse(d), ir.Program) for d in dumps)


def test_print_before_and_the_all_variants(capsys):
    before = run_cli(capsys, "compile", GRAPH, "--print-before", "flatten_call_expr")
    assert headers(before.err) == [("before", "FlattenCallExpr", 4, "")]
    everything = run_cli(capsys, "compile", GRAPH, "--print-before-all", "--print-after-all")
    shown = headers(everything.err)
    assert [(w, n) for w, n, _, _ in shown] == [
        (when, name) for name in DEFAULT for when in ("before", "after")]


def test_print_changed_skips_passes_that_returned_their_input(capsys):
    result = run_cli(capsys, "compile", GRAPH, "--print-changed")
    shown = [name for _, name, _, _ in headers(result.err)]
    assert shown == ["ConvertToSSA", "FlattenCallExpr", "OutlineGraphScopes",
                     "OutlineIncoreScopes", "LegalizeGraphBoundary"]
    only = run_cli(capsys, "compile", GRAPH, "--print-changed",
                   "--print-after=inline-functions,convert-to-ssa")
    assert [name for _, name, _, _ in headers(only.err)] == ["ConvertToSSA"]


def test_print_on_failure_shows_what_the_failing_pass_saw(capsys, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    write(tmp_path, "while_carry.py", """
        import pypto.language as pl

        T = pl.Tensor[[64], pl.FP32]

        @pl.program
        class CarriedCondition:
            @pl.function
            def main(self, x: T) -> T:
                k = 0
                while pl.tensor.read(x, [k]) > 0.0:
                    k = k + 1
                y = pl.tensor.adds(x, k)
                return y
    """)
    result = run_cli(capsys, "compile", "while_carry.py", "--print-on-failure")
    assert result.code == 1
    assert headers(result.err) == [("before", "FlattenCallExpr", 4, ", which failed")]
    dump = result.err.split(" =====\n", 1)[1].split("\nError: ", 1)[0]
    assert "pl.cond(pl.tensor.read(x__ssa_v0, [k__iter_v1]) > 0.0)" in dump
    assert "\nError: FlattenCallExpr: in function 'main': the while condition" in result.err
    quiet = run_cli(capsys, "compile", "while_carry.py")
    assert headers(quiet.err) == []


def test_a_pass_not_in_the_pipeline_or_unknown_is_a_usage_error(capsys):
    absent = run_cli(capsys, "compile", GRAPH, "-p", "convert-to-ssa",
                     "--print-after=outline-graph-scopes")
    assert absent.code == 2
    assert absent.err == ("pypto: error: --print-after: pass 'outline-graph-scopes' is not in "
                          "the pipeline being run (convert-to-ssa)\n")
    unknown = run_cli(capsys, "compile", GRAPH, "--print-before=convert-to-sa")
    assert unknown.code == 2
    assert unknown.err.startswith("pypto: error: --print-before: Unknown pass 'convert-to-sa'")


def test_time_passes_prints_a_table_of_every_pass(capsys):
    result = run_cli(capsys, "compile", GRAPH, "--time-passes")
    assert result.code == 0
    lines = result.err.splitlines()
    assert lines[1] == "Pass execution timing report".center(79).rstrip()
    assert re.fullmatch(r"  Total Execution Time: \d+\.\d{4} seconds", lines[3])
    assert lines[5] == "  ----Wall Time----  ----Name----"
    rows = [re.fullmatch(r"\s+(\d+\.\d{4}) \(\s*(\d+\.\d)%\)  (\w+)", line) for line in lines[6:]]
    assert [r.group(3) for r in rows] == DEFAULT + ["Total"]
    assert abs(sum(float(r.group(1)) for r in rows[:-1]) - float(rows[-1].group(1))) < 1e-3


def test_pass_statistics_count_functions_regions_and_statements(capsys):
    result = run_cli(capsys, "compile", GRAPH, "--pass-statistics")
    lines = result.err.splitlines()
    assert lines[0] == "Pass statistics (before -> after)"
    rows = {line.split()[1]: line.split()[2:] for line in lines[2:]}
    assert list(rows) == DEFAULT
    # functions, regions, statements as "a -> b" triples
    assert rows["OutlineGraphScopes"][:6] == ["1", "->", "2", "2", "->", "1"]
    assert rows["OutlineIncoreScopes"][:6] == ["2", "->", "3", "1", "->", "0"]
    assert rows["InlineFunctions"][:6] == ["1", "->", "1", "2", "->", "2"]


def test_the_tables_are_printed_when_a_pass_fails(capsys):
    result = run_cli(capsys, "compile", str(EXAMPLES / "decoder.py"), "-p",
                     "outline-graph-scopes", "--time-passes")
    assert result.code == 1
    assert "  Total Execution Time: 0.0000 seconds" in result.err


# -- the same through the Python API -------------------------------------------------

def _graph_program() -> ir.Program:
    import runpy
    return runpy.run_path(GRAPH, run_name="graph")["GraphLayers"]


def test_instruments_in_a_pass_context():
    stream = io.StringIO()
    printer = passes.PrintIRInstrument(after=["ConvertToSSA"], stream=stream)
    timing = passes.PassTimingInstrument()
    counts = passes.PassStatisticsInstrument()
    with passes.PassContext([printer, timing, counts]):
        compiled = ir.PassManager.get_strategy().run_passes(_graph_program())
    assert stream.getvalue().startswith("# ===== IR after ConvertToSSA (pass 2) =====\n")
    assert [name for name, _ in timing.timings] == DEFAULT
    assert all(seconds >= 0 for _, seconds in timing.timings)
    assert timing.report().splitlines()[-1].endswith("  Total")
    first, before, after = counts.rows[-1]
    assert first == "LegalizeGraphBoundary" and after == passes.ir_statistics(compiled)
    assert counts.rows[5][1:] == (passes.IRStatistics(1, 2, 9), passes.IRStatistics(2, 1, 11))


def test_the_failure_hook_sees_the_output_whose_verification_failed():
    seen = []

    class Broken(passes.PassInstrument):
        def run_on_failure(self, pass_, program, error):
            seen.append((pass_.get_name(), type(error).__name__))

    def breaks_ssa(func):  # a pass that claims SSA form but rebinds a name
        x = func.params[0]
        body = ir.SeqStmts([ir.AssignStmt(x, x), ir.AssignStmt(x, x), ir.ReturnStmt([x])])
        return func.replace(body=body)

    liar = passes.Pass("Liar", breaks_ssa, kind="function",
                       produced=[passes.IRProperty.SSAForm])
    x = ir.Var("x", ir.TensorType([4], ir.DataType.FP32))
    program = ir.Program([ir.Function("f", [x], [x.type], ir.ReturnStmt([x]))], "P")
    with passes.PassContext([Broken()]):
        with pytest.raises(passes.VerificationError):
            passes.PassPipeline([liar]).run(program)
    assert seen == [("Liar", "VerificationError")]


def test_function_passes_report_each_function():
    done = []

    class Counter(passes.PassInstrument):
        def run_after_function(self, pass_, finished, total):
            done.append((pass_.get_name(), finished, total))

    with passes.PassContext([Counter()]):
        passes.convert_to_ssa()(_graph_program())
    assert done == [("ConvertToSSA", 1, 1)]

"""``pypto check``: parse and verify, diagnostics for every failing file."""

from __future__ import annotations

import pytest

from _cli_helpers import EXAMPLES, run_cli, write
from _user_programs import OFFSETS, RUN_OFFSETS

NESTED_CALL = """
    import pypto.language as pl

    T = pl.Tensor[[64], pl.FP32]

    @pl.program
    class Nested:
        @pl.function
        def main(self, x: T) -> T:
            y = pl.add(pl.mul(x, x), x)
            return y
"""

UNDEFINED = """
    import pypto.language as pl

    @pl.function
    def f(x: pl.Tensor[[8], pl.FP32]) -> pl.Tensor[[8], pl.FP32]:
        return z
"""


@pytest.fixture
def in_tmp(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    return tmp_path


def test_every_example_checks_clean(capsys, monkeypatch):
    monkeypatch.chdir(EXAMPLES.parent)
    names = sorted(p.name for p in EXAMPLES.glob("*.py"))
    result = run_cli(capsys, "check", *[f"examples/{n}" for n in names])
    assert (result.code, result.err) == (0, "")
    assert result.out == "".join(f"examples/{n}: ok\n" for n in names) + \
        f"checked {len(names)} files: {len(names)} ok, 0 failed\n"


def test_one_file_prints_no_summary(in_tmp, capsys):
    write(in_tmp, "nested.py", NESTED_CALL)
    assert run_cli(capsys, "check", "nested.py").out == "nested.py: ok\n"


def test_the_default_props_leave_ssa_and_nested_calls_to_the_front_passes(in_tmp, capsys):
    # Parser output is neither in SSA form nor flat; both come from the pipeline.
    write(in_tmp, "nested.py", NESTED_CALL)
    assert run_cli(capsys, "check", "nested.py").code == 0
    strict = run_cli(capsys, "check", "--props", "default", "nested.py")
    assert strict.code == 1
    assert strict.out == "nested.py: failed (1 error)\n"
    assert strict.err == (
        "Error: [NoNestedCall] Call to 'tensor.mul' is nested inside an argument of "
        "'tensor.add'\n"
        "  --> nested.py:9:9\n"
        "   |\n"
        " 7 |     @pl.function\n"
        " 8 |     def main(self, x: T) -> T:\n"
        " 9 |         y = pl.add(pl.mul(x, x), x)\n"
        "   |         ^\n"
        "10 |         return y\n"
        "   |\n")


def test_named_properties(in_tmp, capsys):
    write(in_tmp, "nested.py", NESTED_CALL)
    assert run_cli(capsys, "check", "--props", "TypeChecked, UseAfterDef", "nested.py").code == 0
    assert run_cli(capsys, "check", "--props", "NoNestedCalls", "nested.py").code == 1
    assert run_cli(capsys, "check", "--props", "structural", "nested.py").code == 0


def test_warnings_are_reported_but_do_not_fail(in_tmp, capsys):
    write(in_tmp, "orch.py", """
        import pypto.language as pl

        T = pl.Tensor[[64], pl.FP32]

        @pl.function(type=pl.FunctionType.Orchestration)
        def orch(x: T) -> T:
            y = pl.add(x, x)
            return y
    """)
    result = run_cli(capsys, "check", "--props", "SplitIncoreOrch", "orch.py")
    assert (result.code, result.out) == (0, "orch.py: ok\n")
    assert result.err == ("Warning: [SplitIncoreOrch] Compute tensor op 'tensor.add' found in "
                          "Orchestration function (should be inside InCore)\n"
                          "  --> orch.py:7:5\n"
                          "  |\n"
                          "5 | @pl.function(type=pl.FunctionType.Orchestration)\n"
                          "6 | def orch(x: T) -> T:\n"
                          "7 |     y = pl.add(x, x)\n"
                          "  |     ^\n"
                          "8 |     return y\n"
                          "  |\n")
    short = run_cli(capsys, "check", "--format=short", "--props", "SplitIncoreOrch", "orch.py")
    assert (short.code, short.out) == (0, (
        "orch.py:7:5: warning[V005]: [SplitIncoreOrch] Compute tensor op 'tensor.add' found "
        "in Orchestration function (should be inside InCore)\n"
        "found 0 errors and 1 warning in 1 file (checked 1 file)\n"))


def test_failing_files_do_not_stop_the_others(in_tmp, capsys):
    write(in_tmp, "bad.py", UNDEFINED)
    write(in_tmp, "good.py", NESTED_CALL)
    result = run_cli(capsys, "check", "bad.py", "missing.py", "good.py")
    assert result.code == 2  # a file that is not there is a usage error; it outranks 1
    assert result.out == ("bad.py: failed (1 error)\nmissing.py: not checked\ngood.py: ok\n"
                          "checked 3 files: 1 ok, 1 failed, 1 not checked\n")
    assert result.err.startswith("Error: Undefined variable 'z'\n  --> bad.py:5:12\n")
    assert result.err.endswith("pypto: error: no such file: 'missing.py'\n")


def test_every_program_of_a_file_is_checked(in_tmp, capsys):
    write(in_tmp, "two.py", NESTED_CALL + """
    @pl.program
    class Loop:
        @pl.function
        def main(self, x: T) -> T:
            for i in pl.range(4):
                x = pl.add(x, x)
            return x
    """)
    result = run_cli(capsys, "check", "--props", "SSAForm", "two.py")
    assert result.code == 1
    assert result.out == "two.py: failed (1 error)\n"
    assert result.err.startswith("Error: [SSAVerify] Variable 'x' is assigned more than once")


def test_a_file_without_programs_has_nothing_to_check(in_tmp, capsys):
    write(in_tmp, "empty.py", "ROWS = 8\n")
    result = run_cli(capsys, "check", "empty.py")
    assert (result.code, result.out, result.err) == (0, "empty.py: nothing to check\n", "")


RUN_AT_MODULE_LEVEL = ("import numpy as np\nimport pypto\nimport pypto.language as pl\n\n"
                       "T = pl.Tensor[[64], pl.FP32]\n\n" + OFFSETS + "\n" + RUN_OFFSETS)

JIT_CALL_AT_MODULE_LEVEL = """
    import numpy as np
    import pypto.language as pl

    @pl.jit
    def scale(x: pl.Tensor[[64], pl.FP32], out: pl.Out[pl.Tensor]):
        out = pl.mul(x, 2.0)
        return out

    scale(np.ones(64, np.int32), np.zeros(64, np.float32))
"""


def test_a_run_failing_in_the_files_own_code_is_reported_where_the_program_failed(
        in_tmp, capsys):
    pytest.importorskip("numpy")
    write(in_tmp, "runs.py", RUN_AT_MODULE_LEVEL)
    result = run_cli(capsys, "check", "--format", "short", "runs.py")
    assert result.code == 1
    assert result.out.splitlines()[0] == (
        "runs.py:11:13: error[R000]: tile.load: offsets [8] + shape [64] exceed tensor "
        "shape [64] (in function 'k')")
    full = run_cli(capsys, "check", "runs.py")
    assert "   = note: 'k' was called at runs.py:17:13; run from runs.py:20" in full.err


def test_a_jit_call_of_the_files_own_code_is_reported_at_the_parameter(in_tmp, capsys):
    pytest.importorskip("numpy")
    write(in_tmp, "calls.py", JIT_CALL_AT_MODULE_LEVEL)
    result = run_cli(capsys, "check", "--format", "short", "calls.py")
    assert result.code == 1
    assert result.out.splitlines()[0] == (
        "calls.py:5:11: error[E403]: scale(): parameter 'x' is annotated "
        "pl.Tensor[[64], pl.FP32] but the argument's dtype is INT32")
    full = run_cli(capsys, "check", "calls.py")
    assert full.err.rstrip().endswith("   = note: in the call at calls.py:9:1")

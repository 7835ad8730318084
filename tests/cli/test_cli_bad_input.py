"""Every user mistake ends in a one-line message or a rendered diagnostic, a non-zero
exit status, and no Python traceback."""

from __future__ import annotations

import pytest

from pypto import passes

from _cli_helpers import EXAMPLES, run_cli, run_process, write

GOOD = """
    import pypto.language as pl

    @pl.function
    def f(x: pl.Tensor[[8], pl.FP32]) -> pl.Tensor[[8], pl.FP32]:
        y = pl.add(x, x)
        return y
"""

VALID_PASSES = (
    "inline-functions (InlineFunctions, inline_functions), convert-to-ssa (ConvertToSSA, "
    "convert_to_ssa), normalize-stmt-structure (NormalizeStmtStructure, "
    "normalize_stmt_structure), flatten-call-expr (FlattenCallExpr, flatten_call_expr), "
    "outline-hierarchy-scopes (OutlineHierarchyScopes, outline_hierarchy_scopes), "
    "outline-graph-scopes (OutlineGraphScopes, outline_graph_scopes), outline-incore-scopes "
    "(OutlineIncoreScopes, outline_incore_scopes), outline-cluster-scopes "
    "(OutlineClusterScopes, outline_cluster_scopes), legalize-graph-boundary "
    "(LegalizeGraphBoundary, legalize_graph_boundary), simplify (Simplify, simplify), "
    "unroll-loops (UnrollLoops, unroll_loops), derive-call-directions (DeriveCallDirections, "
    "derive_call_directions), normalize-return-order (NormalizeReturnOrder, "
    "normalize_return_order), canonicalize-io-order (CanonicalizeIOOrder, "
    "canonicalize_io_order), classify-iter-arg-carry (ClassifyIterArgCarry, "
    "classify_iter_arg_carry), run-verifier (IRVerifier, run_verifier)")


@pytest.fixture
def in_tmp(tmp_path, monkeypatch):
    """Run from ``tmp_path`` so that messages show short relative file names."""
    monkeypatch.chdir(tmp_path)
    return tmp_path


def assert_usage_error(result, message: str) -> None:
    assert result.code == 2
    assert result.out == ""
    assert result.err == f"pypto: error: {message}\n"


# -- the command line itself (exit 2, one line) -----------------------------------------

def test_unknown_pass_lists_the_valid_names(in_tmp, capsys):
    write(in_tmp, "f.py", GOOD)
    result = run_cli(capsys, "compile", "f.py", "-p", "convert-to-ssa,outline-everything")
    assert_usage_error(result, f"-p: Unknown pass 'outline-everything'; valid passes: "
                               f"{VALID_PASSES}")


def test_missing_file(in_tmp, capsys):
    assert_usage_error(run_cli(capsys, "compile", "nowhere.py"), "no such file: 'nowhere.py'")


def test_directory_instead_of_file(in_tmp, capsys):
    (in_tmp / "pkg").mkdir()
    assert_usage_error(run_cli(capsys, "compile", "pkg"), "'pkg' is a directory, not a file")


def test_unknown_option(in_tmp, capsys):
    write(in_tmp, "f.py", GOOD)
    assert_usage_error(run_cli(capsys, "compile", "f.py", "--optimize"),
                       "unrecognized arguments: --optimize (see 'pypto --help')")


def test_option_missing_its_value(capsys):
    assert_usage_error(run_cli(capsys, "compile", "f.py", "-p"),
                       "argument -p/--passes: expected one argument "
                       "(see 'pypto compile --help')")


def test_no_command(capsys):
    assert_usage_error(run_cli(capsys),
                       "a command is required: compile, check, passes, graph or diff (see 'pypto --help')")


def test_unknown_command(capsys):
    assert_usage_error(run_cli(capsys, "build", "f.py"),
                       "argument COMMAND: invalid choice: 'build' (choose from 'compile', "
                       "'check', 'passes', 'graph', 'diff') (see 'pypto --help')")


def test_no_program_in_the_file(in_tmp, capsys):
    write(in_tmp, "empty.py", "ROWS = 8\n")
    assert_usage_error(run_cli(capsys, "compile", "empty.py"),
                       "empty.py defines no @pl.program, @pl.function or @pl.jit entry at "
                       "module level")


def test_several_programs_without_entry_lists_them(capsys, monkeypatch):
    monkeypatch.chdir(EXAMPLES.parent)
    assert_usage_error(run_cli(capsys, "compile", "examples/hierarchy_seed.py"),
                       "examples/hierarchy_seed.py defines 2 entries (SingleScope "
                       "(@pl.program), NestedScopes (@pl.program)); choose one with "
                       "--entry NAME")


def test_unknown_entry_lists_what_exists(capsys, monkeypatch):
    monkeypatch.chdir(EXAMPLES.parent)
    assert_usage_error(run_cli(capsys, "compile", "examples/hierarchy_seed.py", "--entry", "Main"),
                       "no entry named 'Main' in examples/hierarchy_seed.py (found: "
                       "SingleScope (@pl.program), NestedScopes (@pl.program))")


def test_text_file_with_two_functions(in_tmp, capsys):
    (in_tmp / "two.pto").write_text(
        "@pl.function\ndef a(x: pl.Tensor[[4], pl.FP32]) -> pl.Tensor[[4], pl.FP32]:\n"
        "    return x\n"
        "@pl.function\ndef b(x: pl.Tensor[[4], pl.FP32]) -> pl.Tensor[[4], pl.FP32]:\n"
        "    return x\n", encoding="utf-8")
    assert_usage_error(run_cli(capsys, "compile", "two.pto"),
                       "Multiple functions/programs found in two.pto: a, b")


def test_output_path_is_a_directory(in_tmp, capsys):
    write(in_tmp, "f.py", GOOD)
    (in_tmp / "out").mkdir()
    assert_usage_error(run_cli(capsys, "compile", "f.py", "-o", "out"),
                       "-o: 'out' is a directory")


def test_dump_dir_is_a_file(in_tmp, capsys):
    write(in_tmp, "f.py", GOOD)
    write(in_tmp, "dump", "not a directory\n")
    assert_usage_error(run_cli(capsys, "compile", "f.py", "--dump-dir", "dump"),
                       "--dump-dir: 'dump' exists and is not a directory")


def test_bad_backtrace_setting(capsys, monkeypatch):
    monkeypatch.setenv("PTO_BACKTRACE", "yes")
    assert_usage_error(run_cli(capsys, "passes"),
                       "Invalid value 'yes' for environment variable PTO_BACKTRACE: valid "
                       "values are '0' (or unset) and '1'")


def test_bad_check_properties(in_tmp, capsys):
    write(in_tmp, "f.py", GOOD)
    result = run_cli(capsys, "check", "--props", "SSAForm,Typechecked", "f.py")
    assert result.code == 2
    assert result.err.startswith("pypto: error: --props: unknown IR property 'Typechecked'; "
                                 "valid properties: SSAForm, TypeChecked, NoNestedCalls, ")
    assert result.err.count("\n") == 1


# -- the user's program (exit 1, rendered) ----------------------------------------------

def test_python_syntax_error_is_rendered(in_tmp, capsys):
    write(in_tmp, "broken.py", """
        import pypto.language as pl

        def f(x:
            return x
    """)
    result = run_cli(capsys, "compile", "broken.py")
    assert (result.code, result.out) == (1, "")
    assert result.err == (
        "Error: SyntaxError: '(' was never closed\n"
        "  --> broken.py:3:6\n"
        "  |\n"
        "1 | import pypto.language as pl\n"
        "2 |\n"
        "3 | def f(x:\n"
        "  |      ^ SyntaxError: '(' was never closed\n"
        "4 |     return x\n"
        "  |\n")


def test_dsl_error_shows_the_line_and_a_caret(in_tmp, capsys):
    write(in_tmp, "model.py", """
        import pypto.language as pl


        @pl.program
        class Model:
            @pl.function
            def main(self, x: pl.Tensor[[8], pl.FP32]) -> pl.Tensor[[8], pl.FP32]:
                y = pl.add(x, x)
                return acc
    """)
    result = run_cli(capsys, "compile", "model.py")
    assert (result.code, result.out) == (1, "")
    assert result.err == (
        "Error: Undefined variable 'acc'\n"
        "  --> model.py:9:16\n"
        "  |\n"
        "7 |     def main(self, x: pl.Tensor[[8], pl.FP32]) -> pl.Tensor[[8], pl.FP32]:\n"
        "8 |         y = pl.add(x, x)\n"
        "9 |         return acc\n"
        "  |                ^^^ Undefined variable 'acc'\n"
        "  |\n")


def test_exception_in_the_users_module_code_points_at_its_line(in_tmp, capsys):
    write(in_tmp, "setup.py", """
        import pypto.language as pl

        SIZES = {"rows": 8}
        ROWS = SIZES["cols"]
    """)
    result = run_cli(capsys, "compile", "setup.py")
    assert (result.code, result.out) == (1, "")
    assert result.err == (
        "Error: KeyError: 'cols'\n"
        "  --> setup.py:4:1\n"
        "  |\n"
        "2 |\n"
        "3 | SIZES = {\"rows\": 8}\n"
        "4 | ROWS = SIZES[\"cols\"]\n"
        "  | ^^^^ KeyError: 'cols'\n"
        "  |\n")


def test_sys_exit_while_loading(in_tmp, capsys):
    write(in_tmp, "quits.py", "import sys\nsys.exit(3)\n")
    result = run_cli(capsys, "compile", "quits.py")
    assert (result.code, result.err) == (1, "Error: quits.py called sys.exit(3) while loading\n")


def test_a_pass_refusal_points_at_the_statement(in_tmp, capsys):
    write(in_tmp, "while_carry.py", """
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
    result = run_cli(capsys, "compile", "while_carry.py")
    assert (result.code, result.out) == (1, "")
    assert result.err == (
        "Error: FlattenCallExpr: in function 'main': the while condition calls 'tensor.read' "
        "on the loop-carried value 'k'; a call hoisted before the loop cannot see "
        "it. Compute the condition value in the loop body and yield it\n"
        "  --> while_carry.py:10:9\n"
        "   |\n"
        " 8 |     def main(self, x: T) -> T:\n"
        " 9 |         k = 0\n"
        "10 |         while pl.tensor.read(x, [k]) > 0.0:\n"
        "   |         ^^^^^\n"
        "11 |             k = k + 1\n"
        "12 |         y = pl.tensor.adds(x, k)\n"
        "   |\n")


def test_pass_precondition_error_names_the_missing_pass():
    # A separate process: no test-harness context, exactly what a user gets.
    result = run_process("compile", "examples/decoder.py", "-p", "outline-graph-scopes")
    assert (result.code, result.out) == (1, "")
    lines = result.err.splitlines()
    assert lines[:4] == [
        "Error: pass 'outline-graph-scopes' cannot run: its input lacks SSAForm",
        "   = help: run convert-to-ssa before outline-graph-scopes (it produces SSAForm)",
        "",
        "Error: [SSAVerify] Variable 'normed' is assigned more than once (3 times), violating "
        "SSA form (in function 'decode')"]
    assert "  --> examples/decoder.py:65:17" in lines
    assert "65 |                 normed = self.rms_norm(h, normed)" in lines
    assert lines[-1] == "found 3 errors"
    assert "Traceback" not in result.err


def test_precondition_check_yields_to_an_enclosing_verification_instrument(capsys,
                                                                            monkeypatch):
    monkeypatch.chdir(EXAMPLES.parent)
    instrument = passes.VerificationInstrument(passes.VerificationMode.BEFORE)
    with passes.PassContext([instrument]):
        result = run_cli(capsys, "compile", "examples/decoder.py", "-p", "outline-graph-scopes")
    # The instrument's VerificationError, shown as snippets that say where it ran.
    assert result.code == 1
    assert result.err.startswith("Error: [SSAVerify] Variable 'normed' is assigned more than "
                                 "once (3 times), violating SSA form (in function 'decode')\n"
                                 "  --> examples/decoder.py:65:17\n")
    assert "   = note: found by verification (before OutlineGraphScopes)\n" in result.err


def test_jit_entry_without_shapes(in_tmp, capsys):
    write(in_tmp, "lazy.py", LAZY_JIT)
    result = run_cli(capsys, "compile", "lazy.py")
    assert (result.code, result.out) == (1, "")
    assert result.err.startswith(
        "Error: 'entry' cannot be specialised without a call: @pl.jit function 'entry': "
        "missing a required argument: 'x' (its annotation is a bare pl.Tensor, so its shape "
        "must come from an argument)\n  --> lazy.py:4:11\n")
    assert "= help: annotate 'x' fully" in result.err


def test_check_of_a_jit_entry_without_shapes_warns_at_the_parameter(in_tmp, capsys):
    # The file is a correct PyPTO script: check cannot specialise it, but that is no error.
    write(in_tmp, "lazy.py", LAZY_JIT)
    result = run_cli(capsys, "check", "--format=short", "lazy.py")
    assert result.code == 0
    assert result.out.startswith("lazy.py:4:11: warning[E402]: 'entry' cannot be specialised "
                                 "without a call: ")


LAZY_JIT = """
    import pypto.language as pl

    @pl.jit
    def entry(x: pl.Tensor, out: pl.Out[pl.Tensor]):
        return out
"""


def test_text_file_syntax_error(in_tmp, capsys):
    (in_tmp / "bad.pto").write_text("@pl.function\ndef f(x: pl.Tensor[[4], pl.FP32]\n",
                                    encoding="utf-8")
    result = run_cli(capsys, "compile", "bad.pto")
    assert result.code == 1
    assert result.err == ("Error: Failed to compile code from bad.pto: '(' was never closed\n"
                          "  --> bad.pto:2:6\n"
                          "  |\n"
                          "1 | @pl.function\n"
                          "2 | def f(x: pl.Tensor[[4], pl.FP32]\n"
                          "  |      ^\n"
                          "  |\n")


def test_backtrace_on_request(in_tmp, capsys, monkeypatch):
    write(in_tmp, "setup.py", "ROWS = {}['cols']\n")
    monkeypatch.setenv("PTO_BACKTRACE", "1")
    result = run_cli(capsys, "compile", "setup.py")
    assert result.code == 1
    head, trace = result.err.split(
        "\n---------- Python backtrace (PTO_BACKTRACE=1) ----------\n")
    assert head.startswith("Error: KeyError: 'cols'\n")
    assert trace.startswith("Traceback (most recent call last):")
    assert trace.rstrip().endswith("KeyError: 'cols'")


@pytest.mark.parametrize("args", [
    ("compile", "nowhere.py"),
    ("compile", "examples/hierarchy_seed.py"),
    ("compile", "examples/decoder.py", "-p", "outline-graph-scopes"),
    ("compile", "examples/decoder.py", "-p", "convert-to-ssa,bogus"),
    ("check", "nowhere.py"),
])
def test_no_traceback_in_a_real_process(args):
    result = run_process(*args)
    assert result.code in (1, 2)
    assert "Traceback" not in result.err


def test_a_failed_lookup_in_pypto_while_the_module_runs_is_a_bug(in_tmp, capsys, monkeypatch):
    import os

    import pypto
    from pypto.language.op.unified_ops import UNIFIED_OPS

    # A function whose code is pypto's (its file is in the package): its KeyError is
    # a defect of pypto, where the same KeyError of the module's own code is not.
    namespace: dict = {}
    exec(compile("def exp(*args, span=None, **kwargs):\n    return {}['slot']\n",  # noqa: S102
                 os.path.join(os.path.dirname(pypto.__file__), "_simulated.py"), "exec"),
         namespace)
    monkeypatch.setitem(UNIFIED_OPS, "exp", namespace["exp"])
    write(in_tmp, "f.py", "from pypto.language.op.unified_ops import UNIFIED_OPS\n"
                          "UNIFIED_OPS['exp']()\n")
    result = run_cli(capsys, "check", "f.py")
    assert result.code == 3
    assert result.err.startswith("pypto: internal error (this is a bug in pypto): "
                                 "KeyError: 'slot'\n"), result.err
    write(in_tmp, "g.py", "import pypto\nROWS = {}['slot']\n")  # the module's own lookup
    assert run_cli(capsys, "check", "g.py").code == 1


def test_a_file_changed_since_an_earlier_run_in_the_process_runs_as_it_is_now(in_tmp, capsys):
    # The loader compiles the linecache text, cached under the (relative) path by the
    # first run: the second must not run the first one's code.
    write(in_tmp, "f.py", "import pypto\nROWS = {}['cols']\n")
    assert run_cli(capsys, "check", "f.py").code == 1
    write(in_tmp, "f.py", GOOD.replace("return y", "return y  # now a longer file"))
    result = run_cli(capsys, "check", "f.py")
    assert (result.code, result.err) == (0, "")


def test_a_bug_in_pypto_is_not_dressed_up_as_a_user_error(in_tmp, capsys, monkeypatch):
    import pypto
    from pypto.cli import compile_command

    def broken(*args, **kwargs):
        raise pypto.InternalError("outliner lost a Var")

    monkeypatch.setattr(compile_command, "run_pipeline", broken)
    write(in_tmp, "f.py", GOOD)
    result = run_cli(capsys, "compile", "f.py", "-p", "")
    assert result.code == 3
    assert result.err.startswith("pypto: internal error (this is a bug in pypto): "
                                 "InternalError: outliner lost a Var\n"
                                 "Traceback (most recent call last):\n")

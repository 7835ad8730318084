"""``pypto compile``: loading, pipelines, output, dumps (the successful paths)."""

from __future__ import annotations

import pypto.language as pl
from pypto import ir, passes

from _cli_helpers import EXAMPLES, console_script, run_cli, run_process, write

PROGRAM = """
    import pypto.language as pl

    T = pl.Tensor[[64], pl.FP32]


    @pl.program
    class Twice:
        @pl.function
        def main(self, x: T) -> T:
            with pl.at(level=pl.Level.HOST, role=pl.Role.Orchestrator):
                y = pl.add(x, x)
                y = pl.mul(y, y)
            return y
"""

HOST_OUTLINED = '''\
# pypto.program: Twice
import pypto.language as pl

@pl.program
class Twice:
    @pl.function(level=pl.Level.HOST, role=pl.Role.Orchestrator)
    def main_host_orch_0(self, x__ssa_v0: pl.Tensor[[64], pl.FP32]) -> pl.Tensor[[64], pl.FP32]:
        y__ssa_v0: pl.Tensor[[64], pl.FP32] = pl.tensor.add(x__ssa_v0, x__ssa_v0)
        y__ssa_v1: pl.Tensor[[64], pl.FP32] = pl.tensor.mul(y__ssa_v0, y__ssa_v0)
        return y__ssa_v1
    @pl.function
    def main(self, x__ssa_v0: pl.Tensor[[64], pl.FP32]) -> pl.Tensor[[64], pl.FP32]:
        y__ssa_v1: pl.Tensor[[64], pl.FP32] = self.main_host_orch_0(x__ssa_v0)
        return y__ssa_v1
'''


def default_pipeline_result(program: ir.Program) -> ir.Program:
    return ir.PassManager.get_strategy(ir.OptimizationStrategy.Default).run_passes(program)


def test_compile_prints_the_default_pipeline_result(tmp_path, capsys):
    path = write(tmp_path, "twice.py", PROGRAM)
    result = run_cli(capsys, "compile", str(path))
    assert (result.code, result.err) == (0, "")
    assert result.out == HOST_OUTLINED


def test_output_reparses_to_the_same_program(tmp_path, capsys):
    path = write(tmp_path, "twice.py", PROGRAM)
    text = run_cli(capsys, "compile", str(path)).out
    reparsed = pl.parse(text)
    assert reparsed.as_python() + "\n" == text


def test_pipeline_option_runs_only_the_named_passes(tmp_path, capsys):
    path = write(tmp_path, "twice.py", PROGRAM)
    result = run_cli(capsys, "compile", str(path), "-p", "convert-to-ssa")
    assert result.code == 0
    program = pl.parse(result.out)
    assert list(program.functions) == ["main"]  # nothing outlined
    assert "with pl.at(level=pl.Level.HOST, role=pl.Role.Orchestrator):" in result.out
    assert "y__ssa_v1" in result.out


def test_pipeline_accepts_spaces_and_trailing_commas(tmp_path, capsys):
    path = write(tmp_path, "twice.py", PROGRAM)
    spaced = run_cli(capsys, "compile", str(path), "-p",
                     " convert-to-ssa , outline-hierarchy-scopes ,").out
    assert spaced == HOST_OUTLINED


def test_empty_pipeline_prints_the_parsed_program(tmp_path, capsys):
    path = write(tmp_path, "twice.py", PROGRAM)
    result = run_cli(capsys, "compile", str(path), "-p", "")
    assert result.code == 0
    assert "y: pl.Tensor[[64], pl.FP32] = pl.tensor.mul(y, y)" in result.out


def test_output_file(tmp_path, capsys):
    path = write(tmp_path, "twice.py", PROGRAM)
    out = tmp_path / "out.py"
    result = run_cli(capsys, "compile", str(path), "-o", str(out))
    assert (result.code, result.out, result.err) == (0, "", "")
    assert out.read_text(encoding="utf-8") == HOST_OUTLINED


def test_printed_text_file_is_read_with_the_text_parser(tmp_path, capsys):
    printed = tmp_path / "printed.py"
    printed.write_text(HOST_OUTLINED, encoding="utf-8")
    result = run_cli(capsys, "compile", str(printed), "-p", "")
    assert (result.code, result.out) == (0, HOST_OUTLINED)


def test_non_python_suffix_is_dsl_text(tmp_path, capsys):
    # DSL text may omit the import line and undeclared dynamic dims (pl.parse rules).
    text = tmp_path / "kernel.pto"
    text.write_text("@pl.function\n"
                    "def f(x: pl.Tensor[[M], pl.FP32]) -> pl.Tensor[[M], pl.FP32]:\n"
                    "    y = pl.add(x, x)\n"
                    "    return y\n", encoding="utf-8")
    result = run_cli(capsys, "compile", str(text), "-p", "")
    assert result.code == 0
    assert result.out.startswith("# pypto.program: f\n")
    assert 'M = pl.dynamic("M")' in result.out


def test_a_lone_function_becomes_a_one_function_program(tmp_path, capsys):
    path = write(tmp_path, "f.py", """
        import pypto.language as pl

        @pl.function
        def scale(x: pl.Tensor[[8], pl.FP32]) -> pl.Tensor[[8], pl.FP32]:
            y = pl.mul(x, 2.0)
            return y
    """)
    result = run_cli(capsys, "compile", str(path))
    assert result.code == 0
    program = pl.parse(result.out)
    assert isinstance(program, ir.Program)
    assert program.name == "scale" and list(program.functions) == ["scale"]


def test_entry_picks_one_of_several_programs(capsys):
    path = EXAMPLES / "hierarchy_seed.py"
    nested = run_cli(capsys, "compile", str(path), "--entry", "NestedScopes")
    assert nested.code == 0
    assert sorted(pl.parse(nested.out).functions) == [
        "main", "main_global_orch_0", "main_global_orch_0_host_orch_0"]
    single = run_cli(capsys, "compile", str(path), "--entry", "SingleScope")
    assert sorted(pl.parse(single.out).functions) == ["main", "main_host_orch_0"]


def test_entry_matches_the_program_name_as_well_as_the_binding(tmp_path, capsys):
    path = write(tmp_path, "alias.py", PROGRAM + "\n    OTHER = Twice\n")
    # One object bound twice is one entry.
    assert run_cli(capsys, "compile", str(path)).code == 0
    assert run_cli(capsys, "compile", str(path), "--entry", "OTHER").out == HOST_OUTLINED


def test_external_functions_of_a_program_are_not_entries(tmp_path, capsys):
    path = write(tmp_path, "ext.py", """
        import pypto.language as pl

        T = pl.Tensor[[16], pl.FP32]

        @pl.function
        def helper(x: T) -> T:
            y = pl.add(x, x)
            return y

        @pl.program
        class UsesHelper:
            @pl.function
            def main(self, x: T) -> T:
                y = helper(x)
                return y
    """)
    result = run_cli(capsys, "compile", str(path))
    assert result.code == 0
    assert sorted(pl.parse(result.out).functions) == ["helper", "main"]


def test_main_block_does_not_run_and_sibling_modules_import(tmp_path, capsys):
    write(tmp_path, "shapes.py", """
        import pypto.language as pl
        Vec = pl.Tensor[[32], pl.FP32]
    """)
    path = write(tmp_path, "prog.py", """
        import pypto.language as pl
        from shapes import Vec

        @pl.function
        def neg(x: Vec) -> Vec:
            y = pl.neg(x)
            return y

        if __name__ == "__main__":
            raise SystemExit("the main block must not run")
    """)
    result = run_cli(capsys, "compile", str(path))
    assert (result.code, result.err) == (0, "")
    assert "pl.Tensor[[32], pl.FP32]" in result.out


def test_print_after_all_names_every_pass_on_stderr(tmp_path, capsys):
    path = write(tmp_path, "twice.py", PROGRAM)
    result = run_cli(capsys, "compile", str(path), "--print-after-all")
    assert result.code == 0
    assert result.out == HOST_OUTLINED
    names = ir.PassManager.get_strategy().pass_names
    headers = [line for line in result.err.splitlines() if line.startswith("# =====")]
    assert headers == [f"# ===== IR after {name} (pass {i} of {len(names)}) ====="
                       for i, name in enumerate(names, 1)]
    # Each header is followed by the whole program after that pass.
    after_ssa = result.err.split("# ===== IR after ConvertToSSA (pass 2 of 9) =====\n")[1]
    assert after_ssa.startswith("# pypto.program: Twice\n")


def test_dump_dir_writes_one_numbered_file_per_pass(tmp_path, capsys):
    path = write(tmp_path, "twice.py", PROGRAM)
    dump = tmp_path / "dump" / "nested"
    result = run_cli(capsys, "compile", str(path), "-p",
                     "convert-to-ssa,outline-hierarchy-scopes", "--dump-dir", str(dump))
    assert result.code == 0
    assert sorted(p.name for p in dump.iterdir()) == [
        "00_frontend.py", "01_after_ConvertToSSA.py", "02_after_OutlineHierarchyScopes.py"]
    assert (dump / "02_after_OutlineHierarchyScopes.py").read_text(encoding="utf-8") \
        == HOST_OUTLINED


def test_jit_entry_compiles_in_signature_mode(capsys):
    result = run_cli(capsys, "compile", str(EXAMPLES / "jit_entry.py"))
    assert result.code == 0
    program = pl.parse(result.out)
    assert program.name == "_jit_scaled_add"
    assert program["scaled_add"].func_type is ir.FunctionType.Orchestration
    assert program["scaled_add_kernel"].func_type is ir.FunctionType.InCore


def test_jit_entry_with_a_custom_pipeline_starts_from_the_specialised_program(capsys):
    result = run_cli(capsys, "compile", str(EXAMPLES / "jit_entry.py"), "-p", "")
    assert result.code == 0
    assert "out_v1: pl.Tensor[[32, 64], pl.FP32] = self.scaled_add_kernel(x, y, out)" in result.out


def test_python_dash_m_and_the_console_script_behave_identically(tmp_path):
    path = write(tmp_path, "twice.py", PROGRAM)
    script = console_script()
    assert script.exists(), f"console script not installed at {script}"
    import subprocess
    from _cli_helpers import plain_env
    for args in (["compile", str(path)], ["--version"], ["compile", "missing.py"]):
        module = run_process(*args)
        proc = subprocess.run([str(script), *args], capture_output=True, text=True,
                              env=plain_env(), timeout=120)
        assert (proc.returncode, proc.stdout, proc.stderr) == \
            (module.code, module.out, module.err)
    assert run_process("compile", str(path)).out == HOST_OUTLINED


def test_the_enclosing_pass_context_still_applies(tmp_path, capsys):
    path = write(tmp_path, "twice.py", PROGRAM)
    seen: list[str] = []
    spy = passes.CallbackInstrument(after_pass=lambda p, _: seen.append(p.get_name()))
    with passes.PassContext([spy]):
        assert run_cli(capsys, "compile", str(path), "-p", "convert-to-ssa").code == 0
    assert seen == ["ConvertToSSA"]


UNROLLED = """
    import pypto.language as pl


    @pl.program
    class Rows:
        @pl.function
        def main(self, x: pl.Tensor[[48, 64], pl.FP32]) -> pl.Scalar[pl.INDEX]:
            s: pl.Scalar[pl.INDEX] = 0 + 0
            for u in pl.unroll(3):
                s = s + u * 16
            return s
"""


def test_pipeline_option_runs_the_stand_alone_front_end_passes(tmp_path, capsys):
    path = write(tmp_path, "rows.py", UNROLLED)
    result = run_cli(capsys, "compile", str(path), "-p",
                     "unroll-loops,convert-to-ssa,simplify,classify-iter-arg-carry")
    assert (result.code, result.err) == (0, "")
    assert "pl.unroll" not in result.out
    assert "s__ssa_v3: pl.Scalar[pl.INDEX] = s__ssa_v2 + 32" in result.out
    pl.parse(result.out)

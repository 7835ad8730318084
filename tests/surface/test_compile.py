"""``ir.compile`` (pass pipeline only, no code generation) and ``CompiledProgram``."""

from __future__ import annotations

import os

import pytest

import pypto.language as pl
from pypto import backend, compile_profiling, ir, passes


@pl.program
class Scale:
    @pl.function
    def main(self, a: pl.Tensor[[16, 16], pl.FP32],
             out: pl.Out[pl.Tensor[[16, 16], pl.FP32]]) -> pl.Tensor[[16, 16], pl.FP32]:
        with pl.at(level=pl.Level.CORE_GROUP):
            t = pl.load(a, [0, 0], [16, 16])
            out = pl.store(pl.mul(t, 2.0), [0, 0], out)
        return out


def test_compile_runs_the_default_pipeline_and_returns_the_result():
    compiled = ir.compile(Scale)
    expected = ir.PassManager.get_strategy().run_passes(Scale)
    ir.assert_structural_equal(compiled.program, expected)
    assert compiled.output_dir is None and compiled.backend_type is backend.BackendType.Ascend910B
    assert compiled.param_names == ["a", "out"] and compiled.output_indices == [1]
    assert compiled.has_return and compiled.orchestration_names == ["main"]  # outlined


def test_compile_writes_dumps_the_program_and_a_profile(tmp_path):
    out = str(tmp_path / "build")
    compiled = ir.compile(Scale, out, backend_type=backend.BackendType.Ascend950,
                          profiling=True, platform="a2a3sim")
    assert sorted(os.listdir(out)) == ["passes_dump", "program.pir", "report"]
    dumps = sorted(os.listdir(os.path.join(out, "passes_dump")))
    assert dumps[0] == "00_frontend.py"
    assert len(dumps) == 1 + len(ir.PassManager.get_strategy().passes)
    assert "passes" in open(os.path.join(out, "report", "compile_profile.txt")).read()
    again = ir.CompiledProgram.from_dir(out, platform="a2a3sim")
    ir.assert_structural_equal(again.program, compiled.program)
    assert compiled.platform == "a2a3sim" and compiled.backend_type is backend.BackendType.Ascend950


def test_compile_without_dumps_and_bad_arguments(tmp_path):
    out = str(tmp_path / "quiet")
    ir.compile(Scale, out, dump_passes=False)
    assert os.listdir(out) == ["program.pir"]
    with pytest.raises(TypeError, match="compile expects an ir.Program, got str"):
        ir.compile("Scale")
    with pytest.raises(TypeError, match="backend_type must be a pypto.backend.BackendType"):
        ir.compile(Scale, backend_type="910B")
    with pytest.raises(FileNotFoundError, match="no program.pir"):
        ir.CompiledProgram.from_dir(str(tmp_path))


def test_compile_keeps_the_callers_instruments():
    seen = []
    spy = passes.CallbackInstrument(after_pass=lambda p, _: seen.append(p.get_name()))
    with passes.PassContext([spy]):
        ir.compile(Scale)
    assert seen == ir.PassManager.get_strategy().pass_names


def test_compile_profiler_nests_stages():
    with compile_profiling.CompileProfiler() as prof:
        assert compile_profiling.get_active_profiler() is prof
        with prof.stage("outer") as outer:
            with prof.stage("inner"):
                pass
    assert compile_profiling.get_active_profiler() is None
    assert [c.name for c in outer.children] == ["inner"]
    data = prof.to_dict()
    assert data["stages"][0]["name"] == "outer"
    assert data["stages"][0]["children"][0]["name"] == "inner"
    assert prof.total_seconds >= outer.children[0].duration >= 0
    assert "outer" in prof.summary() and '"inner"' in prof.to_json()


def test_compile_with_a_distributed_config_gives_a_distributed_program():
    from pypto.ir.distributed_compiled_program import DistributedCompiledProgram, DistributedConfig
    config = DistributedConfig(device_ids=[0, 1])
    compiled = ir.compile(Scale, distributed_config=config)
    assert isinstance(compiled, DistributedCompiledProgram)
    assert compiled.distributed_config is config
    ir.assert_structural_equal(compiled.program, ir.compile(Scale).program)


def test_distributed_from_dir_and_the_run_handle(tmp_path):
    np = pytest.importorskip("numpy")
    from pypto.ir.distributed_compiled_program import DistributedCompiledProgram, DistributedConfig
    config = DistributedConfig(device_ids=[0])
    compiled = ir.compile(Scale, str(tmp_path), dump_passes=False, distributed_config=config)
    again = DistributedCompiledProgram.from_dir(str(tmp_path), distributed_config=config)
    ir.assert_structural_equal(again.program, compiled.program)
    assert again.output_dir == str(tmp_path) and again.distributed_config is config
    with pytest.raises(FileNotFoundError, match="no program.pir in"):
        DistributedCompiledProgram.from_dir(str(tmp_path / "missing"))
    handle = again.prepare()
    assert not handle.done
    with pytest.raises(RuntimeError, match="nothing was run"):
        handle.result()
    a = np.ones((16, 16), np.float32)
    out = np.zeros((16, 16), np.float32)
    value = handle.run(a, out)
    assert handle.done and handle.wait() is None and handle.result(timeout=1.0) is value
    assert np.allclose(out, 2.0)


def test_coerce_dump_level_takes_pypto_parameter_name():
    from pypto.ir.pass_manager import PassDumpLevel, coerce_dump_level
    assert coerce_dump_level(dump_passes=True) is PassDumpLevel.CONCISE
    assert coerce_dump_level(None) is PassDumpLevel.NONE

"""PyPTO's runner on the CPU: ``from pypto.runtime import RunConfig, run`` and ``config=``
on ``@pl.jit`` calls execute on pypto's executor whatever the platform says."""

from __future__ import annotations

import dataclasses
import os

import numpy as np
import pytest

import pypto.language as pl
from pypto import DataType, ir
from pypto.runtime import RunConfig, RunResult, ScalarSpec, TensorSpec, run
from pypto.runtime import runner

T = pl.Tensor[[8, 16], pl.FP32]


@pl.program
class AddOne:
    @pl.function(type=pl.FunctionType.Orchestration)
    def main(self, x: T, y: pl.Out[T]) -> T:
        with pl.at(level=pl.Level.CORE_GROUP):
            y = pl.store(pl.add(pl.load(x, [0, 0], [8, 16]), 1.0), [0, 0], y)
        return y


def test_run_config_has_pyptos_fields_and_defaults():
    config = RunConfig()
    assert (config.platform, config.device_id, config.rtol, config.atol) == ("a2a3sim", 0, 1e-5, 1e-5)
    assert config.strategy is ir.OptimizationStrategy.Default
    names = [f.name for f in dataclasses.fields(RunConfig)]
    assert names[:10] == ["platform", "device_id", "rtol", "atol", "strategy", "backend_type",
                          "dump_passes", "save_kernels", "save_kernels_dir", "codegen_only"]
    assert names[-1] == "dump_ptoas_passes" and len(names) == 27
    assert not config.any_dfx_enabled() and RunConfig(enable_pmu=1).any_dfx_enabled()


@pytest.mark.parametrize("platform", ["a2a3sim", "a2a3", "a5"])
def test_run_executes_on_the_cpu_whatever_the_platform_and_writes_outputs_in_place(platform):
    x = np.arange(128, dtype=np.float32).reshape(8, 16)
    y = np.zeros((8, 16), np.float32)
    result = run(AddOne, x, y, config=RunConfig(platform=platform))
    assert isinstance(result, RunResult) and result.passed and result.error is None
    assert result.test_name == "AddOne" and result.execution_time >= 0
    np.testing.assert_array_equal(y, x + 1)


def test_codegen_only_compiles_without_running_and_dump_passes_writes_each_pass(tmp_path):
    y = np.zeros((8, 16), np.float32)
    run(AddOne, np.ones((8, 16), np.float32), y, config=RunConfig(codegen_only=True))
    assert not y.any()
    run(AddOne, np.ones((8, 16), np.float32), y,
        config=RunConfig(dump_passes=True, save_kernels_dir=str(tmp_path)))
    assert y.all() and any(os.scandir(tmp_path))


def test_run_takes_a_jit_function_and_config_on_calls():
    @pl.jit
    def add_one(x: pl.Tensor, y: pl.Out[pl.Tensor]):
        with pl.at(level=pl.Level.CORE_GROUP):
            y = pl.store(pl.add(pl.load(x, [0, 0], [8, 16]), 1.0), [0, 0], y)
        return y

    x = np.ones((8, 16), np.float32)
    y = np.zeros((8, 16), np.float32)
    assert run(add_one, x, y, config=RunConfig()).passed
    np.testing.assert_array_equal(y, x + 1)
    y[:] = 0
    add_one(x, y, config=RunConfig(codegen_only=True))
    assert not y.any()
    assert add_one(x, y, config=RunConfig(platform="a5")) is y
    np.testing.assert_array_equal(y, x + 1)


def test_run_refuses_what_it_cannot_run():
    with pytest.raises(TypeError, match="run\\(\\) expects an ir.Program, an ir.Function or a "
                                        "@pl.jit function, got int"):
        run(3)
    with pytest.raises(TypeError, match="RunConfig.strategy must be an OptimizationStrategy"):
        run(AddOne, np.ones((8, 16), np.float32), np.zeros((8, 16), np.float32),
            config=RunConfig(strategy="fast"))


def test_tensor_spec_creates_numpy_or_torch_tensors():
    spec = TensorSpec("x", [2, 3], DataType.FP16, init_value=1.5)
    made = spec.create_tensor()
    assert made.dtype == np.float16 and (made == 1.5).all() and not spec.is_output
    assert not TensorSpec("y", (2,), "int32", is_output=True).create_tensor().any()
    counted = TensorSpec("z", (2, 2), np.float32, init_value=lambda shape: np.arange(4)).create_tensor()
    np.testing.assert_array_equal(counted, [[0, 1], [2, 3]])
    assert ScalarSpec("n", 4) == ScalarSpec("n", 4, "int64")
    torch = pytest.importorskip("torch")
    tensor = TensorSpec("t", (2, 2), torch.bfloat16, init_value=2.0).create_tensor()
    assert tensor.dtype == torch.bfloat16 and bool((tensor == 2).all())


def test_the_runner_module_shows_pyptos_names():
    for name in ("RunConfig", "RunResult", "run", "OptimizationStrategy", "PassDumpLevel"):
        assert hasattr(runner, name)

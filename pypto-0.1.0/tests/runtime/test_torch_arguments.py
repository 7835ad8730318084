"""Torch tensors as executor arguments (``pypto.runtime.torch_bridge``), through a
stand-in torch module: buffers shared or copied back, results given back as the
caller's tensors, a clear error for tensors off the CPU."""

from __future__ import annotations

import sys

import numpy as np
import pytest

import pypto
import pypto.language as pl

from . import fake_torch

T = pl.Tensor[[8, 8], pl.FP32]


@pytest.fixture
def torch(monkeypatch):
    module = fake_torch.module()
    monkeypatch.setitem(sys.modules, "torch", module)
    return module


@pl.jit
def double_into(x: pl.Tensor, out: pl.InOut[pl.Tensor]):
    with pl.at(level=pl.Level.CORE_GROUP):
        t = pl.load(x, [0, 0], [8, 8])
        out = pl.store(pl.mul(t, 2.0), [0, 0], out)
    return out


@pl.program
class FreshResult:
    @pl.function(type=pl.FunctionType.Orchestration)
    def main(self, x: T) -> T:
        y = pl.add(x, x)
        return y


def arange() -> np.ndarray:
    return np.arange(64, dtype=np.float32).reshape(8, 8)


def test_inout_tensor_is_written_in_place_and_returned_as_itself(torch):
    x = torch.Tensor(arange())
    out = torch.Tensor(np.zeros((8, 8), np.float32))
    result = double_into(x, out)
    assert result is out
    np.testing.assert_array_equal(out.data, 2 * arange())
    np.testing.assert_array_equal(x.data, arange())  # an In argument is not written


def test_bfloat16_tensors_run_on_float32_copies_written_back(torch):
    x = torch.Tensor(arange(), torch.bfloat16)
    out = torch.Tensor(np.zeros((8, 8), np.float32), torch.bfloat16)
    result = double_into(x, out)
    assert result is out and out.dtype is torch.bfloat16
    np.testing.assert_array_equal(out.data, 2 * arange())


def test_a_result_that_is_no_argument_comes_back_as_a_tensor(torch):
    result = pypto.run(FreshResult, torch.Tensor(arange()))
    assert isinstance(result, torch.Tensor) and result.dtype is torch.float32
    np.testing.assert_array_equal(result.data, 2 * arange())


def test_numpy_arguments_still_give_numpy_results(torch):
    result = pypto.run(FreshResult, arange())
    assert type(result) is np.ndarray


def test_a_tensor_off_the_cpu_is_refused_with_the_fix(torch):
    x = torch.Tensor(arange(), device_="cuda:0")
    with pytest.raises(TypeError, match=r"argument 1 is a torch tensor on device 'cuda:0'.*"
                                        r"tensor\.cpu\(\)"):
        pypto.run(FreshResult, x)

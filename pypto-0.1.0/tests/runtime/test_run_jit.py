"""``pypto.runtime.run_jit``: what ``JITFunction.__call__`` delegates to.

Most tests use a stand-in with the surface run_jit relies on (``compile(*args,
**kw)`` returning an object with ``.program``, ``param_names``, ``__name__``);
the last ones call real ``@pl.jit`` functions."""

from __future__ import annotations

import numpy as np
import pytest

import pypto.language as pl
from pypto.runtime import run_jit

T = pl.Tensor[[4, 4], pl.FP32]


@pl.program
class _jit_axpy:
    @pl.function(type=pl.FunctionType.InCore)
    def helper(x: T, o: pl.Out[T]) -> T:
        t = pl.load(x, [0, 0], [4, 4])
        o2 = pl.store(t, [0, 0], o)
        return o2

    @pl.function
    def other_root(self, x: T) -> T:
        return x

    @pl.function
    def axpy(self, x: T, out: pl.Out[T], alpha: pl.Scalar[pl.FP32]) -> T:
        y = pl.mul(x, alpha)
        return self.helper(y, out)


class _Compiled:
    def __init__(self, program) -> None:
        self.program = program


class StandInJIT:
    """What run_jit relies on: ``compile`` returning an object holding the program."""

    __name__ = "axpy"
    param_names = ["x", "out", "alpha"]

    def __init__(self) -> None:
        self.specialized_with: tuple | None = None

    def compile(self, *args, **kwargs):
        self.specialized_with = (args, kwargs)
        return _Compiled(_jit_axpy)


def test_run_jit_specialises_and_runs_the_entry_in_place():
    jit = StandInJIT()
    x, out = np.full((4, 4), 2.0, np.float32), np.zeros((4, 4), np.float32)
    result = run_jit(jit, x, out, 1.5)
    assert result is out and jit.specialized_with[0][0] is x
    np.testing.assert_array_equal(out, np.full((4, 4), 3.0))


def test_run_jit_places_keyword_arguments_and_ignores_config():
    x, out = np.ones((4, 4), np.float32), np.zeros((4, 4), np.float32)
    run_jit(StandInJIT(), x, alpha=4.0, out=out, config={"anything": 1})
    np.testing.assert_array_equal(out, np.full((4, 4), 4.0))
    with pytest.raises(TypeError, match=r"unknown keyword argument\(s\) \['beta'\]"):
        run_jit(StandInJIT(), x, out, beta=1.0)
    with pytest.raises(TypeError, match="missing argument 'alpha'"):
        run_jit(StandInJIT(), x, out=out)


def test_run_jit_rejects_plain_callables():
    with pytest.raises(TypeError, match=r"expects a @pl.jit function \(with compile\(\)\)"):
        run_jit(lambda x: x, np.zeros(1))


@pl.jit.incore
def double_kernel(x: pl.Tensor, out: pl.Out[pl.Tensor]):
    t = pl.load(x, [0, 0], [4, 8])
    pl.store(pl.mul(t, 2.0), [0, 0], out)
    return out


@pl.jit
def double_entry(x: pl.Tensor, out: pl.Out[pl.Tensor], repeats: pl.Scalar[pl.INDEX]):
    for i in pl.range(repeats):
        out = double_kernel(x, out)
    return out


def test_calling_a_jit_function_runs_its_lowered_program():
    x, out = np.ones((4, 8), np.float32), np.zeros((4, 8), np.float32)
    assert double_entry(x, out, 3) is out
    np.testing.assert_array_equal(out, x * np.float32(2.0))


def test_run_jit_with_a_real_jit_function():
    x, out = np.random.default_rng(3).random((4, 8), dtype=np.float32), np.zeros((4, 8),
                                                                                 np.float32)
    assert run_jit(double_entry, x, out, 2) is out
    np.testing.assert_array_equal(out, x * np.float32(2.0))

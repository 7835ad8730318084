"""Input and golden helpers shared by the example scripts.

PyPTO's scripts build torch tensors; so do these when torch is installed.  With
``--numpy`` on the command line (or without torch) they use NumPy arrays instead:
pypto runs either on its CPU executor and writes the ``Out`` tensors in place.
The goldens are computed with NumPy from the same inputs.
"""

from __future__ import annotations

import importlib
import importlib.util
import sys

from typing import Any

import numpy as np

USE_TORCH = "--numpy" not in sys.argv and importlib.util.find_spec("torch") is not None
RNG = np.random.default_rng(2026)

# torch when it is installed (and not turned off), else None: the helpers branch on USE_TORCH
torch: Any = importlib.import_module("torch") if USE_TORCH else None


def randn(*shape: int, dtype: str = "float32", scale: float = 1.0) -> Any:
    data = (RNG.standard_normal(shape) * scale).astype(np.float32)
    if USE_TORCH:
        return torch.from_numpy(data).to(getattr(torch, dtype))
    return data.astype(dtype)


def zeros(*shape: int, dtype: str = "float32") -> Any:
    if USE_TORCH:
        return torch.zeros(shape, dtype=getattr(torch, dtype))
    return np.zeros(shape, dtype=dtype)


def values(*shape_and_data: Any, dtype: str = "int32") -> Any:
    """An integer tensor holding ``data`` (a nested list)."""
    data = np.array(shape_and_data[-1], dtype=dtype)
    return torch.from_numpy(data) if USE_TORCH else data


def numpy_of(x: Any) -> Any:
    """A float64 NumPy copy (goldens are computed in float64)."""
    if USE_TORCH:
        return x.detach().to(torch.float64).numpy()
    return np.asarray(x, dtype=np.float64)


def check(name: str, actual: Any, expected: Any, rtol: float = 1e-4, atol: float = 1e-4) -> None:
    """The script's golden check: raise if ``actual`` differs from ``expected``."""
    got = numpy_of(actual)
    if not np.allclose(got, expected, rtol=rtol, atol=atol):
        worst = float(np.max(np.abs(got - expected)))
        raise AssertionError(f"{name}: result differs from the golden (max abs error {worst})")
    print(f"{name}: OK ({'torch' if USE_TORCH else 'numpy'})")

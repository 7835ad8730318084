"""A stand-in for the part of torch the executor bridge touches (torch is never a
test dependency): CPU/other devices, ``detach``, ``numpy`` (refused for bfloat16,
as torch does), ``to``, ``copy_``, ``from_numpy``, ``no_grad``.  Install it with
``monkeypatch.setitem(sys.modules, "torch", fake_torch.module())``."""

from __future__ import annotations

import contextlib
import types

import numpy as np


class dtype:  # noqa: N801 -- torch's spelling
    __module__ = "torch"

    def __init__(self, name: str, storage) -> None:
        self.name, self.storage = name, storage

    def __str__(self) -> str:
        return f"torch.{self.name}"

    __repr__ = __str__


float32 = dtype("float32", np.float32)
bfloat16 = dtype("bfloat16", np.float32)  # stored wide here; NumPy has no bfloat16
_BY_NUMPY = {np.dtype(np.float32): float32}


class device:  # noqa: N801
    def __init__(self, kind: str) -> None:
        self.type = kind

    def __str__(self) -> str:
        return self.type


class Tensor:
    __module__ = "torch"

    def __init__(self, data: np.ndarray, dtype_: dtype = float32, device_: str = "cpu") -> None:
        self.data, self.dtype, self.device = data, dtype_, device(device_)

    @property
    def shape(self) -> tuple:
        return tuple(self.data.shape)

    def detach(self) -> "Tensor":
        return self  # shares memory, as torch's detach does

    def numpy(self) -> np.ndarray:
        if self.dtype is bfloat16:
            raise TypeError("Got unsupported ScalarType BFloat16")
        return self.data

    def is_floating_point(self) -> bool:
        return self.dtype in (float32, bfloat16)

    def to(self, target: dtype) -> "Tensor":
        return Tensor(self.data.astype(target.storage, copy=True), target, self.device.type)

    def copy_(self, other: "Tensor") -> "Tensor":
        self.data[...] = other.data
        return self


def from_numpy(array: np.ndarray) -> Tensor:
    return Tensor(array, _BY_NUMPY[array.dtype])


def no_grad():
    return contextlib.nullcontext()


def module() -> types.ModuleType:
    fake = types.ModuleType("torch")
    for name in ("dtype", "float32", "bfloat16", "device", "Tensor", "from_numpy", "no_grad"):
        setattr(fake, name, globals()[name])
    return fake

"""Torch tensors in and out of the executor, without importing torch up front.

A CPU torch tensor whose dtype NumPy has (float32, int8, uint16, bool, ...) reaches
the executor as the NumPy array that shares its memory (``Tensor.numpy()``), so
``Out``/``InOut`` writes land in the caller's tensor.  A tensor NumPy cannot view
(``bfloat16``, the ``float8`` formats) runs on a float32 copy -- the executor's storage for BF16 anyway --
that is written back into the tensor after the run if the program changed it.
Results come back as torch tensors when any argument was one: the caller's own
tensor for a buffer it passed, else a tensor over the result array, in the
declared dtype.
"""

from __future__ import annotations

from typing import Any, Sequence

__all__ = ["is_torch_tensor", "TorchArguments"]


def is_torch_tensor(value: Any) -> bool:
    return any(cls.__name__ == "Tensor" and cls.__module__.startswith("torch")
               for cls in type(value).__mro__)


class TorchArguments:
    """The executor's view of a call's arguments, and the way back to torch."""

    def __init__(self, args: Sequence[Any]) -> None:
        import torch  # an argument is a torch tensor, so torch is installed
        self._torch = torch
        self.arrays: list[Any] = []
        self._tensor_of: dict[int, Any] = {}     # id(array) -> the caller's tensor
        self._copies: list[tuple[Any, Any, Any]] = []  # (tensor, array, array at entry)
        for position, value in enumerate(args):
            self.arrays.append(self._to_array(position, value) if is_torch_tensor(value)
                               else value)

    @staticmethod
    def wrap(args: Sequence[Any]) -> "TorchArguments | None":
        """A bridge when some argument is a torch tensor, else ``None``."""
        return TorchArguments(args) if any(is_torch_tensor(a) for a in args) else None

    def _to_array(self, position: int, tensor: Any) -> Any:
        if tensor.device.type != "cpu":
            raise TypeError(f"argument {position + 1} is a torch tensor on device "
                            f"'{tensor.device}'; the reference executor runs on the CPU "
                            "(pass tensor.cpu())")
        detached = tensor.detach()
        try:
            array = detached.numpy()
        except TypeError:  # a dtype NumPy lacks
            if not detached.is_floating_point():
                raise TypeError(f"argument {position + 1} is a torch tensor of dtype "
                                f"{tensor.dtype}, which NumPy cannot hold") from None
            array = detached.to(self._torch.float32).numpy()
            self._copies.append((tensor, array, array.copy()))
        self._tensor_of[id(array)] = tensor
        return array

    def finish(self, result: Any, declared: Sequence[Any]) -> Any:
        """Write changed copies back; turn ``result`` (the executor's value for
        ``declared`` return dtypes, a tuple for several) into torch tensors."""
        np = __import__("numpy")
        with self._torch.no_grad():
            for tensor, array, at_entry in self._copies:
                if not np.array_equal(array, at_entry):
                    tensor.copy_(self._torch.from_numpy(array))
        if isinstance(result, tuple):
            return tuple(self._result(value, dtype)
                         for value, dtype in zip(result, list(declared) + [None] * len(result)))
        return self._result(result, declared[0] if declared else None)

    def _result(self, value: Any, dtype: Any) -> Any:
        if not hasattr(value, "dtype") or not hasattr(value, "shape"):
            return value  # a Python scalar
        tensor = self._tensor_of.get(id(value))
        if tensor is not None:
            return tensor
        out = self._torch.from_numpy(value)
        target = getattr(self._torch, _TORCH_NAMES.get(getattr(dtype, "name", ""), ""), None)
        return out.to(target) if target is not None and out.dtype != target else out


# pypto dtypes whose NumPy storage differs from the torch dtype a user expects back.
_TORCH_NAMES = {"BF16": "bfloat16", "FP8E4M3FN": "float8_e4m3fn", "FP8E5M2": "float8_e5m2",
                "FP8E8M0": "float8_e8m0fnu"}

"""Runtime values of the executor.

* Tensors and tiles are ``numpy.ndarray``s (dtype per ``dtypes.numpy_dtype``).
* Scalars are Python ``bool``/``int``/``float``; a task id is an ``int`` (-1 = none).
* Tuples are Python tuples; index lists (``[r * 32, 0]``) are tuples of ints.
* ``UNSET`` marks a frame slot without a value: a variable not yet assigned, or a
  result of a task whose predicate was false.  Reading it is an error.

A Var is a reference to a value, never a copy: assigning, passing, returning and
loop-carrying a tensor all share one buffer, as the pypto passes assume.
"""

from __future__ import annotations

from typing import Any

__all__ = ["UNSET", "describe_value"]


class _Unset:
    __slots__ = ()

    def __repr__(self) -> str:
        return "<unset>"


UNSET: Any = _Unset()


def describe_value(value: Any) -> str:
    """A short description for error messages: ``ndarray float32[2, 3]``, ``int 5``."""
    shape = getattr(value, "shape", None)
    dtype = getattr(value, "dtype", None)
    if shape is not None and dtype is not None and hasattr(value, "ndim"):
        dims = ", ".join(str(d) for d in shape)
        return f"{type(value).__name__} {dtype}[{dims}]"
    if isinstance(value, (tuple, list)):
        return f"{type(value).__name__} of {len(value)} item(s)"
    if isinstance(value, (bool, int, float)):
        return f"{type(value).__name__} {value!r}"
    return type(value).__name__

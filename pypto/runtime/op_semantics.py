"""The executor meaning of every registered op, read off its entry.

An entry's ``semantics`` (``pypto.ir.ops.Semantics``) names a kernel family and its
parameters, e.g. ``Semantics("elementwise", ("add",))``; ``KERNELS`` maps each family
to a factory of NumPy implementations.  An implementation is
``impl(args, info, state) -> value``: ``args`` are the evaluated operands (arrays,
Python scalars, index tuples as tuples of ints), ``info`` the call's ``OpInfo``
(attributes with defaults, result dtype), ``state`` the run's ``ExecState``.  A
``DEVICE_ONLY`` op is refused by name when it runs.  A test checks that every
registered op has a meaning and that every family it names exists here.
"""

from __future__ import annotations

from typing import Any, Callable

from ..ir.ops import DEVICE_ONLY, find_op, list_ops
from . import _array_math as M
from . import _data_movement as D
from . import _views as V
from .distributed.kernels import DIST_KERNELS
from .dtypes import np
from .errors import OpFailure
from .state import ExecState, OpInfo

__all__ = ["OP_SEMANTICS", "OpImpl", "KERNELS", "UFUNCS", "UNARY", "REDUCERS", "impl_for"]

OpImpl = Callable[[list, OpInfo, ExecState], Any]


def _rsqrt(x: Any) -> Any:
    return np.reciprocal(np.sqrt(x))


def _recip(x: Any) -> Any:
    return np.true_divide(1, x) if x.dtype.kind in "iub" else np.reciprocal(x)


def _relu(x: Any) -> Any:
    return np.maximum(x, np.zeros((), dtype=x.dtype))


def _expdif(x: Any, vec: Any) -> Any:
    return np.exp(np.subtract(x, vec))


UFUNCS: dict[str, Callable[[Any, Any], Any]] = {
    "add": np.add, "subtract": np.subtract, "multiply": np.multiply,
    "divide": M.divide_values, "maximum": np.maximum, "minimum": np.minimum,
    "bitwise_and": np.bitwise_and, "bitwise_or": np.bitwise_or, "bitwise_xor": np.bitwise_xor,
    "left_shift": np.left_shift, "right_shift": np.right_shift, "fmod": np.fmod,
    "expdif": _expdif,
}
UNARY: dict[str, Callable[[Any], Any]] = {
    "exp": np.exp, "log": np.log, "sqrt": np.sqrt, "rsqrt": _rsqrt, "reciprocal": _recip,
    "negative": np.negative, "absolute": np.abs, "relu": _relu, "sin": np.sin, "cos": np.cos,
    "invert": np.invert,
}
REDUCERS: dict[str, Callable[..., Any]] = {
    "sum": np.sum, "max": np.max, "min": np.min, "prod": np.prod, "argmax": np.argmax,
    "argmin": np.argmin,
}


def _refuse(name: str) -> OpImpl:
    def impl(args: list, info: OpInfo, state: ExecState) -> Any:
        raise OpFailure(f"{name} is a device-only op: the CPU executor refuses it")
    return impl


def _fixed(impl: OpImpl) -> Callable[[], OpImpl]:
    return lambda: impl


KERNELS: dict[str, Callable[..., OpImpl]] = {
    "elementwise": lambda f: M.elementwise(UFUNCS[f]),
    "elementwise_scalar": lambda f: M.elementwise_scalar(UFUNCS[f]),
    "unary": lambda f: M.unary(UNARY[f]),
    "partial": lambda f: V.partial(UFUNCS[f]),
    "reduce_rows": lambda r: M.reduce_rows(REDUCERS[r]),
    "reduce_cols": lambda r: M.reduce_cols(REDUCERS[r]),
    "row_expand": lambda c: M.row_expand(UFUNCS[c] if c else None),
    "col_expand": lambda c: M.col_expand(UFUNCS[c] if c else None),
    "divide": _fixed(M.divide), "divide_scalar": _fixed(M.divide_scalar), "cast": _fixed(M.cast),
    "matmul": _fixed(M.matmul), "matmul_acc": _fixed(M.matmul_acc), "expands": _fixed(M.expands),
    "compare": _fixed(M.compare), "compare_scalar": _fixed(M.compare_scalar),
    "select": _fixed(M.select),
    "create": _fixed(D.create), "full": _fixed(D.full), "load": _fixed(D.load),
    "store": _fixed(D.store), "move": _fixed(D.move), "slice": _fixed(D.slice_),
    "assemble": _fixed(D.assemble), "reshape": _fixed(D.reshape),
    "transpose": _fixed(D.transpose), "read": _fixed(D.read), "write": _fixed(D.write),
    "dim": _fixed(D.dim), "block_idx": _fixed(D.block_idx), "block_num": _fixed(D.block_num),
    "subblock_idx": _fixed(D.subblock_idx), "task_invalid": _fixed(D.task_invalid),
    "arange": _fixed(V.arange), "view": _fixed(V.view),
    "reinterpret_view": _fixed(V.reinterpret_view), "identity": _fixed(V.identity),
    "concat": _fixed(V.concat), "fillpad": _fixed(V.fillpad),
    "fillpad_expand": _fixed(V.fillpad_expand), "expand_clone": _fixed(V.expand_clone),
    "gather": _fixed(V.gather), "gather_row": _fixed(V.gather_row), "scatter": _fixed(V.scatter),
    "scatter_update": _fixed(V.scatter_update),
    **DIST_KERNELS,
}


def impl_for(name: str) -> OpImpl | None:
    """The implementation of the registered op ``name`` (``None``: unknown or no meaning)."""
    op = find_op(name)
    if op is None or op.semantics is None:
        return None
    if op.semantics == DEVICE_ONLY:
        return _refuse(name)
    return KERNELS[op.semantics.kernel](*op.semantics.args)


OP_SEMANTICS: dict[str, OpImpl] = {
    name: impl for name in list_ops() if (impl := impl_for(name)) is not None}

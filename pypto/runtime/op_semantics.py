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
from . import _arrays as AR
from . import _cross_core as C
from . import _data_movement as D
from . import _tile_gather as G
from . import _tile_math as T
from . import _views as V
from ._valid import keep_valid
from .distributed.kernels import DIST_KERNELS
from .dtypes import np
from .errors import OpFailure
from .state import ExecState, OpImpl, OpInfo

__all__ = ["OP_SEMANTICS", "OpImpl", "KERNELS", "UFUNCS", "UNARY", "REDUCERS", "impl_for"]


def _rsqrt(x: Any) -> Any:
    return np.reciprocal(np.sqrt(x))


def _recip(x: Any) -> Any:
    return np.true_divide(1, x) if x.dtype.kind in "iub" else np.reciprocal(x)


def _relu(x: Any) -> Any:
    return np.maximum(x, np.zeros((), dtype=x.dtype))


def _expdif(x: Any, vec: Any) -> Any:
    return np.exp(np.subtract(x, vec))


def _remainder(lhs: Any, rhs: Any) -> Any:
    """The remainder with the divisor's sign (``fmod`` has the dividend's)."""
    if np.asarray(lhs).dtype.kind in "iu" and np.any(np.equal(rhs, 0)):
        raise OpFailure("integer remainder by zero")
    return np.remainder(lhs, rhs)


UFUNCS: dict[str, Callable[[Any, Any], Any]] = {
    "add": np.add, "subtract": np.subtract, "multiply": np.multiply,
    "divide": M.divide_values, "maximum": np.maximum, "minimum": np.minimum,
    "bitwise_and": np.bitwise_and, "bitwise_or": np.bitwise_or, "bitwise_xor": np.bitwise_xor,
    "left_shift": np.left_shift, "right_shift": np.right_shift, "fmod": np.fmod,
    "expdif": _expdif, "remainder": _remainder,
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


def _test_only(args: list, info: OpInfo, state: ExecState) -> Any:
    raise OpFailure(f"{info.name} is a registry test op: it has no meaning on the executor")


def _refuse(name: str) -> OpImpl:
    def impl(args: list, info: OpInfo, state: ExecState) -> Any:
        raise OpFailure(f"{name} is a device-only op: the CPU executor refuses it")
    return impl


def _fixed(impl: OpImpl) -> Callable[[], OpImpl]:
    return lambda: impl


def _kept(factory: Callable[..., OpImpl]) -> Callable[..., OpImpl]:
    """A family whose results keep the first operand's valid region (``_valid``)."""
    return lambda *params: keep_valid(factory(*params))


KERNELS: dict[str, Callable[..., OpImpl]] = {
    "elementwise": _kept(lambda f: M.elementwise(UFUNCS[f])),
    "elementwise_scalar": _kept(lambda f: M.elementwise_scalar(UFUNCS[f])),
    "unary": _kept(lambda f: M.unary(UNARY[f])),
    "partial": lambda f: V.partial(UFUNCS[f]),
    "reduce_rows": lambda r: M.reduce_rows(REDUCERS[r]),
    "reduce_cols": lambda r: M.reduce_cols(REDUCERS[r]),
    "row_expand": _kept(lambda c: M.row_expand(UFUNCS[c] if c else None)),
    "col_expand": _kept(lambda c: M.col_expand(UFUNCS[c] if c else None)),
    "ternary": _kept(T.ternary),
    "divide": _kept(_fixed(M.divide)), "divide_scalar": _kept(_fixed(M.divide_scalar)),
    "cast": _kept(_fixed(M.cast)), "expands": _kept(_fixed(M.expands)),
    "compare": _kept(_fixed(M.compare)), "compare_scalar": _kept(_fixed(M.compare_scalar)),
    "select": _fixed(M.select), "select_scalar": _fixed(T.select_scalar),
    "leaky_relu": _kept(_fixed(T.leaky_relu)), "prelu": _kept(_fixed(T.prelu)),
    "matmul": _fixed(M.matmul), "matmul_acc": _fixed(M.matmul_acc),
    "matmul_bias": _fixed(T.matmul_bias), "batch_matmul": _fixed(T.batch_matmul),
    "batch_matmul_acc": _fixed(T.batch_matmul_acc), "matmul_mx": T.matmul_mx,
    "create": _fixed(D.create), "full": _fixed(D.full), "load": _fixed(D.load),
    "store": _fixed(D.store), "move": _kept(_fixed(D.move)),
    "slice": lambda mode="copy": D.tensor_slice if mode == "view" else D.slice_,
    "assemble": _fixed(D.assemble),
    "reshape": lambda mode="copy": D.tensor_reshape if mode == "view" else D.reshape,
    "transpose": _fixed(D.transpose), "read": _fixed(D.read), "write": _fixed(D.write),
    "dim": _fixed(D.dim), "block_idx": _fixed(D.block_idx), "block_num": _fixed(D.block_num),
    "subblock_idx": _fixed(D.subblock_idx), "task_invalid": _fixed(D.task_invalid),
    "arange": _fixed(V.arange), "view": _fixed(V.view), "tri": _fixed(T.tri),
    "reinterpret_view": _fixed(V.reinterpret_view), "identity": _kept(_fixed(V.identity)),
    "extract": _fixed(T.extract), "transpose_view": _fixed(T.transpose_view),
    "set_validshape": _fixed(T.set_validshape),
    "concat": _fixed(V.concat), "fillpad": _fixed(V.fillpad),
    "fillpad_inplace": _fixed(V.fillpad_inplace),
    "fillpad_expand": _fixed(V.fillpad_expand), "expand_clone": _fixed(V.expand_clone),
    "gather": _fixed(V.gather), "gather_row": _fixed(V.gather_row), "scatter": _fixed(V.scatter),
    "scatter_update": _fixed(V.scatter_update),
    "gather_flat": _fixed(G.gather_flat), "scatter_flat": _fixed(G.scatter_flat),
    "gather_mask": _fixed(G.gather_mask), "scatter_mask": _fixed(G.scatter_mask),
    "mgather": _fixed(G.mgather), "mscatter": _fixed(G.mscatter), "sort32": _fixed(G.sort32),
    "mrgsort_runs": _fixed(G.mrgsort_runs), "mrgsort_merge": _fixed(G.mrgsort_merge),
    "tpush": C.tpush, "tpop": C.tpop, "noop": _fixed(C.noop), "alloc": _fixed(C.alloc),
    "reserve_buffer": _fixed(C.reserve_buffer),
    "import_peer_buffer": _fixed(C.import_peer_buffer), "core_count": C.core_count,
    "task_dummy": _fixed(C.task_dummy), "task_is_valid": _fixed(C.task_is_valid),
    "array_create": _fixed(AR.array_create), "array_get": _fixed(AR.array_get),
    "array_update": _fixed(AR.array_update), "prefetch_handle": AR.prefetch_handle,
    "prefetch_wait": _fixed(AR.prefetch_wait), "test_only": _fixed(_test_only),
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

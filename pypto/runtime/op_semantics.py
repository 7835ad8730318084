"""Op name -> NumPy implementation: one entry per op of the registry
(``pypto/ir/ops/tensor_ops.py``, ``tile_ops.py``, ``system_ops.py``).

Adding an op to the registry means adding its entry here; a test checks that the
two tables name the same ops.  An implementation is
``impl(args, info, state) -> value``: ``args`` are the evaluated operands (arrays,
Python scalars, index tuples as tuples of ints), ``info`` the call's ``OpInfo``
(keywords with defaults, result dtype), ``state`` the run's ``ExecState``.  The
semantics are documented in ``_array_math`` and ``_data_movement``.
"""

from __future__ import annotations

from typing import Any, Callable

from . import _array_math as M
from . import _data_movement as D
from .dtypes import np
from .state import ExecState, OpInfo

__all__ = ["OP_SEMANTICS", "OpImpl"]

OpImpl = Callable[[list, OpInfo, ExecState], Any]


def _rsqrt(x: Any) -> Any:
    return np.reciprocal(np.sqrt(x))


def _recip(x: Any) -> Any:
    return np.true_divide(1, x) if x.dtype.kind in "iub" else np.reciprocal(x)


def _relu(x: Any) -> Any:
    return np.maximum(x, np.zeros((), dtype=x.dtype))


OP_SEMANTICS: dict[str, OpImpl] = {
    # -- tensor.* -----------------------------------------------------------------
    "tensor.add": M.elementwise(np.add),
    "tensor.sub": M.elementwise(np.subtract),
    "tensor.mul": M.elementwise(np.multiply),
    "tensor.div": M.divide,
    "tensor.maximum": M.elementwise(np.maximum),
    "tensor.minimum": M.elementwise(np.minimum),
    "tensor.adds": M.elementwise_scalar(np.add),
    "tensor.subs": M.elementwise_scalar(np.subtract),
    "tensor.muls": M.elementwise_scalar(np.multiply),
    "tensor.divs": M.divide_scalar,
    "tensor.maximums": M.elementwise_scalar(np.maximum),
    "tensor.minimums": M.elementwise_scalar(np.minimum),
    "tensor.exp": M.unary(np.exp),
    "tensor.log": M.unary(np.log),
    "tensor.sqrt": M.unary(np.sqrt),
    "tensor.rsqrt": M.unary(_rsqrt),
    "tensor.recip": M.unary(_recip),
    "tensor.neg": M.unary(np.negative),
    "tensor.abs": M.unary(np.abs),
    "tensor.cast": M.cast,
    "tensor.matmul": M.matmul,
    "tensor.matmul_acc": M.matmul_acc,
    "tensor.row_sum": M.reduce_rows(np.sum),
    "tensor.row_max": M.reduce_rows(np.max),
    "tensor.row_min": M.reduce_rows(np.min),
    "tensor.col_sum": M.reduce_cols(np.sum),
    "tensor.col_max": M.reduce_cols(np.max),
    "tensor.col_min": M.reduce_cols(np.min),
    "tensor.row_expand": M.row_expand(None),
    "tensor.row_expand_add": M.row_expand(np.add),
    "tensor.row_expand_sub": M.row_expand(np.subtract),
    "tensor.row_expand_mul": M.row_expand(np.multiply),
    "tensor.row_expand_div": M.row_expand(M.divide_values),
    "tensor.col_expand": M.col_expand(None),
    "tensor.col_expand_add": M.col_expand(np.add),
    "tensor.col_expand_sub": M.col_expand(np.subtract),
    "tensor.col_expand_mul": M.col_expand(np.multiply),
    "tensor.col_expand_div": M.col_expand(M.divide_values),
    "tensor.expands": M.expands,
    "tensor.cmp": M.compare,
    "tensor.cmps": M.compare_scalar,
    "tensor.create": D.create,
    "tensor.full": D.full,
    "tensor.slice": D.tensor_slice,
    "tensor.assemble": D.assemble,
    "tensor.reshape": D.tensor_reshape,
    "tensor.transpose": D.transpose,
    "tensor.read": D.read,
    "tensor.write": D.write,
    "tensor.dim": D.dim,
    # -- tile.* -------------------------------------------------------------------
    "tile.add": M.elementwise(np.add),
    "tile.sub": M.elementwise(np.subtract),
    "tile.mul": M.elementwise(np.multiply),
    "tile.div": M.divide,
    "tile.maximum": M.elementwise(np.maximum),
    "tile.minimum": M.elementwise(np.minimum),
    "tile.and": M.elementwise(np.bitwise_and),
    "tile.or": M.elementwise(np.bitwise_or),
    "tile.adds": M.elementwise_scalar(np.add),
    "tile.subs": M.elementwise_scalar(np.subtract),
    "tile.muls": M.elementwise_scalar(np.multiply),
    "tile.divs": M.divide_scalar,
    "tile.maximums": M.elementwise_scalar(np.maximum),
    "tile.minimums": M.elementwise_scalar(np.minimum),
    "tile.exp": M.unary(np.exp),
    "tile.log": M.unary(np.log),
    "tile.sqrt": M.unary(np.sqrt),
    "tile.rsqrt": M.unary(_rsqrt),
    "tile.recip": M.unary(_recip),
    "tile.neg": M.unary(np.negative),
    "tile.abs": M.unary(np.abs),
    "tile.relu": M.unary(_relu),
    "tile.cast": M.cast,
    "tile.matmul": M.matmul,
    "tile.matmul_acc": M.matmul_acc,
    "tile.row_sum": M.reduce_rows(np.sum),
    "tile.row_max": M.reduce_rows(np.max),
    "tile.row_min": M.reduce_rows(np.min),
    "tile.col_sum": M.reduce_cols(np.sum),
    "tile.col_max": M.reduce_cols(np.max),
    "tile.col_min": M.reduce_cols(np.min),
    "tile.row_expand": M.row_expand(None),
    "tile.row_expand_add": M.row_expand(np.add),
    "tile.row_expand_sub": M.row_expand(np.subtract),
    "tile.row_expand_mul": M.row_expand(np.multiply),
    "tile.row_expand_div": M.row_expand(M.divide_values),
    "tile.col_expand": M.col_expand(None),
    "tile.col_expand_add": M.col_expand(np.add),
    "tile.col_expand_sub": M.col_expand(np.subtract),
    "tile.col_expand_mul": M.col_expand(np.multiply),
    "tile.col_expand_div": M.col_expand(M.divide_values),
    "tile.expands": M.expands,
    "tile.cmp": M.compare,
    "tile.cmps": M.compare_scalar,
    "tile.sel": M.select,
    "tile.create": D.create,
    "tile.load": D.load,
    "tile.store": D.store,
    "tile.move": D.move,
    "tile.slice": D.slice_,
    "tile.assemble": D.assemble,
    "tile.reshape": D.reshape,
    "tile.transpose": D.transpose,
    "tile.read": D.read,
    "tile.write": D.write,
    "tile.get_block_idx": D.block_idx,
    "tile.get_block_num": D.block_num,
    "tile.get_subblock_idx": D.subblock_idx,
    # -- system.* -----------------------------------------------------------------
    "system.task_invalid": D.task_invalid,
}

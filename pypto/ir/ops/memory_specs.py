"""Where an op's tile operands must live and where its result goes (PyPTO's
``ir.get_op_memory_spec``), read off the registry entries.

The answer is PyPTO's dictionary ``{"input_constraints": [...], "output_memory": ...}``:
one list of allowed memory spaces per leading operand (an empty list: any; trailing
unconstrained operands are left out) and the result's space, ``"inherit_from_input"``
(a view), ``"deferred"`` (chosen later by the ``target_memory`` attribute) or ``None``
(no tile result).  Ops with no placement rule (tensor arithmetic, system ops, ...) have
no spec: ``None``.

Rule: a ``tile.*`` op reads its tile operands from and writes its result to the vector
buffer (``Vec``).  The exceptions below are named; the cube ops take each operand from
the buffer its role names (``lhs`` from ``Left``, ``acc`` from ``Acc`` ...).
"""

from __future__ import annotations

from typing import Any

from ..enums import MemorySpace as M
from .registry import ArgKind, get_op

__all__ = ["get_op_memory_spec"]

INHERIT, DEFERRED = "inherit_from_input", "deferred"

# The cube (matrix) unit: operand role -> buffer; the result accumulates in Acc.
_CUBE_OPS = frozenset({"tile.matmul", "tile.matmul_acc", "tile.matmul_bias", "tile.matmul_mx",
                       "tile.matmul_mx_acc", "tile.matmul_mx_bias", "tile.batch_matmul",
                       "tile.batch_matmul_acc", "tile.gemv", "tile.gemv_acc", "tile.gemv_bias"})
_CUBE_ROLES = {"acc": M.Acc, "lhs": M.Left, "rhs": M.Right, "bias": M.Bias,
               "lhs_scale": M.LeftScale, "rhs_scale": M.RightScale}

# Views: no constraint, the result lives where the input does.
_VIEWS = frozenset({"tensor.reinterpret_view", "tensor.reshape", "tensor.set_validshape",
                    "tensor.slice", "tensor.view", "tile.assemble", "tile.reinterpret_view",
                    "tile.reshape", "tile.set_validshape", "tile.slice", "tile.transpose",
                    "tile.transpose_view", "tile.tget_scale_addr"})
# Results whose space the target_memory attribute chooses.
_DEFERRED = frozenset({"tile.create", "tile.load"})
# Producers with unconstrained operands and a fixed result space.
_PRODUCERS = {"tile.aiv_shard": M.Vec, "tile.ci": M.Vec, "tile.extract": M.Vec,
              "tile.full": M.Vec, "tile.mgather": M.Vec, "tile.move": M.Vec,
              "tile.random": M.Vec, "tile.tri": M.Vec, "tile.aic_gather": M.Mat}
# Consumers with no tile result; stores also take an accumulator straight out of Acc.
_STORES = frozenset({"tile.store", "pld.tile.remote_store"})
_NO_RESULT = frozenset({"tile.mscatter", "tile.read"})
# Tile ops outside the placement rule: allocation, block queries, cross-core pipes.
_UNPLACED = frozenset({"tile.alloc", "tile.gather_row", "tile.get_block_idx",
                       "tile.get_block_num", "tile.get_subblock_idx", "tile.tpop_from_aic",
                       "tile.tpop_from_aiv", "tile.tpush_to_aic", "tile.tpush_to_aiv"})


def get_op_memory_spec(op_name: str) -> dict[str, Any] | None:
    """The memory placement of ``op_name`` (a fresh dict), or ``None`` if it has none.
    Unknown op names raise the registry's error."""
    op = get_op(op_name)
    name = op.name
    if name in _VIEWS:
        return _spec([], INHERIT)
    if name in _DEFERRED:
        return _spec([], DEFERRED)
    if name in _PRODUCERS:
        return _spec([], _PRODUCERS[name])
    if name in _STORES:
        return _spec([[M.Vec, M.Acc]], None)
    if name in _CUBE_OPS:
        return _spec([[_CUBE_ROLES[p.name]] if p.name in _CUBE_ROLES else [] for p in op.params],
                     M.Acc)
    if op.namespace != "tile" or name in _UNPLACED:
        return None
    tiles = [[M.Vec] if p.kind is ArgKind.Tile else [] for p in op.params]
    return _spec(tiles, None if name in _NO_RESULT else M.Vec)


def _spec(constraints: list[list[M]], output: Any) -> dict[str, Any]:
    while constraints and not constraints[-1]:
        constraints.pop()  # trailing operands without a constraint are left out
    return {"input_constraints": constraints, "output_memory": output}

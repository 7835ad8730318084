"""The op registry (01-language.md §12, 02-ir.md §11).

Ops are declared as data in ``tensor_ops``, ``tensor_memory_ops``, ``tile_ops``,
``tile_memory_ops``, ``cross_core_ops``, ``system_ops``, ``distributed_ops`` and
``array_ops`` (importing this package
registers them); ``create_op_call`` validates a
call against its declaration and deduces its type; ``wrappers`` generates PyPTO's 1:1
wrapper functions from the declarations.
"""

from __future__ import annotations

from .registry import (DEVICE_ONLY, ArgKind, Effect, KwargSpec, OpDef, ParamSpec, Semantics,
                       ValueKind, find_op, get_op, is_op_registered, list_ops, ops_in,
                       register_op)
from .call import create_op_call
from .analysis import call_write_targets, deduce_call_return_type
from . import (cross_core_ops, system_ops, tensor_memory_ops, tensor_ops,  # noqa: F401
               tile_memory_ops, tile_ops)  # (the tables)
from . import distributed_ops  # noqa: F401  (pld.system / pld.tensor / pld.tile)
from . import array_ops  # noqa: F401  (array.* / prefetch.*)
from . import testing_ops  # noqa: F401  (test.*: the registry's own test entries)

__all__ = ["get_op", "is_op_registered", "list_ops", "find_op", "register_op", "ops_in",
           "create_op_call", "deduce_call_return_type", "call_write_targets",
           "Effect", "OpDef", "ParamSpec", "KwargSpec", "ArgKind", "ValueKind", "Semantics",
           "DEVICE_ONLY"]

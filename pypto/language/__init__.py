"""``import pypto.language as pl``: the DSL surface.

Decorators (``pl.function``, ``pl.program``, ``pl.inline``, ``pl.jit``), annotation
types (``pl.Tensor``, ``pl.Tile``, ``pl.Scalar``, ...), dtypes and enums, the
statement-level constructs (``pl.range``, ``pl.at``, ``pl.graph``, ...), the ops
(``pl.add``, ``pl.tensor.add``, ...) and the text parser (``pl.parse``).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..ir.dtype import DataType
from ..ir.enums import (ArgDirection, AtomicType, CompactMode, ForKind, FunctionType, Level, Mem,
                        MemorySpace, PadValue, ParamDirection, PipeType, Role, ScopeKind,
                        ScopeMode, SplitMode, TensorLayout, TileLayout)
from ..ir.types import TensorView, TileView, UnknownType
from ..ir.array_types import PtrType
from .typing import (RUNTIME, DynVar, InOut, MemRef, Out, Scalar, TaskId, Tensor, Tile, Tuple,
                     dynamic)
from .array_types import Array, AsyncEvent, AsyncSession, PrefetchAsyncContext
from .dsl import (at, cluster, cond, const, func_attr, graph, parallel, pipeline, range, spmd,
                  split_aiv, static_assert, static_print, unroll, while_, yield_)
# Loading the submodule pypto.language.scope binds pl.scope to it; the from-import then
# rebinds pl.scope to the construct (as in PyPTO, where both paths exist).
from .scope import manual_scope, scope, spmd_submit, submit
from .optimizations import cross_core_slot, split
from . import dsl_api, optimizations
from .op import *  # noqa: F401,F403  (pl.add, pl.load, ...)
from . import arg_direction, op
from . import arg_direction as adir
from .op import UNIFIED_OPS, array, prefetch, system, tensor, tile
from .op.tile_ops import MemRefType
from .decorators import InlineFunction, function, inline, program
from .parser.text_parser import loads, loads_program, parse, parse_program

# dtypes as pl.FP32 ...
BOOL = DataType.BOOL
INT4 = DataType.INT4
INT8 = DataType.INT8
INT16 = DataType.INT16
INT32 = DataType.INT32
INT64 = DataType.INT64
UINT4 = DataType.UINT4
UINT8 = DataType.UINT8
UINT16 = DataType.UINT16
UINT32 = DataType.UINT32
UINT64 = DataType.UINT64
FP4 = DataType.FP4
FP8E4M3FN = DataType.FP8E4M3FN
FP8E5M2 = DataType.FP8E5M2
FP8E8M0 = DataType.FP8E8M0
FP16 = DataType.FP16
FP32 = DataType.FP32
BF16 = DataType.BF16
HF4 = DataType.HF4
HF8 = DataType.HF8
INDEX = DataType.INDEX
TASK_ID = DataType.TASK_ID

# pl.reserve_buffer(..., base=pl.AUTO): no fixed address, the allocator places the buffer
# (the attribute's default).
AUTO = -1
Ptr = PtrType  # PyPTO's ``pl.Ptr`` is the IR type itself (``pl.tile.alloc``'s result)

# tensor layouts as pl.ND ...
ND = TensorLayout.ND
DN = TensorLayout.DN
NZ = TensorLayout.NZ
MX_A_ZZ = TensorLayout.MX_A_ZZ
MX_B_NN = TensorLayout.MX_B_NN


# pl.jit and pl.JITFunction live in the layer above the language (pypto.jit builds on the
# parser): lazy re-exports, looked up in pypto.jit on first access.
from .._lazy import install_lazy_attributes as _install_lazy_attributes

_install_lazy_attributes(__name__, {"jit": ("pypto.jit", "jit"),
                                    "JITFunction": ("pypto.jit", "JITFunction")})
if TYPE_CHECKING:  # what type checkers see of the lazy names (no import at run time)
    from ..jit import JITFunction, jit

from . import distributed  # noqa: E402  (pypto.language.distributed, PyPTO's `pld`)



# Every public name, spelled out for type checkers (mypy reads only a literal list);
# tests/typing/test_exports.py keeps it equal to what the module defines.
__all__ = [
    "ArgDirection", "Array", "AsyncEvent", "AsyncSession", "AtomicType", "BF16", "BOOL",
    "CompactMode", "DN", "DataType", "DynVar", "FP16", "FP32", "FP4", "FP8E4M3FN",
    "FP8E5M2", "FP8E8M0", "ForKind", "FunctionType", "HF4", "HF8", "INDEX", "INT16",
    "INT32", "INT4", "INT64", "INT8", "InOut", "InlineFunction", "JITFunction", "Level",
    "MX_A_ZZ", "MX_B_NN", "Mem", "MemRef", "MemRefType", "AUTO", "MemorySpace", "ND", "NZ", "Out", "PadValue",
    "ParamDirection", "PipeType", "PrefetchAsyncContext", "Ptr", "PtrType", "RUNTIME",
    "Role", "Scalar", "ScopeKind", "ScopeMode", "SplitMode", "TASK_ID", "TaskId", "Tensor",
    "TensorLayout", "TensorView", "Tile", "TileLayout", "TileView", "Tuple", "UINT16",
    "UINT32", "UINT4", "UINT64", "UINT8", "UNIFIED_OPS", "UnknownType", "abs", "add",
    "addc", "addsc", "adir", "aic_gather", "aic_initialize_pipe", "aiv_initialize_pipe",
    "aiv_shard", "and_", "ands", "arange", "arg_direction", "array", "assemble", "at",
    "batch_matmul", "cast", "cluster", "cmp", "cmps", "col_argmax", "col_argmin",
    "col_expand", "col_expand_add", "col_expand_div", "col_expand_expdif", "col_expand_max",
    "col_expand_min", "col_expand_mul", "col_expand_sub", "col_max", "col_min", "col_prod",
    "col_sum", "concat", "cond", "const", "cos", "create_l1", "create_tensor",
    "create_tile", "cross_core_slot", "dim", "distributed", "div", "dump_tag", "dynamic",
    "exp", "expand_clone", "expands", "fillpad", "fillpad_expand", "fmod", "fmods", "full",
    "func_attr", "function", "gather", "gather_row", "gatherb", "gemv", "gemv_acc",
    "gemv_bias", "get_block_idx", "get_block_num", "get_subblock_idx", "graph",
    "import_peer_buffer", "inline", "jit", "load", "loads", "loads_program", "log", "lrelu",
    "manual_scope", "matmul", "matmul_acc", "matmul_bias", "matmul_mx", "matmul_mx_acc",
    "matmul_mx_bias", "max", "maximum", "maximums", "mgather", "min", "minimum", "minimums",
    "move", "mrgsort", "mscatter", "mul", "neg", "no_dep", "not_", "op", "optimizations",
    "or_", "ors", "paged_gather",
    "parallel", "parse", "parse_program", "parser", "part_add", "part_max", "part_min", "part_mul",
    "pipeline", "prefetch", "prelu", "program", "random", "range", "read", "recip",
    "reinterpret_view", "relu", "rem", "rems", "reserve_buffer", "reshape", "row_argmax",
    "row_argmin", "row_expand", "row_expand_add", "row_expand_div", "row_expand_expdif",
    "row_expand_max", "row_expand_min", "row_expand_mul", "row_expand_sub", "row_max",
    "row_min", "row_prod", "row_sum", "rsqrt", "scatter", "scatter_update", "scope", "sel",
    "sels", "set_validshape", "shl", "shls", "shr", "shrs", "sin", "slice", "sort32",
    "split", "split_aiv", "spmd", "spmd_submit", "sqrt", "static_assert", "static_print", "store", "sub",
    "subc", "submit", "subsc", "system", "tensor", "tfree_to_aic", "tfree_to_aiv", "tile",
    "tpop_from_aic", "tpop_from_aiv", "tpush_to_aic", "tpush_to_aiv", "transpose", "tri",
    "unroll", "while_", "write", "xor", "xors", "yield_",
]

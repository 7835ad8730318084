"""``import pypto.language as pl``: the DSL surface.

Decorators (``pl.function``, ``pl.program``, ``pl.inline``, ``pl.jit``), annotation
types (``pl.Tensor``, ``pl.Tile``, ``pl.Scalar``, ...), dtypes and enums, the
statement-level constructs (``pl.range``, ``pl.at``, ``pl.graph``, ...), the ops
(``pl.add``, ``pl.tensor.add``, ...) and the text parser (``pl.parse``).
"""

from __future__ import annotations

from ..ir.dtype import DataType
from ..ir.enums import (ArgDirection, AtomicType, CompactMode, ForKind, FunctionType, Level, Mem,
                        MemorySpace, PadValue, ParamDirection, PipeType, Role, ScopeKind,
                        ScopeMode, SplitMode, TensorLayout, TileLayout)
from ..ir.types import MemRef, TensorView, TileView, UnknownType
from ..ir.array_types import PtrType
from .typing import (RUNTIME, DynVar, InOut, Out, Scalar, TaskId, Tensor, Tile, Tuple, dynamic)
from .array_types import Array, AsyncEvent, AsyncSession, PrefetchAsyncContext
from .dsl import (at, cluster, cond, const, cross_core_slot, func_attr, graph, manual_scope,
                  parallel, pipeline, range, scope, spmd, spmd_submit, split, static_assert,
                  static_print, submit, unroll, while_, yield_)
from .op import *  # noqa: F401,F403  (pl.add, pl.load, ...)
from . import arg_direction, op
from . import arg_direction as adir
from .op import UNIFIED_OPS, array, prefetch, system, tensor, tile
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

from . import distributed  # noqa: E402  (pypto.language.distributed, PyPTO's `pld`)

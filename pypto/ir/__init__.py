"""``pypto.ir``: the IR data model, printer, structural equality/hash, visitor/mutator.

Everything a pass or a test needs is re-exported here (02-ir.md).
"""

from __future__ import annotations

from typing import Any as _Any

from .span import Span
from .dtype import DataType
from .enums import (ArgDirection, AtomicType, CompactMode, CoreType, ForKind, FunctionType,
                    InlineLanguage, Level, Mem, MemorySpace, PadValue, ParamDirection, PipeType,
                    Role, ScopeKind, ScopeMode, SplitMode, TensorLayout, TileLayout, WriteChannel,
                    level_to_linqu_level, string_to_level, string_to_role)
from .node import Expr, FieldKind, GlobalVar, IRNode, Op, Stmt, attach_leading_comments
from .types import (MemRef, ScalarType, ShapedType, TensorType, TensorView, TileType, TileView,
                    TupleType, Type, UnknownType)
from .expr import (Abs, Add, And, BinaryExpr, BitAnd, BitNot, BitOr, BitShiftLeft, BitShiftRight,
                   BitXor, Call, Cast, ConstBool, ConstFloat, ConstInt, Eq, FloatDiv, FloorDiv,
                   FloorMod, Ge, Gt, IterArg, Le, Lt, MakeTuple, Max, Min, Mul,
                   Ne, Neg, Not, Or, Pow, Sub, Submit, TupleGetItemExpr, UnaryExpr, Var, Xor)
from .stmt import (AssignStmt, BreakStmt, ContinueStmt, EvalStmt, ForStmt, IfStmt, InlineStmt,
                   ReturnStmt, SeqStmts, WhileStmt, YieldStmt)
from .scope import (ClusterScopeStmt, GraphScopeStmt, HierarchyScopeStmt, InCoreScopeStmt,
                    RuntimeScopeStmt, ScopeStmt, SplitAivScopeStmt, SpmdScopeStmt)
from .function import (Function, Program, is_incore_type, is_orchestration_like,
                       is_wrapper_type)
from .builders import (abs_, add, and_, bit_and, bit_not, bit_or, bit_shift_left,
                       bit_shift_right, bit_xor, cast, eq, floordiv, ge, gt, le, lt, max_, min_,
                       mod, mul, ne, neg, not_, or_, pow, sub, truediv)
from .structural import assert_structural_equal, structural_equal, structural_hash
from .diff import diff
from .distributed_types import (CommCtxType, CommDomainScopeStmt, DistributedTensorType,
                                WindowBuffer, WindowBufferType)
from .enums import NotifyOp, ReduceOp, WaitCmp
from .array_types import (ArrayType, AsyncEventType, AsyncSessionType, PrefetchAsyncContextType,
                          PtrType)
from . import comm_layout
from .visitor import IRMutator, IRVisitor
from . import printer, tensor_view_semantics
from .printer import python_print, python_print_type, register_format_callback
from .ops import (call_write_targets, create_op_call, deduce_call_return_type, get_op,
                  is_op_registered)
# ``get_op_arg_effect`` is a falsy routine-like wrapper (``ops/effects.py`` says why).
from .ops.effects import (ArgEffect, get_op_write_channel, op_has_declared_arg_effect,
                          op_has_declared_arg_effects)
from .ops.effects import arg_effect_query as get_op_arg_effect
from .ops.memory_specs import get_op_memory_spec
from .call_attrs import set_call_attrs
from .directions import make_call
from .parent_stmt import ParentStmtAnalysis
from .op_conversion import (ConversionContext, has_op_conversion, op_conversion,
                            register_op_conversion, register_op_conversion_custom)
from .serialize import deserialize, deserialize_from_file, serialize, serialize_to_file
from . import builder, directions, formatter, operators, type, utils  # noqa: A004 - PyPTO's name
from .utils import (collect_def_vars, deep_clone, find_yield_stmt, flatten_to_stmts,
                    get_last_yield_stmt, substitute_expr, substitute_stmt)
from .builder import IRBuilder
from . import instruments, op, pass_manager, compiled_program
# ``ir.compile`` is the function (looked up lazily below), ``pypto.ir.compile`` the module:
# loading the module first and dropping the attribute it left keeps both right.
from . import compile as _compile_module  # noqa: F401
del globals()["compile"]
from .constants import module_constants as _module_constants

# ``ir.HOST``, ``ir.Vec``, ``ir.FP32``, ``ir.input`` ... (PyPTO's module constants).  They
# include ``max``, ``min`` and ``input``: nothing below this line may use those builtins.
globals().update(_module_constants())

# Every public name, spelled out for type checkers (mypy reads only a literal list), and
# what ``from pypto.ir import *`` gives: PyPTO's ``__all__`` and the rest of the module,
# but not the module constants above (``ir.HOST``, ``ir.max`` ...), which would shadow
# builtins; those PyPTO lists (``input``, ``inout`` ...) are in.
# tests/typing/test_stubs.py keeps it equal to what the module defines.
__all__ = [
    "Abs", "Add", "And", "ArgDirection", "ArgEffect", "ArrayType", "AssignStmt",
    "AsyncEventType", "AsyncSessionType", "AtomicType", "BinaryExpr", "BitAnd", "BitNot",
    "BitOr", "BitShiftLeft", "BitShiftRight", "BitXor", "BreakStmt", "Call", "Cast",
    "ClusterScopeStmt", "CommCtxType", "CommDomainScopeStmt", "CompactMode", "CompiledProgram",
    "ConstBool", "ConstFloat", "ConstInt", "ContinueStmt", "ConversionContext", "CoreType",
    "DataType", "DiagnosticCheck", "DiagnosticCheckSet", "DiagnosticPhase",
    "DistributedTensorType", "Eq", "EvalStmt", "Expr", "FieldKind", "FloatDiv", "FloorDiv",
    "FloorMod", "ForKind", "ForStmt", "Function", "FunctionType", "Ge", "GlobalVar",
    "GraphScopeStmt", "Gt", "HierarchyScopeStmt", "IRBuilder", "IRMutator", "IRNode",
    "IRVisitor", "IfStmt", "InCoreScopeStmt", "InlineLanguage", "InlineStmt", "IterArg", "Le",
    "Level", "Lt", "MakeTuple", "Max", "Mem", "MemRef", "MemorySpace", "Min", "Mul", "Ne",
    "Neg", "Not", "NotifyOp", "Op", "OptimizationStrategy", "Or", "PadValue", "ParamDirection",
    "ParentStmtAnalysis", "PassContext", "PassDumpLevel", "PassManager", "PipeType", "Pow",
    "PrefetchAsyncContextType", "Program", "PtrType", "ReduceOp", "ReturnStmt", "Role",
    "RuntimeScopeStmt", "ScalarType", "ScopeKind", "ScopeMode", "ScopeStmt", "SeqStmts",
    "ShapedType", "Span", "SplitAivScopeStmt", "SplitMode", "SpmdScopeStmt", "Stmt", "Sub",
    "Submit", "TensorLayout", "TensorType", "TensorView", "TileLayout", "TileType", "TileView",
    "TupleGetItemExpr", "TupleType", "Type", "UnaryExpr", "UnknownType", "Var",
    "VerificationLevel", "VerificationMode", "WaitCmp", "WhileStmt", "WindowBuffer",
    "WindowBufferType", "WriteChannel", "Xor", "YieldStmt", "abs_", "add", "and_",
    "assert_structural_equal", "attach_leading_comments", "bit_and", "bit_not", "bit_or",
    "bit_shift_left", "bit_shift_right", "bit_xor", "call_write_targets", "cast",
    "collect_def_vars", "comm_layout", "compile", "create_op_call", "deduce_call_return_type",
    "deep_clone", "deserialize", "deserialize_from_file", "diff", "directions", "eq",
    "find_yield_stmt", "flatten_to_stmts", "floordiv", "ge", "get_last_yield_stmt", "get_op",
    "get_op_arg_effect", "get_op_memory_spec", "get_op_write_channel", "gt",
    "has_op_conversion", "inout", "input", "instruments",
    "is_incore_type", "is_op_registered", "is_orchestration_like", "is_wrapper_type", "le",
    "level_to_linqu_level", "lt", "make_call", "make_roundtrip_instrument", "max_", "min_",
    "mod", "mul", "ne", "neg", "no_dep", "not_", "op", "op_conversion",
    "op_has_declared_arg_effect", "op_has_declared_arg_effects", "or_", "output",
    "output_existing", "pass_manager", "pow", "python_print", "python_print_type",
    "register_format_callback", "register_op_conversion", "register_op_conversion_custom",
    "scalar_dir", "serialize", "serialize_to_file", "set_call_attrs", "string_to_level",
    "string_to_role", "structural_equal", "structural_hash", "sub", "substitute_expr",
    "substitute_stmt", "truediv",
]

# The pass manager and the round-trip instrument belong to higher layers; they are
# looked up there on first access, so importing pypto.ir never imports upward.
_LAZY = {"OptimizationStrategy": "pypto.passes.pass_manager",
         "PassDumpLevel": "pypto.passes.pass_manager",
         "PassManager": "pypto.passes.pass_manager",
         "PassContext": "pypto.passes.context",
         "VerificationLevel": "pypto.passes.context",
         "VerificationMode": "pypto.passes.context",
         "DiagnosticCheck": "pypto.passes.diagnostic_checks",
         "DiagnosticCheckSet": "pypto.passes.diagnostic_checks",
         "DiagnosticPhase": "pypto.passes.diagnostic_checks",
         "compile": "pypto.passes.compile",
         "CompiledProgram": "pypto.passes.compile",
         "make_roundtrip_instrument": "pypto.language.roundtrip"}


def __getattr__(name: str) -> _Any:  # PEP 562
    home = _LAZY.get(name)
    if home is None:
        raise AttributeError(f"module 'pypto.ir' has no attribute {name!r}")
    import importlib
    return getattr(importlib.import_module(home), name)

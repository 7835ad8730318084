"""A mypy plugin for DSL code: ``plugins = ["pypto.mypy_plugin"]`` (docs/guide/typing.md).

DSL annotations are not standard type expressions: ``pl.Tensor[[64, N], pl.FP32]``
holds a list of dims and a dtype value, and a ``@pl.jit`` parameter may be annotated
with a bare dtype (``n: pl.INDEX``).  The plugin reads them for what they mean to
Python code around the DSL: the value kinds ``pl.Tensor``, ``pl.Tile``, ``pl.Scalar``
(their dims and dtypes are the parser's business, checked when the program is
parsed).  ``pl.Out[T]``/``pl.InOut[T]`` are ``T``; ``pl.Tuple[A, B]`` is a tuple.

A ``@pl.program`` class is an ``ir.Program`` after decoration; mypy does not apply a
class decorator's return type, so the plugin rebinds the class name to a ``Program``.

This module is imported by mypy only; pypto never imports it.
"""

from __future__ import annotations

from typing import Callable

from mypy.nodes import GDEF, ClassDef, SymbolTableNode, Var
from mypy.plugin import AnalyzeTypeContext, ClassDefContext, Plugin
from mypy.semanal import SemanticAnalyzer
from mypy.types import AnyType, TupleType, Type, TypeList, TypeOfAny

_LANG = "pypto.language"
_TYPING = "pypto.language.typing"
_DIST_TYPING = "pypto.language.distributed.typing"

# Annotation head -> the class its values have.
_VALUE_KINDS = {
    f"{_TYPING}.Tensor": "pypto.language.typing.Tensor",
    f"{_TYPING}.Tile": "pypto.language.typing.Tile",
    f"{_TYPING}.Scalar": "pypto.language.typing.Scalar",
    f"{_TYPING}.TaskId": "pypto.language.typing.Scalar",
}
_DIST_KINDS = ("DistributedTensor",)
_WRAPPERS = (f"{_TYPING}.Out", f"{_TYPING}.InOut")
_DTYPE_NAMES = frozenset({
    "BOOL", "INT4", "INT8", "INT16", "INT32", "INT64", "UINT4", "UINT8", "UINT16", "UINT32",
    "UINT64", "FP4", "FP8E4M3FN", "FP8E5M2", "FP8E8M0", "FP16", "FP32", "BF16", "HF4", "HF8",
    "INDEX", "TASK_ID"})
_PROGRAM_DECORATORS = frozenset({f"{_LANG}.program", f"{_LANG}.decorators.program"})


def _value_kind(target: str) -> Callable[[AnalyzeTypeContext], Type]:
    def analyze(ctx: AnalyzeTypeContext) -> Type:
        return ctx.api.named_type(target, [])
    return analyze


def _wrapped(ctx: AnalyzeTypeContext) -> Type:
    """``pl.Out[T]`` -> ``T``."""
    args = ctx.type.args
    if len(args) != 1:
        ctx.api.fail(f"{ctx.type.name}[...] takes one type", ctx.context)
        return AnyType(TypeOfAny.from_error)
    return ctx.api.analyze_type(args[0])


def _tuple(ctx: AnalyzeTypeContext) -> Type:
    """``pl.Tuple[A, B]`` -> ``tuple[A, B]``."""
    args = ctx.type.args
    if len(args) == 1 and isinstance(args[0], TypeList):
        args = tuple(args[0].items)
    items = [ctx.api.analyze_type(arg) for arg in args]
    return TupleType(items, ctx.api.named_type("builtins.tuple", [AnyType(TypeOfAny.special_form)]))


def _is_dtype_name(fullname: str) -> bool:
    module, _, name = fullname.rpartition(".")
    return name in _DTYPE_NAMES and module in (_LANG, "pypto.ir.dtype.DataType")


def _rebind_program(ctx: ClassDefContext) -> None:
    """``@pl.program class P`` binds ``P`` to an ``ir.Program``."""
    cls: ClassDef = ctx.cls
    api = ctx.api
    if not isinstance(api, SemanticAnalyzer) or api.is_func_scope() \
            or cls.info.fullname != f"{api.cur_mod_id}.{cls.name}":
        return  # only module-level classes can be rebound safely
    program = ctx.api.named_type("pypto.ir.function.Program", [])
    var = Var(cls.name, program)
    var._fullname = cls.info.fullname
    var.is_ready = True
    api.globals[cls.name] = SymbolTableNode(GDEF, var)


class PyptoPlugin(Plugin):
    def get_type_analyze_hook(self, fullname: str) -> Callable[[AnalyzeTypeContext], Type] | None:
        if fullname in _VALUE_KINDS:
            return _value_kind(_VALUE_KINDS[fullname])
        if fullname.startswith(_DIST_TYPING) and fullname.rpartition(".")[2] in _DIST_KINDS:
            return _value_kind("pypto.language.typing.Tensor")
        if fullname in _WRAPPERS:
            return _wrapped
        if fullname == f"{_TYPING}.Tuple":
            return _tuple
        if _is_dtype_name(fullname):  # a @pl.jit scalar parameter: ``n: pl.INDEX``
            return _value_kind("pypto.language.typing.Scalar")
        return None

    def get_class_decorator_hook(self, fullname: str) -> Callable[[ClassDefContext], None] | None:
        if fullname in _PROGRAM_DECORATORS:
            return _rebind_program
        return None


def plugin(version: str) -> type[Plugin]:
    return PyptoPlugin


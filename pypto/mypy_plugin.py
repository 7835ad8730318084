"""A mypy plugin for DSL code: ``plugins = ["pypto.mypy_plugin"]`` (docs/guide/typing.md).

DSL annotations are not standard type expressions: ``pl.Tensor[[64, N], pl.FP32]``
holds a list of dims and a dtype value, and a ``@pl.jit`` parameter may be annotated
with a bare dtype (``n: pl.INDEX``).  The plugin reads them for what they mean to
Python code around the DSL: the value kinds ``pl.Tensor``, ``pl.Tile``, ``pl.Scalar``
(their dims and dtypes are the parser's business, checked when the program is
parsed).  ``pl.Out[T]``/``pl.InOut[T]`` are ``T``; ``pl.Tuple[A, B]`` is a tuple.

A ``@pl.program`` class is an ``ir.Program`` after decoration; mypy does not apply a
class decorator's return type, so the plugin gives the class ``Program`` as its
metaclass: the class object is then a ``Program`` to the checker.

This module is imported by mypy only; pypto never imports it.
"""

from __future__ import annotations

from typing import Callable

from mypy.plugin import AnalyzeTypeContext, ClassDefContext, Plugin
from mypy.types import AnyType, TupleType, Type, TypeList, TypeOfAny

_LANG = "pypto.language"
_TYPING = "pypto.language.typing"
_DIST_TYPING = "pypto.language.distributed.typing"

_TENSOR = f"{_TYPING}.tensor.Tensor"
_SCALAR = f"{_TYPING}.scalar.Scalar"

# Annotation head -> the class its values have.
_VALUE_KINDS = {
    f"{_TYPING}.tensor.Tensor": _TENSOR,
    f"{_TYPING}.tile.Tile": "pypto.language.typing.tile.Tile",
    f"{_TYPING}.scalar.Scalar": _SCALAR,
    f"{_TYPING}.TaskId": _SCALAR,
    "pypto.language.array_types.Array": "pypto.language.array_types.Array",
}
_DIST_KINDS = ("DistributedTensor",)
# pl.Out / pl.InOut / pl.Tuple are Annotated / tuple to type checkers already; these
# hooks keep reading them when a checker sees the run-time classes.
_WRAPPERS = (f"{_TYPING}.direction.Out", f"{_TYPING}.direction.InOut")
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


def _program_class(ctx: ClassDefContext) -> None:
    """``@pl.program class P``: ``P`` is an ``ir.Program``.  The class keeps its name and
    body (rebinding the name to a variable breaks mypy's analysis of the methods); its
    metaclass becomes ``Program``, so ``P`` passes where a ``Program`` is expected and
    ``P.as_python()`` / ``P.functions`` are ``Program``'s."""
    program = ctx.api.named_type("pypto.ir.function.Program", [])
    ctx.cls.info.declared_metaclass = program
    ctx.cls.info.metaclass_type = program


class PyptoPlugin(Plugin):
    def get_type_analyze_hook(self, fullname: str) -> Callable[[AnalyzeTypeContext], Type] | None:
        if fullname in _VALUE_KINDS:
            return _value_kind(_VALUE_KINDS[fullname])
        if fullname.startswith(_DIST_TYPING) and fullname.rpartition(".")[2] in _DIST_KINDS:
            return _value_kind(_TENSOR)
        if fullname in _WRAPPERS:
            return _wrapped
        if fullname == f"{_TYPING}.tuple.Tuple":
            return _tuple
        if _is_dtype_name(fullname):  # a @pl.jit scalar parameter: ``n: pl.INDEX``
            return _value_kind(_SCALAR)
        return None

    def get_class_decorator_hook(self, fullname: str) -> Callable[[ClassDefContext], None] | None:
        if fullname in _PROGRAM_DECORATORS:
            return _program_class
        return None


def plugin(version: str) -> type[Plugin]:
    return PyptoPlugin


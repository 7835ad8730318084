"""PyPTO's specializer API: describe each function of a program by a
``SpecializeContext`` (its source, parameter types, scalar values, dependencies) and
get the ``@pl.program`` text of the specialization.

``specialize(class_name, contexts)`` runs the same rewrite as ``@pl.jit`` (versioned
rebindings, inlined namespace values, substituted scalars, ``self.dep(...)`` calls),
parses every function to infer the return types it does not declare, and writes the
program; ``pl.parse`` of the text gives the program ``JITFunction.specialize`` gives.
``Specializer`` also keeps the ``rename_map`` (versions per function) and the
``source_map`` (generated text -> the user's code, for ``pl.parse(..., source_map=)``).

External kernels (``external_*`` options, ``pl.jit.extern``) need code generation,
which pypto does not have; contexts asking for them are refused.
"""

from __future__ import annotations

import ast
import inspect
import linecache
from dataclasses import dataclass, field
from typing import Any, Optional, Sequence, cast

from ..language.parser import pyast
from .._external_source import (EXTERNAL_INCLUDE_DIRS_ATTR,  # noqa: F401 - PyPTO's names
                                encode_external_include_dirs)
from .._function_attrs import DUAL_AIV_DISPATCH_ATTR  # noqa: F401
from ..ir.dtype import DataType
from ..ir.enums import Level, ParamDirection, TensorLayout
from ..ir.function import Function
from ..language.parser.diagnostics import ParserTypeError
from ..language.parser.function_parser import FunctionParser
from ..language.parser.source import SourceInfo, get_source_info
from ..language.typing import DynVar
from .analysis import FunctionFacts, analyze_source, user_error
from .codegen import attach_comments, build_module, unparse_module
from .deps import MappingNamespace
from .dependency_calls import order_arguments
from .kinds import JitKind, kind_of, refuse_external, validate_options
from .literals import literal_key
from .param_types import ScalarInfo, TensorInfo, read_annotation
from .signature import NOT_SUBSTITUTED, ParamPlan, scalar_dtype_of
from .source_map import JitSourceMap
from .specialize import BuilderBase, Instance

__all__ = ["DynDim", "TensorMeta", "SpecializeContext", "Specializer", "specialize",
           "build_specialize_context"]


@dataclass(frozen=True)
class DynDim:
    """A dynamic dimension: its name, its definition in the program text, and the size
    seen when specialising (``None`` when none was seen)."""

    name: str
    literal: str
    static_bound: Optional[int]

    @classmethod
    def named(cls, name: str, static_bound: Optional[int] = None) -> "DynDim":
        return cls(name, f'pl.dynamic("{name}")', static_bound)


@dataclass
class TensorMeta:
    """A tensor parameter's type: dims (ints or ``DynDim``s), dtype, layout."""

    shape: Sequence[Any]
    dtype: DataType
    layout: Optional[TensorLayout] = None

    def dynamic_dim_indices(self) -> list[int]:
        return [index for index, dim in enumerate(self.shape) if isinstance(dim, DynDim)]

    def static_shape(self) -> tuple[int, ...]:
        """The sizes, a dynamic dim by its ``static_bound``."""
        dims = []
        for index, dim in enumerate(self.shape):
            if isinstance(dim, DynDim):
                if dim.static_bound is None:
                    raise ValueError(f"dim {index} is the dynamic dim '{dim.name}', which has "
                                     "no static bound")
                dim = dim.static_bound
            dims.append(int(dim))
        return tuple(dims)


@dataclass
class SpecializeContext:
    """One function of a specialization.

    ``func_type`` is a ``pl.FunctionType`` (``None``: the Orchestration entry, or a
    HOST orchestrator when ``level`` is ``pl.Level.HOST``); ``tensor_meta`` types the
    tensor parameters, ``scalar_values`` substitutes scalars (their ``scalar_dtypes``
    type the parameter), ``dep_names`` are the functions it calls as ``self.<name>``,
    ``py_globals`` the namespace its other free names come from.
    """

    func_name: str
    source: str
    func_type: Any
    level: Optional[Level]
    param_names: list[str]
    tensor_meta: dict[str, TensorMeta]
    scalar_values: dict[str, Any]
    scalar_dtypes: dict[str, DataType]
    dep_names: list[str] = field(default_factory=list)
    py_globals: dict[str, Any] = field(default_factory=dict)
    orig_file: Optional[str] = None
    orig_start_line: int = 1
    orig_col_offset: int = 0
    auto_scope: bool = True
    external_core_type: Any = None
    external_aic_source: Any = None
    external_aiv_source: Any = None
    external_dual_aiv_dispatch: bool = False
    external_include_dirs: Sequence[Any] = ()

    @property
    def dynamic_dims(self) -> list[DynDim]:
        """Every dynamic dim of the tensor parameters, once, in parameter order."""
        found: dict[str, DynDim] = {}
        for name in self.param_names:
            meta = self.tensor_meta.get(name)
            for dim in (meta.shape if meta is not None else ()):
                if isinstance(dim, DynDim):
                    found.setdefault(dim.name, dim)
        return list(found.values())

    def dynvar_for(self, param: str, dim_idx: int) -> Optional[DynDim]:
        """The dynamic dim at axis ``dim_idx`` of ``param``, or None when it is static."""
        meta = self.tensor_meta.get(param)
        if meta is None or not -len(meta.shape) <= dim_idx < len(meta.shape):
            return None
        dim = meta.shape[dim_idx]
        return dim if isinstance(dim, DynDim) else None

    def dynvar_literals(self) -> dict[str, str]:
        """Name -> definition (``pl.dynamic('M')``) of every dynamic dim."""
        return {dim.name: dim.literal for dim in self.dynamic_dims}


def build_specialize_context(func: Any, func_name: str, func_type: Any, level: Optional[Level],
                             tensor_meta: dict[str, TensorMeta], scalar_values: dict[str, Any],
                             scalar_dtypes: dict[str, DataType], dep_names: Sequence[str],
                             auto_scope: bool = True, external_core_type: Any = None,
                             external_aic_source: Any = None, external_aiv_source: Any = None,
                             external_dual_aiv_dispatch: bool = False,
                             external_include_dirs: Sequence[Any] = ()) -> SpecializeContext:
    """The context of the Python function ``func`` (its source, parameters, namespace)."""
    refuse_external(external_core_type, external_aic_source, external_aiv_source,
                     external_dual_aiv_dispatch, external_include_dirs)
    info = get_source_info(func)
    names = list(inspect.signature(func).parameters)
    namespace = dict(func.__globals__)
    namespace.update({name: cell.cell_contents for name, cell
                      in zip(func.__code__.co_freevars, func.__closure__ or ())
                      if _has_value(cell)})
    return SpecializeContext(func_name, info.source, func_type, level, names, dict(tensor_meta),
                             dict(scalar_values), dict(scalar_dtypes), list(dep_names),
                             namespace, orig_file=info.filename,
                             orig_start_line=info.line_offset + 1,
                             orig_col_offset=info.col_offset, auto_scope=auto_scope)


def _has_value(cell: Any) -> bool:
    try:
        cell.cell_contents
    except ValueError:
        return False
    return True


class _ContextFunction:
    """What the rewriter and the parser need of one context's function."""

    def __init__(self, context: SpecializeContext) -> None:
        refuse_external(context.external_core_type, context.external_aic_source,
                         context.external_aiv_source, context.external_dual_aiv_dispatch,
                         context.external_include_dirs)
        self.context = context
        self.__name__ = context.func_name
        self.kind = kind_of(context.func_type, context.level)
        options: dict[str, Any] = {}
        if self.kind is JitKind.INCORE and context.level is not None:
            options["level"] = context.level
        if not context.auto_scope and self.kind in (JitKind.ORCHESTRATION, JitKind.HOST,
                                                    JitKind.INLINE):
            options["auto_scope"] = False
        self.options = validate_options(self.kind, options)
        self.namespace = MappingNamespace(context.py_globals)
        self._facts: Optional[FunctionFacts] = None

    @property
    def _pypto_jit_kind(self) -> str:
        return self.kind.value

    def facts(self) -> FunctionFacts:
        if self._facts is None:
            self._facts = analyze_source(_source_info(self.context), self.context.func_name)
        return self._facts


def _source_info(context: SpecializeContext) -> SourceInfo:
    filename = context.orig_file or f"<specialize:{context.func_name}>"
    offset = max(context.orig_start_line - 1, 0)
    info = SourceInfo.from_text(context.source, filename, offset)
    file_lines = [line.rstrip("\r\n") for line in linecache.getlines(filename)] \
        if context.orig_file else []
    if not file_lines:
        file_lines = info.file_lines
    column = info.col_offset or context.orig_col_offset
    return SourceInfo(filename, info.source, offset, column, file_lines)


class _ContextBuilder(BuilderBase):
    """Parses the contexts' functions, each exactly as its context types it."""

    def __init__(self, class_name: str, contexts: Sequence[SpecializeContext]) -> None:
        super().__init__(class_name)
        self.functions = [_ContextFunction(context) for context in contexts]
        self.by_name: dict[str, Instance] = {}
        for function in self.functions:
            if function.__name__ in self.by_name:
                raise ValueError(f"specialize(): two contexts define '{function.__name__}'")
            self.by_name[function.__name__] = Instance(function, function.facts(),
                                                       _context_plans(function),
                                                       function.__name__)
        self._started: set[str] = set()

    def build(self) -> list[Instance]:
        if not self.functions:
            raise ValueError("specialize(): no contexts")
        for instance in self.by_name.values():
            self._ensure(instance)
        return list(self.by_name.values())

    def _ensure(self, instance: Instance) -> None:
        if instance.name not in self._started:
            self._started.add(instance.name)
            self.realize(instance)

    def dependency(self, instance: Instance, name: str, site: ast.AST) -> Any:
        context = cast(_ContextFunction, instance.jit).context  # made in __init__
        target = self.by_name.get(name)
        return target.jit if target is not None and name in context.dep_names else None

    def resolve(self, parser: FunctionParser, name: str, callee: Any, arg_nodes: list[ast.expr],
                keyword_nodes: list[ast.keyword], call: ast.Call) -> tuple:
        target = self.by_name[name]
        self._ensure(target)
        if target.function is None:
            raise user_error(ParserTypeError, f"'{name}' calls itself (directly or through "
                             "others); @pl.jit functions cannot recurse", parser.info, call)
        ordered = order_arguments(parser.info, name, target.facts, arg_nodes, keyword_nodes, call)
        args = [parser.parse_expr(node) for node in ordered]
        return self.context.global_vars[name], target.function, args


def _context_plans(function: _ContextFunction) -> list[ParamPlan]:
    """Parameter types as the context gives them (``tensor_meta``, ``scalar_*``)."""
    context = function.context
    facts = function.facts()
    plans = []
    for param in facts.params:
        name = param.name
        annotation = read_annotation(param.annotation, function.namespace.lookup,
                                     facts.param_index.__contains__)
        meta = context.tensor_meta.get(name)
        if meta is not None:
            dims = tuple(DynVar(d.name) if isinstance(d, DynDim) else int(d) for d in meta.shape)
            info = TensorInfo(dims, meta.dtype, meta.layout or TensorLayout.ND)
            plans.append(ParamPlan(name, annotation.direction, info, True, NOT_SUBSTITUTED,
                                   ["tensor"]))
        elif name in context.scalar_values or name in context.scalar_dtypes:
            value = context.scalar_values.get(name, NOT_SUBSTITUTED)
            dtype = context.scalar_dtypes.get(name) or getattr(annotation.type, "dtype", None) \
                or scalar_dtype_of(value)
            if value is not NOT_SUBSTITUTED and (facts.binding_counts.get(name)
                                                 or literal_key(value) is None):
                value = NOT_SUBSTITUTED  # rebound in the body, or not a literal: a parameter
            plans.append(ParamPlan(name, ParamDirection.In, ScalarInfo(dtype), True, value,
                                   ["scalar"]))
        else:
            plans.append(ParamPlan(name, annotation.direction, annotation.type,
                                   annotation.dtype_only, NOT_SUBSTITUTED, ["declared"]))
    return plans


class Specializer:
    """The ``@pl.program`` text of ``contexts`` (a class named ``class_name``)."""

    def __init__(self, class_name: str, contexts: Sequence[SpecializeContext]) -> None:
        self._class_name = class_name
        self._contexts = list(contexts)
        self._rename_map: dict[str, dict[str, list[str]]] = {}
        self._source_map: Optional[JitSourceMap] = None

    @property
    def rename_map(self) -> dict[str, dict[str, list[str]]]:
        """Per function, each rebound name's versions (``{"f": {"t": ["t_v1"]}}``)."""
        return {name: {k: list(v) for k, v in renames.items()}
                for name, renames in self._rename_map.items()}

    @property
    def source_map(self) -> Optional[JitSourceMap]:
        """Generated text -> the user's code, after ``specialize()``: pass it to
        ``pl.parse(text, filename=self.filename, source_map=...)`` for spans and errors
        in the user's files; ``lines()`` lists generated line -> (file, line)."""
        return self._source_map

    @property
    def filename(self) -> str:
        return f"<jit:{self._class_name}>"

    def specialize(self) -> str:
        builder = _ContextBuilder(self._class_name, self._contexts)
        instances = builder.build()
        comments: dict[int, list[str]] = {}
        for instance in instances:
            if instance.infer_returns:
                instance.rewritten.returns = _returns_annotation(instance.function)
            attach_comments(instance.rewritten, instance.facts.comments, comments)
        module = build_module(self._class_name, [i.rewritten for i in instances],
                              builder.dyn_vars.values())
        text = unparse_module(module, comments)
        self._rename_map = {i.name: i.renames for i in instances}
        self._source_map = _source_map(text, self.filename, instances)
        return text


def specialize(class_name: str, contexts: Sequence[SpecializeContext]) -> str:
    """The ``@pl.program`` text of ``contexts``."""
    return Specializer(class_name, contexts).specialize()


def _returns_annotation(function: Optional[Function]) -> Optional[ast.expr]:
    types = list(function.return_types) if function is not None else []
    if not types:
        return None
    texts = [t.as_python() for t in types]
    text = texts[0] if len(texts) == 1 else f"tuple[{', '.join(texts)}]"
    return pyast.parse(text, mode="eval").body


def _source_map(text: str, filename: str, instances: list[Instance]) -> JitSourceMap:
    """Walk each generated method in step with the rewritten function it came from."""
    program_class = pyast.parse(text, filename).body[-1]
    source_map = JitSourceMap(filename, instances[-1].facts.info,
                              program_class.decorator_list[0].lineno)
    generated = [node for node in program_class.body
                 if isinstance(node, ast.FunctionDef)]
    for produced, instance in zip(generated, instances):
        source_map.add_function(produced, instance.rewritten, instance.facts.info)
    return source_map

"""``pl.jit`` (a singleton decorator object) and ``JITFunction`` (01-language.md §17).

Decorating parses nothing: the source is read at the first ``specialize``/``lower``/
``compile`` (or ``param_names``), and read again only when its file changes.  Calling
a ``JITFunction`` compiles it (cached) and runs it on the CPU executor.

PyPTO's module also shows the specializer and cache names used here
(``DynDim``, ``TensorMeta``, ``SpecializeContext``, ``Specializer``,
``build_specialize_context``, ``compute_source_hash``, ``make_cache_key``).
"""

from __future__ import annotations

import ast
import functools
import inspect
import sys
import threading
from typing import Any, Callable, Optional, Sequence, overload

from ..ir.dtype import DataType
from ..ir.enums import Level
from ..ir.function import Program
from ..ir.span import Span
from .._external_source import external_source_digest  # noqa: F401 - PyPTO's module names
from ..backend._ptoas_locate import find_ptoas_binary  # noqa: F401
from ..language.parser.diagnostics import ParserSyntaxError
from .analysis import NO_DEFAULT, FunctionFacts, analyze, source_stamp
from .cache import CacheInfo, CompileCache, compute_source_hash, make_cache_key
from .compiled import CompiledProgram, current_pass_config, run_pipeline
from .deps import Namespace, dependency_closure
from .inherited_dims import inherited_dynamic_dims
from .keys import specialization_key
from .kinds import JitKind, kind_of, refuse_external, validate_options
from .param_types import annotation_head
from .signature import ParamPlan, bind_entry
from .specialize import specialize_program
from .specializer import (DynDim, SpecializeContext, Specializer, TensorMeta,
                          build_specialize_context)

__all__ = ["JITFunction", "jit"]

# DataType, DynDim, SpecializeContext, Specializer, TensorMeta, build_specialize_context,
# compute_source_hash and make_cache_key are imported for PyPTO's module path.


# What ``@pl.jit.incore(**options)`` ... returns: the decorator that makes a JITFunction.
_JitDecorate = Callable[[Callable[..., Any]], "JITFunction"]


class JITFunction:
    """A lazily specialised ``@pl.jit`` function (``pl.jit``'s forms make these).

    ``func_type`` is a ``pl.FunctionType`` (``None``: the Orchestration entry, or a HOST
    orchestrator with ``level=pl.Level.HOST``); ``level`` also places an InCore kernel;
    ``auto_scope`` is the Orchestration/HOST/inline option.  External kernels
    (``external_*``) need code generation, which pypto does not have.
    """

    __name__: str  # copied from the decorated function (functools.update_wrapper)
    __qualname__: str

    def __init__(self, func: Callable, func_type: Any = None, level: Optional[Level] = None,
                 auto_scope: bool = True, external_core_type: Any = None,
                 external_aic_source: Any = None, external_aiv_source: Any = None,
                 external_dual_aiv_dispatch: bool = False,
                 external_include_dirs: Sequence[Any] = ()) -> None:
        refuse_external(external_core_type, external_aic_source, external_aiv_source,
                        external_dual_aiv_dispatch, external_include_dirs)
        if isinstance(func, JITFunction) or not inspect.isfunction(func):
            raise TypeError(f"JITFunction expects a Python function, got {type(func).__name__}")
        kind = kind_of(func_type, level)
        options: dict[str, Any] = {}
        if kind is JitKind.INCORE and level is not None:
            options["level"] = level
        if auto_scope is not True:
            options["auto_scope"] = auto_scope
        functools.update_wrapper(self, func)
        self._fn = func
        self._kind = kind
        self._options = validate_options(kind, options)
        self._namespace = Namespace(func, None)
        self._facts: Optional[tuple[Any, FunctionFacts]] = None
        self._facts_lock = threading.Lock()
        self._cache = CompileCache()

    # -- description -----------------------------------------------------------------------
    @property
    def kind(self) -> JitKind:
        return self._kind

    @property
    def options(self) -> dict[str, Any]:
        return dict(self._options)

    @property
    def _pypto_jit_kind(self) -> str:
        """Marks a ``@pl.jit`` function for the parser (which cannot import the jit)."""
        return self._kind.value

    @property
    def namespace(self) -> Namespace:
        return self._namespace

    @property
    def param_names(self) -> list[str]:
        """The parameter names, in order."""
        return [p.name for p in self.facts().params]

    @property
    def output_param_names(self) -> list[str]:
        """The names of the ``pl.Out`` / ``pl.InOut`` parameters, in order."""
        names = []
        for param in self.facts().params:
            annotation = param.annotation
            if isinstance(annotation, ast.Subscript) and \
                    annotation_head(annotation.value) in ("Out", "InOut"):
                names.append(param.name)
        return names

    def facts(self) -> FunctionFacts:
        """The source facts, re-read when the source file changed since last time."""
        stamp = source_stamp(self._fn)
        with self._facts_lock:
            if self._facts is None or self._facts[0] != stamp:
                try:
                    self._facts = (stamp, analyze(self._fn))
                except RecursionError:  # the limit is never raised: refuse, at the function
                    raise too_deep_function(self._fn) from None
            return self._facts[1]

    # -- the API ---------------------------------------------------------------------------
    def specialize(self, *args: Any, **kwargs: Any) -> Program:
        """The generated program for these arguments, parsed, before any pass."""
        return specialize_program(self, self._plans(args, kwargs))

    def lower(self, *args: Any, **kwargs: Any) -> Program:
        """The program after the pass pipeline (not cached); ``config=`` (a ``RunConfig``)
        chooses the strategy."""
        return run_pipeline(self.specialize(*args, **kwargs), kwargs.get("config"))

    def compile(self, *args: Any, **kwargs: Any) -> CompiledProgram:
        """Like ``lower``, cached per specialization key; returns a ``CompiledProgram``."""
        plans = self._plans(args, kwargs)
        config = kwargs.get("config")
        key = specialization_key(dependency_closure(self), plans, current_pass_config(config))
        found = self._cache.get(key)
        if found is not None:
            return found
        program = run_pipeline(specialize_program(self, plans), config)
        return self._cache.put(key, CompiledProgram(program, self.__name__, key))

    def cache_info(self) -> CacheInfo:
        """``CacheInfo(hits, misses, size)`` of ``compile`` (and of calls): a miss is a new
        specialization, a hit a call that reused one."""
        return self._cache.info()

    def cache_clear(self) -> None:
        self._cache.clear()

    def __call__(self, *args: Any, config: Any = None, **kwargs: Any) -> Any:
        """Compile for these arguments (cached) and run the lowered program on the CPU
        (``pypto.runtime``), whatever ``config``'s platform says (a ``RunConfig``: its
        ``strategy``, ``dump_passes`` and ``codegen_only`` apply).  ``Out``/``InOut``
        tensors (NumPy or torch) are written in place; returns the entry's result."""
        from ..runtime import run_jit
        return run_jit(self, *self._call_arguments(args, kwargs), config=config)

    def _call_arguments(self, args: tuple, kwargs: dict) -> tuple:
        """The arguments in parameter order, defaults filled in (the executor runs every
        parameter); what is missing or wrong is left for ``compile`` to report."""
        facts = self.facts()
        values = list(args)
        for param in facts.params[len(args):]:
            if param.name in kwargs:
                values.append(kwargs.pop(param.name))
            elif param.default is not NO_DEFAULT:
                values.append(param.default)
            else:
                break
        if kwargs:  # unknown or duplicate keywords: compile names them
            self.compile(*args, **kwargs)
        return tuple(values)

    def __repr__(self) -> str:
        return f"<{self._kind.spelling} function {self.__qualname__}>"

    def _plans(self, args: tuple, kwargs: dict) -> list[ParamPlan]:
        return bind_entry(self.facts(), self._namespace, args, kwargs,
                          inherited_dynamic_dims(self))


def _decorator_frame_locals(depth: int) -> Optional[dict[str, Any]]:
    """Locals of the frame applying the decorator, when it is not a module frame
    (names used only in annotations are not closure cells of the function)."""
    frame = sys._getframe(depth + 1)
    if frame.f_locals is frame.f_globals:
        return None
    return dict(frame.f_locals)


_KIND_ARGUMENTS = {JitKind.ORCHESTRATION: (None, None), JitKind.HOST: (None, Level.HOST)}


class _JITDecorator:
    """``pl.jit``: ``@pl.jit``, ``@pl.jit(auto_scope=False)``, ``@pl.jit.incore(level=...)``,
    ``@pl.jit.inline``, ``@pl.jit.opaque``, ``@pl.jit.graph``, ``@pl.jit.host``."""

    __slots__ = ()

    def _apply(self, kind: JitKind, fn: Optional[Callable], options: dict[str, Any]) -> Any:
        checked = validate_options(kind, options)
        if fn is not None:
            return self._wrap(kind, fn, checked, depth=2)

        def decorate(function: Callable) -> JITFunction:
            return self._wrap(kind, function, checked, depth=1)
        return decorate

    @staticmethod
    def _wrap(kind: JitKind, fn: Callable, options: dict[str, Any], depth: int) -> JITFunction:
        if isinstance(fn, JITFunction) or not inspect.isfunction(fn):
            raise TypeError(f"@{kind.spelling} expects a Python function, got "
                            f"{type(fn).__name__}")
        func_type, level = _KIND_ARGUMENTS.get(kind, (kind.function_type, options.get("level")))
        function = JITFunction(fn, func_type, level, options.get("auto_scope", True))
        function._namespace = Namespace(fn, _decorator_frame_locals(depth + 1))
        return function

    @overload
    def __call__(self, func: Callable[..., Any], *, auto_scope: bool = True) -> JITFunction: ...
    @overload
    def __call__(self, func: None = None, *, auto_scope: bool = True) -> _JitDecorate: ...

    def __call__(self, func: Optional[Callable] = None, *, auto_scope: bool = True,
                 **unknown: Any) -> Any:
        # ``unknown`` only exists to name the keyword in the TypeError (PyPTO's signature,
        # shown below, takes auto_scope= alone).
        options = {} if auto_scope is True else {"auto_scope": auto_scope}
        return self._apply(JitKind.ORCHESTRATION, func, {**options, **unknown})

    __call__.__signature__ = inspect.Signature([  # type: ignore[attr-defined]
        inspect.Parameter("self", inspect.Parameter.POSITIONAL_OR_KEYWORD),
        inspect.Parameter("func", inspect.Parameter.POSITIONAL_OR_KEYWORD, default=None),
        inspect.Parameter("auto_scope", inspect.Parameter.KEYWORD_ONLY, default=True)])

    @overload
    def host(self, fn: Callable[..., Any], /) -> JITFunction: ...
    @overload
    def host(self, fn: None = None, /, **options: Any) -> _JitDecorate: ...

    def host(self, fn: Optional[Callable] = None, /, **options: Any) -> Any:
        return self._apply(JitKind.HOST, fn, options)

    @overload
    def incore(self, fn: Callable[..., Any], /) -> JITFunction: ...
    @overload
    def incore(self, fn: None = None, /, **options: Any) -> _JitDecorate: ...

    def incore(self, fn: Optional[Callable] = None, /, **options: Any) -> Any:
        return self._apply(JitKind.INCORE, fn, options)

    @overload
    def inline(self, fn: Callable[..., Any], /) -> JITFunction: ...
    @overload
    def inline(self, fn: None = None, /, **options: Any) -> _JitDecorate: ...

    def inline(self, fn: Optional[Callable] = None, /, **options: Any) -> Any:
        return self._apply(JitKind.INLINE, fn, options)

    @overload
    def opaque(self, fn: Callable[..., Any], /) -> JITFunction: ...
    @overload
    def opaque(self, fn: None = None, /, **options: Any) -> _JitDecorate: ...

    def opaque(self, fn: Optional[Callable] = None, /, **options: Any) -> Any:
        return self._apply(JitKind.OPAQUE, fn, options)

    @overload
    def graph(self, fn: Callable[..., Any], /) -> JITFunction: ...
    @overload
    def graph(self, fn: None = None, /, **options: Any) -> _JitDecorate: ...

    def graph(self, fn: Optional[Callable] = None, /, **options: Any) -> Any:
        return self._apply(JitKind.GRAPH, fn, options)

    def __getattr__(self, name: str) -> Any:
        if name == "extern":
            raise AttributeError("pl.jit.extern (external kernels) is not supported: it needs "
                                 "code generation, which pypto does not have "
                                 "(docs/guide/jit.md, 'Not supported')")
        raise AttributeError(f"'pl.jit' has no attribute '{name}'")

    def __repr__(self) -> str:
        return "pl.jit"


jit = _JITDecorator()


def too_deep_function(fn: Callable) -> ParserSyntaxError:
    """The refusal of a jit function whose source nests deeper than its walks can go."""
    code = getattr(fn, "__code__", None)
    span = Span(code.co_filename, code.co_firstlineno, 1) if code is not None else None
    return ParserSyntaxError(f"function '{getattr(fn, '__name__', '?')}' is nested too deeply "
                             "to be read (see the nesting limits in the diagnostics guide)",
                             span)

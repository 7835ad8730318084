"""``pl.jit`` (a singleton decorator object) and ``JITFunction`` (01-language.md §17).

Decorating parses nothing: the source is read at the first ``specialize``/``lower``/
``compile`` (or ``param_names``), and read again only when its file changes.
"""

from __future__ import annotations

import ast
import functools
import inspect
import sys
import threading
from typing import Any, Callable, Mapping, Optional

from ..ir._deep import deep_recursion
from ..ir.function import Program
from .analysis import FunctionFacts, analyze, source_stamp
from .cache import CacheInfo, CompileCache, specialization_key
from .compiled import CompiledProgram, current_pass_config, run_default_pipeline
from .deps import Namespace, dependency_closure
from .kinds import JitKind, validate_options
from .param_types import annotation_head
from .inherited_dims import inherited_dynamic_dims
from .signature import ParamPlan, bind_entry
from .specialize import specialize_program

__all__ = ["JITFunction", "jit"]


class JITFunction:
    """A lazily specialised ``@pl.jit`` function."""

    def __init__(self, fn: Callable, kind: JitKind, options: Mapping[str, Any],
                 frame_locals: Optional[Mapping[str, Any]]) -> None:
        functools.update_wrapper(self, fn)
        self._fn = fn
        self._kind = kind
        self._options = dict(options)
        self._namespace = Namespace(fn, frame_locals)
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
                with deep_recursion():  # the AST walks recurse as deep as the user's code
                    self._facts = (stamp, analyze(self._fn))
            return self._facts[1]

    # -- the API ---------------------------------------------------------------------------
    def specialize(self, *args: Any, **kwargs: Any) -> Program:
        """The generated program for these arguments, parsed, before any pass."""
        return specialize_program(self, self._plans(args, kwargs))

    def lower(self, *args: Any, **kwargs: Any) -> Program:
        """The program after the default pass pipeline (not cached)."""
        return run_default_pipeline(self.specialize(*args, **kwargs))

    def compile(self, *args: Any, **kwargs: Any) -> CompiledProgram:
        """Like ``lower``, cached per specialization key; returns a ``CompiledProgram``."""
        plans = self._plans(args, kwargs)
        key = specialization_key(dependency_closure(self), plans, current_pass_config())
        found = self._cache.get(key)
        if found is not None:
            return found
        program = run_default_pipeline(specialize_program(self, plans))
        return self._cache.put(key, CompiledProgram(program, self.__name__, key))

    def cache_info(self) -> CacheInfo:
        """``CacheInfo(hits, misses, size)`` of ``compile``."""
        return self._cache.info()

    def cache_clear(self) -> None:
        self._cache.clear()

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        """Compile for these arguments (cached) and run the lowered program on the CPU with
        NumPy (``pypto.runtime``): ``Out``/``InOut`` arrays are written in place."""
        from ..runtime import run_jit
        return run_jit(self, *args, **kwargs)

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


class _JitDecorator:
    """``pl.jit``: ``@pl.jit``, ``@pl.jit(...)``, ``@pl.jit.incore(level=...)``, ..."""

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
        return JITFunction(fn, kind, options, _decorator_frame_locals(depth + 1))

    def __call__(self, fn: Optional[Callable] = None, /, **options: Any) -> Any:
        return self._apply(JitKind.ORCHESTRATION, fn, options)

    def host(self, fn: Optional[Callable] = None, /, **options: Any) -> Any:
        return self._apply(JitKind.HOST, fn, options)

    def incore(self, fn: Optional[Callable] = None, /, **options: Any) -> Any:
        return self._apply(JitKind.INCORE, fn, options)

    def inline(self, fn: Optional[Callable] = None, /, **options: Any) -> Any:
        return self._apply(JitKind.INLINE, fn, options)

    def opaque(self, fn: Optional[Callable] = None, /, **options: Any) -> Any:
        return self._apply(JitKind.OPAQUE, fn, options)

    def graph(self, fn: Optional[Callable] = None, /, **options: Any) -> Any:
        return self._apply(JitKind.GRAPH, fn, options)

    def extern(self, *args: Any, **kwargs: Any) -> Any:
        raise NotImplementedError("pl.jit.extern (external kernels) is not supported by pypto: "
                                  "it has no backend code generation")

    def __repr__(self) -> str:
        return "pl.jit"


jit = _JitDecorator()

"""The ``@pl.jit`` forms: their keyword rules and the ``@pl.function`` decorator each
form becomes in the generated program (01-language.md §17.1)."""

from __future__ import annotations

import enum
from typing import Any, Mapping, Optional

from ..ir.enums import FunctionType, Level, Role
from ..language.parser.function_parser import FunctionOptions
from .arg_errors import OptionTypeError, OptionValueError, option_error

__all__ = ["JitKind", "validate_options", "kind_of", "refuse_external", "function_options",
           "emitted_decorator", "may_call"]


class JitKind(enum.Enum):
    """One ``@pl.jit`` spelling; the value is the name users write after ``pl.jit``."""

    ORCHESTRATION = "jit"
    HOST = "host"
    INCORE = "incore"
    INLINE = "inline"
    OPAQUE = "opaque"
    GRAPH = "graph"

    @property
    def function_type(self) -> FunctionType:
        """The function type its functions are parsed as."""
        return _FUNCTION_TYPES[self]

    @property
    def spelling(self) -> str:
        """How the decorator is written: ``@pl.jit`` or ``@pl.jit.incore``."""
        return "pl.jit" if self is JitKind.ORCHESTRATION else f"pl.jit.{self.value}"


# Keywords each form accepts (§17.1): only incore takes level=, only the plain form,
# host and inline take auto_scope=.
_ALLOWED_OPTIONS: dict[JitKind, frozenset[str]] = {
    JitKind.ORCHESTRATION: frozenset({"auto_scope"}),
    JitKind.HOST: frozenset({"auto_scope"}),
    JitKind.INLINE: frozenset({"auto_scope"}),
    JitKind.INCORE: frozenset({"level"}),
    JitKind.OPAQUE: frozenset(),
    JitKind.GRAPH: frozenset(),
}

# Callees a function of each kind picks up as program methods (§17.2).
_DEVICE_AND_GRAPH_KINDS = frozenset({JitKind.INCORE, JitKind.INLINE, JitKind.OPAQUE,
                                     JitKind.GRAPH})


def validate_options(kind: JitKind, options: Mapping[str, Any]) -> dict[str, Any]:
    """Check the decorator keywords of ``kind``; return them normalised.

    Raises ``TypeError`` naming the keyword for anything the form does not take.
    """
    allowed = _ALLOWED_OPTIONS[kind]
    result: dict[str, Any] = {}
    for key, value in options.items():
        if key not in allowed:
            takers = sorted(k.spelling for k, names in _ALLOWED_OPTIONS.items() if key in names)
            where = ""
            if len(takers) == 1:
                where = f" (only {takers[0]} takes {key}=)"
            elif takers:
                where = f" (only {', '.join(takers[:-1])} and {takers[-1]} take {key}=)"
            raise option_error(OptionTypeError, f"{kind.spelling}() got an unexpected keyword "
                               f"argument '{key}'{where}")
        if key == "auto_scope":
            if not isinstance(value, bool):
                raise option_error(OptionTypeError, f"{kind.spelling}(auto_scope=...) expects "
                                   f"a bool, got {type(value).__name__}")
            if not value:  # True is the default: store nothing, like @pl.function
                result[key] = False
        elif key == "level":
            if value is not None and not isinstance(value, Level):
                raise option_error(OptionTypeError, f"{kind.spelling}(level=...) expects a "
                                   f"pl.Level, got {type(value).__name__}")
            if value is not None:
                result[key] = Level(value)
    return result


_FUNCTION_TYPES = {JitKind.ORCHESTRATION: FunctionType.Orchestration,
                   JitKind.HOST: FunctionType.Opaque, JitKind.INCORE: FunctionType.InCore,
                   JitKind.INLINE: FunctionType.Inline, JitKind.OPAQUE: FunctionType.Opaque,
                   JitKind.GRAPH: FunctionType.Graph}


_KINDS = {FunctionType.Orchestration: JitKind.ORCHESTRATION, FunctionType.InCore: JitKind.INCORE,
          FunctionType.Inline: JitKind.INLINE, FunctionType.Opaque: JitKind.OPAQUE,
          FunctionType.Graph: JitKind.GRAPH}


def kind_of(func_type: Any, level: Optional[Level]) -> JitKind:
    """The form of PyPTO's ``(func_type, level)``: ``None`` is the Orchestration entry, or
    a HOST orchestrator when ``level`` is ``pl.Level.HOST``; a ``JitKind`` or its name
    (``"incore"``) is taken as it is."""
    if isinstance(func_type, JitKind):
        return func_type
    if func_type is None:
        if level is None:
            return JitKind.ORCHESTRATION
        if level is Level.HOST:
            return JitKind.HOST
        raise option_error(OptionTypeError, f"level={level!r} applies to InCore kernels "
                           "(func_type=pl.FunctionType.InCore) or to a HOST orchestrator "
                           "(pl.Level.HOST)")
    if isinstance(func_type, str):
        try:
            return JitKind(func_type.lower())
        except ValueError:
            pass
    kind = _KINDS.get(func_type)
    if kind is None:
        raise option_error(OptionTypeError, f"func_type {func_type!r} is not a function type "
                           "@pl.jit makes (None, or pl.FunctionType.Orchestration/InCore/"
                           "Inline/Opaque/Graph)")
    return kind


def refuse_external(core_type: Any, aic: Any, aiv: Any, dual: bool, include_dirs: Any) -> None:
    """External kernels need code generation: refuse any of their options."""
    if core_type is not None or aic is not None or aiv is not None or dual or include_dirs:
        raise option_error(OptionValueError, "external kernels (external_core_type / "
                           "external_aic_source / external_aiv_source / "
                           "external_dual_aiv_dispatch / external_include_dirs) need code "
                           "generation, which pypto does not have")


def function_options(kind: JitKind, options: Mapping[str, Any]) -> FunctionOptions:
    """What the function of ``kind`` is parsed as (the ``@pl.function`` it stands for)."""
    parsed = FunctionOptions(func_type=_FUNCTION_TYPES[kind])
    if kind is JitKind.HOST:
        parsed.level, parsed.role = Level.HOST, Role.Orchestrator
    if options.get("level") is not None:
        parsed.level = options["level"]
    if options.get("auto_scope") is False:
        parsed.attrs["auto_scope"] = False
    return parsed


def emitted_decorator(kind: JitKind, options: Mapping[str, Any]) -> str:
    """The ``pl.function(...)`` call (without ``@``) written into the generated program."""
    if kind is JitKind.HOST:
        keywords = ["level=pl.Level.HOST", "role=pl.Role.Orchestrator"]
    else:
        func_type = {JitKind.ORCHESTRATION: "Orchestration", JitKind.INCORE: "InCore",
                     JitKind.INLINE: "Inline", JitKind.OPAQUE: "Opaque",
                     JitKind.GRAPH: "Graph"}[kind]
        keywords = [f"type=pl.FunctionType.{func_type}"]
    level = options.get("level")
    if level is not None:
        keywords.append(f"level=pl.Level.{level.name}")
    if options.get("auto_scope") is False:
        keywords.append("auto_scope=False")
    return f"pl.function({', '.join(keywords)})"


def may_call(caller: JitKind, callee: JitKind) -> bool:
    """Whether a function of kind ``caller`` turns a call of ``callee`` into a method call.

    Device, inline, opaque and graph functions are always dependencies; a host entry
    also takes orchestration (plain ``@pl.jit``) functions, nothing else does.
    """
    return callee in _DEVICE_AND_GRAPH_KINDS or (caller is JitKind.HOST
                                                  and callee is JitKind.ORCHESTRATION)

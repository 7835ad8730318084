"""PyPTO's way to make a pass from a Python function: ``PassProperties`` and
``create_function_pass`` / ``create_program_pass`` (thin constructors of ``Pass``)."""

from __future__ import annotations

from typing import Any, Callable, Iterable

from .context import RuntimeKind
from .pass_base import Pass, PassKind
from .properties import IRProperty, IRPropertySet

__all__ = ["PassProperties", "create_function_pass", "create_program_pass",
           "runtime_kind_from_name", "runtime_kind_to_name"]


class PassProperties:
    """The required / produced / invalidated properties of a pass being created."""

    def __init__(self, required: Iterable[IRProperty] | IRPropertySet = (),
                 produced: Iterable[IRProperty] | IRPropertySet = (),
                 invalidated: Iterable[IRProperty] | IRPropertySet = ()) -> None:
        self._sets = (IRPropertySet(list(required)), IRPropertySet(list(produced)),
                      IRPropertySet(list(invalidated)))

    # Copies: the object is shared as ``create_*_pass``'s default and must never change.
    required = property(lambda self: self._sets[0].copy())
    produced = property(lambda self: self._sets[1].copy())
    invalidated = property(lambda self: self._sets[2].copy())

    def __repr__(self) -> str:  # PyPTO's (the compiled class's default) form
        return f"<pypto.pypto_core.passes.PassProperties object at {id(self):#x}>"

    def __str__(self) -> str:
        return (f"PassProperties(required={self.required}, produced={self.produced}, "
                f"invalidated={self.invalidated})")


# PyPTO's default ``properties``: one empty, unchangeable declaration.
_NO_PROPERTIES = PassProperties()


def _create(kind: PassKind, transform: Callable[[Any], Any], name: str,
            properties: PassProperties | None) -> Pass:
    props = properties if properties is not None else PassProperties()
    if not isinstance(props, PassProperties):
        raise TypeError(f"create_{kind.value}_pass: properties must be PassProperties, got "
                        f"{type(props).__name__}")
    label = name or getattr(transform, "__name__", "") or f"Custom{kind.value.title()}Pass"
    return Pass(label, transform, required=props.required, produced=props.produced,
                invalidated=props.invalidated, kind=kind)


def create_function_pass(transform: Callable[[Any], Any], name: str = "",
                         properties: PassProperties | None = _NO_PROPERTIES) -> Pass:
    """A pass applying ``transform(Function) -> Function`` to every function."""
    return _create(PassKind.FUNCTION, transform, name, properties)


def create_program_pass(transform: Callable[[Any], Any], name: str = "",
                        properties: PassProperties | None = _NO_PROPERTIES) -> Pass:
    """A pass applying ``transform(Program) -> Program``."""
    return _create(PassKind.PROGRAM, transform, name, properties)


_RUNTIME_NAMES = {RuntimeKind.TENSORMAP_AND_RINGBUFFER: "tensormap_and_ringbuffer",
                  RuntimeKind.HOST_BUILD_GRAPH: "host_build_graph"}


def runtime_kind_to_name(kind: RuntimeKind) -> str:
    return _RUNTIME_NAMES[RuntimeKind(kind)]


def runtime_kind_from_name(name: str) -> RuntimeKind:
    for kind, text in _RUNTIME_NAMES.items():
        if text == name:
            return kind
    raise ValueError(f"unknown runtime {name!r}; expected one of {sorted(_RUNTIME_NAMES.values())}")

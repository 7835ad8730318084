"""Dynamic dims a function takes over from the dependencies it passes its parameters to.

``src.bind_dynamic(0, N)`` in a kernel makes axis 0 of the kernel's ``src`` the dynamic
dim ``N``; a caller that passes its own bare ``pl.Tensor`` parameter straight to that
``src`` gets the same dynamic axis (PyPTO's reading: one tensor, one shape).  The
rule follows calls transitively, and only for arguments that are the caller's
parameter itself (a name the body never rebinds), so no value's shape is guessed.
"""

from __future__ import annotations

import ast
from typing import TYPE_CHECKING, NamedTuple

from ..language.typing import DynVar

if TYPE_CHECKING:
    from .decorator import JITFunction

__all__ = ["InheritedDim", "inherited_dynamic_dims"]


class InheritedDim(NamedTuple):
    param: str
    axis: int
    dim: DynVar


def inherited_dynamic_dims(jit: "JITFunction") -> list[InheritedDim]:
    """The axes of ``jit``'s parameters its dependencies bind dynamic."""
    return _Walk().dims_of(jit, own=False)


class _Walk:
    def __init__(self) -> None:
        self._done: dict[int, list[InheritedDim]] = {}
        self._active: set[int] = set()

    def dims_of(self, jit: "JITFunction", own: bool = True) -> list[InheritedDim]:
        """``jit``'s own ``bind_dynamic`` axes (when ``own``) and those it inherits."""
        from .decorator import JITFunction
        from .signature import dynamic_dim_of
        key = (id(jit) << 1) | own
        if key in self._done:
            return self._done[key]
        if id(jit) in self._active:  # a recursive call: refused later, by the builder
            return []
        self._active.add(id(jit))
        facts = jit.facts()
        found: list[InheritedDim] = []
        if own:
            found += [InheritedDim(b.param, b.axis, dynamic_dim_of(facts, jit.namespace, b))
                      for b in facts.dynamic_binds]
        for name, call in facts.call_sites:
            callee = jit.namespace.get(name)
            if not isinstance(callee, JITFunction):
                continue
            arguments = _argument_names(callee, call)
            for param, axis, dim in self.dims_of(callee):
                passed = arguments.get(param)
                if passed is not None and passed in facts.param_index:
                    found.append(InheritedDim(passed, axis, dim))
        self._active.discard(id(jit))
        self._done[key] = found
        return found


def _argument_names(callee: "JITFunction", call: ast.Call) -> dict[str, str]:
    """Callee parameter -> the caller's name passed to it (plain-name arguments only)."""
    facts = callee.facts()
    names = [p.name for p in facts.params]
    passed: dict[str, str] = {}
    for param, argument in zip(names, call.args):
        if isinstance(argument, ast.Name):
            passed[param] = argument.id
    for keyword in call.keywords:
        if keyword.arg in facts.param_index and isinstance(keyword.value, ast.Name):
            passed[keyword.arg] = keyword.value.id
    return passed

"""Name resolution for ``@pl.jit`` bodies and dependency discovery (01-language.md §17.2).

A body's free names resolve, at specialization time, in the function's closure
cells, then the locals of the frame that applied the decorator (a snapshot, for
functions defined inside other functions), then the module globals.  Resolving at
specialization time is what lets a dependency be defined after its caller, and a
redefined dependency (a re-run notebook cell) be picked up.
"""

from __future__ import annotations

import ast
from collections import deque
from typing import TYPE_CHECKING, Any, Callable, Mapping, Optional, Protocol

from ..language.parser.diagnostics import ParserSyntaxError
from .analysis import FunctionFacts, user_error
from .kinds import JitKind, may_call

if TYPE_CHECKING:
    from .decorator import JITFunction

__all__ = ["Namespace", "MappingNamespace", "Specializable", "dependency_closure",
           "check_callable"]


class Namespace:
    """Where the free names of one ``@pl.jit`` function get their values."""

    __slots__ = ("_fn", "_frame_locals", "_cells")

    def __init__(self, fn: Callable, frame_locals: Optional[Mapping[str, Any]]) -> None:
        self._fn = fn
        self._frame_locals = frame_locals
        self._cells = dict(zip(fn.__code__.co_freevars, fn.__closure__ or ()))

    def lookup(self, name: str) -> Any:
        """The value of ``name``; ``KeyError`` when nothing binds it (builtins included)."""
        cell = self._cells.get(name)
        if cell is not None:
            try:
                return cell.cell_contents
            except ValueError:  # a cell whose variable is not assigned yet
                pass
        if self._frame_locals is not None and name in self._frame_locals:
            return self._frame_locals[name]
        return self._fn.__globals__[name]

    def get(self, name: str, default: Any = None) -> Any:
        try:
            return self.lookup(name)
        except KeyError:
            return default


class MappingNamespace:
    """A namespace given as a mapping (PyPTO's ``SpecializeContext.py_globals``)."""

    __slots__ = ("_mapping",)

    def __init__(self, mapping: Mapping[str, Any]) -> None:
        self._mapping = mapping

    def lookup(self, name: str) -> Any:
        return self._mapping[name]

    def get(self, name: str, default: Any = None) -> Any:
        return self._mapping.get(name, default)


class Specializable(Protocol):
    """What the specializer reads of a function it specialises: a ``JITFunction``, or one
    function of a ``specialize()`` program (``specializer._ContextFunction``)."""

    __name__: str

    @property
    def kind(self) -> JitKind: ...

    @property
    def options(self) -> dict[str, Any]: ...

    @property
    def namespace(self) -> Namespace | MappingNamespace: ...


def check_callable(caller: Specializable, facts: FunctionFacts, name: str,
                   callee: "JITFunction", site: Optional[ast.AST] = None) -> None:
    """Reject a call of a ``@pl.jit`` function that the caller's kind does not pick up."""
    if may_call(caller.kind, callee.kind):
        return
    raise user_error(
        ParserSyntaxError,
        f"'{name}' is a @{callee.kind.spelling} function, which a @{caller.kind.spelling} "
        f"function cannot call", facts.info, site if site is not None else facts.calls.get(name),
        hint="A @pl.jit function calls @pl.jit.incore, .inline, .opaque and .graph "
             "functions; only a @pl.jit.host function also calls plain @pl.jit functions")


def dependency_closure(entry: "JITFunction") -> list[tuple["JITFunction", FunctionFacts,
                                                             dict[str, "JITFunction"]]]:
    """Entry first, then every transitive dependency in discovery order.

    Each item carries the function's facts and its resolved callees (name -> function),
    which is all the cache key needs; distinct functions are told apart by identity.
    """
    from .decorator import JITFunction
    order: list[tuple[JITFunction, FunctionFacts, dict[str, JITFunction]]] = []
    seen: set[int] = {id(entry)}
    pending = deque([entry])
    while pending:
        current = pending.popleft()
        facts = current.facts()
        namespace = current.namespace
        callees: dict[str, JITFunction] = {}
        for name in sorted(facts.calls):
            value = namespace.get(name)
            if not isinstance(value, JITFunction):
                continue
            check_callable(current, facts, name, value)
            callees[name] = value
            if id(value) not in seen:
                seen.add(id(value))
                pending.append(value)
        order.append((current, facts, callees))
    return order

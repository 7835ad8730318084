"""Name scopes of a DSL body: nested scopes, definitions (SSA-checked under
``strict_ssa``), and the names a scope yields."""

from __future__ import annotations

from typing import Any, Optional

from ...ir.span import Span
from .diagnostics import SSAViolationError, ScopeIsolationError

__all__ = ["ScopeManager", "SSAViolationError", "ScopeIsolationError"]


class _Scope:
    __slots__ = ("kind", "names", "spans", "yielded")

    def __init__(self, kind: str) -> None:
        self.kind = kind
        self.names: dict[str, Any] = {}
        self.spans: dict[str, Any] = {}
        self.yielded: list[str] = []


class ScopeManager:
    """A stack of scopes (``"function"``, ``"for"``, ``"if"``, ...), innermost last.

    A lookup sees every enclosing scope; ``strict_ssa`` refuses a second definition of a
    name visible from the current scope (``allow_redef`` lets one through).
    """

    def __init__(self, strict_ssa: bool = False) -> None:
        self.strict_ssa = strict_ssa
        self._scopes: list[_Scope] = []

    def enter_scope(self, scope_type: str) -> None:
        self._scopes.append(_Scope(scope_type))

    def exit_scope(self, leak_vars: bool = False) -> dict[str, Any]:
        """Leave the innermost scope; with ``leak_vars`` its names move to the enclosing
        one (a loop body's definitions are visible after the loop).  Returns its names."""
        if not self._scopes:
            raise ScopeIsolationError("exit_scope() without a matching enter_scope()")
        scope = self._scopes.pop()
        if leak_vars and self._scopes:
            outer = self._scopes[-1]
            outer.names.update(scope.names)
            for name, span in scope.spans.items():
                outer.spans.setdefault(name, span)
        return dict(scope.names)

    def current_scope_type(self) -> Optional[str]:
        return self._scopes[-1].kind if self._scopes else None

    def in_scope_type(self, scope_type: str) -> bool:
        """Is any enclosing scope of this kind?"""
        return any(scope.kind == scope_type for scope in self._scopes)

    def define_var(self, name: str, value: Any, allow_redef: bool = False,
                   span: Optional[Span] = None) -> None:
        if not self._scopes:
            self.enter_scope("function")
        if self.strict_ssa and not allow_redef:
            for scope in self._scopes:
                if name in scope.names:
                    raise SSAViolationError(
                        f"Variable '{name}' is already defined (strict SSA)", span,
                        hint=f"Use a new name instead of rebinding '{name}'",
                        previous_span=scope.spans.get(name))
        current = self._scopes[-1]
        current.names[name] = value
        current.spans.setdefault(name, span)

    def lookup_var(self, name: str) -> Any:
        """The innermost definition of ``name`` (``None`` if undefined)."""
        for scope in reversed(self._scopes):
            if name in scope.names:
                return scope.names[name]
        return None

    def is_defined(self, name: str) -> bool:
        return any(name in scope.names for scope in self._scopes)

    def mark_yielded(self, var_name: str) -> None:
        """Record that the current scope yields ``var_name``."""
        if not self._scopes:
            raise ScopeIsolationError(f"'{var_name}' yielded outside any scope")
        if var_name not in self._scopes[-1].yielded:
            self._scopes[-1].yielded.append(var_name)

    def get_yielded_vars(self, scope_id: Optional[int] = None) -> list[str]:
        """The names the current scope (or the scope at depth ``scope_id``, 0 outermost)
        yields, in yield order."""
        if not self._scopes:
            return []
        scope = self._scopes[-1] if scope_id is None else self._scopes[scope_id]
        return list(scope.yielded)

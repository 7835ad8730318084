"""PyPTO's ``pypto.language.scope`` path: dependency scopes (``pl.scope``,
``pl.manual_scope``, ``pl.ScopeMode``) and task submission (``pl.submit``,
``pl.spmd_submit``); the constructs are parsed from the AST (``pypto.language.dsl``)."""

from __future__ import annotations

from ..ir.enums import ScopeMode
from .dsl import manual_scope, scope, spmd_submit, submit

__all__ = ["ScopeMode", "manual_scope", "scope", "spmd_submit", "submit"]

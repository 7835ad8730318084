"""The scope outliners: one shared engine (``outliner``) configured by four passes
(``hierarchy``, ``graph``, ``incore``, ``cluster``)."""

from __future__ import annotations

from .outliner import OutlineConfig, ScopeOutliner

__all__ = ["OutlineConfig", "ScopeOutliner"]

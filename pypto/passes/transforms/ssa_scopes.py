"""Block-scoped version bindings for ConvertToSSA.

``VisibleVersions`` maps each source Var to its visible version, and each type
(by key) to the most recent visible version of that type.  A binding made inside
a frame (loop body, if branch) disappears when that frame closes, revealing the
binding it shadowed.  Both maps are plain dicts holding only the visible bindings,
so a lookup is one ``dict.get``; a binding made inside a frame also records what
it shadowed in the frame's undo log, and closing the frame replays the log
backwards.  Every binding is logged once and undone at most once: the total cost
is linear in the bindings made.
"""

from __future__ import annotations

from typing import Hashable

from ...errors import InternalError
from ...ir.expr import Var

__all__ = ["VisibleVersions"]


class VisibleVersions:
    def __init__(self) -> None:
        self.of_var: dict[Var, Var] = {}
        self.of_type: dict[Hashable, Var] = {}
        # One undo log per open inner frame (the outermost frame never closes):
        # (source, shadowed version, type key, shadowed version of that type); a
        # shadowed version is None when the binding shadowed nothing (undoing it
        # deletes the key).
        self._logs: list[list[tuple[Var, Var | None, Hashable, Var | None]]] = []
        # The visible version of a source Var / of a type key, or None (hot paths).
        self.lookup = self.of_var.get
        self.lookup_type = self.of_type.get

    def push(self) -> None:
        self._logs.append([])

    def pop(self) -> None:
        if not self._logs:
            raise InternalError("VisibleVersions: cannot close the outermost frame")
        of_var, of_type = self.of_var, self.of_type
        for source, shadowed, key, shadowed_of_type in reversed(self._logs.pop()):
            if shadowed is None:
                del of_var[source]
            else:
                of_var[source] = shadowed
            if shadowed_of_type is None:
                del of_type[key]
            else:
                of_type[key] = shadowed_of_type

    def bind(self, source: Var, version: Var, type_key: Hashable) -> None:
        """Make ``version`` the visible version of ``source`` and of its type."""
        of_var, of_type = self.of_var, self.of_type
        if self._logs:
            self._logs[-1].append((source, of_var.get(source), type_key, of_type.get(type_key)))
        of_var[source] = version
        of_type[type_key] = version

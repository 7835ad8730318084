"""Names of outlined functions and of the Vars the outliner mints (03-passes.md §10.6).

Outlined function names are checked against two sets: ``local`` (the variable
names of the function being processed plus the names outlined from it so far)
and ``reserved`` (program-wide: every input function name plus every name
outlined by this pass run).  A candidate free in both is kept; one taken only
in ``reserved`` becomes ``<func>_<candidate>``; one taken locally becomes the
smallest free ``<candidate>_<k>``.  So two ``pl.graph("layer")`` regions in one
function give ``layer`` and ``layer_0``, and ``"dup"`` in ``fn_a`` and ``fn_b``
gives ``dup`` and ``fn_b_dup`` -- never a silent merge.
"""

from __future__ import annotations

from ...ir.types import Type
from ...ir import expr as E
from ...ir.span import Span
from ..names import STORE_SUFFIX, auto_name, base_name

__all__ = ["FunctionNames", "VarNames"]


class FunctionNames:
    """Outlined-function naming for one function of the program."""

    def __init__(self, reserved: set[str], local_var_names: set[str]) -> None:
        self.reserved = reserved
        self.local = set(local_var_names)
        self._next_suffix: dict[str, int] = {}  # stem -> first k worth trying

    def claim(self, candidate: str, func_name: str) -> str:
        taken_local = candidate in self.local
        if not taken_local and candidate not in self.reserved:
            name = candidate
        elif not taken_local:
            name = self._first_free(f"{func_name}_{candidate}", include_bare=True)
        else:
            name = self._first_free(candidate, include_bare=False)
        self.local.add(name)
        self.reserved.add(name)
        return name

    def _first_free(self, stem: str, include_bare: bool) -> str:
        if include_bare and not self._taken(stem):
            return stem
        # Names are only ever added, so the search resumes where it stopped last time:
        # R regions sharing one name cost O(R), not O(R^2).
        k = self._next_suffix.get(stem, 0)
        while self._taken(f"{stem}_{k}"):
            k += 1
        self._next_suffix[stem] = k + 1
        return f"{stem}_{k}"

    def _taken(self, name: str) -> bool:
        return name in self.local or name in self.reserved


class VarNames:
    """Mints pass-generated Var names (``x__iter_v0``, ``out__ssa_v1``) not yet taken."""

    def __init__(self, taken: set[str]) -> None:
        self.taken = taken
        self._next: dict[tuple[str, str], int] = {}
        self._undo: list[tuple] | None = None  # while a trial runs: how to take it back
        # Store bindings live in one outlined function each, so every function starts
        # its own ``t__store``, ``t__store_v0``, ... (as PyPTO names them).
        self._bindings: set[str] = set()
        self._bindings_at_trial: set[str] = set()

    def begin_function(self) -> None:
        """The store bindings minted from now on belong to a new outlined function."""
        self._bindings = set()

    def store_binding(self, target: str) -> str:
        """``t__store`` for a store into ``target``, else the first free ``t__store_vN``:
        unique in the outlined function being built and among the parent's names."""
        base = base_name(target)
        name = f"{base}{STORE_SUFFIX}"
        version = 0
        while name in self.taken or name in self._bindings:
            name = auto_name(base, "store", version)
            version += 1
        self._bindings.add(name)
        return name

    def begin_trial(self) -> None:
        """Names minted from now on can be taken back (``rollback``) or kept (``commit``)."""
        self._undo = []
        self._bindings_at_trial = set(self._bindings)

    def commit(self) -> None:
        self._undo = None

    def rollback(self) -> None:
        """Forget every name minted since ``begin_trial``, as if never asked."""
        undo, self._undo = self._undo or [], None
        self._bindings = self._bindings_at_trial
        for entry in reversed(undo):
            if entry[0] == "taken":
                self.taken.discard(entry[1])
            elif entry[2] is None:
                self._next.pop(entry[1], None)
            else:
                self._next[entry[1]] = entry[2]

    def _take(self, name: str) -> None:
        self.taken.add(name)
        if self._undo is not None:
            self._undo.append(("taken", name))

    def mint(self, like: str, qualifier: str) -> str:
        """The first free ``<base>__<qualifier>_vN`` for ``like``'s base."""
        base = base_name(like)
        key = (base, qualifier)
        version = self._next.get(key, 0)
        name = auto_name(base, qualifier, version)
        while name in self.taken:
            version += 1
            name = auto_name(base, qualifier, version)
        if self._undo is not None:
            self._undo.append(("next", key, self._next.get(key)))
        self._next[key] = version + 1
        self._take(name)
        return name

    def var(self, like: E.Var, qualifier: str, type_: Type | None = None,
            span: Span | None = None) -> E.Var:
        return E.Var(self.mint(like.name_hint, qualifier), type_ or like.type, span or like.span)

"""Lazy re-exports for PyPTO's module paths that sit below their code's layer, and
lazily loaded module attributes (the package root; ``pl.jit``).

``pypto.ir.pass_manager`` is a PyPTO path, but the pass manager belongs to the
passes, which import ``pypto.ir``.  Such a path is a module whose attributes are
looked up in the real home on first access, so importing it never imports upward.
"""

from __future__ import annotations

import importlib
import sys
import types
from typing import Any, Callable, Iterable


def lazy_reexport(module_name: str, home: str,
                  names: Iterable[str]) -> tuple[Callable[[str], Any], Callable[[], list[str]]]:
    """``(__getattr__, __dir__)`` for a module that re-exports ``names`` from ``home``."""
    exported = frozenset(names)

    def __getattr__(name: str) -> Any:
        if name in exported:
            return getattr(importlib.import_module(home), name)
        raise AttributeError(f"module {module_name!r} has no attribute {name!r}")

    def __dir__() -> list[str]:
        return sorted(exported)

    return __getattr__, __dir__


def lazy_reexports(module_name: str,
                   homes: dict[str, str]) -> tuple[Callable[[str], Any], Callable[[], list[str]]]:
    """``(__getattr__, __dir__)`` for a module re-exporting each name from its own home
    (``{name: home module}``)."""

    def __getattr__(name: str) -> Any:
        home = homes.get(name)
        if home is None:
            raise AttributeError(f"module {module_name!r} has no attribute {name!r}")
        return getattr(importlib.import_module(home), name)

    def __dir__() -> list[str]:
        return sorted(homes)

    return __getattr__, __dir__


def optional_reexports(module_globals: dict[str, Any], names: dict[str, str]
                       ) -> tuple[Callable[[str], Any], Callable[[], list[str]]]:
    """``(__getattr__, __dir__)`` for a module that shows PyPTO's names ``{name: home
    module}`` from another package when that package has them (looked up on access, so
    no import points up or fails when a name is absent); ``dir()`` lists the module's own
    names and those of ``names`` that resolve."""
    module_name = module_globals["__name__"]

    def _resolve(name: str) -> Any:
        try:
            return getattr(importlib.import_module(names[name]), name)
        except (ImportError, AttributeError):
            raise AttributeError(f"module {module_name!r} has no attribute {name!r}") from None

    def __getattr__(name: str) -> Any:
        if name in names:
            return _resolve(name)
        raise AttributeError(f"module {module_name!r} has no attribute {name!r}")

    def __dir__() -> list[str]:
        present = []
        for name in names:
            try:
                _resolve(name)
            except AttributeError:
                continue
            present.append(name)
        return sorted({*module_globals, *present})

    return __getattr__, __dir__


class _LazyAttribute:
    """A module attribute loaded on first access, then stored in the module's dict.

    A non-data descriptor on the module's class: once stored, the dict entry wins and
    the descriptor is never consulted again.  A name the module does not have raises
    the interpreter's own ``AttributeError`` (no ``__getattr__`` frame of pypto's).
    """

    def __init__(self, name: str, home: str, attribute: str | None) -> None:
        self._name, self._home, self._attribute = name, home, attribute

    def __get__(self, module: Any, owner: Any = None) -> Any:
        if module is None:
            return self
        value: Any = importlib.import_module(self._home)
        for part in self._attribute.split(".") if self._attribute else ():
            value = getattr(value, part)
        module.__dict__[self._name] = value
        return value


def install_lazy_attributes(module_name: str,
                            attributes: dict[str, tuple[str, str | None]]) -> None:
    """Give module ``module_name`` the ``attributes`` ``{name: (home module, attribute or
    None for the module itself)}``, each imported on first access.  The attribute may be
    dotted (``"DataType.FP32"``)."""
    module = sys.modules[module_name]
    namespace: dict[str, object] = {name: _LazyAttribute(name, home, attribute)
                 for name, (home, attribute) in attributes.items()}
    namespace["__module__"] = module_name

    def __dir__(self: types.ModuleType) -> list[str]:
        # dir() lists the module dict only; the lazy names are public attributes too.
        return sorted(set(self.__dict__) | set(attributes))

    namespace["__dir__"] = __dir__
    module.__class__ = type("LazyAttributesModule", (types.ModuleType,), namespace)

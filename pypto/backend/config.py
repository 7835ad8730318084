"""The backend setting: which target the user compiles for.

PyPTO keeps one backend choice per process: ``set_backend_type`` makes it, a second
call with another type is refused until ``reset_for_testing()``.  pypto keeps that
contract with one documented setting, guarded by a lock.  It selects the target the
passes see and nothing else: no pass reads it behind the caller's back; the pass
manager and ``ir.compile`` take the target as an argument and default to this setting
when the caller gives none.  Unset, the target is ``Ascend910B`` (PyPTO's default in
``ir.compile``), and ``is_backend_configured()`` says it was not chosen.
"""

from __future__ import annotations

import threading

from .targets import BackendType

__all__ = ["set_backend_type", "get_backend_type", "is_backend_configured", "reset_for_testing",
           "DEFAULT_BACKEND_TYPE"]

DEFAULT_BACKEND_TYPE = BackendType.Ascend910B


class _BackendSetting:
    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._chosen: BackendType | None = None

    def set(self, backend_type: BackendType) -> None:
        if not isinstance(backend_type, BackendType):
            raise TypeError(f"set_backend_type: expected a pypto.backend.BackendType, got "
                            f"{type(backend_type).__name__}")
        with self._lock:
            if self._chosen is not None and self._chosen is not backend_type:
                raise ValueError(f"the backend is already {self._chosen.name}; it cannot change "
                                 f"to {backend_type.name} (reset_for_testing() clears it)")
            self._chosen = backend_type

    def get(self) -> BackendType | None:
        with self._lock:
            return self._chosen

    def reset(self) -> None:
        with self._lock:
            self._chosen = None


_SETTING = _BackendSetting()


def set_backend_type(backend_type: BackendType) -> None:
    """Choose the target; choosing the same one again is allowed, another one is not."""
    _SETTING.set(backend_type)


def get_backend_type() -> BackendType:
    """The chosen target, or ``Ascend910B`` when none was chosen."""
    chosen = _SETTING.get()
    return DEFAULT_BACKEND_TYPE if chosen is None else chosen


def is_backend_configured() -> bool:
    return _SETTING.get() is not None


def reset_for_testing() -> None:
    """Forget the choice (PyPTO's test fixtures call this between tests)."""
    _SETTING.reset()

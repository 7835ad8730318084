"""PyPTO's logging and check functions (``pypto.log_info``, ``pypto.check`` ...).

One threshold decides which messages reach stderr: a message is written when its
level is at least the threshold (``LogLevel.NONE`` silences everything).  The
threshold starts at ``WARN`` -- or at ``PYPTO_LOG_LEVEL`` (a member name such as
``DEBUG``, or its number) when that is set at import -- and ``set_log_level`` changes
it.  It is the one setting of its kind: a user's choice for the whole process, read
only by these functions (no pass consults it), and guarded by a lock so concurrent
``set_log_level`` and ``log_*`` calls see a whole value.

``check`` is for the user's mistakes (``ValueError``); ``internal_check`` for broken
invariants (``InternalError``, a bug).  Neither imports anything else of pypto.
"""

from __future__ import annotations

import enum
import os
import sys
import threading
from typing import Any

from ._core_enum import CoreEnumRepr
from .errors import CoreValueError, InternalError

__all__ = ["LogLevel", "get_log_level", "set_log_level", "log_debug", "log_info", "log_warn",
           "log_error", "log_fatal", "log_event", "check", "internal_check",
           "internal_check_span"]


class LogLevel(CoreEnumRepr, enum.IntEnum):
    """PyPTO's log levels (names and values)."""

    DEBUG = 0
    INFO = 1
    WARN = 2
    ERROR = 3
    FATAL = 4
    EVENT = 5
    NONE = 6


def _level_from_environment() -> LogLevel:
    text = os.environ.get("PYPTO_LOG_LEVEL", "").strip()
    if not text:
        return LogLevel.WARN
    if text.isdigit() and int(text) in LogLevel._value2member_map_:
        return LogLevel(int(text))
    return LogLevel.__members__.get(text.upper(), LogLevel.WARN)


class _Threshold:
    """The current threshold, read and written under a lock."""

    def __init__(self, level: LogLevel) -> None:
        self._lock = threading.Lock()
        self._level = level

    def get(self) -> LogLevel:
        with self._lock:
            return self._level

    def set(self, level: LogLevel) -> None:
        with self._lock:
            self._level = level


_THRESHOLD = _Threshold(_level_from_environment())


def _as_level(level: Any) -> LogLevel:
    if isinstance(level, bool) or not isinstance(level, int):
        raise TypeError(f"set_log_level: expected a pypto.LogLevel, got {type(level).__name__}")
    try:
        return LogLevel(level)
    except ValueError:
        raise ValueError(f"set_log_level: {level} is not a LogLevel value (0..6)") from None


def set_log_level(level: LogLevel) -> None:
    """Write messages of ``level`` and above to stderr from now on."""
    _THRESHOLD.set(_as_level(level))


def get_log_level() -> LogLevel:
    """The current threshold."""
    return _THRESHOLD.get()


def _log(level: LogLevel, message: Any) -> None:
    threshold = _THRESHOLD.get()
    if threshold is LogLevel.NONE or level < threshold:
        return
    sys.stderr.write(f"[pypto {level.name}] {message}\n")
    sys.stderr.flush()


def log_debug(message: str) -> None:
    _log(LogLevel.DEBUG, message)


def log_info(message: str) -> None:
    _log(LogLevel.INFO, message)


def log_warn(message: str) -> None:
    _log(LogLevel.WARN, message)


def log_error(message: str) -> None:
    _log(LogLevel.ERROR, message)


def log_fatal(message: str) -> None:
    _log(LogLevel.FATAL, message)


def log_event(message: str) -> None:
    _log(LogLevel.EVENT, message)


def check(condition: Any, message: str) -> None:
    """Raise ``pypto.pypto_core.ValueError(message)`` unless ``condition`` holds (a user
    error)."""
    if not condition:
        raise CoreValueError(message)


def internal_check(condition: Any, message: str) -> None:
    """Raise ``InternalError(message)`` unless ``condition`` holds (a pypto bug)."""
    if not condition:
        raise InternalError(message)


def internal_check_span(condition: Any, message: str, span: Any) -> None:
    """``internal_check`` with the source location ``span`` in the message."""
    if not condition:
        where = span.to_string() if hasattr(span, "to_string") else str(span)
        raise InternalError(f"{message} (at {where})")

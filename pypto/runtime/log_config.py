"""How much the runtime reports (PyPTO's ``pypto.runtime.log_config``).

pypto's runtime logs through the standard ``logging`` logger ``"pypto.runtime"``: what
``run`` executes and on which executor (``info``), how long it took (``debug``).
``configure_log(level)`` sets that logger's level; the level is the logger's, as
``logging`` keeps it, not a pypto variable.
"""

from __future__ import annotations

import logging
from typing import Union

__all__ = ["configure_log", "current_level", "LOGGER_NAME"]

LOGGER_NAME = "pypto.runtime"
_NAMES = {"debug": logging.DEBUG, "info": logging.INFO, "warn": logging.WARNING,
          "warning": logging.WARNING, "error": logging.ERROR, "fatal": logging.CRITICAL,
          "critical": logging.CRITICAL, "none": logging.CRITICAL + 10}


def _as_level(level: Union[str, int, object]) -> int:
    if isinstance(level, str):
        found = _NAMES.get(level.strip().lower())
        if found is None:
            raise ValueError(f"configure_log: unknown level {level!r}; expected one of "
                             f"{', '.join(sorted(_NAMES))}")
        return found
    name = getattr(level, "name", None)  # a LogLevel-style enum member
    if isinstance(name, str) and name.lower() in _NAMES:
        return _NAMES[name.lower()]
    if isinstance(level, int) and not isinstance(level, bool):
        return level
    raise TypeError(f"configure_log: level must be a name ('info', ...), a logging level or "
                    f"a LogLevel member, got {type(level).__name__}")


def configure_log(level: Union[str, int, object], *, sync_pypto: bool = False) -> None:
    """Report runtime messages at ``level`` and above (``"debug"``, ``"info"``,
    ``"warn"``, ``"error"``, ``"fatal"``, ``"none"``, a ``logging`` level, or a
    ``pypto.LogLevel`` member).  With ``sync_pypto`` pypto's own messages (the
    ``"pypto"`` logger, the runtime's parent) follow the same level."""
    value = _as_level(level)
    logger = logging.getLogger(LOGGER_NAME)
    logger.setLevel(value)
    if not logger.handlers and not logging.getLogger().handlers:
        handler = logging.StreamHandler()
        handler.setFormatter(logging.Formatter("[pypto.runtime] %(levelname)s: %(message)s"))
        logger.addHandler(handler)
    if sync_pypto:
        logging.getLogger("pypto").setLevel(value)


def current_level() -> str:
    """The runtime's effective level, by name (``"warning"`` unless configured)."""
    value = logging.getLogger(LOGGER_NAME).getEffectiveLevel()
    if value > logging.CRITICAL:
        return "none"
    return logging.getLevelName(value).lower()

"""A progress line on stderr for long compiles.

Nothing is drawn unless the stream is a terminal, ``--quiet`` is off, and the work has
already taken ``delay`` seconds (2 by default): short compiles and piped or captured
output stay silent.  The line is redrawn in place (``\\r``) at most ten times a second
and erased when the work ends.
"""

from __future__ import annotations

import time
from typing import Callable, Optional, TextIO

from ..ir.function import Program
from ..passes import Pass, PassInstrument

__all__ = ["Progress", "ProgressInstrument", "DELAY_SECONDS"]

DELAY_SECONDS = 2.0
_REDRAW_SECONDS = 0.1
_CLEAR_LINE = "\x1b[2K"


def _is_terminal(stream: Optional[TextIO]) -> bool:
    try:
        return bool(stream is not None and stream.isatty())
    except (AttributeError, ValueError, OSError):
        return False


class Progress:
    """``[pypto] <stage> <detail>``, drawn once the work is older than ``delay``."""

    def __init__(self, stream: Optional[TextIO], enabled: bool = True,
                 delay: Optional[float] = None,
                 clock: Callable[[], float] = time.monotonic) -> None:
        self._stream = stream
        self._enabled = enabled and _is_terminal(stream)
        self._delay = DELAY_SECONDS if delay is None else delay
        self._clock = clock
        self._start = clock()
        self._drawn_at: Optional[float] = None
        self._stage = ""
        self._detail = ""

    @property
    def enabled(self) -> bool:
        return self._enabled

    def stage(self, text: str) -> None:
        self._stage, self._detail = text, ""
        self._tick(force=True)

    def detail(self, text: str) -> None:
        self._detail = text
        self._tick(force=False)

    def finish(self) -> None:
        """Erase the line (if one was drawn) so that what follows starts clean."""
        if self._drawn_at is not None and self._stream is not None:
            self._stream.write("\r" + _CLEAR_LINE)
            self._stream.flush()
        self._drawn_at = None

    def _tick(self, force: bool) -> None:
        if not self._enabled or self._stream is None:
            return
        now = self._clock()
        if now - self._start < self._delay:
            return
        if not force and self._drawn_at is not None and now - self._drawn_at < _REDRAW_SECONDS:
            return
        text = f"[pypto] {self._stage}" + (f" {self._detail}" if self._detail else "")
        self._stream.write("\r" + _CLEAR_LINE + text)
        self._stream.flush()
        self._drawn_at = now


class ProgressInstrument(PassInstrument):
    """Feeds the progress line: ``pass 3/9 ConvertToSSA``, ``functions 12/40``."""

    def __init__(self, progress: Progress, total: int) -> None:
        super().__init__("Progress")
        self._progress = progress
        self._total = total
        self._index = 0

    def run_before_pass(self, pass_: Pass, program: Program) -> None:
        self._index += 1
        self._progress.stage(f"pass {self._index}/{self._total} {pass_.get_name()}")

    def run_after_function(self, pass_: Pass, done: int, total: int) -> None:
        self._progress.detail(f"functions {done}/{total}")

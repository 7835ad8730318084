"""PyPTO's compile profiler: nested, timed stages of a compilation.

``with CompileProfiler() as prof:`` makes ``prof`` the active profiler of this thread
(``get_active_profiler()``, ``CompileProfiler.current()``); ``with prof.stage("parse"):``
times a stage, and stages opened inside it become its children.  ``summary()`` is a
text table, ``to_json``/``write_report`` write the records.  The active profiler is
per thread (a stack), never shared between threads.
"""

from __future__ import annotations

import json
import os
import threading
import time
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Any, Generator

__all__ = ["CompileProfiler", "StageRecord", "get_active_profiler"]


@dataclass
class StageRecord:
    """One timed stage: ``start``/``end`` in ``time.perf_counter()`` seconds."""

    name: str
    start: float
    end: float = 0.0
    children: list["StageRecord"] = field(default_factory=list)

    @property
    def duration(self) -> float:
        return max(0.0, self.end - self.start)

    def to_dict(self) -> dict[str, Any]:
        return {"name": self.name, "seconds": self.duration,
                "children": [child.to_dict() for child in self.children]}


_active = threading.local()


def _stack() -> list["CompileProfiler"]:
    if not hasattr(_active, "stack"):
        _active.stack = []
    return _active.stack


class CompileProfiler:
    def __init__(self) -> None:
        self._records: list[StageRecord] = []
        self._open: list[StageRecord] = []

    @staticmethod
    def current() -> "CompileProfiler | None":
        stack = _stack()
        return stack[-1] if stack else None

    def __enter__(self) -> "CompileProfiler":
        _stack().append(self)
        return self

    def __exit__(self, *exc: Any) -> None:
        stack = _stack()
        if stack and stack[-1] is self:
            stack.pop()

    def add_stage_record(self, record: StageRecord) -> None:
        """Add a finished record under the innermost open stage (or at the top)."""
        (self._open[-1].children if self._open else self._records).append(record)

    @contextmanager
    def stage(self, name: str) -> Generator[StageRecord, None, None]:
        record = StageRecord(name, time.perf_counter())
        self.add_stage_record(record)
        self._open.append(record)
        try:
            yield record
        finally:
            record.end = time.perf_counter()
            self._open.pop()

    @property
    def total_seconds(self) -> float:
        return sum(record.duration for record in self._records)

    def to_dict(self) -> dict[str, Any]:
        return {"total_seconds": self.total_seconds,
                "stages": [record.to_dict() for record in self._records]}

    def to_json(self, path: str | None = None, indent: int = 2) -> str:
        text = json.dumps(self.to_dict(), indent=indent)
        if path is not None:
            with open(path, "w", encoding="utf-8") as f:
                f.write(text)
        return text

    def summary(self) -> str:
        lines = ["Compile profile", "==============="]

        def walk(records: list[StageRecord], depth: int) -> None:
            for record in records:
                lines.append(f"{'  ' * depth}{record.name:<{40 - 2 * depth}} "
                             f"{record.duration * 1000:10.3f} ms")
                walk(record.children, depth + 1)
        walk(self._records, 0)
        lines.append(f"{'total':<40} {self.total_seconds * 1000:10.3f} ms")
        return "\n".join(lines)

    def write_report(self, report_dir: str) -> None:
        """``compile_profile.json`` and ``compile_profile.txt`` in ``report_dir``."""
        os.makedirs(report_dir, exist_ok=True)
        self.to_json(os.path.join(report_dir, "compile_profile.json"))
        with open(os.path.join(report_dir, "compile_profile.txt"), "w", encoding="utf-8") as f:
            f.write(self.summary() + "\n")


def get_active_profiler() -> CompileProfiler | None:
    return CompileProfiler.current()

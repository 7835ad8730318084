"""The records of an IR trace: the dumped snapshots and the per-pass differences."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Literal, Optional

__all__ = ["IRTraceError", "Snapshot", "DiffRow", "DiffHunk", "DiffSection", "PassTrace",
           "split_source_lines"]


class IRTraceError(ValueError):
    """A dump directory that cannot be traced (missing, empty, unreadable)."""


def split_source_lines(text: str) -> list[str]:
    """The lines of ``text`` without their line ends (a final newline adds no line)."""
    return text.splitlines()


@dataclass(frozen=True)
class Snapshot:
    """One dump file: the program after pass number ``index`` (0: the front end's)."""

    index: int
    pass_name: str
    path: Path
    text: str
    lines: list[str]
    warning_text: Optional[str] = None


RowKind = Literal["equal", "insert", "delete", "replace"]


@dataclass(frozen=True)
class DiffRow:
    """One line pair of a side-by-side diff; a side without a line has number ``None``."""

    kind: RowKind
    before_number: Optional[int]
    before_html: str
    after_number: Optional[int]
    after_html: str


@dataclass(frozen=True)
class DiffHunk:
    """Consecutive rows; ``collapsed``: unchanged lines a viewer folds away."""

    rows: list[DiffRow]
    collapsed: bool


@dataclass(frozen=True)
class DiffSection:
    """The difference within one function (``function_key`` is unique per program)."""

    function_key: str
    function_name: str
    inserted: int
    deleted: int
    hunks: list[DiffHunk]


@dataclass(frozen=True)
class PassTrace:
    """What pass number ``index`` (``name``) changed between two snapshots."""

    index: int
    name: str
    before: Snapshot
    after: Snapshot
    inserted: int
    deleted: int
    sections: list[DiffSection]

    @property
    def changed(self) -> bool:
        return bool(self.inserted or self.deleted)

    @property
    def hunks(self) -> list[DiffHunk]:
        return [hunk for section in self.sections for hunk in section.hunks]

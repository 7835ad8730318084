"""Find the source of a decorated class (01-language.md §15 lookup order: ``inspect``,
then ``linecache`` -- IPython cells --, then ``python -c`` text)."""

from __future__ import annotations

from .source import get_source_info

__all__ = ["get_class_source_lines"]


def get_class_source_lines(cls: type) -> tuple[list[str], int]:
    """``(lines, first line number)`` of the class's definition in its file, like
    ``inspect.getsourcelines``; found also where ``inspect`` cannot (a notebook cell,
    ``python -c``).  A ``ParserSyntaxError`` when there is no source at all."""
    if not isinstance(cls, type):
        raise TypeError(f"get_class_source_lines() expects a class, got {type(cls).__name__}")
    info = get_source_info(cls)
    count = len(info.source.split("\n"))
    lines = info.file_lines[info.line_offset:info.line_offset + count]
    return [line + "\n" for line in lines], info.line_offset + 1

"""Full-line ``#`` comments of DSL source: the parser attaches them to the statement that
follows, and the printer writes them back."""

from __future__ import annotations

__all__ = ["extract_line_comments"]


def extract_line_comments(source: str) -> dict[int, str]:
    """``{line number (1-based): comment text}`` for every line of ``source`` that holds
    only a comment; the text is what follows ``#`` and one optional space."""
    found: dict[int, str] = {}
    if "#" not in source:
        return found
    for number, line in enumerate(source.splitlines(), 1):
        stripped = line.lstrip()
        if stripped.startswith("#"):
            text = stripped[1:]
            found[number] = text[1:] if text.startswith(" ") else text
    return found

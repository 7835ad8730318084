"""Source locations attached to every IR node."""

from __future__ import annotations

from contextvars import ContextVar

__all__ = ["Span", "ambient_span"]


class Span:
    """A 1-based source range ``file:line:col`` (end fields may be -1 = unknown).

    Spans are metadata: they never take part in structural equality or hashing.
    """

    __slots__ = ("filename", "begin_line", "begin_column", "end_line", "end_column")
    filename: str
    begin_line: int
    begin_column: int
    end_line: int
    end_column: int

    def __init__(self, filename: str, begin_line: int, begin_column: int,
                 end_line: int = -1, end_column: int = -1) -> None:
        # The slots' own setters (bound below the class): they bypass the refusing
        # __setattr__ at a third less cost than object.__setattr__ (a span is made for
        # almost every node the parser reads).
        _SET_FILENAME(self, filename)
        _SET_BEGIN_LINE(self, begin_line)
        _SET_BEGIN_COLUMN(self, begin_column)
        _SET_END_LINE(self, end_line)
        _SET_END_COLUMN(self, end_column)

    def __setattr__(self, name: str, value: object) -> None:
        raise AttributeError(f"Span is immutable; cannot set '{name}'")

    __delattr__ = __setattr__  # type: ignore[assignment]

    @staticmethod
    def unknown() -> "Span":
        return _UNKNOWN

    def is_valid(self) -> bool:
        if self.begin_line <= 0:
            return False
        if not (self.begin_column > 0 or self.begin_column == -1):
            return False
        if self.end_line == -1 and self.end_column == -1:
            return True
        if self.end_line != -1:
            if self.end_line <= 0 or self.end_line < self.begin_line:
                return False
        if self.end_column != -1:
            if self.end_column <= 0:
                return False
            if self.end_line in (-1, self.begin_line) and self.begin_column > 0 \
                    and self.end_column < self.begin_column:
                return False
        return True

    def to_string(self) -> str:
        return f"{self.filename}:{self.begin_line}:{self.begin_column}"

    __str__ = to_string
    __repr__ = to_string

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Span):
            return NotImplemented
        return (self.filename, self.begin_line, self.begin_column, self.end_line,
                self.end_column) == (other.filename, other.begin_line, other.begin_column,
                                     other.end_line, other.end_column)

    def __hash__(self) -> int:
        return hash((self.filename, self.begin_line, self.begin_column))

    def __reduce__(self) -> tuple[type[Span], tuple[str, int, int, int, int]]:
        return (Span, (self.filename, self.begin_line, self.begin_column,
                       self.end_line, self.end_column))


_SET_FILENAME = Span.__dict__["filename"].__set__
_SET_BEGIN_LINE = Span.__dict__["begin_line"].__set__
_SET_BEGIN_COLUMN = Span.__dict__["begin_column"].__set__
_SET_END_LINE = Span.__dict__["end_line"].__set__
_SET_END_COLUMN = Span.__dict__["end_column"].__set__
_UNKNOWN = Span("", -1, -1, -1, -1)

# The span ``ir.utils.use_parser_span`` makes the default of the op calls built without
# one.  A ContextVar, so a setting is local to its thread (and asyncio task), never
# process-global.
AMBIENT_SPAN: ContextVar[Span | None] = ContextVar("pypto_ambient_span", default=None)


def ambient_span() -> Span:
    """The span of the innermost active ``use_parser_span`` (unknown outside any)."""
    found = AMBIENT_SPAN.get()
    return _UNKNOWN if found is None else found

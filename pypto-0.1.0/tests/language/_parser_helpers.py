"""Helpers shared by the parser tests: expected error positions from marker comments.

A test marks the line an error must point at with a trailing ``# @<id>`` comment and
asks for the error with :func:`expect_error`; the expected line is looked up in the
test file itself, so editing the file never breaks the coordinates.  The column is
the 1-based position of ``token`` on that line.
"""

from __future__ import annotations

import contextlib
import re
import sys
import textwrap
from functools import lru_cache
from typing import Iterator

import pytest

import pypto.language as pl
from pypto import ir
from pypto.language.parser.diagnostics import ParserError

INDEX, INT64, INT32, FP32, FP16, BOOL = (ir.DataType.INDEX, ir.DataType.INT64, ir.DataType.INT32,
                                         ir.DataType.FP32, ir.DataType.FP16, ir.DataType.BOOL)


@lru_cache(maxsize=None)
def _file_lines(path: str) -> tuple[str, ...]:
    with open(path, encoding="utf-8") as handle:
        return tuple(handle.read().splitlines())


def _marker_pattern(marker: str) -> re.Pattern:
    return re.compile(r"#\s*@" + re.escape(marker) + r"\s*$")


def find_marker(lines: tuple[str, ...] | list[str], marker: str) -> tuple[int, str]:
    """The (1-based) number and text of the single line ending in ``# @marker``."""
    pattern = _marker_pattern(marker)
    found = [(number, line) for number, line in enumerate(lines, 1) if pattern.search(line)]
    assert len(found) == 1, f"marker '@{marker}' found {len(found)} times"
    return found[0]


def position(lines: tuple[str, ...] | list[str], marker: str, token: str | None) -> tuple[int, int]:
    """Line of ``marker`` and the column of ``token`` on it (first non-blank if None)."""
    number, line = find_marker(lines, marker)
    if token is None:
        column = len(line) - len(line.lstrip()) + 1
    else:
        index = line.find(token)
        assert index >= 0, f"token {token!r} not on the line of '@{marker}': {line!r}"
        column = index + 1
    return number, column


@contextlib.contextmanager
def expect_error(cls: type[BaseException], fragment: str, marker: str | None = None,
                 token: str | None = None, *, path: str | None = None) -> Iterator[pytest.ExceptionInfo]:
    """Expect ``cls`` with ``fragment`` in its message, located at ``marker``/``token``
    of the calling test file (or of ``path``)."""
    caller_file = path or sys._getframe(2).f_code.co_filename
    with pytest.raises(cls) as info:
        yield info
    err = info.value
    assert type(err) is cls, f"expected {cls.__name__}, got {type(err).__name__}: {err}"
    assert fragment in str(err), f"{fragment!r} not in {str(err)!r}"
    if marker is not None:
        line, column = position(_file_lines(caller_file), marker, token)
        assert err.span is not None, "the error has no span"
        assert (err.span["line"], err.span["column"]) == (line, column), \
            f"error at {err.span['line']}:{err.span['column']}, expected {line}:{column}: {err}"
        assert err.source_lines, "errors leaving a decorator carry source_lines"


def parse_text(text: str, filename: str = "<string>"):
    """``pl.parse`` of dedented text (prefix the import so every snippet is runnable)."""
    return pl.parse(textwrap.dedent(text), filename=filename)


def expect_text_error(text: str, cls: type[BaseException], fragment: str,
                      marker: str | None = None, token: str | None = None) -> ParserError:
    """``pl.parse`` of ``text`` must fail with ``cls``/``fragment`` at ``marker``/``token``
    (coordinates of the parsed text)."""
    text = textwrap.dedent(text)
    with pytest.raises(cls) as info:
        pl.parse(text)
    err = info.value
    assert type(err) is cls, f"expected {cls.__name__}, got {type(err).__name__}: {err}"
    assert fragment in str(err), f"{fragment!r} not in {str(err)!r}"
    if marker is not None:
        line, column = position(text.splitlines(), marker, token)
        assert err.span is not None
        assert (err.span["line"], err.span["column"]) == (line, column), \
            f"error at {err.span['line']}:{err.span['column']}, expected {line}:{column}: {err}"
    return err


def printed(node) -> str:
    return ir.python_print(node, format=False)


def body_text(func: ir.Function) -> str:
    """The printed body of ``func`` (the lines after the signature), dedented."""
    lines = printed(func).splitlines()
    start = next(i for i, line in enumerate(lines) if line.lstrip().startswith("def "))
    return textwrap.dedent("\n".join(lines[start + 1:]))


def stmts(func: ir.Function) -> list:
    return ir.flatten_to_stmts(func.body)


def assert_roundtrip(node) -> None:
    text = printed(node)
    again = pl.parse(text)
    ir.assert_structural_equal(node, again)
    assert printed(again) == text


def tensor(shape, dtype=FP32) -> ir.TensorType:
    return ir.TensorType(list(shape), dtype)


def scalar(dtype=INDEX) -> ir.ScalarType:
    return ir.ScalarType(dtype)


SPAN = ir.Span.unknown()

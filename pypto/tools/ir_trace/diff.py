"""Per-pass, per-function differences between consecutive IR snapshots."""

from __future__ import annotations

import difflib
import html
import keyword
import re
from typing import Sequence, cast

from .model import (DiffHunk, DiffRow, DiffSection, IRTraceError, PassTrace, Snapshot,
                    split_source_lines)

__all__ = ["build_trace", "highlight_python", "split_source_lines"]

_TOKEN = re.compile(r"(?P<comment>#.*)|(?P<string>'(?:[^'\\]|\\.)*'|\"(?:[^\"\\]|\\.)*\")"
                    r"|(?P<number>\b\d+(?:\.\d*)?(?:e[+-]?\d+)?\b)|(?P<name>[A-Za-z_]\w*)"
                    r"|(?P<decorator>@)")
_FUNCTION_START = re.compile(r"^\s*(?:@pl\.function\b|def\s+(\w+)\s*\()")
_DEF = re.compile(r"^\s*def\s+(\w+)\s*\(")


def highlight_python(text: str) -> str:
    """``text`` as HTML: escaped, with ``<span class="kw|str|num|com|dec">`` around
    keywords, strings, numbers, comments and decorators (line ends kept)."""
    out = []
    position = 0
    for match in _TOKEN.finditer(text):
        out.append(html.escape(text[position:match.start()]))
        token, kind = match.group(0), match.lastgroup  # (each alternative is a named group)
        css = {"comment": "com", "string": "str", "number": "num", "decorator": "dec",
               "name": "kw" if keyword.iskeyword(match.group(0)) else None}[cast(str, kind)]
        escaped = html.escape(token)
        out.append(f'<span class="{css}">{escaped}</span>' if css else escaped)
        position = match.end()
    out.append(html.escape(text[position:]))
    return "".join(out)


def _sections(lines: Sequence[str]) -> list[tuple[str, str, list[tuple[int, str]]]]:
    """``(key, function name, [(line number, line)])``: the program header, then one
    section per function (its decorators included)."""
    sections: list[tuple[str, str, list[tuple[int, str]]]] = [("", "", [])]
    seen: dict[str, int] = {}
    pending_decorator = False
    for number, line in enumerate(lines, 1):
        match = _FUNCTION_START.match(line)
        if match and not pending_decorator:
            sections.append(("", "", []))
        pending_decorator = match is not None and match.group(1) is None  # a decorator line
        definition = _DEF.match(line)
        if definition and not sections[-1][1]:
            name = definition.group(1)
            seen[name] = seen.get(name, 0) + 1
            key = name if seen[name] == 1 else f"{name}#{seen[name]}"
            sections[-1] = (key, name, sections[-1][2])
        sections[-1][2].append((number, line))
    return [s for s in sections if s[2]]


def _rows(before: list[tuple[int, str]], after: list[tuple[int, str]]) -> list[DiffRow]:
    a, b = [line for _, line in before], [line for _, line in after]
    rows = []
    matcher = difflib.SequenceMatcher(None, a, b, autojunk=False)
    for tag, i1, i2, j1, j2 in matcher.get_opcodes():
        for k in range(max(i2 - i1, j2 - j1)):
            left = before[i1 + k] if i1 + k < i2 else None
            right = after[j1 + k] if j1 + k < j2 else None
            kind = tag if tag != "replace" else ("replace" if left and right else
                                                 "delete" if left else "insert")
            rows.append(DiffRow(kind, left[0] if left else None,
                                highlight_python(left[1]) if left else "",
                                right[0] if right else None,
                                highlight_python(right[1]) if right else ""))
    return rows


def _hunks(rows: list[DiffRow], context: int) -> list[DiffHunk]:
    """Changed rows with ``context`` unchanged rows around them; longer unchanged runs
    are their own collapsed hunks."""
    changed = [i for i, row in enumerate(rows) if row.kind != "equal"]
    shown: set[int] = set()
    for i in changed:
        shown.update(range(max(0, i - context), min(len(rows), i + context + 1)))
    hunks: list[DiffHunk] = []
    current: list[DiffRow] = []
    current_collapsed = None
    for i, row in enumerate(rows):
        collapsed = i not in shown
        if current and collapsed != current_collapsed:
            hunks.append(DiffHunk(current, bool(current_collapsed)))
            current = []
        current.append(row)
        current_collapsed = collapsed
    if current:
        hunks.append(DiffHunk(current, bool(current_collapsed)))
    return hunks


def _count(rows: list[DiffRow]) -> tuple[int, int]:
    inserted = sum(1 for r in rows if r.kind in ("insert", "replace") and r.after_number)
    deleted = sum(1 for r in rows if r.kind in ("delete", "replace") and r.before_number)
    return inserted, deleted


def build_trace(snapshots: Sequence[Snapshot], context: int) -> list[PassTrace]:
    """One ``PassTrace`` per snapshot after the first: what its pass changed, function by
    function, with ``context`` unchanged lines around each change."""
    if not isinstance(context, int) or isinstance(context, bool) or context < 0:
        raise IRTraceError(f"context must be a non-negative number of lines, got {context!r}")
    ordered = sorted(snapshots, key=lambda s: s.index)
    if not ordered:
        raise IRTraceError("no snapshots to trace")
    traces = []
    for before, after in zip(ordered, ordered[1:]):
        old = {key: (name, lines) for key, name, lines in _sections(before.lines)}
        new = {key: (name, lines) for key, name, lines in _sections(after.lines)}
        keys = list(new) + [key for key in old if key not in new]
        sections = []
        for key in keys:
            name = (new.get(key) or old[key])[0]
            rows = _rows(old.get(key, ("", []))[1], new.get(key, ("", []))[1])
            inserted, deleted = _count(rows)
            sections.append(DiffSection(key, name, inserted, deleted, _hunks(rows, context)))
        traces.append(PassTrace(after.index, after.pass_name, before, after,
                                sum(s.inserted for s in sections),
                                sum(s.deleted for s in sections), sections))
    return traces

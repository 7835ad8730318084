"""One self-contained HTML page of an IR trace (no scripts, no external files)."""

from __future__ import annotations

import html as _html
from pathlib import Path
from typing import Sequence

from .model import DiffHunk, PassTrace

__all__ = ["render_html"]

_STYLE = """
body { font-family: sans-serif; margin: 1.5em; }
details { margin: 0.4em 0; } summary { cursor: pointer; }
table { border-collapse: collapse; width: 100%; font-family: monospace; font-size: 12px; }
td { padding: 0 0.4em; white-space: pre; vertical-align: top; }
td.n { color: #888; text-align: right; width: 3em; }
tr.insert td.a, tr.replace td.a { background: #e6ffec; }
tr.delete td.b, tr.replace td.b { background: #ffebe9; }
tr.fold td { color: #888; font-style: italic; }
.kw { color: #cf222e; } .str { color: #0a3069; } .num { color: #0550ae; }
.com { color: #6e7781; } .dec { color: #8250df; }
.stat { color: #555; font-size: 90%; } .warn { color: #9a6700; white-space: pre; }
"""


def _hunk_rows(hunk: DiffHunk) -> str:
    if hunk.collapsed:
        return f'<tr class="fold"><td colspan="4">... {len(hunk.rows)} unchanged lines</td></tr>'
    cells = []
    for row in hunk.rows:
        before = "" if row.before_number is None else row.before_number
        after = "" if row.after_number is None else row.after_number
        cells.append(f'<tr class="{row.kind}"><td class="n">{before}</td>'
                     f'<td class="b">{row.before_html}</td><td class="n">{after}</td>'
                     f'<td class="a">{row.after_html}</td></tr>')
    return "".join(cells)


def _pass_html(trace: PassTrace) -> str:
    stat = f"+{trace.inserted} -{trace.deleted}" if trace.changed else "no change"
    parts = [f'<details{" open" if trace.changed else ""}><summary><b>{trace.index:02d} '
             f'{_html.escape(trace.name)}</b> <span class="stat">{stat}</span></summary>']
    if trace.after.warning_text:
        parts.append(f'<div class="warn">{_html.escape(trace.after.warning_text)}</div>')
    for section in trace.sections:
        if not (section.inserted or section.deleted):
            continue
        title = _html.escape(section.function_name or "(program header)")
        parts.append(f'<h4>{title} <span class="stat">+{section.inserted} '
                     f'-{section.deleted}</span></h4><table>')
        parts.extend(_hunk_rows(hunk) for hunk in section.hunks)
        parts.append("</table>")
    parts.append("</details>")
    return "".join(parts)


def render_html(traces: Sequence[PassTrace], source_name: "str | Path") -> str:
    """The page: one collapsible entry per pass (changed passes open)."""
    title = _html.escape(f"IR trace of {source_name}")
    body = "".join(_pass_html(trace) for trace in traces)
    changed = sum(1 for trace in traces if trace.changed)
    return (f'<!DOCTYPE html>\n<html><head><meta charset="utf-8"><title>{title}</title>'
            f"<style>{_STYLE}</style></head><body><h2>{title}</h2>"
            f'<p class="stat">{len(traces)} passes, {changed} changed the program</p>'
            f"{body}</body></html>\n")

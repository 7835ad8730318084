"""``python -m pypto.tools.ir_trace DUMP_DIR [-o trace.html] [--context N]``."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Optional, Sequence

from .diff import build_trace
from .discovery import discover_snapshots
from .html import render_html
from .model import IRTraceError

__all__ = ["main", "build_trace", "discover_snapshots", "render_html", "IRTraceError"]


def main(argv: Optional[Sequence[str]] = None) -> int:
    """Write the HTML trace of a dump directory; 0 on success, 2 for an unusable one."""
    parser = argparse.ArgumentParser(
        prog="python -m pypto.tools.ir_trace",
        description="An HTML page of what each pass changed, from the per-pass IR dumps "
                    "(PassManager.run_passes(..., dump_ir=True), RunConfig(dump_passes=True)).")
    parser.add_argument("directory", help="the dump directory (00_frontend.py, 01_after_*.py)")
    parser.add_argument("-o", "--output", help="the page to write (default: DIR/ir_trace.html)")
    parser.add_argument("--context", type=int, default=3,
                        help="unchanged lines shown around each change (default 3)")
    args = parser.parse_args(argv)
    try:
        traces = build_trace(discover_snapshots(args.directory), args.context)
    except IRTraceError as exc:
        print(f"ir_trace: {exc}", file=sys.stderr)
        return 2
    output = Path(args.output) if args.output else Path(args.directory) / "ir_trace.html"
    output.write_text(render_html(traces, args.directory), encoding="utf-8")
    print(f"ir_trace: wrote {output} ({len(traces)} passes)")
    return 0

"""An HTML view of how the pass pipeline changed a program, from the per-pass IR dumps
(``PassManager.run_passes(..., dump_ir=True, output_dir=...)`` or
``RunConfig(dump_passes=True, save_kernels_dir=...)``): ``discover_snapshots`` reads the
dumps, ``build_trace`` diffs consecutive ones function by function, ``render_html``
draws the page; ``python -m pypto.tools.ir_trace DIR`` does all three."""

from __future__ import annotations

from . import cli, diff, discovery, html, model
from .model import IRTraceError

__all__ = ["IRTraceError"]

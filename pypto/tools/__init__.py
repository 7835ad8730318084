"""Tools over pypto's outputs (PyPTO's ``pypto.tools``): ``ir_trace``, an HTML view of
how the pass pipeline changed a program, from the per-pass IR dumps."""

from __future__ import annotations

from . import ir_trace

__all__ = ["ir_trace"]

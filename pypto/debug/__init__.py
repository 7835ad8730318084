"""PyPTO's ``pypto.debug``: checking what each pass did, on the CPU.

``validate_pass_ir_codegen_results`` runs the program as it stood after every pass (the
per-pass dumps of ``ir.compile(..., dump_passes=True)``) on pypto's CPU executor and
compares the outputs with the expected ones, so the first pass that changed the
program's meaning is named.  PyPTO's ``torch_codegen`` (IR -> PyTorch source) is code
generation and is not provided; the executor runs the IR itself (see
docs/guide/differences.md).
"""

from __future__ import annotations

from .pass_validation import validate_pass_ir_codegen_results

__all__ = ["validate_pass_ir_codegen_results"]

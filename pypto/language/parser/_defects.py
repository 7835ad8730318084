"""Telling pypto's own defects from the user's mistakes in the parser's catch-alls.

The parser turns an error raised while it builds a statement (an op builder's
``TypeError``, a helper function's ``ValueError``) into a diagnostic at the user's
line.  An error that shows a defect in pypto (``pypto.errors.is_pypto_defect``: a
failed lookup in pypto's own code) must not read as the user's mistake: it becomes a
``pypto.InternalError`` naming the line being parsed, the original as its cause.
"""

from __future__ import annotations

from ...errors import InternalError, is_pypto_defect
from ...ir.span import Span


def raise_if_pypto_defect(exc: BaseException, span: Span, parsing: str) -> None:
    """Raise ``exc`` as an ``InternalError`` when it is a defect of pypto, else return."""
    if not is_pypto_defect(exc):
        return
    where = f"{span.filename or '<unknown>'}:{span.begin_line}" if span.begin_line > 0 \
        else "an unknown line"
    raise InternalError(f"pypto failed while parsing {parsing} at {where}: "
                        f"{type(exc).__name__}: {exc} (a bug in pypto, not in the program: "
                        "please report it)") from exc

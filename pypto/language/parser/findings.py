"""Every pypto diagnostic as one record, whatever raised it, and its stable code.

A ``Finding`` is what a front end shows: severity, stable code, message, span (the
plain-dict form of ``span_to_dict``), hint and note, and where it came from (a pass,
a verifier rule, the parser).  ``findings_of(exc)`` turns any user-facing pypto error
-- a ``ParserError`` (with the independent errors found next to it), a
``passes.PassError``, a ``passes.VerificationError`` -- into findings;
``render_findings`` draws them as snippets (``ErrorRenderer``), which is what the
command line's ``full`` format, a notebook cell and a script's excepthook show.

The codes are stable and documented (docs/guide/diagnostics.md): ``E0xx``-``E3xx``
parser errors (PyPTO's ``ErrorCode`` values), ``E4xx`` problems of the Python file
itself, ``Pxxx`` pass refusals (``passes.PassErrorCode``), ``Vnnn`` verifier findings
(``nnn`` is the ``IRProperty`` value of the verified property).
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Iterable, Mapping, Optional

from ...errors import SourceDiagnostic
from ...passes.diagnostic import (Diagnostic, DiagnosticSeverity, PassError,
                                  VerificationError)
from .diagnostics import ParserError, ParserSyntaxError, span_to_dict
from .diagnostics.error_codes import coded_classes, get_error_code
from .diagnostics.renderer import ErrorRenderer

__all__ = ["Finding", "findings_of", "finding_of_diagnostic", "render_findings",
           "parser_error_code", "verifier_code", "PARSER_CODES", "PYTHON_SYNTAX_ERROR",
           "PYTHON_EXCEPTION", "JIT_NEEDS_ARGUMENTS", "JIT_ARGUMENT_MISMATCH",
           "JIT_BAD_OPTION", "EXECUTION_FAILED", "sort_findings", "all_codes", "describe_code"]

# Parser error class -> (code, PyPTO ErrorCode name), read off diagnostics.error_codes.
PARSER_CODES: dict[type, tuple[str, str]] = {
    cls: (code.value, code.name) for cls in coded_classes()
    if (code := get_error_code(cls)) is not None}
# Problems of the Python file itself, before any DSL is parsed.
PYTHON_SYNTAX_ERROR = "E400"  # the file is not valid Python
PYTHON_EXCEPTION = "E401"     # the file's own module code raised
JIT_NEEDS_ARGUMENTS = "E402"  # a jit entry's bare pl.Tensor parameter has no type yet
JIT_ARGUMENT_MISMATCH = "E403"  # a jit call's argument does not meet its parameter
JIT_BAD_OPTION = "E404"  # a @pl.jit decorator option its form does not take
EXECUTION_FAILED = "R000"  # the program failed on the reference executor (pypto.run)
_PYTHON_CODES = {PYTHON_SYNTAX_ERROR: "the file (or DSL text) is not valid Python",
                 PYTHON_EXCEPTION: "the file's own module code raised an exception",
                 JIT_NEEDS_ARGUMENTS: "a @pl.jit entry cannot be specialised without call "
                                      "arguments (a bare pl.Tensor parameter)",
                 JIT_ARGUMENT_MISMATCH: "a @pl.jit call's argument does not meet its "
                                        "parameter (dtype, rank, shape, layout, scalar kind)",
                 JIT_BAD_OPTION: "a @pl.jit decorator keyword its form does not take, of the "
                                 "wrong type, or asking for what pypto lacks (external "
                                 "kernels)",
                 EXECUTION_FAILED: "the program failed on the reference executor "
                                   "(pypto.run, a @pl.jit call): an ExecutionError"}


def all_codes() -> list[tuple[str, str]]:
    """Every stable code with what it means, in code order (the documented table)."""
    from ...passes.diagnostic import PassErrorCode
    from ...passes.properties import IRProperty
    from ...passes.verifier_registry import PropertyVerifierRegistry
    from ...passes.verifiers.trivial import AlwaysPassingVerifier
    rows = [(code, f"{cls.__name__} ({name})") for cls, (code, name) in PARSER_CODES.items()]
    rows += list(_PYTHON_CODES.items())
    rows += [(member.code, member.summary) for member in PassErrorCode]
    for prop in IRProperty:  # out-of-scope properties have a verifier that always passes
        verifier = PropertyVerifierRegistry.get_verifier(prop)
        if verifier is not None and not isinstance(verifier, AlwaysPassingVerifier):
            rows.append((f"V{prop.value:03d}", f"{prop.name} ({verifier.get_name()})"))
    rows.append(("V999", "a verifier registered under a rule name of its own"))
    return sorted(rows)


def describe_code(code: str) -> str:
    for known, meaning in all_codes():
        if known == code:
            return meaning
    return "pypto diagnostic"


@dataclass(frozen=True)
class Finding:
    """One diagnostic, in the shape ``ErrorRenderer`` reads (duck-typed)."""

    severity: str  # "error" or "warning"
    code: str
    message: str
    span: Optional[dict] = None
    hint: Optional[str] = None
    note: Optional[str] = None
    origin: Optional[str] = None  # the pass or verifier rule, when one reported it
    source_lines: Optional[list[str]] = None
    previous_span: Optional[dict] = None

    @property
    def is_error(self) -> bool:
        return self.severity == "error"

    @property
    def summary(self) -> str:
        """The message's first line (verifier messages append the printed function)."""
        return self.message.split("\n", 1)[0]


def parser_error_code(err: ParserError) -> str:
    code = get_error_code(type(err)) or get_error_code(ParserSyntaxError)
    assert code is not None, "ParserSyntaxError has a code"
    return code.value


def verifier_code(rule_name: str) -> str:
    """``V`` + the three-digit value of the property whose verifier uses ``rule_name``."""
    from ...passes.properties import IRProperty
    from ...passes.verifier_registry import PropertyVerifierRegistry
    for prop in IRProperty:
        verifier = PropertyVerifierRegistry.get_verifier(prop)
        if verifier is not None and verifier.get_name() == rule_name:
            return f"V{prop.value:03d}"
    return "V999"  # a verifier registered by a plug-in under a rule name of its own


def finding_of_diagnostic(diag: Diagnostic) -> Finding:
    """A verifier finding.  A message that appends ``In function 'f':`` and the printed
    function keeps only ``... in function 'f'`` when the span shows the user's line
    (the printed IR is then noise); without a span the printed function is the note."""
    severity = "error" if diag.severity is DiagnosticSeverity.Error else "warning"
    span = span_to_dict(diag.span) if diag.span.is_valid() else None
    message, note = diag.message, None
    head, marker, rest = message.partition("\nIn function '")
    if marker:
        function, _, printed = rest.partition("':")
        message = f"{head} (in function '{function}')"
        note = None if span is not None else printed.strip("\n") or None
    return Finding(severity, verifier_code(diag.rule_name), f"[{diag.rule_name}] {message}",
                   span, note=note, origin=diag.rule_name)


def _finding_of_parser_error(err: ParserError) -> Finding:
    # DSL text that is not Python (pl.parse's DSLSyntaxError) is a Python syntax error.
    code = PYTHON_SYNTAX_ERROR if isinstance(err, SyntaxError) else parser_error_code(err)
    return Finding("error", code, err.message, err.span, err.hint, err.note,
                   origin="parser", source_lines=err.source_lines,
                   previous_span=getattr(err, "previous_span", None))


def _finding_of_pass_error(err: PassError) -> Finding:
    span = span_to_dict(err.span) if err.span is not None else None
    return Finding("error", err.code.code, err.headline(), span, err.hint, err.note,
                   origin=err.pass_name)


def _finding_of_source_diagnostic(err: SourceDiagnostic) -> Finding:
    span = err.span
    shown = span_to_dict(span) if isinstance(span, Mapping) or _is_valid_span(span) else None
    return Finding("error", err.code or PYTHON_EXCEPTION, err.headline(), shown, err.hint,
                   err.note, origin=type(err).__name__, source_lines=err.source_lines)


def _is_valid_span(span: object) -> bool:
    is_valid = getattr(span, "is_valid", None)
    return callable(is_valid) and bool(is_valid())


def findings_of(exc: BaseException) -> list[Finding]:
    """The findings an error stands for (empty when it is not a pypto diagnostic)."""
    if isinstance(exc, ParserError):
        errors = [exc, *getattr(exc, "also", ())]
        return sort_findings(_finding_of_parser_error(e) for e in errors)
    if isinstance(exc, PassError):
        return [_finding_of_pass_error(exc)]
    if isinstance(exc, VerificationError):
        stage = f" ({exc.stage})" if exc.stage else ""
        return [_with_stage(finding_of_diagnostic(d), stage) for d in exc.diagnostics]
    if isinstance(exc, SourceDiagnostic):  # the executor's, the jit's argument errors
        return [_finding_of_source_diagnostic(exc)]
    return []


def _with_stage(finding: Finding, stage: str) -> Finding:
    if not stage:
        return finding
    return replace(finding, note=f"found by verification{stage}")


def sort_findings(findings: Iterable[Finding]) -> list[Finding]:
    """By file and position; findings without a span keep their order, last."""
    def key(item: tuple[int, Finding]) -> tuple:
        index, finding = item
        span = finding.span
        if span is None:
            return (1, "", 0, 0, index)
        return (0, span.get("filename") or "", span.get("line", 0), span.get("column", 0),
                index)
    return [f for _, f in sorted(enumerate(findings), key=key)]


def render_findings(findings: list[Finding], use_color: Optional[bool] = None,
                    summary: bool = True) -> str:
    """Snippets separated by blank lines, then ``found N errors`` when there are several."""
    renderer = ErrorRenderer(use_color)
    parts = [renderer.render(f) for f in findings]  # type: ignore[arg-type]  # duck-typed
    errors = sum(f.is_error for f in findings)
    if summary and errors > 1:
        parts.append(f"found {errors} errors")
    return "\n\n".join(parts)

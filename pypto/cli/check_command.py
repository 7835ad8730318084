"""``pypto check``: parse and verify files, reporting every independent error."""

from __future__ import annotations

import argparse
import os
from typing import Iterator, TextIO

from ..language.parser.findings import Finding, sort_findings
from ..passes import IRPropertySet, PropertyVerifierRegistry
from .collector import collector_paused
from .commands import report_internal_error
from .errors import EXIT_DIAGNOSTICS, EXIT_INTERNAL, EXIT_OK, EXIT_USAGE, ProgramError, UsageError
from .formats import FileReport, make_emitter
from .load import STDIN, Source, entry_program, load, open_source
from .pipeline import frontend_check_properties, parse_props
from .report import backtrace_text, diagnostic_finding

__all__ = ["run", "python_files_under"]

# Directories a walk never enters (tools' and environments' own files).
_SKIPPED_DIRS = {"__pycache__", "node_modules", "site-packages", "build", "dist", "venv"}


def run(args: argparse.Namespace, stdout: TextIO, stderr: TextIO) -> int:
    props = parse_props(args.props) if args.props is not None else frontend_check_properties()
    if args.files.count(STDIN) > 1:
        raise UsageError("'-' (standard input) can be checked only once")
    emitter = make_emitter(args.format, stdout, stderr, summary=True, quiet=args.quiet)
    status = EXIT_OK
    for path, walked in _targets(args.files):
        report, file_status = _check_path(path, walked, props, stderr)
        emitter.file(report)
        status = max(status, file_status)
    emitter.finish()
    return status


def _targets(paths: list[str]) -> Iterator[tuple[str, bool]]:
    """``(path, found by walking a directory)`` for every file to check."""
    for path in paths:
        if path != STDIN and os.path.isdir(path):
            yield from ((found, True) for found in python_files_under(path))
        else:
            yield path, False


def python_files_under(directory: str) -> list[str]:
    """Every ``*.py`` below ``directory``, sorted; hidden directories and tool
    directories (``__pycache__``, ``venv``, ``build``, ...) are skipped."""
    found = []
    for root, dirs, files in os.walk(directory):
        dirs[:] = sorted(d for d in dirs if not d.startswith(".") and d not in _SKIPPED_DIRS)
        found += [os.path.join(root, name) for name in sorted(files) if name.endswith(".py")]
    return found


def _check_path(path: str, walked: bool, props: IRPropertySet,
                stderr: TextIO) -> tuple[FileReport, int]:
    try:
        source = open_source(path)
    except UsageError as exc:
        return FileReport(path, reason=str(exc)), EXIT_USAGE
    if walked and not _mentions_pypto(path):
        # Found by a walk and never names pypto: nothing to check, and not executed.
        return FileReport(path, nothing_to_check=True), EXIT_OK
    try:
        with collector_paused():
            report = check_source(source, props, stderr)
    except UsageError as exc:
        return FileReport(source.name, reason=str(exc)), EXIT_USAGE
    except Exception as exc:  # noqa: BLE001 - a bug in pypto (InternalError, ...)
        report_internal_error(exc, stderr)
        return FileReport(source.name, reason=f"internal error in pypto: {exc}"), EXIT_INTERNAL
    return report, EXIT_DIAGNOSTICS if report.errors else EXIT_OK


def _mentions_pypto(path: str) -> bool:
    try:
        with open(path, encoding="utf-8", errors="replace") as handle:
            return "pypto" in handle.read()
    except OSError:
        return True  # let the loader report it


def check_source(source: Source, props: IRPropertySet, stderr: TextIO) -> FileReport:
    """Load ``source``, verify every program in it; every finding, sorted."""
    loaded = load(source)
    findings: list[Finding] = list(loaded.findings)
    programs = []
    for entry in loaded.entries:
        try:
            programs.append(entry_program(entry, missing_arguments="warning"))
        except ProgramError as exc:
            findings += exc.findings
            trace = backtrace_text(exc.cause) if exc.cause is not None else None
            if trace is not None:
                print(trace, file=stderr)
    for program in programs:
        findings += [diagnostic_finding(d)
                     for d in PropertyVerifierRegistry.verify(props, program)]
    nothing = not loaded.entries and not findings
    return FileReport(source.name, sort_findings(findings), nothing_to_check=nothing)

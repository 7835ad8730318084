"""The five ways the command line reports findings (``--format``).

* ``full`` -- snippets with carets (the default; what a person reads);
* ``short`` -- one ``file:line:col: error[CODE]: message`` line per finding;
* ``json`` -- one document (``JSON_SCHEMA`` describes it);
* ``github`` -- GitHub Actions workflow commands (``::error file=...::message``);
* ``sarif`` -- one SARIF 2.1.0 log (code scanning, editors).

An emitter receives one ``FileReport`` per file as it is done and a final call to
``finish``; ``full``, ``short`` and ``github`` write as they go, ``json`` and ``sarif``
write their document at the end.
"""

from __future__ import annotations

import abc
import json
import os
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Optional, TextIO
from urllib.parse import quote

from .. import __version__
from ..language.parser.findings import Finding, describe_code, render_findings
from ..language.parser.diagnostics.renderer import format_location
from .commands import FORMATS

__all__ = ["FORMATS", "FileReport", "Emitter", "make_emitter", "JSON_SCHEMA", "SARIF_VERSION",
           "short_line", "github_command"]

SARIF_VERSION = "2.1.0"
SARIF_SCHEMA_URI = "https://json.schemastore.org/sarif-2.1.0.json"

# File statuses, in the order of the summary line.
OK, FAILED, NOTHING, NOT_CHECKED = "ok", "failed", "nothing to check", "not checked"


@dataclass
class FileReport:
    """What checking (or compiling) one file found."""

    path: str
    findings: list[Finding] = field(default_factory=list)
    nothing_to_check: bool = False
    reason: Optional[str] = None  # why it could not be checked (a usage error)

    @property
    def errors(self) -> int:
        return sum(f.is_error for f in self.findings)

    @property
    def warnings(self) -> int:
        return len(self.findings) - self.errors

    @property
    def status(self) -> str:
        if self.reason is not None:
            return NOT_CHECKED
        if self.errors:
            return FAILED
        return NOTHING if self.nothing_to_check else OK


def _counts(reports: list[FileReport]) -> dict[str, int]:
    statuses = [r.status for r in reports]
    return {"files": len(reports), "ok": statuses.count(OK), "failed": statuses.count(FAILED),
            "nothing_to_check": statuses.count(NOTHING),
            "not_checked": statuses.count(NOT_CHECKED),
            "errors": sum(r.errors for r in reports),
            "warnings": sum(r.warnings for r in reports)}


def _plural(count: int, word: str) -> str:
    return f"{count} {word}{'' if count == 1 else 's'}"


class Emitter(abc.ABC):
    """Base: remembers the reports; subclasses write."""

    def __init__(self, out: TextIO, err: TextIO, summary: bool, quiet: bool = False) -> None:
        self.out, self.err = out, err
        self.summary, self.quiet = summary, quiet
        self.reports: list[FileReport] = []

    def file(self, report: FileReport) -> None:
        self.reports.append(report)
        self.write_file(report)

    @abc.abstractmethod
    def write_file(self, report: FileReport) -> None:
        """One file is done (a streaming format writes it now)."""

    def finish(self) -> None:
        """After the last file."""


class FullEmitter(Emitter):
    """Snippets on stderr; ``FILE: status`` lines and the summary on stdout."""

    def write_file(self, report: FileReport) -> None:
        if report.reason is not None:
            print(f"pypto: error: {report.reason}", file=self.err)
        if report.findings:  # pypto compile ends with "found N errors"; check has a status line
            print(render_findings(report.findings, summary=not self.summary), file=self.err)
        if not self.summary:
            return  # pypto compile: the findings are all there is to say
        status = report.status
        if status == FAILED:
            line = f"{report.path}: failed ({_plural(report.errors, 'error')})"
        else:
            line = f"{report.path}: {status}"
            if self.quiet and status in (OK, NOTHING):
                return
        print(line, file=self.out)

    def finish(self) -> None:
        if self.summary and len(self.reports) > 1:
            counts = _counts(self.reports)
            parts = [f"{counts['ok']} ok", f"{counts['failed']} failed"]
            if counts["nothing_to_check"]:
                parts.append(f"{counts['nothing_to_check']} nothing to check")
            if counts["not_checked"]:
                parts.append(f"{counts['not_checked']} not checked")
            print(f"checked {_plural(len(self.reports), 'file')}: {', '.join(parts)}",
                  file=self.out)


def short_line(finding: Finding, path: str) -> str:
    """``file:line:col: error[CODE]: message`` (``file: ...`` without a position)."""
    where = format_location(finding.span) if finding.span else path
    return f"{where}: {finding.severity}[{finding.code}]: {finding.summary}"


class ShortEmitter(Emitter):
    """One line per finding, then ``found N errors in M files (checked K files)``."""

    def __init__(self, out: TextIO, err: TextIO, summary: bool, quiet: bool = False) -> None:
        super().__init__(out if summary else err, err, summary, quiet)

    def write_file(self, report: FileReport) -> None:
        if report.reason is not None:
            print(f"{report.path}: error[usage]: {report.reason}", file=self.out)
        for finding in report.findings:
            print(short_line(finding, report.path), file=self.out)

    def finish(self) -> None:
        if not self.summary:
            return
        counts = _counts(self.reports)
        checked = f"checked {_plural(len(self.reports), 'file')}"
        if counts["errors"] or counts["warnings"]:
            found = _plural(counts["errors"], "error")
            if counts["warnings"]:
                found += f" and {_plural(counts['warnings'], 'warning')}"
            failing = sum(1 for r in self.reports if r.findings)
            print(f"found {found} in {_plural(failing, 'file')} ({checked})", file=self.out)
        elif not self.quiet:
            print(f"no errors ({checked})", file=self.out)


def _escape_data(text: str) -> str:
    return text.replace("%", "%25").replace("\r", "%0D").replace("\n", "%0A")


def _escape_property(text: str) -> str:
    return _escape_data(text).replace(":", "%3A").replace(",", "%2C")


def github_command(finding: Finding, path: str) -> str:
    """A workflow command: ``::error file=F,line=L,col=C,title=T::message``."""
    span = finding.span or {}
    props = [("file", span.get("filename") or path)]
    if span.get("line"):
        props.append(("line", str(span["line"])))
        if span.get("column"):
            props.append(("col", str(span["column"])))
        if span.get("end_line"):
            props.append(("endLine", str(span["end_line"])))
            if span.get("end_column"):
                props.append(("endColumn", str(span["end_column"])))
    props.append(("title", f"pypto {finding.code}"))
    message = finding.summary + (f" (help: {finding.hint})" if finding.hint else "")
    fields = ",".join(f"{key}={_escape_property(value)}" for key, value in props)
    return f"::{finding.severity} {fields}::{_escape_data(message)}"


class GithubEmitter(ShortEmitter):
    """Workflow annotations (GitHub shows them on the lines of the pull request)."""

    def write_file(self, report: FileReport) -> None:
        if report.reason is not None:
            print(f"::error file={_escape_property(report.path)},title=pypto::"
                  f"{_escape_data(report.reason)}", file=self.out)
        for finding in report.findings:
            print(github_command(finding, report.path), file=self.out)


def _json_finding(finding: Finding, path: str) -> dict[str, Any]:
    span = finding.span or {}
    return {"file": span.get("filename") or path, "line": span.get("line"),
            "column": span.get("column") or None, "end_line": span.get("end_line"),
            "end_column": span.get("end_column"), "severity": finding.severity,
            "code": finding.code, "message": finding.message, "hint": finding.hint,
            "note": finding.note, "origin": finding.origin}


class JsonEmitter(Emitter):
    def write_file(self, report: FileReport) -> None:
        pass  # one document, written by finish()

    def document(self) -> dict[str, Any]:
        return {
            "tool": {"name": "pypto", "version": __version__},
            "files": [{"path": r.path, "status": r.status, "errors": r.errors,
                       "warnings": r.warnings, "reason": r.reason} for r in self.reports],
            "diagnostics": [_json_finding(f, r.path) for r in self.reports for f in r.findings],
            "summary": _counts(self.reports),
        }

    def finish(self) -> None:
        stream = self.out if self.summary else self.err
        json.dump(self.document(), stream, indent=2)
        stream.write("\n")


def _uri(path: str) -> str:
    if os.path.isabs(path):
        return Path(path).as_uri()
    return quote(path.replace(os.sep, "/"))


def _sarif_result(finding: Finding, path: str, rule_index: dict[str, int]) -> dict[str, Any]:
    span = finding.span or {}
    location: dict[str, Any] = {"artifactLocation": {"uri": _uri(span.get("filename") or path)}}
    if span.get("line"):
        region: dict[str, Any] = {"startLine": span["line"]}
        if span.get("column"):
            region["startColumn"] = span["column"]
        if span.get("end_line"):
            region["endLine"] = span["end_line"]
            if span.get("end_column"):
                region["endColumn"] = span["end_column"]
        location["region"] = region
    text = finding.message + (f"\nhelp: {finding.hint}" if finding.hint else "")
    return {"ruleId": finding.code, "ruleIndex": rule_index[finding.code],
            "level": "error" if finding.is_error else "warning",
            "message": {"text": text}, "locations": [{"physicalLocation": location}]}


class SarifEmitter(JsonEmitter):
    def document(self) -> dict[str, Any]:
        findings = [(f, r.path) for r in self.reports for f in r.findings]
        codes = sorted({f.code for f, _ in findings})
        rule_index = {code: i for i, code in enumerate(codes)}
        notifications = [{"level": "error", "message": {"text": f"{r.path}: {r.reason}"}}
                         for r in self.reports if r.reason is not None]
        return {
            "$schema": SARIF_SCHEMA_URI,
            "version": SARIF_VERSION,
            "runs": [{
                "tool": {"driver": {
                    "name": "pypto", "version": __version__,
                    "rules": [{"id": code, "shortDescription": {"text": describe_code(code)}}
                              for code in codes]}},
                "invocations": [{"executionSuccessful": not notifications,
                                 "toolExecutionNotifications": notifications}],
                "columnKind": "unicodeCodePoints",
                "results": [_sarif_result(f, path, rule_index) for f, path in findings],
            }],
        }


_EMITTERS: dict[str, type[Emitter]] = {
    "full": FullEmitter, "short": ShortEmitter, "json": JsonEmitter, "github": GithubEmitter,
    "sarif": SarifEmitter}


def make_emitter(fmt: str, out: TextIO, err: TextIO, *, summary: bool,
                 quiet: bool = False) -> Emitter:
    """``summary``: ``pypto check`` (reports and summary on stdout); without it
    (``pypto compile``, whose stdout is the program) everything goes to stderr."""
    return _EMITTERS[fmt](out, err, summary, quiet)


# The shape of ``--format=json`` (JSON Schema, draft 2020-12).
_NULLABLE_INT = {"type": ["integer", "null"], "minimum": 1}
_NULLABLE_STR = {"type": ["string", "null"]}
_STATUS = {"enum": [OK, FAILED, NOTHING, NOT_CHECKED]}
JSON_SCHEMA: dict[str, Any] = {
    "$schema": "https://json-schema.org/draft/2020-12/schema",
    "title": "pypto diagnostics",
    "type": "object",
    "required": ["tool", "files", "diagnostics", "summary"],
    "additionalProperties": False,
    "properties": {
        "tool": {"type": "object", "required": ["name", "version"],
                 "properties": {"name": {"const": "pypto"}, "version": {"type": "string"}}},
        "files": {"type": "array", "items": {
            "type": "object", "additionalProperties": False,
            "required": ["path", "status", "errors", "warnings", "reason"],
            "properties": {"path": {"type": "string"}, "status": _STATUS,
                           "errors": {"type": "integer", "minimum": 0},
                           "warnings": {"type": "integer", "minimum": 0},
                           "reason": _NULLABLE_STR}}},
        "diagnostics": {"type": "array", "items": {
            "type": "object", "additionalProperties": False,
            "required": ["file", "line", "column", "end_line", "end_column", "severity", "code",
                         "message", "hint", "note", "origin"],
            "properties": {
                "file": {"type": "string"}, "line": _NULLABLE_INT, "column": _NULLABLE_INT,
                "end_line": _NULLABLE_INT, "end_column": _NULLABLE_INT,
                "severity": {"enum": ["error", "warning"]},
                "code": {"type": "string", "pattern": "^[EPV][0-9]{3}$"},
                "message": {"type": "string", "minLength": 1},
                "hint": _NULLABLE_STR, "note": _NULLABLE_STR, "origin": _NULLABLE_STR}}},
        "summary": {"type": "object", "additionalProperties": False,
                    "required": ["files", "ok", "failed", "nothing_to_check", "not_checked",
                                 "errors", "warnings"],
                    "properties": {key: {"type": "integer", "minimum": 0} for key in (
                        "files", "ok", "failed", "nothing_to_check", "not_checked", "errors",
                        "warnings")}},
    },
}

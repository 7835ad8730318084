"""``--format=full|short|json|github|sarif`` and the exit statuses of check and compile."""

from __future__ import annotations

import json

import jsonschema
import pytest

from pypto.cli.formats import JSON_SCHEMA
from pypto.language.parser.findings import all_codes

from _cli_helpers import run_cli, write

# Three independent errors (a method, a for loop, a return) and one that depends on
# the first (the call of the failed method): three are reported, with their codes.
MULTI = """
    import pypto.language as pl

    T = pl.Tensor[[64], pl.FP32]


    @pl.program
    class Model:
        @pl.function
        def helper(self, x: T) -> T:
            y = pl.add(x, q)
            z = pl.mul(y, y)
            return z

        @pl.function
        def main(self, x: T) -> T:
            a = self.helper(x)
            for i in range(4):
                a = pl.add(a, a)
            return zzz
"""

GOOD = """
    import pypto.language as pl

    @pl.function
    def f(x: pl.Tensor[[8], pl.FP32]) -> pl.Tensor[[8], pl.FP32]:
        y = pl.add(x, x)
        return y
"""

WARNS = """
    import pypto.language as pl

    T = pl.Tensor[[64], pl.FP32]

    @pl.function(type=pl.FunctionType.Orchestration)
    def orch(x: T) -> T:
        y = pl.add(x, x)
        return y
"""

SHORT_LINES = [
    "multi.py:10:23: error[E200]: Undefined variable 'q'",
    "multi.py:17:18: error[E001]: For loop must use pl.range(), pl.parallel(), pl.unroll(), "
    "pl.pipeline(), pl.while_() or pl.spmd()",
    "multi.py:19:16: error[E200]: Undefined variable 'zzz'",
]


@pytest.fixture
def in_tmp(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    return tmp_path


def test_full_reports_every_independent_error_with_a_count(in_tmp, capsys):
    write(in_tmp, "multi.py", MULTI)
    result = run_cli(capsys, "check", "multi.py")
    assert (result.code, result.out) == (1, "multi.py: failed (3 errors)\n")
    headers = [line for line in result.err.splitlines() if line.startswith("Error: ")]
    assert headers == ["Error: Undefined variable 'q'",
                       "Error: For loop must use pl.range(), pl.parallel(), pl.unroll(), "
                       "pl.pipeline(), pl.while_() or pl.spmd()",
                       "Error: Undefined variable 'zzz'"]
    assert "  --> multi.py:19:16" in result.err.splitlines()


def test_short_is_one_line_per_diagnostic_then_a_summary(in_tmp, capsys):
    write(in_tmp, "multi.py", MULTI)
    write(in_tmp, "good.py", GOOD)
    result = run_cli(capsys, "check", "--format=short", "multi.py", "good.py")
    assert (result.code, result.err) == (1, "")
    assert result.out.splitlines() == SHORT_LINES + [
        "found 3 errors in 1 file (checked 2 files)"]
    clean = run_cli(capsys, "check", "--format", "short", "good.py")
    assert (clean.code, clean.out) == (0, "no errors (checked 1 file)\n")


def test_compile_reports_in_the_chosen_format_on_stderr(in_tmp, capsys):
    write(in_tmp, "multi.py", MULTI)
    result = run_cli(capsys, "compile", "--format=short", "multi.py")
    assert (result.code, result.out) == (1, "")
    assert result.err.splitlines() == SHORT_LINES
    full = run_cli(capsys, "compile", "multi.py")
    assert full.err.endswith("\nfound 3 errors\n")


def test_json_is_schema_valid_and_complete(in_tmp, capsys):
    write(in_tmp, "multi.py", MULTI)
    write(in_tmp, "warns.py", WARNS)
    result = run_cli(capsys, "check", "--format=json", "--props", "SplitIncoreOrch,TypeChecked",
                     "multi.py", "warns.py", "missing.py")
    assert result.code == 2 and result.err == ""
    document = json.loads(result.out)
    jsonschema.validate(document, JSON_SCHEMA)
    assert [(f["path"], f["status"], f["errors"], f["warnings"]) for f in document["files"]] == [
        ("multi.py", "failed", 3, 0), ("warns.py", "ok", 0, 1),
        ("missing.py", "not checked", 0, 0)]
    assert document["files"][2]["reason"] == "no such file: 'missing.py'"
    first = document["diagnostics"][0]
    assert first == {"file": "multi.py", "line": 10, "column": 23, "end_line": 10,
                     "end_column": 24, "severity": "error", "code": "E200",
                     "message": "Undefined variable 'q'", "hint": None, "note": None,
                     "origin": "parser"}
    warning = document["diagnostics"][3]
    assert (warning["severity"], warning["code"], warning["origin"]) == (
        "warning", "V005", "SplitIncoreOrch")
    assert document["summary"] == {"files": 3, "ok": 1, "failed": 1, "nothing_to_check": 0,
                                   "not_checked": 1, "errors": 3, "warnings": 1}


def test_the_json_schema_rejects_what_it_should():
    bad = {"tool": {"name": "pypto", "version": "0"}, "files": [], "summary": {},
           "diagnostics": [{"file": "f", "line": 0}]}
    with pytest.raises(jsonschema.ValidationError):
        jsonschema.validate(bad, JSON_SCHEMA)


# The parts of the SARIF 2.1.0 schema (OASIS) that a pypto log uses, written out by
# hand: the official schema is not vendored, so this is what the test holds it to.
_MESSAGE = {"type": "object", "required": ["text"],
            "properties": {"text": {"type": "string", "minLength": 1}}}
_REGION = {"type": "object", "required": ["startLine"], "additionalProperties": False,
           "properties": {"startLine": {"type": "integer", "minimum": 1},
                          "startColumn": {"type": "integer", "minimum": 1},
                          "endLine": {"type": "integer", "minimum": 1},
                          "endColumn": {"type": "integer", "minimum": 1}}}
SARIF_SUBSET = {
    "type": "object",
    "required": ["version", "runs"],
    "properties": {
        "$schema": {"type": "string", "format": "uri"},
        "version": {"const": "2.1.0"},
        "runs": {"type": "array", "minItems": 1, "items": {
            "type": "object", "required": ["tool", "results"],
            "properties": {
                "tool": {"type": "object", "required": ["driver"], "properties": {"driver": {
                    "type": "object", "required": ["name"],
                    "properties": {
                        "name": {"type": "string"}, "version": {"type": "string"},
                        "rules": {"type": "array", "items": {
                            "type": "object", "required": ["id"],
                            "properties": {"id": {"type": "string"},
                                           "shortDescription": _MESSAGE}}}}}}},
                "columnKind": {"enum": ["utf16CodeUnits", "unicodeCodePoints"]},
                "invocations": {"type": "array", "items": {
                    "type": "object", "required": ["executionSuccessful"],
                    "properties": {"executionSuccessful": {"type": "boolean"},
                                   "toolExecutionNotifications": {"type": "array", "items": {
                                       "type": "object", "required": ["message"],
                                       "properties": {"message": _MESSAGE,
                                                      "level": {"enum": [
                                                          "none", "note", "warning",
                                                          "error"]}}}}}}},
                "results": {"type": "array", "items": {
                    "type": "object", "required": ["message"],
                    "properties": {
                        "ruleId": {"type": "string"},
                        "ruleIndex": {"type": "integer", "minimum": 0},
                        "level": {"enum": ["none", "note", "warning", "error"]},
                        "message": _MESSAGE,
                        "locations": {"type": "array", "items": {
                            "type": "object", "properties": {"physicalLocation": {
                                "type": "object", "required": ["artifactLocation"],
                                "properties": {
                                    "artifactLocation": {
                                        "type": "object", "required": ["uri"],
                                        "properties": {"uri": {"type": "string",
                                                               "format": "uri-reference"}}},
                                    "region": _REGION}}}}}}}}}}},
    },
}


def test_sarif_is_a_valid_sarif_2_1_0_log(in_tmp, capsys):
    write(in_tmp, "multi.py", MULTI)
    result = run_cli(capsys, "check", "--format=sarif", "multi.py")
    assert result.code == 1
    log = json.loads(result.out)
    jsonschema.validate(log, SARIF_SUBSET, format_checker=jsonschema.FormatChecker())
    run = log["runs"][0]
    rules = run["tool"]["driver"]["rules"]
    assert [r["id"] for r in rules] == ["E001", "E200"]
    results = run["results"]
    assert [(r["ruleId"], rules[r["ruleIndex"]]["id"]) for r in results] == [
        ("E200", "E200"), ("E001", "E001"), ("E200", "E200")]
    location = results[0]["locations"][0]["physicalLocation"]
    assert location == {"artifactLocation": {"uri": "multi.py"},
                        "region": {"startLine": 10, "startColumn": 23, "endLine": 10,
                                   "endColumn": 24}}
    assert results[1]["message"]["text"].endswith("\nhelp: e.g. `for i in pl.range(n):`")


def test_sarif_reports_files_it_could_not_check_as_notifications(in_tmp, capsys):
    result = run_cli(capsys, "check", "--format=sarif", "missing.py")
    assert result.code == 2
    invocation = json.loads(result.out)["runs"][0]["invocations"][0]
    assert invocation["executionSuccessful"] is False
    assert invocation["toolExecutionNotifications"][0]["message"]["text"] == (
        "missing.py: no such file: 'missing.py'")


def test_github_emits_workflow_annotations(in_tmp, capsys):
    write(in_tmp, "multi.py", MULTI)
    result = run_cli(capsys, "check", "--format=github", "multi.py")
    lines = result.out.splitlines()
    assert lines[0] == ("::error file=multi.py,line=10,col=23,endLine=10,endColumn=24,"
                        "title=pypto E200::Undefined variable 'q'")
    assert lines[1].endswith("::For loop must use pl.range(), pl.parallel(), pl.unroll(), "
                             "pl.pipeline(), pl.while_() or pl.spmd() "
                             "(help: e.g. `for i in pl.range(n):`)")
    assert lines[-1] == "found 3 errors in 1 file (checked 1 file)"


def test_github_escapes_what_would_end_a_command():
    from pypto.cli.formats import github_command
    from pypto.language.parser.findings import Finding
    finding = Finding("warning", "V005", "50% done\nnext: line", {"filename": "a,b:c.py",
                                                                   "line": 3, "column": 0})
    assert github_command(finding, "x") == (
        "::warning file=a%2Cb%3Ac.py,line=3,title=pypto V005::50%25 done")


@pytest.mark.parametrize("command", ["check", "compile"])
def test_exit_statuses(in_tmp, capsys, command):
    write(in_tmp, "good.py", GOOD)
    write(in_tmp, "multi.py", MULTI)
    (in_tmp / "sub").mkdir()
    assert run_cli(capsys, command, "good.py").code == 0
    assert run_cli(capsys, command, "multi.py").code == 1
    assert run_cli(capsys, command, "missing.py").code == 2
    assert run_cli(capsys, command, "--format=xml", "good.py").code == 2
    if command == "compile":  # check walks a directory
        assert run_cli(capsys, command, "sub").code == 2


@pytest.mark.parametrize("command", ["check", "compile"])
def test_an_internal_error_is_status_3_in_both_commands(in_tmp, capsys, monkeypatch, command):
    import pypto
    from pypto.cli import load

    def broken(source):
        raise pypto.InternalError("loader lost its way")

    monkeypatch.setattr(load, "_run_python", broken)
    write(in_tmp, "good.py", GOOD)
    result = run_cli(capsys, command, "good.py")
    assert result.code == 3
    assert "pypto: internal error (this is a bug in pypto): InternalError: loader lost its way" \
        in result.err
    assert "Traceback (most recent call last):" in result.err


def test_warnings_alone_do_not_fail(in_tmp, capsys):
    write(in_tmp, "warns.py", WARNS)
    assert run_cli(capsys, "check", "--props", "SplitIncoreOrch", "warns.py").code == 0


def test_every_code_has_a_row_in_the_documented_table():
    from pathlib import Path
    page = (Path(__file__).resolve().parents[2] / "docs" / "guide" / "diagnostics.md")
    import re
    documented = set(re.findall(r"^\| `([EPRV]\d{3})` \|", page.read_text(encoding="utf-8"),
                                flags=re.M))
    assert documented == {code for code, _ in all_codes()}


def test_a_jit_entry_reports_every_parser_error_at_the_users_lines(in_tmp, capsys):
    write(in_tmp, "jitted.py", """
        import pypto.language as pl

        @pl.jit
        def entry(x: pl.Tensor[[8], pl.FP32], out: pl.Out[pl.Tensor[[8], pl.FP32]]):
            y = lambda: x
            for i in range(3):
                pass
            return out
    """)
    result = run_cli(capsys, "check", "--format=short", "jitted.py")
    assert result.out.splitlines() == [
        "jitted.py:5:9: error[E301]: Unsupported expression type: Lambda",
        "jitted.py:6:14: error[E001]: For loop must use pl.range(), pl.parallel(), "
        "pl.unroll(), pl.pipeline(), pl.while_() or pl.spmd()",
        "found 2 errors in 1 file (checked 1 file)"]

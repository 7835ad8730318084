"""A Python file is parsed once when the command line loads it (``cli/load.py``).

The module's code is compiled from the syntax tree its ``@pl.program`` / ``@pl.function``
decorators then read: it must run exactly as ``runpy.run_path`` runs it (the names
runpy sets, ``sys.argv[0]``, ``sys.modules``, no ``__future__`` feature leaking in from
pypto), and fail exactly as before when the file does not compile.
"""

from __future__ import annotations

import runpy
import sys
import textwrap

import pytest

from pypto import ir
from pypto.cli import load as cli_load
from pypto.language.parser import pyast, source

from _cli_helpers import run_cli, write

OBSERVER = """
    import sys
    import pypto.language as pl

    T = pl.Tensor[[64], pl.FP32]


    def annotated(x: int, y: "T") -> float:
        return x


    @pl.function
    def neg(x: T) -> T:
        y = pl.neg(x)
        return y


    @pl.program
    class Twice:
        @pl.function
        def main(self, x: T) -> T:
            y = pl.add(x, x)
            return y


    seen = {
        "names": (__name__, __file__, __package__, __cached__, __spec__, __loader__, __doc__),
        "argv0": sys.argv[0],
        "module": sys.modules[__name__].__dict__ is globals(),
        "annotations": annotated.__annotations__,
        "code_file": annotated.__code__.co_filename,
        "text": "\u00e9t\u00e9",
        "keys": [k for k in globals() if k != "seen"],
    }
"""


def _observed(namespace: dict) -> dict:
    seen = dict(namespace["seen"])
    seen["program"] = namespace["Twice"].as_python()
    seen["function"] = namespace["neg"].as_python()
    return seen


@pytest.mark.parametrize("newline", ["\n", "\r\n"])
def test_the_module_runs_as_runpy_runs_it(tmp_path, newline):
    path = write(tmp_path, "observer.py", OBSERVER)
    path.write_bytes(path.read_bytes().replace(b"\n", newline.encode()))
    argv0 = sys.argv[0]
    ours = _observed(cli_load._run_file(str(path)))
    assert (sys.argv[0], cli_load.RUN_NAME in sys.modules) == (argv0, False)
    theirs = _observed(runpy.run_path(str(path), run_name=cli_load.RUN_NAME))
    assert ours == theirs
    assert ours["annotations"] == {"x": int, "y": "T", "return": float}  # not postponed
    assert ours["names"][:2] == (cli_load.RUN_NAME, str(path))


def test_a_coding_declaration_is_honoured(tmp_path):
    path = tmp_path / "latin.py"
    path.write_bytes("# -*- coding: latin-1 -*-\nword = 'caf\u00e9'\n".encode("latin-1"))
    assert cli_load._run_file(str(path))["word"] == "caf\u00e9"


@pytest.fixture
def parsed(monkeypatch) -> list[str]:
    """The file names of every ``pyast.parse`` call (pypto's only way to Python's parser)."""
    names: list[str] = []
    real_parse = pyast.parse

    def counting_parse(text, filename="<unknown>", mode="exec"):
        names.append(filename)
        return real_parse(text, filename, mode)

    monkeypatch.setattr(pyast, "parse", counting_parse)
    return names


def test_the_file_is_parsed_once_for_its_code_and_every_decorator(tmp_path, monkeypatch,
                                                                   parsed):
    path = write(tmp_path, "observer.py", OBSERVER)
    monkeypatch.setattr(runpy, "run_path", None)  # not used for a file that compiles
    loaded = cli_load.load(cli_load.open_source(str(path)))
    assert [entry.name for entry in loaded.entries] == ["neg", "Twice"]
    assert parsed.count(str(path)) == 1
    assert str(path) not in source._MODULE_INDEX  # the tree does not outlive the run


def test_the_program_is_the_one_the_decorator_builds_alone(tmp_path):
    path = write(tmp_path, "observer.py", OBSERVER)
    loaded = cli_load.load(cli_load.open_source(str(path)))
    by_name = {entry.name: entry.value for entry in loaded.entries}
    alone = runpy.run_path(str(path), run_name="alone")
    for name in ("neg", "Twice"):
        assert by_name[name].as_python() == alone[name].as_python()
        # spans included: the shared tree locates every node where the file's own parse does
        assert ir.serialize(by_name[name]) == ir.serialize(alone[name])


@pytest.mark.parametrize("text, message, line", [
    ("x = (\n", "'(' was never closed", 1),
    ("def f():\n    pass\nreturn 1\n", "'return' outside function", 3),
    ("x = 1\n\x00\n", "null bytes", None),
])
def test_a_file_that_does_not_compile_fails_as_python_reports_it(tmp_path, capsys, text,
                                                                  message, line):
    path = tmp_path / "broken.py"
    path.write_text(text, encoding="utf-8")
    with pytest.raises((SyntaxError, ValueError)) as python:
        runpy.run_path(str(path), run_name=cli_load.RUN_NAME)
    assert message in str(python.value)
    result = run_cli(capsys, "compile", str(path))
    assert result.code != 0
    assert message in result.err
    if line is not None:
        assert f"{path}:{line}" in result.err


def test_standard_input_is_parsed_once(parsed):
    text = textwrap.dedent(OBSERVER).split("\n\n\nseen = ")[0]  # stdin has no __cached__
    loaded = cli_load.load(cli_load.Source(cli_load.STDIN, text))
    assert loaded.findings == []
    assert [entry.name for entry in loaded.entries] == ["neg", "Twice"]
    assert parsed.count(cli_load.STDIN_NAME) == 1
    assert cli_load.STDIN_NAME not in source._MODULE_INDEX

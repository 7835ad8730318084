"""The documentation is executable.

* Every ```python block of ``README.md`` and ``docs/**/*.md`` runs; the blocks of one
  document share a namespace, in order (so a page can build on its earlier blocks).
* An ```output block right after a python block is that block's exact stdout.
* In a ```console block each ``$ pypto ...`` line is run (as ``python -m pypto`` from
  the repository root) and must print the lines that follow it (stdout, then stderr);
  a line holding only ``...`` stands for any number of lines.
* Other fences (```sh, ```text ...) are shown, not run.
* README's test command is byte-identical to the one in ``.ci/run``.
"""

from __future__ import annotations

import contextlib
import io
import linecache
import os
import re
import shlex
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]
DOCUMENTS = sorted([REPO / "README.md", *(REPO / "docs").rglob("*.md")])
_FENCE = re.compile(r"^```(\S*)\s*$")


@dataclass(frozen=True)
class Block:
    language: str
    line: int  # 1-based line of the first code line in the document
    text: str


def blocks_of(path: Path) -> list[Block]:
    blocks, language, start, lines = [], None, 0, []
    for number, raw in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
        match = _FENCE.match(raw)
        if language is None and match:
            language, start, lines = match.group(1), number + 1, []
        elif language is not None and raw.strip() == "```":
            blocks.append(Block(language, start, "\n".join(lines) + "\n"))
            language = None
        elif language is not None:
            lines.append(raw)
    assert language is None, f"{path}: unterminated code fence opened at line {start - 1}"
    return blocks


def _doc_id(path: Path) -> str:
    return str(path.relative_to(REPO))


def test_every_guide_page_exists():
    names = {p.name for p in (REPO / "docs" / "guide").glob("*.md")}
    assert {"getting-started.md", "language.md", "regions-and-levels.md", "graph-regions.md",
            "passes.md", "cli.md", "diagnostics.md", "notebooks.md", "jit.md",
            "security.md"} <= names
    assert (REPO / "docs" / "design.md").exists()


@pytest.mark.parametrize("path", DOCUMENTS, ids=_doc_id)
def test_python_blocks_run(path, monkeypatch):
    monkeypatch.chdir(REPO)
    monkeypatch.setenv("NO_COLOR", "1")
    blocks = blocks_of(path)
    namespace: dict = {"__name__": f"docs_{path.stem.replace('-', '_')}"}
    previous_output = None
    for block in blocks:
        if block.language == "python":
            previous_output = _run_python(path, block, namespace)
        elif block.language == "output":
            assert previous_output is not None, \
                f"{_doc_id(path)}:{block.line}: an output block must follow a python block"
            assert previous_output == block.text, \
                f"{_doc_id(path)}:{block.line}: the python block above printed\n{previous_output}"
            previous_output = None
        else:
            previous_output = None


def _run_python(path: Path, block: Block, namespace: dict) -> str:
    # Pad to the block's position so spans and tracebacks point into the document.
    filename = f"<{_doc_id(path)}:{block.line}>"
    source = "\n" * (block.line - 1) + block.text
    linecache.cache[filename] = (len(source), None, source.splitlines(True), filename)
    stdout = io.StringIO()
    try:
        with contextlib.redirect_stdout(stdout):
            exec(compile(source, filename, "exec"), namespace)  # noqa: S102 - our own docs
    except Exception as exc:
        raise AssertionError(f"{_doc_id(path)}:{block.line}: the python block failed: "
                             f"{type(exc).__name__}: {exc}") from exc
    finally:
        linecache.cache.pop(filename, None)
    return stdout.getvalue()


@pytest.mark.parametrize("path", [p for p in DOCUMENTS
                                  if any(b.language == "console" for b in blocks_of(p))],
                         ids=_doc_id)
def test_console_transcripts(path):
    for block in blocks_of(path):
        if block.language != "console":
            continue
        for line, command, expected in _transcript(block):
            actual = _run_pypto(command)
            assert _matches(expected, actual), (
                f"{_doc_id(path)}:{line}: `{command}` printed\n{actual}")


def _transcript(block: Block) -> list[tuple[int, str, list[str]]]:
    steps: list[tuple[int, str, list[str]]] = []
    for offset, text in enumerate(block.text.splitlines()):
        if text.startswith("$ "):
            steps.append((block.line + offset, text[2:], []))
        else:
            assert steps, f"line {block.line + offset}: output before any `$ ` command"
            steps[-1][2].append(text)
    return steps


def _run_pypto(command: str) -> list[str]:
    argv = shlex.split(command)
    assert argv[0] == "pypto", f"console blocks may only run pypto, got: {command}"
    env = {k: v for k, v in os.environ.items()
           if k not in ("FORCE_COLOR", "PTO_BACKTRACE", "PYPTO_VERIFY_LEVEL")}
    env["NO_COLOR"] = "1"
    proc = subprocess.run([sys.executable, "-m", "pypto", *argv[1:]], cwd=REPO, env=env,
                          capture_output=True, text=True, timeout=300)
    return (proc.stdout + proc.stderr).splitlines()


def _matches(expected: list[str], actual: list[str]) -> bool:
    """Line-by-line equality where a ``...`` line matches any run of lines."""
    if not expected:
        return not actual
    if expected[0] == "...":
        return any(_matches(expected[1:], actual[i:]) for i in range(len(actual) + 1))
    return bool(actual) and expected[0] == actual[0] and _matches(expected[1:], actual[1:])


def test_readme_test_command_is_the_ci_command():
    ci_lines = [line for line in (REPO / ".ci" / "run").read_text(encoding="utf-8").splitlines()
                if line.startswith("python3 -m venv")]
    assert len(ci_lines) == 1
    readme_sh = [b.text for b in blocks_of(REPO / "README.md") if b.language == "sh"]
    assert any(ci_lines[0] in text.splitlines() for text in readme_sh), \
        "README.md must show the .ci/run command verbatim"


def test_readme_has_exactly_two_setup_commands():
    setup = [line for b in blocks_of(REPO / "README.md") if b.language == "sh"
             for line in b.text.splitlines() if line.startswith("python3 -m venv")]
    assert setup == [
        "python3 -m venv .venv && .venv/bin/pip install -q . && "
        ".venv/bin/pypto compile examples/graph_layers.py",
        "python3 -m venv .venv && .venv/bin/pip install -q -e \".[test]\" && "
        ".venv/bin/python -m pytest -q",
    ]


def test_guide_setup_commands_are_the_readme_ones():
    """The guide repeats the README's set-up; a copy that drifted would not be run by CI."""
    def setup_lines(path: Path) -> list[str]:
        return [line for b in blocks_of(path) if b.language == "sh"
                for line in b.text.splitlines() if line.startswith("python3 -m venv")]
    readme = setup_lines(REPO / "README.md")
    for path in (REPO / "docs").rglob("*.md"):
        for line in setup_lines(path):
            assert line in readme, f"{_doc_id(path)}: set-up command not in README.md: {line}"
    assert setup_lines(REPO / "docs" / "guide" / "getting-started.md") == readme

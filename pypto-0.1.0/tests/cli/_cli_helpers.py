"""Shared helpers of the command-line tests: run ``pypto`` in-process or as a process."""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap
from dataclasses import dataclass
from pathlib import Path

from pypto import cli

REPO = Path(__file__).resolve().parents[2]
EXAMPLES = REPO / "examples"


@dataclass(frozen=True)
class Result:
    code: int
    out: str
    err: str


def run_cli(capsys, *args: str) -> Result:
    """``pypto ARGS`` in this process (the test harness's PassContext stays active)."""
    code = cli.main(list(args))
    captured = capsys.readouterr()
    return Result(code, captured.out, captured.err)


def plain_env(**extra: str) -> dict[str, str]:
    """The environment for a ``pypto`` subprocess: no colour, no inherited pypto knobs."""
    env = {k: v for k, v in os.environ.items()
           if k not in ("FORCE_COLOR", "PTO_BACKTRACE", "PYPTO_VERIFY_LEVEL")}
    env["NO_COLOR"] = "1"
    env.update(extra)
    return env


def run_process(*args: str, cwd: Path = REPO, **env: str) -> Result:
    """``python -m pypto ARGS`` in a fresh interpreter."""
    proc = subprocess.run([sys.executable, "-m", "pypto", *args], cwd=cwd, env=plain_env(**env),
                          capture_output=True, text=True, timeout=120)
    return Result(proc.returncode, proc.stdout, proc.stderr)


def console_script() -> Path:
    """The installed ``pypto`` console script (next to the interpreter, as pip puts it)."""
    return Path(sys.executable).parent / "pypto"


def write(tmp_path: Path, name: str, text: str) -> Path:
    path = tmp_path / name
    path.write_text(textwrap.dedent(text).lstrip("\n"), encoding="utf-8")
    return path

"""Shared helpers for the ``@pl.jit`` tests: arrays, and expected error positions from
``# @marker`` comments in the test file itself (so editing a file never breaks them)."""

from __future__ import annotations

import inspect
import os
import sys
from pathlib import Path

import numpy as np

REPO_ROOT = Path(__file__).resolve().parents[2]


def f32(*shape: int) -> np.ndarray:
    return np.zeros(shape, dtype=np.float32)


def marker_position(marker: str, token: str | None = None, path: str | None = None
                    ) -> tuple[int, int]:
    """(line, column) of ``token`` on the single line of ``path`` ending in ``# @marker``
    (the caller's file by default); the column is 1-based, of the first non-blank
    character when ``token`` is None."""
    if path is None:
        path = inspect.stack()[1].filename
    lines = Path(path).read_text(encoding="utf-8").splitlines()
    found = [(n, line) for n, line in enumerate(lines, 1) if line.rstrip().endswith(f"# @{marker}")]
    assert len(found) == 1, f"marker @{marker} found {len(found)} times in {path}"
    number, line = found[0]
    if token is None:
        return number, len(line) - len(line.lstrip()) + 1
    index = line.find(token)
    assert index >= 0, f"{token!r} is not on the line of @{marker}"
    return number, index + 1


def subprocess_env(tmp_path: Path, **extra: str) -> dict[str, str]:
    env = {key: value for key, value in os.environ.items()
           if key not in ("NO_COLOR", "FORCE_COLOR", "PTO_BACKTRACE", "TERM")}
    env["PYTHONPATH"] = os.pathsep.join(filter(None, [str(REPO_ROOT), env.get("PYTHONPATH")]))
    env["IPYTHONDIR"] = str(tmp_path / "ipython")
    env["NO_COLOR"] = "1"
    env.update(extra)
    return env


PYTHON = sys.executable

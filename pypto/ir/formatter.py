"""PyPTO's ``pypto.ir.formatter``: format printed DSL text with Ruff, when it is installed."""

from __future__ import annotations

import shutil
import subprocess

__all__ = ["ruff_format"]


def ruff_format(code: str, line_length: int = 200) -> str:
    """``code`` formatted by ``ruff format``; unchanged when the ``ruff`` command is not
    on the PATH or rejects the text (formatting is cosmetic, it must not fail a print)."""
    ruff = shutil.which("ruff")
    if ruff is None:
        return code
    done = subprocess.run([ruff, "format", f"--line-length={int(line_length)}", "-"],
                          input=code, capture_output=True, text=True, check=False)
    return done.stdout if done.returncode == 0 else code

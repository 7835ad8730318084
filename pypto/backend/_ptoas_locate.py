"""Where the ``ptoas`` assembler is (PyPTO's ``find_ptoas_binary``).

pypto generates no device code and never runs ``ptoas``; the answer still has a
meaning on any machine: the executable ``ptoas`` on ``PATH``, or ``None`` when there
is none (the usual answer where pypto runs, which needs no toolchain).
"""

from __future__ import annotations

import shutil

__all__ = ["find_ptoas_binary"]


def find_ptoas_binary() -> str | None:
    """The absolute path of the ``ptoas`` executable on ``PATH``; ``None`` if there is
    none."""
    return shutil.which("ptoas")

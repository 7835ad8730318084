"""The command line's failure kinds and exit statuses (imports nothing of pypto, so
``pypto --help`` stays fast).

``UsageError`` (exit 2) is a mistake on the command line; ``ProgramError`` (exit 1)
carries the findings -- located diagnostics -- of a problem in the user's program.
"""

from __future__ import annotations

from typing import Any, Optional, Sequence

__all__ = ["EXIT_OK", "EXIT_DIAGNOSTICS", "EXIT_USAGE", "EXIT_INTERNAL", "EXIT_INTERRUPTED",
           "UsageError", "ProgramError"]

EXIT_OK = 0           # clean (warnings alone do not fail)
EXIT_DIAGNOSTICS = 1  # the user's program has errors
EXIT_USAGE = 2        # the command line is wrong (option, missing file, ...)
EXIT_INTERNAL = 3     # a bug in pypto
EXIT_INTERRUPTED = 130


class UsageError(Exception):
    """A mistake on the command line (bad option, unknown pass, missing file, ...).

    Shown as one line; the command exits with status 2.
    """


class ProgramError(Exception):
    """The user's program has a problem: ``findings`` say what and where (exit 1).

    ``cause`` is the original exception, kept for ``PTO_BACKTRACE=1``.
    """

    def __init__(self, findings: Sequence[Any], cause: Optional[BaseException] = None) -> None:
        self.findings = list(findings)
        super().__init__("; ".join(getattr(f, "summary", str(f)) for f in self.findings))
        self.cause = cause

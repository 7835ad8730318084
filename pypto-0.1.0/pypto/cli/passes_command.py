"""``pypto passes``: list the registered passes."""

from __future__ import annotations

import argparse
from typing import TextIO

from .errors import EXIT_OK
from .pipeline import describe_passes

__all__ = ["run"]


def run(args: argparse.Namespace, stdout: TextIO, stderr: TextIO) -> int:
    stdout.write(describe_passes() + "\n")
    return EXIT_OK

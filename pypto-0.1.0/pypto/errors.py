"""Error types shared by every layer of pypto.

``Error`` is a user-facing failure that is not tied to source text (verification
failures, pipeline errors).  ``InternalError`` marks a broken invariant inside
pypto: it is a bug, so nothing ever wraps or softens it.
"""

from __future__ import annotations


class Error(Exception):
    """A pypto failure caused by the program being compiled (e.g. verification)."""


class InternalError(Exception):
    """A broken invariant inside pypto.  Always a bug; never wrapped."""

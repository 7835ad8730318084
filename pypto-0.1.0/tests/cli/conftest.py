"""Command-line tests see plain text: no colour, no backtraces, whatever the caller's
environment says."""

from __future__ import annotations

import pytest


@pytest.fixture(autouse=True)
def plain_output(monkeypatch):
    monkeypatch.setenv("NO_COLOR", "1")
    monkeypatch.delenv("FORCE_COLOR", raising=False)
    monkeypatch.delenv("PTO_BACKTRACE", raising=False)

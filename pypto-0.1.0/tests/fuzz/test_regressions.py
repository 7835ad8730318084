"""Inputs that once broke pypto (``regressions/``), each replayed end to end.

Each file starts with ``# expect: compiled | parse-error | pass-error`` and a comment
saying what broke.  A valid program (``compiled``) is compiled inside the test harness
(per-pass verification and round trip), so every intermediate program is checked too;
a ``# harness: verify-only`` line drops the round trip for a file whose intermediate
text cannot round-trip for a reason recorded in the file.  Bad input runs with the
production settings of the fuzz test.
"""

from __future__ import annotations

import os
import re

import pytest

from pypto import passes

from fuzzcheck import outcome, run_with_pipeline_context

REGRESSIONS = os.path.join(os.path.dirname(os.path.abspath(__file__)), "regressions")
_EXPECT = re.compile(r"#\s*expect:\s*(compiled|parse-error|pass-error)")


def _cases() -> list[str]:
    return sorted(name for name in os.listdir(REGRESSIONS) if name.endswith(".py"))


def test_the_folder_is_not_empty():
    assert len(_cases()) >= 10


@pytest.mark.parametrize("name", _cases())
def test_regression(name):
    path = os.path.join(REGRESSIONS, name)
    with open(path, encoding="utf-8") as handle:
        text = handle.read()
    expected = _EXPECT.search(text.splitlines()[0])
    assert expected is not None, f"{name}: first line must be '# expect: ...'"
    if expected.group(1) != "compiled":
        assert run_with_pipeline_context(outcome, text, path) == expected.group(1)
    elif "# harness: verify-only" in text:
        verify = passes.VerificationInstrument(passes.VerificationMode.BEFORE_AND_AFTER)
        with passes.PassContext([verify]):
            assert outcome(text, filename=path) == "compiled"
    else:
        assert outcome(text, filename=path) == "compiled"

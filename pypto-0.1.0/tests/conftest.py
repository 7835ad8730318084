"""Test harness (03-passes.md §3): every test runs inside a ``PassContext`` holding

* ``VerificationInstrument(BEFORE_AND_AFTER)`` -- each pass is checked against its
  required/produced properties plus the structural ones, and
* the print -> reparse round-trip instrument.

``PYPTO_VERIFY_LEVEL=basic`` drops the round trip, ``none`` drops both (unset or
``roundtrip`` keeps both).  The context's verification level follows the same
variable, so ``PassPipeline`` runs inside tests verify like production code.
A test that needs different instruments opens its own inner ``PassContext``
(the innermost context wins completely).
"""

from __future__ import annotations

import os

import pytest

from pypto import passes
from pypto.ir.instruments import make_roundtrip_instrument


def harness_instruments() -> list[passes.PassInstrument]:
    text = os.environ.get("PYPTO_VERIFY_LEVEL", "").strip()
    level = passes.VerificationLevel.ROUNDTRIP if not text else \
        passes.get_default_verification_level()
    instruments: list[passes.PassInstrument] = []
    if level is not passes.VerificationLevel.NONE:
        instruments.append(passes.VerificationInstrument(passes.VerificationMode.BEFORE_AND_AFTER))
    if level is passes.VerificationLevel.ROUNDTRIP:
        instruments.append(make_roundtrip_instrument())
    return instruments


@pytest.fixture(autouse=True)
def pass_harness():
    with passes.PassContext(harness_instruments(),
                            verification_level=passes.get_default_verification_level()):
        yield

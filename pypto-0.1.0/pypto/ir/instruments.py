"""``pypto.ir.instruments``: PyPTO's module path for the round-trip instrument.

The instrument reparses printed IR, so it lives with the parser (``pypto.language.roundtrip``).
This module only re-exports it, lazily, so that ``pypto.ir`` never imports the
layers above it.
"""

from __future__ import annotations

from .._lazy import lazy_reexport

__all__ = ["make_roundtrip_instrument", "RoundTripInstrument", "check_roundtrip"]
__getattr__, __dir__ = lazy_reexport(__name__, "pypto.language.roundtrip", __all__)

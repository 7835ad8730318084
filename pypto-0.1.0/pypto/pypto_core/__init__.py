"""Compatibility facade for code written against the public project's compiled core.

``from pypto.pypto_core import ir, passes`` gives the very same module objects as
``from pypto import ir, passes``.
"""

from __future__ import annotations

import sys

from .. import ir, passes

sys.modules[__name__ + ".ir"] = ir
sys.modules[__name__ + ".passes"] = passes

__all__ = ["ir", "passes"]

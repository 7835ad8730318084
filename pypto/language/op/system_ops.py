"""``pl.system``: PyPTO's wrappers of the ``system.*`` ops, generated from the registry."""

from __future__ import annotations

from ...ir.enums import PipeType
from ._namespace import fill_namespace

AUTO = -1  # PyPTO's "pick automatically" value of buffer/slot arguments
__all__ = [*fill_namespace(globals(), "system"), "AUTO"]
_ = PipeType

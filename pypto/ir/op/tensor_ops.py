"""``ir.op.tensor``: PyPTO's builders of the ``tensor.*`` ops (``span=None``), generated
from the registry entries; the routers over several ops are ``ir/ops/composite.py``."""

from __future__ import annotations

from ..ops import composite as _composite
from ._namespace import fill_builders

__all__ = fill_builders(globals(), "tensor", {
    "gather": _composite.gather, "scatter": _composite.scatter,
    "scatter_update": _composite.scatter_update, "mrgsort": _composite.mrgsort,
    "mrgsort_format2": _composite.mrgsort_format2})

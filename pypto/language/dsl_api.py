"""PyPTO's ``pypto.language.dsl_api`` path: the statement-level DSL constructs and
their Python-level stand-ins (defined in ``pypto.language.dsl``)."""

from __future__ import annotations

from typing import TYPE_CHECKING  # noqa: F401 - PyPTO's module shows it

from .dsl import (AtContext, ClusterContext, RangeIterator, SplitAivContext, SpmdContext,
                  WhileIterator, at, cluster, cond, const, func_attr, parallel, pipeline, range,
                  split_aiv, spmd, static_assert, static_print, unroll, while_, yield_)
from .optimizations import Optimization

__all__ = ["AtContext", "ClusterContext", "RangeIterator", "SplitAivContext", "SpmdContext",
           "WhileIterator", "at", "cluster", "cond", "const", "parallel", "range", "split_aiv",
           "spmd", "static_assert", "static_print", "unroll", "while_", "yield_"]

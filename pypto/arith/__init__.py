"""``pypto.arith``: PyPTO's integer arithmetic analysis on scalar IR expressions --
bounds, residues, comparisons and simplification (``Analyzer``), and integer helpers.

``Analyzer().simplify(k0 + 16 - k0)`` is ``16``; with ``bind(i, 0, 16)`` it proves
``i < 16`` and simplifies ``i // 16`` to ``0``.  See ``simplify.py`` for what the
simplifier does and does not decide.
"""

from __future__ import annotations

from .analyzer import (Analyzer, CanonicalSimplifier, CompareResult, ConstIntBoundAnalyzer,
                       ConstraintContext, IntSetAnalyzer, ModularSetAnalyzer, RewriteSimplifier,
                       TransitiveComparisonAnalyzer)
from .bounds import ConstIntBound, IntSet, ModularSet
from .intmath import extended_euclidean, floordiv, floormod, gcd, lcm
from .simplify import fold_const

__all__ = ["Analyzer", "CanonicalSimplifier", "CompareResult", "ConstIntBound",
           "ConstIntBoundAnalyzer", "ConstraintContext", "IntSet", "IntSetAnalyzer", "ModularSet",
           "ModularSetAnalyzer", "RewriteSimplifier", "TransitiveComparisonAnalyzer",
           "extended_euclidean", "floordiv", "floormod", "fold_const", "gcd", "lcm"]

"""The function-attribute keys PyPTO's front end writes (``pypto._function_attrs``).

pypto reads ``auto_scope`` (whether InCore/AIC/AIV bodies get their implicit region);
the external-kernel and split-AIV keys name attributes of features that need code
generation, so no pypto pass writes them (they are here so that IR carrying them, and
code naming them, reads the same).  Imports nothing of pypto.
"""

from __future__ import annotations

__all__ = ["AUTO_SCOPE_ATTR", "DUAL_AIV_DISPATCH_ATTR", "EXTERNAL_SOURCE_ATTR", "SPLIT_AIV_ATTR",
           "SPLIT_AIV_REGION_VALIDATED_ATTR"]

AUTO_SCOPE_ATTR = "auto_scope"
DUAL_AIV_DISPATCH_ATTR = "dual_aiv_dispatch"
EXTERNAL_SOURCE_ATTR = "external_source"
SPLIT_AIV_ATTR = "split_aiv"
SPLIT_AIV_REGION_VALIDATED_ATTR = "split_aiv_region_validated"

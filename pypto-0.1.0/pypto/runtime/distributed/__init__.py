"""Distributed programs on the CPU: ranks simulated in one process (``ranks``),
communication windows as shared buffers (``windows``), the distributed ops' meanings
(``kernels``)."""

from __future__ import annotations

from .ranks import RankScheduler, RankTask
from .windows import CommContext, DistributedArray, WindowAllocation

__all__ = ["RankScheduler", "RankTask", "CommContext", "DistributedArray", "WindowAllocation"]

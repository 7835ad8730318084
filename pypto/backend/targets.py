"""The two targets PyPTO knows (``Backend910B``, ``Backend950``) and what a backend
answers: memory sizes, core counts, data paths between memories, a JSON export.

The figures describe each chip's per-core memories and core counts as pypto models
them; no pass of pypto reads them (memory planning and code generation, which would,
are out of scope), they are here for user scripts that ask.
"""

from __future__ import annotations

import enum
import json
from collections import deque
from typing import Any, cast

from .._core_enum import CoreEnumRepr
from ..ir.enums import CoreType, MemorySpace
from .hardware import Cluster, Core, Die, Mem, SoC

__all__ = ["BackendType", "Backend", "Backend910B", "Backend950", "get_backend_instance"]

KB = 1024


class BackendType(CoreEnumRepr, enum.Enum):
    """PyPTO's targets (names and values)."""

    Ascend910B = 0
    Ascend950 = 1


# Which memory a datum can move to directly, per target.
_PATHS_910B = {
    MemorySpace.DDR: (MemorySpace.Vec, MemorySpace.Mat),
    MemorySpace.Vec: (MemorySpace.DDR,),
    MemorySpace.Mat: (MemorySpace.Left, MemorySpace.Right, MemorySpace.Bias),
    MemorySpace.Acc: (MemorySpace.DDR,),
}
_PATHS_950 = {
    **_PATHS_910B,
    MemorySpace.Vec: (MemorySpace.DDR, MemorySpace.Mat),
    MemorySpace.Mat: (MemorySpace.Left, MemorySpace.Right, MemorySpace.Bias,
                      MemorySpace.LeftScale, MemorySpace.RightScale),
    MemorySpace.Acc: (MemorySpace.DDR, MemorySpace.Vec),
}


class Backend:
    """A target: its chip description (``soc``) and its memory data paths."""

    _type_name = "Backend"

    def __init__(self, soc: SoC, paths: dict[MemorySpace, tuple[MemorySpace, ...]] | None = None,
                 type_name: str | None = None) -> None:
        if not isinstance(soc, SoC):
            raise TypeError(f"Backend: soc must be a pypto.backend.SoC, got {type(soc).__name__}")
        self._soc = soc
        self._paths = {k: tuple(v) for k, v in (paths or {}).items()}
        self._name = type_name or self._type_name

    @property
    def soc(self) -> SoC:
        return self._soc

    def get_type_name(self) -> str:
        return self._name

    def get_mem_size(self, mem_type: MemorySpace) -> int:
        """Bytes of ``mem_type`` one core has (0 if no core has it)."""
        mem_type = MemorySpace(mem_type)
        for core, _ in self._soc.cores():
            for mem in core.mems:
                if mem.mem_type is mem_type:
                    return mem.mem_size
        return 0

    def get_core_count(self, core_type: CoreType) -> int:
        core_type = CoreType(core_type)
        return sum(n for core, n in self._soc.cores() if core.core_type is core_type)

    def find_mem_path(self, from_mem: MemorySpace, to_mem: MemorySpace) -> list[MemorySpace]:
        """The shortest chain of memories from ``from_mem`` to ``to_mem`` (both ends
        included); ``[]`` when the data cannot get there."""
        start, goal = MemorySpace(from_mem), MemorySpace(to_mem)
        previous: dict[MemorySpace, MemorySpace | None] = {start: None}
        queue = deque([start])
        while queue:
            here = queue.popleft()
            if here is goal:
                path = [here]
                step = previous[here]
                while step is not None:
                    path.append(step)
                    step = previous[step]
                return path[::-1]
            for nxt in self._paths.get(here, ()):
                if nxt not in previous:
                    previous[nxt] = here
                    queue.append(nxt)
        return []

    def export_to_file(self, path: str) -> None:
        with open(path, "w", encoding="utf-8") as f:
            json.dump(_to_json(self), f, indent=1)

    @staticmethod
    def import_from_file(path: str) -> "Backend":
        with open(path, encoding="utf-8") as f:
            return _from_json(json.load(f))

    def __repr__(self) -> str:
        return f"<pypto.backend.{self._name}: {self._soc.total_core_count()} cores>"


def _to_json(backend: Backend) -> dict[str, Any]:
    def core(c: Core) -> dict:
        return {"core_type": c.core_type.name,
                "mems": [[m.mem_type.name, m.mem_size, m.alignment] for m in c.mems]}

    def cluster(c: Cluster) -> list:
        return [[core(k), n] for k, n in c.core_counts.items()]

    def die(d: Die) -> list:
        return [[cluster(k), n] for k, n in d.cluster_counts.items()]

    return {"type_name": backend.get_type_name(),
            "soc": [[die(k), n] for k, n in backend.soc.die_counts.items()],
            "paths": {k.name: [v.name for v in vs] for k, vs in backend._paths.items()}}


def _from_json(data: dict[str, Any]) -> Backend:
    def core(d: dict) -> Core:
        return Core(CoreType[d["core_type"]],
                    [Mem(MemorySpace[name], size, align) for name, size, align in d["mems"]])

    def cluster(items: list) -> Cluster:
        return Cluster({core(k): n for k, n in items})

    def die(items: list) -> Die:
        return Die({cluster(k): n for k, n in items})

    soc = SoC({die(k): n for k, n in data["soc"]})
    paths = {MemorySpace[k]: tuple(MemorySpace[v] for v in vs)
             for k, vs in data.get("paths", {}).items()}
    return Backend(soc, paths, data.get("type_name"))


def _chip(vec: int, mat: int, left: int, right: int, acc: int, bias: int,
          scale: int, clusters: int) -> SoC:
    cube_mems = [Mem(MemorySpace.Mat, mat, 32), Mem(MemorySpace.Left, left, 512),
                 Mem(MemorySpace.Right, right, 512), Mem(MemorySpace.Acc, acc, 512),
                 Mem(MemorySpace.Bias, bias, 64)]
    if scale:
        cube_mems += [Mem(MemorySpace.LeftScale, scale, 32),
                      Mem(MemorySpace.RightScale, scale, 32)]
    cube = Core(CoreType.CUBE, cube_mems)
    vector = Core(CoreType.VECTOR, [Mem(MemorySpace.Vec, vec, 32)])
    return SoC(Die(Cluster({cube: 1, vector: 2}), clusters), 1)


class Backend910B(Backend):
    _type_name = "910B"

    def __init__(self) -> None:
        super().__init__(_chip(vec=192 * KB, mat=512 * KB, left=64 * KB, right=64 * KB,
                               acc=128 * KB, bias=1 * KB, scale=0, clusters=24), _PATHS_910B)

    @classmethod
    def instance(cls) -> "Backend910B":
        return cast(Backend910B, _INSTANCES[BackendType.Ascend910B])


class Backend950(Backend):
    _type_name = "950"

    def __init__(self) -> None:
        super().__init__(_chip(vec=256 * KB, mat=512 * KB, left=64 * KB, right=64 * KB,
                               acc=256 * KB, bias=4 * KB, scale=4 * KB, clusters=32),
                         _PATHS_950)

    @classmethod
    def instance(cls) -> "Backend950":
        return cast(Backend950, _INSTANCES[BackendType.Ascend950])


# Immutable descriptions, built once: sharing them is not shared mutable state.
_INSTANCES: dict[BackendType, Backend] = {BackendType.Ascend910B: Backend910B(),
                                         BackendType.Ascend950: Backend950()}


def get_backend_instance(backend_type: BackendType) -> Backend:
    if not isinstance(backend_type, BackendType):
        raise TypeError(f"get_backend_instance: expected a BackendType, got "
                        f"{type(backend_type).__name__}")
    return _INSTANCES[backend_type]

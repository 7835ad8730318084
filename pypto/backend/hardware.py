"""The description of a target chip: memories, cores, clusters, dies (PyPTO's
``pypto.backend.Mem`` / ``Core`` / ``Cluster`` / ``Die`` / ``SoC``).

Values, not handles: every class is immutable and compares and hashes by content,
so a ``Core`` can key a ``Cluster``'s counts.  Counts are kept in the order given.
"""

from __future__ import annotations

from typing import Any, Iterable, Mapping

from ..ir.enums import CoreType, MemorySpace

__all__ = ["Mem", "Core", "Cluster", "Die", "SoC"]


class _Value:
    """Immutable, compared and hashed by ``_key()``."""

    __slots__ = ()

    def _key(self) -> tuple:
        raise NotImplementedError

    def __setattr__(self, name: str, value: Any) -> None:
        raise AttributeError(f"{type(self).__name__} is immutable")

    def __eq__(self, other: object) -> bool:
        return type(other) is type(self) and other._key() == self._key()

    def __hash__(self) -> int:
        return hash((type(self).__name__, self._key()))


def _set(obj: Any, **fields: Any) -> None:
    for name, value in fields.items():
        object.__setattr__(obj, name, value)


def _counts(owner: str, part: type, counts: Any, count: Any) -> tuple[tuple[Any, int], ...]:
    """``(part, n)`` pairs from either ``{part: n}`` or ``(part, n)``."""
    if count is not None:
        counts = {counts: count}
    if not isinstance(counts, Mapping):
        raise TypeError(f"{owner}: expected a mapping of {part.__name__} to counts, "
                        f"or a {part.__name__} and a count")
    pairs = []
    for key, n in counts.items():
        if not isinstance(key, part):
            raise TypeError(f"{owner}: keys must be {part.__name__}, got {type(key).__name__}")
        if isinstance(n, bool) or not isinstance(n, int) or n < 0:
            raise ValueError(f"{owner}: a count must be a non-negative int, got {n!r}")
        pairs.append((key, n))
    return tuple(pairs)


class Mem(_Value):
    """One on-chip memory: its space, its size in bytes and its address alignment."""

    __slots__ = ("_mem_type", "_mem_size", "_alignment")
    _mem_type: MemorySpace
    _mem_size: int
    _alignment: int

    def __init__(self, mem_type: MemorySpace, mem_size: int, alignment: int) -> None:
        _set(self, _mem_type=MemorySpace(mem_type), _mem_size=int(mem_size),
             _alignment=int(alignment))

    @property
    def mem_type(self) -> MemorySpace:
        return self._mem_type

    @property
    def mem_size(self) -> int:
        return self._mem_size

    @property
    def alignment(self) -> int:
        return self._alignment

    def _key(self) -> tuple:
        return (self._mem_type, self._mem_size, self._alignment)

    def __repr__(self) -> str:
        return f"Mem({self._mem_type}, {self._mem_size}, {self._alignment})"


class Core(_Value):
    """A core (cube or vector) and the memories it owns."""

    __slots__ = ("_core_type", "_mems")
    _core_type: CoreType
    _mems: tuple[Mem, ...]

    def __init__(self, core_type: CoreType, mems: Iterable[Mem]) -> None:
        _set(self, _core_type=CoreType(core_type), _mems=tuple(mems))

    @property
    def core_type(self) -> CoreType:
        return self._core_type

    @property
    def mems(self) -> list[Mem]:
        return list(self._mems)

    def _key(self) -> tuple:
        return (self._core_type, self._mems)

    def __repr__(self) -> str:
        return f"Core({self._core_type}, {list(self._mems)})"


class _Group(_Value):
    """A unit made of counted parts (a cluster of cores, a die of clusters ...)."""

    __slots__ = ("_parts",)
    _parts: tuple[tuple[Any, int], ...]  # (part of the class's ``_part``, count)
    _part: type = object

    def __init__(self, counts: Any, count: int | None = None) -> None:
        _set(self, _parts=_counts(type(self).__name__, self._part, counts, count))

    def _key(self) -> tuple:
        return self._parts

    def _total(self, attribute: str) -> int:
        return sum(getattr(part, attribute)() * n for part, n in self._parts)


class Cluster(_Group):
    """Cores that work together (on the 910B: one cube core and two vector cores)."""

    __slots__ = ()
    _part = Core

    def __init__(self, core_counts: Mapping[Core, int] | Core, count: int | None = None) -> None:
        super().__init__(core_counts, count)

    @property
    def core_counts(self) -> dict[Core, int]:
        return dict(self._parts)

    def total_core_count(self) -> int:
        return sum(n for _, n in self._parts)


class Die(_Group):
    __slots__ = ()
    _part = Cluster

    def __init__(self, cluster_counts: Mapping[Cluster, int] | Cluster,
                 count: int | None = None) -> None:
        super().__init__(cluster_counts, count)

    @property
    def cluster_counts(self) -> dict[Cluster, int]:
        return dict(self._parts)

    def total_cluster_count(self) -> int:
        return sum(n for _, n in self._parts)

    def total_core_count(self) -> int:
        return self._total("total_core_count")


class SoC(_Group):
    __slots__ = ()
    _part = Die

    def __init__(self, die_counts: Mapping[Die, int] | Die, count: int | None = None) -> None:
        super().__init__(die_counts, count)

    @property
    def die_counts(self) -> dict[Die, int]:
        return dict(self._parts)

    def total_die_count(self) -> int:
        return sum(n for _, n in self._parts)

    def total_cluster_count(self) -> int:
        return self._total("total_cluster_count")

    def total_core_count(self) -> int:
        return self._total("total_core_count")

    def cores(self) -> list[tuple[Core, int]]:
        """Every distinct core of the chip with how many the chip has."""
        found: dict[Core, int] = {}
        for die, dies in self._parts:
            for cluster, clusters in die._parts:
                for core, cores in cluster._parts:
                    found[core] = found.get(core, 0) + dies * clusters * cores
        return list(found.items())

"""IR properties, property sets and the property groups (03-passes.md §4.1-§4.2).

An ``IRProperty`` is a fact about a Program that a pass may require, produce or
invalidate.  The enum order is both the bit order of ``IRPropertySet`` and the
order in which sets print, so it must never be reshuffled.
"""

from __future__ import annotations

import enum
from typing import Iterable, Iterator

from .._core_enum import CoreEnumRepr
__all__ = ["IRProperty", "IRPropertySet", "get_structural_properties",
           "get_verified_properties", "get_default_verify_properties"]


class IRProperty(CoreEnumRepr, enum.Enum):
    """One verifiable fact about a Program.  The value is the bit index."""

    # PyPTO's members, values and declaration order (37 is unused there too).
    SSAForm = 0
    TypeChecked = 1
    NoNestedCalls = 2
    NormalizedStmtStructure = 3
    NoRedundantBlocks = 4
    SplitIncoreOrch = 5
    HasMemRefs = 6
    IncoreTileOps = 7
    AllocatedMemoryAddr = 8
    MixedKernelExpanded = 9
    ClusterOutlined = 10
    HierarchyOutlined = 15
    TileOps2D = 11
    TileMemoryInferred = 12
    BreakContinueValid = 13
    UseAfterDef = 14
    StructuredCtrlFlow = 16
    VectorKernelSplit = 17
    OutParamNotShadowed = 18
    NoNestedInCore = 19
    InOutUseValid = 20
    PipelineLoopValid = 21
    PipelineResolved = 22
    UnrollResolved = 35
    CallDirectionsResolved = 23
    TileTypeCoherence = 24
    InlineFunctionsEliminated = 25
    OrchestrationReferencesResolved = 26
    TensorViewCanonical = 27
    ArrayNotEscaped = 28
    CommDomainScopesMaterialized = 29
    DistTensorCtxMaterialized = 30
    RuntimeScopesMaterialized = 31
    AssignTypeSymmetry = 32
    ManualDepsOnSubmitOnly = 33
    ReturnParamsExplicit = 34
    AivSplitValid = 36
    IterArgCarryClassified = 38
    AccToGmStoreValid = 39
    AtomicAddDtypeValid = 40
    # pl.graph's (the seeds'; PyPTO's release predates pl.graph).
    GraphOutlined = 41
    GraphBoundaryLegalized = 42


# By bit, as a property set lists its members (declaration order is PyPTO's).
_MEMBERS: tuple[IRProperty, ...] = tuple(sorted(IRProperty, key=lambda prop: prop.value))


# Each member's bit, looked up by exact member (an enum's ``.value`` is a descriptor
# call; passes build and test property sets per pass, per run).
_BITS: dict[IRProperty, int] = {prop: 1 << prop.value for prop in _MEMBERS}
_MEMBER_BITS: tuple[tuple[IRProperty, int], ...] = tuple(_BITS.items())


def _bit(prop: object, where: str) -> int:
    if type(prop) is not IRProperty:
        raise TypeError(f"IRPropertySet.{where} expects an IRProperty, got {type(prop).__name__}")
    return _BITS[prop]


def _mask_of(other: object, where: str) -> int:
    if not isinstance(other, IRPropertySet):
        raise TypeError(f"IRPropertySet.{where} expects an IRPropertySet, "
                        f"got {type(other).__name__}")
    return other._mask


class IRPropertySet:
    """A mutable set of ``IRProperty`` values (a bit mask).

    Deliberately unhashable: it is mutable, and the public project's binding is
    unhashable too.  ``union_with``, ``intersection`` and ``difference`` return
    new sets; ``insert`` and ``remove`` change this one.
    """

    __slots__ = ("_mask",)
    __hash__ = None  # type: ignore[assignment]  # unhashable: the set is mutable

    def __init__(self, props: Iterable[IRProperty] = ()) -> None:
        if isinstance(props, IRProperty):
            props = (props,)
        mask = 0
        for prop in props:
            mask |= _bit(prop, "__init__")
        self._mask = mask

    @classmethod
    def _from_mask(cls, mask: int) -> "IRPropertySet":
        new = object.__new__(cls)
        new._mask = mask
        return new

    # -- mutation -----------------------------------------------------------------
    def insert(self, prop: IRProperty) -> None:
        self._mask |= _bit(prop, "insert")

    def remove(self, prop: IRProperty) -> None:
        """Remove ``prop`` if present (absent is not an error)."""
        self._mask &= ~_bit(prop, "remove")

    # -- queries ------------------------------------------------------------------
    def contains(self, prop: IRProperty) -> bool:
        return bool(self._mask & _bit(prop, "contains"))

    def contains_all(self, other: "IRPropertySet") -> bool:
        mask = _mask_of(other, "contains_all")
        return self._mask & mask == mask

    def empty(self) -> bool:
        return self._mask == 0

    def to_list(self) -> list[IRProperty]:
        """The members in enum order."""
        mask = self._mask
        return [prop for prop, bit in _MEMBER_BITS if mask & bit]

    # -- set algebra (new sets) -----------------------------------------------------
    def union_with(self, other: "IRPropertySet") -> "IRPropertySet":
        return IRPropertySet._from_mask(self._mask | _mask_of(other, "union_with"))

    def intersection(self, other: "IRPropertySet") -> "IRPropertySet":
        return IRPropertySet._from_mask(self._mask & _mask_of(other, "intersection"))

    def difference(self, other: "IRPropertySet") -> "IRPropertySet":
        return IRPropertySet._from_mask(self._mask & ~_mask_of(other, "difference"))

    def copy(self) -> "IRPropertySet":
        return IRPropertySet._from_mask(self._mask)

    # -- Python protocol --------------------------------------------------------------
    def __contains__(self, prop: object) -> bool:
        return type(prop) is IRProperty and bool(self._mask & _BITS[prop])

    def __iter__(self) -> Iterator[IRProperty]:
        return iter(self.to_list())

    def __len__(self) -> int:
        return bin(self._mask).count("1")

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, IRPropertySet):
            return NotImplemented
        return self._mask == other._mask

    def __ne__(self, other: object) -> bool:
        if not isinstance(other, IRPropertySet):
            return NotImplemented
        return self._mask != other._mask

    def __str__(self) -> str:
        return "{" + ", ".join(prop.name for prop in self.to_list()) + "}"

    def __repr__(self) -> str:
        return f"IRPropertySet({self})"


P = IRProperty

# Checked by every VerificationInstrument hook; never declared by a pass.
_STRUCTURAL = (P.TypeChecked, P.BreakContinueValid, P.NoRedundantBlocks, P.UseAfterDef,
               P.OutParamNotShadowed, P.NoNestedInCore, P.InOutUseValid, P.PipelineLoopValid,
               P.ArrayNotEscaped, P.ManualDepsOnSubmitOnly, P.AtomicAddDtypeValid)

# Cheap enough for the pipeline to check automatically at BASIC level.  The
# public project's set also holds members whose producers are out of scope;
# no in-scope pass produces them, so listing them here would change nothing.
_VERIFIED = (P.SSAForm, P.TypeChecked, P.BreakContinueValid, P.NoRedundantBlocks,
             P.InOutUseValid, P.ManualDepsOnSubmitOnly, P.OrchestrationReferencesResolved,
             P.AivSplitValid, P.AtomicAddDtypeValid, P.GraphBoundaryLegalized)

# What ``run_verifier()`` checks when given no property set.
_DEFAULT_VERIFY = (P.SSAForm, P.TypeChecked, P.NoNestedCalls, P.BreakContinueValid,
                   P.NoRedundantBlocks, P.UseAfterDef, P.OutParamNotShadowed, P.NoNestedInCore,
                   P.TileTypeCoherence, P.ArrayNotEscaped)

del P


def get_structural_properties() -> IRPropertySet:
    """Properties every ``VerificationInstrument`` hook checks (a fresh set)."""
    return IRPropertySet(_STRUCTURAL)


def get_verified_properties() -> IRPropertySet:
    """Properties the pipeline verifies automatically at BASIC level (a fresh set)."""
    return IRPropertySet(_VERIFIED)


def get_default_verify_properties() -> IRPropertySet:
    """Properties ``run_verifier()`` checks by default (a fresh set)."""
    return IRPropertySet(_DEFAULT_VERIFY)

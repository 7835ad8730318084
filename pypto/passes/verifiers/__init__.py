"""The built-in property verifiers (03-passes.md §4.3), one per ``IRProperty``.

``register_builtin_verifiers`` is called by ``PropertyVerifierRegistry`` on first
use.  Every member of ``IRProperty`` gets a verifier; out-of-scope members get
one that always passes.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..properties import IRProperty

if TYPE_CHECKING:  # (the registry imports this module when it first runs)
    from ..verifier_registry import PropertyVerifierRegistry
from .calls import (CallDirectionsResolvedVerifier, InlineFunctionsEliminatedVerifier,
                    ManualDepsOnSubmitOnlyVerifier, OrchestrationReferencesResolvedVerifier)
from .control_flow import (BreakContinueValidVerifier, IterArgCarryClassifiedVerifier,
                           PipelineLoopValidVerifier, UnrollResolvedVerifier)
from .graph_boundary import GraphBoundaryLegalizedVerifier
from .nested_calls import NoNestedCallsVerifier
from .params import InOutUseValidVerifier, OutParamNotShadowedVerifier
from .scope_absence import ScopeAbsenceVerifier, iter_scopes
from .scopes import (NoNestedInCoreVerifier, SplitIncoreOrchVerifier, cluster_outlined,
                     graph_outlined, hierarchy_outlined, is_compute_tensor_op)
from .signatures import ReturnParamsExplicitVerifier
from .ssa import SSAErrorType, SSAVerifier
from .stmt_structure import NoRedundantBlocksVerifier, NormalizedStmtStructureVerifier
from .trivial import AlwaysPassingVerifier
from .type_check import TypeCheckVerifier
from .use_after_def import UseAfterDefVerifier

__all__ = ["register_builtin_verifiers", "SSAErrorType", "ScopeAbsenceVerifier", "iter_scopes",
           "is_compute_tensor_op"]

P = IRProperty


def _builtin_verifiers() -> dict:
    return {
        P.SSAForm: SSAVerifier(),
        P.TypeChecked: TypeCheckVerifier(),
        P.NoNestedCalls: NoNestedCallsVerifier(),
        P.NormalizedStmtStructure: NormalizedStmtStructureVerifier(),
        P.NoRedundantBlocks: NoRedundantBlocksVerifier(),
        P.BreakContinueValid: BreakContinueValidVerifier(),
        P.UseAfterDef: UseAfterDefVerifier(),
        P.OutParamNotShadowed: OutParamNotShadowedVerifier(),
        P.InOutUseValid: InOutUseValidVerifier(),
        P.PipelineLoopValid: PipelineLoopValidVerifier(),
        P.UnrollResolved: UnrollResolvedVerifier(),
        P.CallDirectionsResolved: CallDirectionsResolvedVerifier(),
        P.ReturnParamsExplicit: ReturnParamsExplicitVerifier(),
        P.IterArgCarryClassified: IterArgCarryClassifiedVerifier(),
        P.NoNestedInCore: NoNestedInCoreVerifier(),
        P.ManualDepsOnSubmitOnly: ManualDepsOnSubmitOnlyVerifier(),
        P.InlineFunctionsEliminated: InlineFunctionsEliminatedVerifier(),
        P.OrchestrationReferencesResolved: OrchestrationReferencesResolvedVerifier(),
        P.HierarchyOutlined: hierarchy_outlined(),
        P.GraphOutlined: graph_outlined(),
        P.SplitIncoreOrch: SplitIncoreOrchVerifier(),
        P.ClusterOutlined: cluster_outlined(),
        P.GraphBoundaryLegalized: GraphBoundaryLegalizedVerifier(),
    }


def register_builtin_verifiers(registry: type[PropertyVerifierRegistry]) -> None:
    verifiers = _builtin_verifiers()
    for prop in IRProperty:
        registry.register(prop, verifiers.get(prop) or AlwaysPassingVerifier(prop.name))

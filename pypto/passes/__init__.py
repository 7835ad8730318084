"""``pypto.passes``: pass objects, contexts and instruments, IR properties and their
verifiers, pipelines, and one factory per declared pass (03-passes.md §1-§6).

``from pypto import passes`` and ``from pypto.pypto_core import passes`` are the
same module.  The pass factories (``passes.convert_to_ssa()`` ...) are generated
from the declarations in ``registry.py``.
"""

from __future__ import annotations


from .context import (CallbackInstrument, PassContext, PassInstrument, ReportInstrument,
                      RuntimeKind, VerificationInstrument, VerificationLevel, VerificationMode)
from .custom import (PassProperties, create_function_pass, create_program_pass,
                     runtime_kind_from_name, runtime_kind_to_name)
from .diagnostic_checks import (DiagnosticCheck, DiagnosticCheckSet, DiagnosticPhase,
                                MemoryPlanner, get_default_diagnostic_phase)
from .diagnostic_registry import DiagnosticCheckRegistry, DiagnosticInstrument
from .diagnostic import (Diagnostic, DiagnosticSeverity, PassError, PassErrorCode,
                         VerificationError, format_report)
from .instrumentation import (IRStatistics, PassStatisticsInstrument, PassTimingInstrument,
                              PrintIRInstrument, ir_statistics)
from .names import auto_name, fresh_name_like, split_auto_name
from .pass_base import Pass, PassKind
from .pipeline import PassPipeline, get_default_verification_level
from .properties import (IRProperty, IRPropertySet, get_default_verify_properties,
                         get_structural_properties, get_verified_properties)
from .registry import PASS_SPECS, PassSpec, build_pipeline, get_pass_spec, list_passes, make_factory
from .verifier_registry import (FunctionVerifier, PropertyVerifier, PropertyVerifierRegistry,
                                verify_properties)
from .verifiers.ssa import SSAErrorType
from .verifiers.nested_calls import NestedCallErrorType
from .verifiers.type_check import TypeCheckErrorType
from .verifiers.use_after_def import UseAfterDefErrorType

__all__ = [
    "Pass", "PassKind", "PassInstrument", "VerificationInstrument", "CallbackInstrument",
    "ReportInstrument", "PassContext", "PassPipeline", "IRProperty", "IRPropertySet",
    "VerificationMode", "VerificationLevel", "RuntimeKind", "Diagnostic", "DiagnosticSeverity",
    "PassError", "PassErrorCode", "VerificationError", "PrintIRInstrument",
    "PassTimingInstrument", "PassStatisticsInstrument", "IRStatistics", "ir_statistics",
    "PropertyVerifierRegistry", "PropertyVerifier", "FunctionVerifier", "SSAErrorType",
    "get_verified_properties", "get_structural_properties", "get_default_verify_properties",
    "get_default_verification_level", "verify_properties", "format_report", "PassSpec",
    "get_pass_spec", "list_passes", "build_pipeline", "auto_name", "split_auto_name",
    "fresh_name_like", "PassProperties", "create_function_pass", "create_program_pass",
    "runtime_kind_from_name", "runtime_kind_to_name", "DiagnosticCheck", "DiagnosticCheckSet",
    "DiagnosticPhase", "MemoryPlanner", "get_default_diagnostic_phase", "NestedCallErrorType",
    "TypeCheckErrorType", "UseAfterDefErrorType", "DiagnosticCheckRegistry",
    "DiagnosticInstrument",
]

# passes.inline_functions(), passes.convert_to_ssa(), ..., passes.run_verifier(properties=None)
for _spec in PASS_SPECS:
    globals()[_spec.factory_name] = make_factory(_spec)
    __all__.append(_spec.factory_name)
del _spec

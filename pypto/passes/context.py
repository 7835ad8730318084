"""``PassContext`` and the pass instruments (03-passes.md §3).

A ``PassContext`` is entered with ``with``; contexts form a thread-local stack
and the innermost one wins completely (its instruments replace the outer ones,
they are not merged).  All pass configuration lives in the context, never in
module globals.
"""

from __future__ import annotations

import enum
import os
import threading
from typing import TYPE_CHECKING, Any, Callable, Iterable

from .._core_enum import CoreEnumRepr
from ..errors import InternalError
from ..ir.function import Program
from .diagnostic import VerificationError, format_report, has_errors
from .diagnostic_checks import (DiagnosticCheckSet, DiagnosticPhase, MemoryPlanner,
                                default_disabled_diagnostics)
from .properties import get_structural_properties

if TYPE_CHECKING:
    from .pass_base import Pass

__all__ = ["VerificationMode", "VerificationLevel", "RuntimeKind", "PassContext",
           "PassInstrument", "VerificationInstrument", "CallbackInstrument", "ReportInstrument",
           "notify_failure"]


class VerificationMode(CoreEnumRepr, enum.Enum):
    """When a ``VerificationInstrument`` checks properties around each pass."""

    NONE = 0
    BEFORE = 1
    AFTER = 2
    BEFORE_AND_AFTER = 3


class VerificationLevel(CoreEnumRepr, enum.Enum):
    """How much ``PassPipeline.run`` verifies automatically (§6.1).

    ROUNDTRIP verifies like BASIC; the print/reparse check itself is the job of
    ``pypto.ir.instruments.make_roundtrip_instrument()``.
    """

    NONE = 0
    BASIC = 1
    ROUNDTRIP = 2


class RuntimeKind(CoreEnumRepr, enum.Enum):
    """Target runtime; stored for compatibility, no in-scope pass reads it."""

    TENSORMAP_AND_RINGBUFFER = 0
    HOST_BUILD_GRAPH = 1


class PassInstrument:
    """Hooks run around every pass called while a context holding it is active."""

    def __init__(self, name: str | None = None) -> None:
        self._name = name if name is not None else type(self).__name__

    def get_name(self) -> str:
        return self._name

    @property
    def name(self) -> str:
        return self._name

    def run_before_pass(self, pass_: "Pass", program: Program) -> None:
        """Called with the pass's input."""

    def run_after_pass(self, pass_: "Pass", program: Program) -> None:
        """Called with the pass's output."""

    # pypto's extensions (PyPTO's instruments have only the two hooks above):
    def run_on_failure(self, pass_: "Pass", program: Program, error: BaseException) -> None:
        """Called when the pass raised (with its input) or when the pipeline's
        verification of its output failed (with that output); ``error`` is re-raised."""

    def record_pass_time(self, pass_: "Pass", seconds: float) -> None:
        """Called after the pass with the wall time of its transform alone."""

    def run_after_function(self, pass_: "Pass", done: int, total: int) -> None:
        """Called by a function pass after each function (``done`` of ``total``)."""

    def run_before_pipeline(self, program: Program) -> None:
        """Called by ``PassPipeline.run`` with its input, before the first pass."""

    def run_after_pipeline(self, program: Program) -> None:
        """Called by ``PassPipeline.run`` with its output, after the last pass."""

    def __repr__(self) -> str:
        return f"{type(self).__name__}({self._name!r})"


def notify_failure(instruments: list[PassInstrument], pass_: "Pass", program: Program,
                   error: BaseException) -> None:
    for instrument in instruments:
        instrument.run_on_failure(pass_, program, error)


_state = threading.local()


def _stack() -> list["PassContext"]:
    stack = getattr(_state, "stack", None)
    if stack is None:
        stack = _state.stack = []
    return stack


def _enum_arg(owner: str, field: str, value: Any, enum_type: type[enum.Enum]) -> Any:
    if not isinstance(value, enum_type):
        raise TypeError(f"{owner}: '{field}' expects a {enum_type.__name__}, "
                        f"got {type(value).__name__}")
    return value


# PyPTO's default for ``disabled_diagnostics`` (a set holding UnusedControlFlowResult).
# The constructor copies whatever set it is given, so the shared default is never changed;
# ``None`` means the same default.
_DEFAULT_DISABLED = default_disabled_diagnostics()


class PassContext:
    """Instruments and pass configuration for every pass run inside ``with ctx:``.

    The diagnostic phase and disabled diagnostics tell a ``DiagnosticInstrument`` when
    and what to check.  PyPTO's back-end options (memory planner, L0C double buffering)
    are kept and returned by their getters; no in-scope pass reads them.
    """

    def __init__(self, instruments: Iterable[PassInstrument],
                 verification_level: VerificationLevel = VerificationLevel.BASIC,
                 diagnostic_phase: DiagnosticPhase = DiagnosticPhase.PRE_PIPELINE,
                 disabled_diagnostics: DiagnosticCheckSet | None = _DEFAULT_DISABLED,
                 memory_planner: MemoryPlanner = MemoryPlanner.PYPTO,
                 enable_pypto_l0c_double_buffer: bool = False,
                 runtime: RuntimeKind = RuntimeKind.TENSORMAP_AND_RINGBUFFER) -> None:
        items = list(instruments) if instruments is not None else []
        for i, item in enumerate(items):
            if not isinstance(item, PassInstrument):
                raise TypeError(f"PassContext: 'instruments[{i}]' expects a PassInstrument, "
                                f"got {type(item).__name__}")
        self._instruments = items
        self._verification_level = _enum_arg("PassContext", "verification_level",
                                             verification_level, VerificationLevel)
        self._diagnostic_phase = _enum_arg("PassContext", "diagnostic_phase", diagnostic_phase,
                                           DiagnosticPhase)
        if disabled_diagnostics is None:
            disabled_diagnostics = default_disabled_diagnostics()
        elif not isinstance(disabled_diagnostics, DiagnosticCheckSet):
            raise TypeError(f"PassContext: 'disabled_diagnostics' expects a DiagnosticCheckSet, "
                            f"got {type(disabled_diagnostics).__name__}")
        self._disabled_diagnostics = DiagnosticCheckSet(disabled_diagnostics)
        self._memory_planner = _enum_arg("PassContext", "memory_planner", memory_planner,
                                         MemoryPlanner)
        self._l0c_double_buffer = bool(enable_pypto_l0c_double_buffer)
        self._runtime = _enum_arg("PassContext", "runtime", runtime, RuntimeKind)

    def get_instruments(self) -> list[PassInstrument]:
        return list(self._instruments)

    def get_verification_level(self) -> VerificationLevel:
        return self._verification_level

    def get_runtime(self) -> RuntimeKind:
        return self._runtime

    def get_diagnostic_phase(self) -> DiagnosticPhase:
        return self._diagnostic_phase

    def get_disabled_diagnostics(self) -> DiagnosticCheckSet:
        return DiagnosticCheckSet(self._disabled_diagnostics)

    def get_memory_planner(self) -> MemoryPlanner:
        return self._memory_planner

    def get_enable_pypto_l0c_double_buffer(self) -> bool:
        return self._l0c_double_buffer

    @staticmethod
    def current() -> "PassContext | None":
        """The innermost active context of this thread, or ``None``."""
        stack = _stack()
        return stack[-1] if stack else None

    def __enter__(self) -> "PassContext":
        _stack().append(self)
        return self

    def __exit__(self, *exc_info: Any) -> None:
        stack = _stack()
        if not stack or stack[-1] is not self:
            raise InternalError("PassContext exited out of order")
        stack.pop()

    def __repr__(self) -> str:
        return (f"PassContext(instruments={self._instruments!r}, "
                f"verification_level={self._verification_level.name}, "
                f"runtime={self._runtime.name})")


class VerificationInstrument(PassInstrument):
    """Verifies ``required ∪ Structural`` before and/or ``produced ∪ Structural`` after."""

    def __init__(self, mode: VerificationMode = VerificationMode.BEFORE_AND_AFTER) -> None:
        super().__init__("VerificationInstrument")
        self._mode = _enum_arg("VerificationInstrument", "mode", mode, VerificationMode)

    def get_mode(self) -> VerificationMode:
        return self._mode

    def run_before_pass(self, pass_: "Pass", program: Program) -> None:
        if self._mode in (VerificationMode.BEFORE, VerificationMode.BEFORE_AND_AFTER):
            props = pass_.get_required_properties().union_with(get_structural_properties())
            self._check(props, program, f"Pre-verification failed before pass '{pass_.get_name()}'",
                        f"before {pass_.get_name()}")

    def run_after_pass(self, pass_: "Pass", program: Program) -> None:
        if self._mode in (VerificationMode.AFTER, VerificationMode.BEFORE_AND_AFTER):
            props = pass_.get_produced_properties().union_with(get_structural_properties())
            self._check(props, program, f"Post-verification failed after pass '{pass_.get_name()}'",
                        f"after {pass_.get_name()}")

    @staticmethod
    def _check(props: Any, program: Program, headline: str, stage: str) -> None:
        from .verifier_registry import PropertyVerifierRegistry, log_warnings
        diagnostics = PropertyVerifierRegistry.verify(props, program)
        if has_errors(diagnostics):
            raise VerificationError(f"{headline}:\n{format_report(diagnostics)}", diagnostics,
                                    stage=stage)
        log_warnings(diagnostics, headline)


Callback = Callable[["Pass", Program], None]


class CallbackInstrument(PassInstrument):
    """Calls ``before_pass(pass, program)`` / ``after_pass(pass, program)``."""

    def __init__(self, before_pass: Callback | None = None, after_pass: Callback | None = None,
                 name: str = "CallbackInstrument") -> None:
        for field, fn in (("before_pass", before_pass), ("after_pass", after_pass)):
            if fn is not None and not callable(fn):
                raise TypeError(f"CallbackInstrument: '{field}' must be callable, "
                                f"got {type(fn).__name__}")
        super().__init__(name)
        self._before = before_pass
        self._after = after_pass

    def run_before_pass(self, pass_: "Pass", program: Program) -> None:
        if self._before is not None:
            self._before(pass_, program)

    def run_after_pass(self, pass_: "Pass", program: Program) -> None:
        if self._after is not None:
            self._after(pass_, program)


class ReportInstrument(PassInstrument):
    """Writes one verification report per pass into ``output_dir`` (never raises on findings).

    After the k-th pass it verifies ``produced ∪ Structural`` and writes
    ``NN_after_<PassName>_verification.txt`` (NN two-digit, 1-based).
    """

    def __init__(self, output_dir: str | os.PathLike) -> None:
        if not isinstance(output_dir, (str, os.PathLike)):
            raise TypeError(f"ReportInstrument: 'output_dir' expects a path, "
                            f"got {type(output_dir).__name__}")
        super().__init__("ReportInstrument")
        self._output_dir = os.fspath(output_dir)
        self._count = 0

    def get_output_dir(self) -> str:
        return self._output_dir

    def run_after_pass(self, pass_: "Pass", program: Program) -> None:
        from .verifier_registry import PropertyVerifierRegistry
        self._count += 1
        props = pass_.get_produced_properties().union_with(get_structural_properties())
        diagnostics = PropertyVerifierRegistry.verify(props, program)
        os.makedirs(self._output_dir, exist_ok=True)
        path = os.path.join(self._output_dir,
                            f"{self._count:02d}_after_{pass_.get_name()}_verification.txt")
        with open(path, "w", encoding="utf-8") as handle:
            handle.write(format_report(diagnostics) + "\n")

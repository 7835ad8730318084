"""Property verifiers and the registry mapping each ``IRProperty`` to one (§4.3).

A verifier checks one property over a whole Program and appends ``Diagnostic``s;
it never raises for a violation.  ``verify_or_throw`` / ``verify_properties``
turn error diagnostics into a ``pypto.Error`` carrying the §4.4 report;
warnings never fail and are logged on the ``pypto.passes`` logger.

The built-in verifiers (``pypto.passes.verifiers``) are registered on first use
of the registry; a test or plug-in may replace one with ``register``.
"""

from __future__ import annotations

import logging
import threading
from typing import Any, Callable, ClassVar, Iterable

from ..errors import InternalError
from ..ir.depth import nesting_guard
from ..ir.function import Program
from .diagnostic import (Diagnostic, DiagnosticSeverity, VerificationError, format_report,
                         has_errors)
from .properties import IRProperty, IRPropertySet, get_default_verify_properties
from .run_memo import run_scope

__all__ = ["PropertyVerifier", "FunctionVerifier", "PropertyVerifierRegistry", "log_warnings",
           "verify_properties", "verify_program", "as_property_set"]

logger = logging.getLogger("pypto.passes")
_BUILTINS_LOCK = threading.RLock()  # the first fill of the registry (``_ensure_builtins``)


class PropertyVerifier:
    """Checks one property.  Subclasses set ``rule_name`` and implement ``verify``."""

    rule_name: ClassVar[str] = ""

    def get_name(self) -> str:
        return self.rule_name

    def verify(self, program: Program, diagnostics: list[Diagnostic]) -> None:
        raise NotImplementedError


class FunctionVerifier(PropertyVerifier):
    """Adapts a plain ``fn(program, diagnostics)`` into a verifier (handy in tests)."""

    def __init__(self, rule_name: str, fn: Callable[[Program, list[Diagnostic]], None]) -> None:
        self._rule_name = rule_name
        self._fn = fn

    def get_name(self) -> str:
        return self._rule_name

    def verify(self, program: Program, diagnostics: list[Diagnostic]) -> None:
        self._fn(program, diagnostics)


def as_property_set(props: Any, owner: str) -> IRPropertySet:
    if isinstance(props, IRPropertySet):
        return props
    if isinstance(props, IRProperty):
        return IRPropertySet((props,))
    try:
        return IRPropertySet(props)
    except TypeError:
        raise TypeError(f"{owner}: 'props' expects an IRPropertySet or a list of IRProperty, "
                        f"got {type(props).__name__}") from None


def _check_program(program: Any, owner: str) -> None:
    if not isinstance(program, Program):
        raise TypeError(f"{owner} expects an ir.Program, got {type(program).__name__}")


class PropertyVerifierRegistry:
    """The process-wide table ``IRProperty -> PropertyVerifier``.

    All methods are class methods, so ``PropertyVerifierRegistry.verify(...)`` and
    ``PropertyVerifierRegistry.get_instance().verify(...)`` are the same call.
    """

    _verifiers: ClassVar[dict[IRProperty, PropertyVerifier]] = {}
    _builtins_loaded: ClassVar[bool] = False
    _builtins_loading: ClassVar[bool] = False
    _instance: ClassVar["PropertyVerifierRegistry | None"] = None

    @classmethod
    def get_instance(cls) -> "PropertyVerifierRegistry":
        if cls._instance is None:
            cls._instance = cls()
        return cls._instance

    @classmethod
    def _ensure_builtins(cls) -> None:
        if cls._builtins_loaded:
            return
        # Threads verifying for the first time at once wait for one of them to fill
        # the table (without the lock, a second thread saw the flag set and found no
        # verifier yet: an InternalError).  The loading thread's own ``register`` calls
        # come back here and return (the lock is reentrant, the flag says "loading").
        with _BUILTINS_LOCK:
            if cls._builtins_loaded or cls._builtins_loading:
                return
            cls._builtins_loading = True
            try:
                from .verifiers import register_builtin_verifiers
                register_builtin_verifiers(cls)
                cls._builtins_loaded = True
            finally:
                cls._builtins_loading = False

    @classmethod
    def register(cls, prop: IRProperty, verifier: PropertyVerifier) -> PropertyVerifier | None:
        """Install ``verifier`` for ``prop``; returns the one it replaces (or ``None``)."""
        if not isinstance(prop, IRProperty):
            raise TypeError(f"PropertyVerifierRegistry.register expects an IRProperty, "
                            f"got {type(prop).__name__}")
        if not isinstance(verifier, PropertyVerifier):
            raise TypeError("PropertyVerifierRegistry.register expects a PropertyVerifier, "
                            f"got {type(verifier).__name__}")
        cls._ensure_builtins()
        previous = cls._verifiers.get(prop)
        cls._verifiers[prop] = verifier
        return previous

    @classmethod
    def get_verifier(cls, prop: IRProperty) -> PropertyVerifier | None:
        cls._ensure_builtins()
        return cls._verifiers.get(prop)

    @classmethod
    def verify(cls, properties: IRPropertySet | IRProperty,
               program: Program) -> list[Diagnostic]:
        """Run the verifiers of ``props``; return every diagnostic, property by property
        in enum order.  Verifiers that are statement checks (``verifiers.checks``) share
        one walk of the program; each keeps its own diagnostics, so the result is the
        same as running the verifiers one after another."""
        props = as_property_set(properties, "PropertyVerifierRegistry.verify")
        _check_program(program, "PropertyVerifierRegistry.verify")
        cls._ensure_builtins()
        from .verifiers.checks import CheckVerifier, run_checks
        verifiers: list[PropertyVerifier] = []
        for prop in props.to_list():
            verifier = cls._verifiers.get(prop)
            if verifier is None:
                raise InternalError(f"No verifier registered for property {prop.name}")
            verifiers.append(verifier)
        # One output list per property; the fused checks fill theirs in one walk.
        outputs: list[list[Diagnostic]] = [[] for _ in verifiers]
        fused = [(verifier, out) for verifier, out in zip(verifiers, outputs)
                 if isinstance(verifier, CheckVerifier)]
        # (run_scope: a verification called alone remembers answers for its own length)
        with run_scope(), nesting_guard(program):  # past the stack: NestingError
            if len(fused) > 1:
                run_checks(program, [v.make_check(program, out) for v, out in fused])
            for verifier, out in zip(verifiers, outputs):
                if len(fused) <= 1 or not isinstance(verifier, CheckVerifier):
                    verifier.verify(program, out)
        return [diagnostic for out in outputs for diagnostic in out]

    @staticmethod
    def generate_report(diagnostics: Iterable[Diagnostic]) -> str:
        """The text report of ``diagnostics`` (``format_report``)."""
        return format_report(diagnostics)

    @classmethod
    def verify_or_throw(cls, properties: IRPropertySet, program: Program) -> list[Diagnostic]:
        """Like ``verify``; raises ``pypto.Error`` with the report if any error was found."""
        diagnostics = cls.verify(properties, program)
        if has_errors(diagnostics):
            raise VerificationError(format_report(diagnostics), diagnostics)
        log_warnings(diagnostics, "verification")
        return diagnostics


def log_warnings(diagnostics: list[Diagnostic], label: str) -> None:
    if any(d.severity is not DiagnosticSeverity.Error for d in diagnostics):
        logger.warning("IR verification (%s) reported warnings:\n%s", label,
                       format_report(diagnostics))


def _stage_of(pass_name: str) -> str:
    """Where verification ran, as a rendered note says it (``pipeline_input`` is the
    spec's label of the check before the first pass, not a pass users wrote)."""
    if pass_name == "pipeline_input":
        return "of the program as written, before the first pass"
    return f"after {pass_name}"


def verify_properties(properties: IRPropertySet, program: Program,
                      pass_name: str) -> list[Diagnostic]:
    """Verify ``properties`` on ``program``; ``pypto.Error`` naming ``pass_name`` on failure."""
    props = as_property_set(properties, "verify_properties")
    _check_program(program, "verify_properties")
    diagnostics = PropertyVerifierRegistry.verify(props, program)
    if has_errors(diagnostics):
        raise VerificationError(f"Verification failed after '{pass_name}' for properties "
                                f"{props}:\n" + format_report(diagnostics), diagnostics,
                                stage=_stage_of(pass_name))
    log_warnings(diagnostics, pass_name)
    return diagnostics


def verify_program(program: Program, properties: Any = None) -> Program:
    """The transform of the ``IRVerifier`` pass (``passes.run_verifier(properties)``)."""
    props = (get_default_verify_properties() if properties is None
             else as_property_set(properties, "run_verifier"))
    PropertyVerifierRegistry.verify_or_throw(props, program)
    return program

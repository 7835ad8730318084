"""``PassPipeline``: a pass sequence with automatic verification by level (§6.1).

Only *Verified* properties are checked, each once after its first producer and
again only after a pass invalidated it, so a BASIC run stays cheap.  Required
properties are never checked here (that is a BEFORE-mode instrument's job).
"""

from __future__ import annotations

import os
import threading
from typing import Iterable

from ..ir.depth import NestingError, check_nesting
from ..ir.function import Program
from .context import PassContext, VerificationLevel, notify_failure
from .diagnostic import VerificationError
from .pass_base import Pass, nesting_refusal
from .properties import (IRProperty, IRPropertySet, get_structural_properties,
                         get_verified_properties)
from .run_memo import run_scope, trusting_marks
from .verifier_registry import verify_properties

__all__ = ["PassPipeline", "get_default_verification_level", "parse_verification_level",
           "VERIFY_LEVEL_ENV", "pipeline_guarantees", "in_pipeline"]

VERIFY_LEVEL_ENV = "PYPTO_VERIFY_LEVEL"

_LEVELS = {"none": VerificationLevel.NONE, "basic": VerificationLevel.BASIC,
           "roundtrip": VerificationLevel.ROUNDTRIP}


def parse_verification_level(text: str) -> VerificationLevel:
    """``"none" | "basic" | "roundtrip"`` (case-insensitive) -> ``VerificationLevel``."""
    level = _LEVELS.get(text.strip().lower())
    if level is None:
        raise ValueError(f"{VERIFY_LEVEL_ENV} must be one of none, basic, roundtrip; "
                         f"got {text!r}")
    return level


def get_default_verification_level() -> VerificationLevel:
    """From ``PYPTO_VERIFY_LEVEL``; unset (or empty) means BASIC."""
    text = os.environ.get(VERIFY_LEVEL_ENV, "")
    if not text.strip():
        return VerificationLevel.BASIC
    return parse_verification_level(text)


_state = threading.local()


def in_pipeline() -> bool:
    """Is a ``PassPipeline.run`` running on this thread (its passes are being called)?"""
    return getattr(_state, "depth", 0) > 0


def pipeline_guarantees(prop: IRProperty) -> bool:
    """Has the pipeline running the current pass verified ``prop`` on its input (and no
    pass invalidated it since)?  Lets a pass skip re-checking its own precondition;
    outside a verifying pipeline this is always False."""
    guaranteed = getattr(_state, "guaranteed", None)
    return guaranteed is not None and guaranteed.contains(prop)


class PassPipeline:
    """An ordered list of passes run one after another."""

    def __init__(self, passes: Iterable[Pass] = ()) -> None:
        self._passes: list[Pass] = []
        for p in passes:
            self.add_pass(p)

    def add_pass(self, pass_obj: Pass) -> None:
        if not isinstance(pass_obj, Pass):
            raise TypeError(f"PassPipeline.add_pass expects a Pass, got "
                            f"{type(pass_obj).__name__}")
        self._passes.append(pass_obj)

    def get_passes(self) -> list[Pass]:
        return list(self._passes)

    def get_pass_names(self) -> list[str]:
        return [p.get_name() for p in self._passes]

    def run(self, program: Program) -> Program:
        if not isinstance(program, Program):
            raise TypeError(f"PassPipeline.run expects an ir.Program, "
                            f"got {type(program).__name__}")
        with run_scope():  # its passes and verifiers share one memo
            return self._run(program)

    def _run(self, program: Program) -> Program:
        context = PassContext.current()
        level = (context.get_verification_level() if context is not None
                 else get_default_verification_level())
        verify = level is not VerificationLevel.NONE
        try:  # before any pass or verifier recurses into it (one iterative walk)
            check_nesting(program)
        except NestingError as exc:
            raise nesting_refusal(exc, program, None) from None
        lightweight = get_verified_properties()
        verified = IRPropertySet()
        if verify:
            verified = get_structural_properties().intersection(lightweight)
            verify_properties(verified, program, "pipeline_input")
        current = program
        outer = getattr(_state, "guaranteed", None)
        instruments = context.get_instruments() if context is not None else []
        _state.depth = getattr(_state, "depth", 0) + 1
        try:
            for instrument in instruments:
                instrument.run_before_pipeline(program)
            for p in self._passes:
                _state.guaranteed = verified if verify else None
                current = p(current)
                if not verify:
                    continue
                verified = verified.difference(
                    p.get_invalidated_properties().intersection(lightweight))
                due = p.get_produced_properties().intersection(lightweight).difference(verified)
                checked_by_pass = due.intersection(p.get_self_verified_properties())
                due = due.difference(checked_by_pass)
                if not due.empty():
                    try:
                        with trusting_marks():
                            verify_properties(due, current, p.get_name())
                    except VerificationError as err:
                        if context is not None:
                            notify_failure(context.get_instruments(), p, current, err)
                        raise
                verified = verified.union_with(due).union_with(checked_by_pass)
        finally:
            _state.guaranteed = outer
            _state.depth -= 1
        for instrument in instruments:
            instrument.run_after_pipeline(current)
        return current

    def __repr__(self) -> str:
        return f"PassPipeline({self.get_pass_names()!r})"

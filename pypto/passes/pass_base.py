"""``Pass``: a named Program transform with declared properties (03-passes.md §2).

A *program* pass maps ``Program -> Program``.  A *function* pass maps each
function independently; the Program is rebuilt (same name and span) only when
some function came back as a different object, otherwise the input Program
object is returned.

Calling a pass runs the active ``PassContext``'s instrument hooks around the
transform and nothing else: automatic verification belongs to ``PassPipeline``.
A refusal leaves the call as a ``PassError`` naming this pass (a bare ``ValueError``
from the transform is re-raised as one).
"""

from __future__ import annotations

import enum
import time
from typing import Any, Callable, Iterable

from ..errors import InternalError, is_pypto_defect
from ..ir.depth import NestingError, too_deep
from ..ir.function import Function, Program
from .diagnostic import PassError, PassErrorCode
from .properties import IRProperty, IRPropertySet
from .run_memo import run_scope

__all__ = ["PassKind", "Pass"]


class PassKind(enum.Enum):
    PROGRAM = "program"
    FUNCTION = "function"


def _property_set(owner: str, field: str, value: Any) -> IRPropertySet:
    if value is None:
        return IRPropertySet()
    if type(value) is tuple and all(type(item) is IRProperty for item in value):
        return IRPropertySet(value)  # what every registry declaration passes
    if isinstance(value, IRPropertySet):
        return value.copy()
    if isinstance(value, IRProperty):
        return IRPropertySet((value,))
    if isinstance(value, (str, bytes)) or not isinstance(value, Iterable):
        raise TypeError(f"{owner}: '{field}' expects an IRPropertySet or a list of IRProperty, "
                        f"got {type(value).__name__}")
    items = list(value)
    for item in items:
        if not isinstance(item, IRProperty):
            raise TypeError(f"{owner}: '{field}' expects IRProperty items, "
                            f"got {type(item).__name__}")
    return IRPropertySet(items)


def _pass_kind(name: str, kind: Any) -> PassKind:
    if isinstance(kind, PassKind):
        return kind
    for member in PassKind:
        if kind == member.value:
            return member
    raise ValueError(f"Pass '{name}': kind must be 'program' or 'function', got {kind!r}")


class Pass:
    """A named transform plus its required / produced / invalidated properties.

    ``transform`` takes a Program (``kind="program"``) or a Function
    (``kind="function"``) and returns the transformed node.
    """

    __slots__ = ("_name", "_transform", "_required", "_produced", "_invalidated", "_kind",
                 "_self_verified")

    def __init__(self, name: str, transform: Callable[[Any], Any], *,
                 required: Iterable[IRProperty] | IRPropertySet | None = None,
                 produced: Iterable[IRProperty] | IRPropertySet | None = None,
                 invalidated: Iterable[IRProperty] | IRPropertySet | None = None,
                 kind: PassKind | str = PassKind.PROGRAM,
                 self_verified: Iterable[IRProperty] | IRPropertySet | None = None) -> None:
        if not isinstance(name, str) or not name:
            raise TypeError(f"Pass: 'name' expects a non-empty str, got {name!r}")
        if not callable(transform):
            raise TypeError(f"Pass '{name}': 'transform' must be callable, "
                            f"got {type(transform).__name__}")
        owner = f"Pass '{name}'"
        self._name = name
        self._transform = transform
        self._required = _property_set(owner, "required", required)
        self._produced = _property_set(owner, "produced", produced)
        self._invalidated = _property_set(owner, "invalidated", invalidated)
        self._kind = _pass_kind(name, kind)
        # Produced properties the transform checks itself (raising on a violation), so a
        # pipeline need not verify them again.
        self._self_verified = _property_set(owner, "self_verified", self_verified)
        if not self._produced.contains_all(self._self_verified):
            raise ValueError(f"Pass '{name}': self_verified properties must be produced ones")

    # -- accessors (sets are copied: a Pass never changes after construction) --------
    def get_name(self) -> str:
        return self._name

    @property
    def name(self) -> str:
        return self._name

    @property
    def kind(self) -> PassKind:
        return self._kind

    def get_required_properties(self) -> IRPropertySet:
        return self._required.copy()

    def get_produced_properties(self) -> IRPropertySet:
        return self._produced.copy()

    def get_invalidated_properties(self) -> IRPropertySet:
        return self._invalidated.copy()

    def get_self_verified_properties(self) -> IRPropertySet:
        return self._self_verified.copy()

    # -- running ----------------------------------------------------------------------
    def __call__(self, program: Program) -> Program:
        if not isinstance(program, Program):
            raise TypeError(f"Pass '{self._name}' expects an ir.Program, "
                            f"got {type(program).__name__}")
        with run_scope():  # a pass called alone is a run of its own
            return self._run_instrumented(program)

    def _run_instrumented(self, program: Program) -> Program:
        from .context import PassContext, notify_failure
        context = PassContext.current()
        instruments = context.get_instruments() if context is not None else []
        try:
            for instrument in instruments:
                instrument.run_before_pass(self, program)
        except Exception as exc:  # e.g. a precondition check
            notify_failure(instruments, self, program, exc)
            raise
        start = time.perf_counter()
        try:
            result = self._run_transform(program, instruments)
        except PassError as err:
            if err.pass_name is None:
                err.pass_name = self._name
            notify_failure(instruments, self, program, err)
            raise
        except (NestingError, RecursionError) as exc:  # past the nesting limits
            refusal = nesting_refusal(exc, program, self._name)
            notify_failure(instruments, self, program, refusal)
            raise refusal from None
        except ValueError as exc:  # a refusal raised without its class: name the pass
            refusal = PassError(str(exc), pass_name=self._name)
            notify_failure(instruments, self, program, refusal)
            raise refusal from exc
        except Exception as exc:
            notify_failure(instruments, self, program, exc)
            raise
        elapsed = time.perf_counter() - start
        try:
            for instrument in instruments:
                instrument.record_pass_time(self, elapsed)
            for instrument in instruments:
                instrument.run_after_pass(self, result)
        except Exception as exc:  # e.g. a VerificationInstrument's check of the output
            notify_failure(instruments, self, result, exc)
            raise
        return result

    def _run_transform(self, program: Program, instruments: list) -> Program:
        if self._kind is PassKind.FUNCTION:
            return self._map_functions(program, instruments)
        result = self._transform(program)
        if result is None:
            raise InternalError(f"Pass '{self._name}' returned null program")
        if not isinstance(result, Program):
            raise InternalError(f"Pass '{self._name}' returned a {type(result).__name__} "
                                "instead of a Program")
        return result

    def _map_functions(self, program: Program, instruments: list) -> Program:
        originals = list(program._functions.values())
        results: list[Function] = []
        total = len(originals)
        for func in originals:
            try:
                new = self._transform(func)
            except PassError as err:  # a refusal without a place: at least the function
                if err.span is None and func.span.is_valid():
                    err.span = func.span
                raise
            except NestingError:  # refused at the deepest place, by the caller
                raise
            except ValueError as exc:  # a refusal raised without its class
                if is_pypto_defect(exc, (ValueError,)):  # an unpacking, a list.index miss
                    raise InternalError(f"Pass '{self._name}' failed on function "
                                        f"'{func.name}': ValueError: {exc} (a bug in pypto, "
                                        "not in the program: please report it)") from exc
                where = func.span if func.span.is_valid() else None
                raise PassError(f"in function '{func.name}': {exc}", where,
                                pass_name=self._name) from exc
            if new is None:
                raise InternalError(f"Pass '{self._name}' returned null function "
                                    f"for '{func.name}'")
            if not isinstance(new, Function):
                raise InternalError(f"Pass '{self._name}' returned a {type(new).__name__} "
                                    f"instead of a Function for '{func.name}'")
            results.append(new)
            for instrument in instruments:
                instrument.run_after_function(self, len(results), total)
        if all(new is old for new, old in zip(results, originals)):
            return program
        return program.with_functions(results)

    def __repr__(self) -> str:
        return f"Pass({self._name!r}, kind={self._kind.value})"


def nesting_refusal(exc: BaseException, program: Program, pass_name: str | None) -> PassError:
    """A pass that ran out of recursion (or was told so) refuses at the deepest place."""
    found = exc if isinstance(exc, NestingError) else too_deep(program)
    return PassError(found.message, found.span, code=PassErrorCode.NESTING_TOO_DEEP,
                     pass_name=pass_name)

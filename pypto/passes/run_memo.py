"""Answers remembered for the length of one pass or pipeline run, on one thread.

Passes ask the same question of the same immutable object many times (which
statement classes a function holds, which params a callee returns); IR never
changes under an answer, so it may be remembered -- but only by the run asking.
A memo shared by the process would outlive the programs it describes, keep them
alive, and be shared between threads; this one is created when the outermost
``PassPipeline.run`` or ``Pass.__call__`` on a thread starts and dropped when it
ends.  Outside a run nothing is remembered: each question is answered afresh.
"""

from __future__ import annotations

import threading
from contextlib import contextmanager
from typing import Any, Callable, Iterator, TypeVar

__all__ = ["run_scope", "remembered", "note", "noted", "trusting_marks", "trusted_mark"]

_T = TypeVar("_T")
_state = threading.local()


class _RunMemo:
    """Per question: ``id(obj) -> (obj, answer)``.  The object is held, so its id
    cannot be reused by another object while the run lasts."""

    __slots__ = ("tables",)

    def __init__(self) -> None:
        self.tables: dict[str, dict[int, tuple[Any, Any]]] = {}


@contextmanager
def run_scope() -> Iterator[None]:
    """Open the thread's run memo unless a run is already open on this thread."""
    if getattr(_state, "memo", None) is not None:
        yield
        return
    _state.memo = _RunMemo()
    try:
        yield
    finally:
        _state.memo = None


def remembered(question: str, obj: Any, answer: Callable[[Any], _T]) -> _T:
    """``answer(obj)``, computed once per ``(question, obj)`` in the current run."""
    memo: _RunMemo | None = getattr(_state, "memo", None)
    if memo is None:
        return answer(obj)
    table = memo.tables.get(question)
    if table is None:
        table = memo.tables[question] = {}
    found = table.get(id(obj))
    if found is not None and found[0] is obj:
        return found[1]  # (the table holds answer()'s values)
    result = answer(obj)
    table[id(obj)] = (obj, result)
    return result


def note(question: str, obj: Any, answer: Any) -> None:
    """Remember ``answer`` for ``(question, obj)`` in the current run (nothing outside a
    run): a pass telling a later verifier of the same run what it knows of its output."""
    memo: _RunMemo | None = getattr(_state, "memo", None)
    if memo is None:
        return
    table = memo.tables.get(question)
    if table is None:
        table = memo.tables[question] = {}
    table[id(obj)] = (obj, answer)


def noted(question: str, obj: Any) -> Any:
    """What ``note`` (or ``remembered``) recorded for ``(question, obj)`` in the current
    run, else None (always None outside a run)."""
    memo: _RunMemo | None = getattr(_state, "memo", None)
    if memo is None:
        return None
    found = memo.tables.get(question, {}).get(id(obj))
    return found[1] if found is not None and found[0] is obj else None


@contextmanager
def trusting_marks() -> Iterator[None]:
    """Let verifiers trust the marks passes ``note`` on their output, for the pipeline's
    own scheduled verification only.  An instrument or a user's explicit verification
    inside the same run is there to catch a pass's mistakes: it never trusts a mark."""
    before = getattr(_state, "trust_marks", False)
    _state.trust_marks = True
    try:
        yield
    finally:
        _state.trust_marks = before


def trusted_mark(question: str, obj: Any) -> Any:
    """``noted(question, obj)`` inside ``trusting_marks``; None anywhere else."""
    if not getattr(_state, "trust_marks", False):
        return None
    return noted(question, obj)

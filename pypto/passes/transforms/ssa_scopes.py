"""Block-scoped bindings for ConvertToSSA.

``ScopedBindings`` maps keys to values; a binding made inside a frame disappears
when that frame closes, revealing the binding it shadowed.  Closing a frame is
O(1): stale bindings are discarded lazily by the next lookup of their key, so
every binding is pushed once and popped at most once.
"""

from __future__ import annotations

from typing import Generic, Hashable, TypeVar

__all__ = ["Frames", "ScopedBindings"]

K = TypeVar("K", bound=Hashable)
V = TypeVar("V")


class _Frame:
    __slots__ = ("alive",)

    def __init__(self) -> None:
        self.alive = True


class Frames:
    """The stack of open frames (function body, loop bodies, if branches)."""

    def __init__(self) -> None:
        self._stack = [_Frame()]

    @property
    def top(self) -> _Frame:
        return self._stack[-1]

    def push(self) -> None:
        self._stack.append(_Frame())

    def pop(self) -> None:
        if len(self._stack) == 1:
            raise IndexError("ScopedBindings: cannot close the outermost frame")
        self._stack.pop().alive = False


class ScopedBindings(Generic[K, V]):
    def __init__(self, frames: Frames) -> None:
        self._frames = frames
        self._stacks: dict[K, list[tuple[V, _Frame]]] = {}

    def bind(self, key: K, value: V) -> None:
        frame = self._frames.top
        stack = self._stacks.get(key)
        if stack is None:
            self._stacks[key] = [(value, frame)]
        elif stack and stack[-1][1] is frame:  # a lookup may have emptied the stack
            stack[-1] = (value, frame)  # the shadowed value of this frame is never seen again
        else:
            stack.append((value, frame))

    def lookup(self, key: K) -> V | None:
        stack = self._stacks.get(key)
        if not stack:
            return None
        while stack and not stack[-1][1].alive:
            stack.pop()
        return stack[-1][0] if stack else None

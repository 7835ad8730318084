"""Which DSL names are bound on every path to the point being parsed.

Python binds a name where it is assigned and fails at run time when a read finds
it unbound.  The IR cannot fail that way: a name first assigned inside a loop (it
may run zero times) or in one branch of an ``if`` and read after it would become
a loop carry or a phi with no value on the other path, and ConvertToSSA would
have to invent one (or leave it undefined).  So the parser tracks, per name,
whether it is bound on every path, and refuses a read of one that may not be --
at the read, like Python's ``UnboundLocalError``, but before anything runs.

A ``for`` with constant bounds and at least one iteration that neither breaks nor
continues surely runs its body to the end: what it binds stays bound after it.

Bookkeeping is per construct: each open loop body and ``if`` branch logs the names
that became bound inside it (a name bound on every path before the construct is
never logged), so closing a construct costs the names it bound.
"""

from __future__ import annotations

__all__ = ["DefiniteBindings"]


Why = tuple  # (what the read must be told, the hint)


class DefiniteBindings:
    """The names that may be unbound here (with why), and what each open construct bound."""

    __slots__ = ("maybe", "_logs")

    def __init__(self) -> None:
        self.maybe: dict[str, Why] = {}  # name -> why it may be unbound at this point
        self._logs: list[list[str]] = []  # per open loop body / if branch: names bound in it

    def bound(self, name: str, known: bool) -> None:
        """``name`` was just bound; ``known``: it had a binding before this one."""
        if known and name not in self.maybe:
            return  # bound on every path already
        self.maybe.pop(name, None)
        if self._logs:
            self._logs[-1].append(name)

    def open(self) -> None:
        """A loop body or an ``if`` branch starts."""
        self._logs.append([])

    @property
    def depth(self) -> int:
        """How many loop bodies and ``if`` branches are open."""
        return len(self._logs)

    def close_loop(self, loop: str, line: int, surely_runs: bool = False) -> None:
        """A loop body ends: what it bound may be unbound after it (the body need not
        run), unless the body surely runs to its end at least once."""
        names = self._logs.pop()
        if surely_runs:
            if self._logs:
                self._logs[-1].extend(names)
            return
        why = (f"it is first assigned in the body of the {loop} at line {line}, which need "
               "not run", "before the loop, so it has a value even when the body does not run")
        for name in names:
            self.maybe[name] = why

    def close_branch(self, line: int) -> list[str]:
        """An ``if`` branch ends: what it bound is not bound in the other branch (yet)."""
        names = self._logs.pop()
        why = (f"it is assigned only in the other branch of the if at line {line}",
               "before the if, or in both branches")
        for name in names:
            self.maybe[name] = why
        return names

    def merge(self, then_names: list[str], else_names: list[str], then_exits: bool,
              else_exits: bool, line: int, has_else: bool) -> None:
        """After an ``if``: a name is bound if every branch that falls through bound it
        (a branch ending in break/continue/return does not reach the code after)."""
        then_set, else_set = set(then_names), set(else_names)
        if then_exits and else_exits:
            bound_after = then_set | else_set  # the code after is unreachable
        elif then_exits:
            bound_after = else_set
        elif else_exits:
            bound_after = then_set
        else:
            bound_after = then_set & else_set
        hint = "before the if, or in both branches"
        for name in dict.fromkeys(then_names + else_names):
            if name in bound_after:
                self.maybe.pop(name, None)
                if self._logs:
                    self._logs[-1].append(name)
            elif name not in else_set:
                self.maybe[name] = ((f"it is assigned only in the then branch of the if at line "
                                     f"{line}") if has_else else
                                    f"it is assigned only when the if at line {line} is taken",
                                    hint)
            else:
                self.maybe[name] = (f"it is assigned only in the else branch of the if at line "
                                    f"{line}", hint)

"""Where two programs differ: a unified diff of their canonical text (``ir.diff``), and
the function and statement that ``assert_structural_equal`` names for programs.

IR-level: it needs only the printer.
"""

from __future__ import annotations

import difflib
import re
from typing import Any

from .function import Function, Program
from .node import Stmt

__all__ = ["diff", "program_context"]


def diff(a: Any, b: Any, a_name: str | None = None, b_name: str | None = None,
         context: int = 3) -> str:
    """A unified diff of ``python_print(a)`` and ``python_print(b)``; ``""`` if the
    texts are the same.

    ``a`` and ``b`` are programs, functions or any other printable node; the file
    names in the header default to ``a/<name>`` and ``b/<name>``.
    """
    from .printer import python_print
    if not isinstance(context, int) or isinstance(context, bool) or context < 0:
        raise ValueError(f"ir.diff: context must be a non-negative int, got {context!r}")
    left, right = python_print(a), python_print(b)
    if left == right:
        return ""
    lines = difflib.unified_diff(left.splitlines(), right.splitlines(),
                                 a_name if a_name is not None else f"a/{_name(a)}",
                                 b_name if b_name is not None else f"b/{_name(b)}",
                                 n=context, lineterm="")
    return "\n".join(lines) + "\n"


def _name(node: Any) -> str:
    name = getattr(node, "name", "") if isinstance(node, (Program, Function)) else ""
    return name or type(node).__name__


_PART = re.compile(r"\.(\w+)|\[(\d+)\]|\[('(?:[^'\\]|\\.)*')\]")


def program_context(lhs: Program, rhs: Program, parts: list[str]) -> list[str]:
    """Lines naming the function and the innermost statement on the failing path.

    ``parts`` is the mismatch path, outermost first (``["['main']", ".body", "[1]"]``).
    With an empty path (the function sets differ) the functions only one side has.
    """
    steps = [m.group(1) or (int(m.group(2)) if m.group(2) else m.group(3)[1:-1])
             for m in _PART.finditer("".join(parts))]
    if not steps:
        only_left = sorted(set(lhs.functions) - set(rhs.functions))
        only_right = sorted(set(rhs.functions) - set(lhs.functions))
        if not only_left and not only_right:
            return []
        return [f"Functions only in the left program: {', '.join(only_left) or '-'}; "
                f"only in the right program: {', '.join(only_right) or '-'}"]
    if not isinstance(steps[0], str) or steps[0] not in lhs or steps[0] not in rhs:
        return []
    name = steps[0]
    inner = "".join(parts[1:]).lstrip(".")
    lines = [f"In function '{name}'" + (f", at {inner}" if inner else "") + ":"]
    for side, program in (("left", lhs), ("right", rhs)):
        stmt = _innermost_stmt(program[name], steps[1:])
        if stmt is not None:
            lines.append(f"  {side + ':':<7}{_first_line(stmt)}  ({stmt.span})")
    return lines


def _innermost_stmt(node: Any, steps: list[Any]) -> Stmt | None:
    found = None
    for step in steps:
        try:
            node = getattr(node, step) if isinstance(step, str) and not isinstance(node, dict) \
                else node[step]
        except (AttributeError, IndexError, KeyError, TypeError):
            break
        if isinstance(node, Stmt) and type(node).__name__ != "SeqStmts":
            found = node
    return found


def _first_line(stmt: Stmt) -> str:
    try:
        text = stmt.as_python()
    except Exception:  # a diagnostic must not fail on an unprintable node
        return f"<{type(stmt).__name__}>"
    first = text.split("\n", 1)[0].strip()
    return first + (" ..." if "\n" in text else "")

"""Find the program a command-line user means, in a Python file or a DSL text file.

* A **Python file** is the user's program, so it is executed -- with ``runpy`` under a
  ``__name__`` that is not ``"__main__"`` (a ``if __name__ == "__main__":`` block does
  not run) and with the file's directory on ``sys.path`` (sibling imports work as with
  ``python FILE``).  Its entries are the module-level ``ir.Program`` and ``ir.Function``
  values and the ``@pl.jit`` / ``@pl.jit.host`` entry functions.  A Function that is
  part of one of those Programs (an external function it calls) is not an entry of
  its own, and kernels (``@pl.jit.incore`` ...) are dependencies, not entries.
* A **DSL text file** -- any file not ending in ``.py``, or one whose first line is
  the printer's ``# pypto.program:`` header -- is data: it is read with ``pl.loads``,
  which builds the program from the syntax tree and never runs any of the text.

Every failure becomes a ``UsageError`` (the command pointed at the wrong thing) or a
``ProgramError`` carrying rendered diagnostics (the program itself is wrong).
"""

from __future__ import annotations

import os
import runpy
import sys
from dataclasses import dataclass
from typing import Any, Union

from ..errors import InternalError
from ..ir.function import Function, Program
from ..jit import JITFunction, JitKind
from ..language.parser.diagnostics import ParserError
from ..language.parser.text_parser import loads
from .report import (ProgramError, UsageError, plain_error, render_exception_in_file,
                         render_parser_error, render_syntax_error)

__all__ = ["Entry", "RUN_NAME", "PRINTER_HEADER", "check_input_file", "load_entries",
           "select_entry", "entry_program"]

# ``__name__`` of an executed Python file: anything but "__main__".
RUN_NAME = "__pypto_cli__"
# The first line the printer writes for a Program (02-ir.md §12.2).
PRINTER_HEADER = "# pypto.program:"
_JIT_ENTRY_KINDS = (JitKind.ORCHESTRATION, JitKind.HOST)

EntryValue = Union[Program, Function, JITFunction]


@dataclass(frozen=True)
class Entry:
    """One compilable thing defined by a file, under the name it is bound to."""

    name: str
    value: EntryValue
    aliases: tuple[str, ...] = ()  # other module-level names bound to the same object

    @property
    def is_jit(self) -> bool:
        return isinstance(self.value, JITFunction)

    def describe(self) -> str:
        value = self.value
        if isinstance(value, Program):
            return f"{self.name} (@pl.program)"
        if isinstance(value, Function):
            return f"{self.name} (@pl.function)"
        return f"{self.name} (@{value.kind.spelling})"


def check_input_file(path: str) -> None:
    """``UsageError`` unless ``path`` names a readable regular file."""
    if not os.path.exists(path):
        raise UsageError(f"no such file: '{path}'")
    if os.path.isdir(path):
        raise UsageError(f"'{path}' is a directory, not a file")
    if not os.access(path, os.R_OK):
        raise UsageError(f"cannot read '{path}': permission denied")


def is_text_file(path: str) -> bool:
    if not path.endswith(".py"):
        return True
    try:
        with open(path, encoding="utf-8") as handle:
            first_line = handle.readline()
    except (OSError, UnicodeDecodeError):
        return False  # let the Python loader report it
    return first_line.startswith(PRINTER_HEADER)


def load_entries(path: str) -> list[Entry]:
    """Every entry ``path`` defines, in definition order (possibly none)."""
    check_input_file(path)
    if is_text_file(path):
        value = _load_text(path)
        return [Entry(value.name, value)]
    return _entries_of(_run_python_file(path))


def select_entry(entries: list[Entry], path: str, wanted: str | None) -> Entry:
    """The one entry to compile: the only one, or the one ``--entry`` names."""
    if wanted is not None:
        for entry in entries:
            if wanted in (entry.name, *entry.aliases, _own_name(entry.value)):
                return entry
        found = ", ".join(e.describe() for e in entries) or "nothing"
        raise UsageError(f"no entry named '{wanted}' in {path} (found: {found})")
    if not entries:
        raise UsageError(f"{path} defines no @pl.program, @pl.function or @pl.jit entry "
                         "at module level")
    if len(entries) > 1:
        listing = ", ".join(e.describe() for e in entries)
        raise UsageError(f"{path} defines {len(entries)} entries ({listing}); "
                         "choose one with --entry NAME")
    return entries[0]


def entry_program(entry: Entry) -> Program:
    """The entry as a Program before any pass (a jit entry is specialised from its
    signature; a lone Function becomes a one-function Program)."""
    value = entry.value
    if isinstance(value, Program):
        return value
    if isinstance(value, Function):
        return Program([value], value.name, value.span)
    return run_user_step(lambda: value.specialize(), entry.name)


def run_user_step(step: Any, what: str) -> Any:
    """Run a step that may fail because of the user's program (parse, specialise)."""
    try:
        return step()
    except ParserError as err:
        raise ProgramError(render_parser_error(err), err) from err
    except SyntaxError as err:
        raise ProgramError(render_syntax_error(err), err) from err
    except (ValueError, TypeError) as err:
        raise ProgramError(plain_error(f"{what}: {err}"), err) from err


# -- Python files ----------------------------------------------------------------------

def _run_python_file(path: str) -> dict[str, Any]:
    directory = os.path.dirname(os.path.abspath(path))
    sys.path.insert(0, directory)
    try:
        return runpy.run_path(path, run_name=RUN_NAME)
    except ParserError as err:
        raise ProgramError(render_parser_error(err), err) from err
    except SyntaxError as err:
        raise ProgramError(render_syntax_error(err), err) from err
    except (InternalError, AssertionError):
        raise  # a bug in pypto: never dressed up as the user's mistake
    except SystemExit as exc:
        raise ProgramError(plain_error(f"{path} called sys.exit({exc.code!r}) while loading"),
                           exc) from exc
    except Exception as exc:  # the user's module code failed (NameError, ImportError, ...)
        raise ProgramError(render_exception_in_file(exc, path), exc) from exc
    finally:
        _remove_first(sys.path, directory)


def _remove_first(items: list[str], value: str) -> None:
    for index, item in enumerate(items):
        if item == value:
            del items[index]
            return


def _entries_of(namespace: dict[str, Any]) -> list[Entry]:
    names_of: dict[int, list[str]] = {}
    values: list[EntryValue] = []
    for name, value in namespace.items():
        if name.startswith("__"):
            continue
        if isinstance(value, (Program, Function)) or _is_jit_entry(value):
            if id(value) not in names_of:
                names_of[id(value)] = []
                values.append(value)
            names_of[id(value)].append(name)
    entries = [Entry(names_of[id(v)][0], v, tuple(names_of[id(v)][1:])) for v in values]
    members = {id(func) for entry in entries if isinstance(entry.value, Program)
               for func in entry.value._functions.values()}
    return [e for e in entries if not (isinstance(e.value, Function) and id(e.value) in members)]


def _is_jit_entry(value: Any) -> bool:
    return isinstance(value, JITFunction) and value.kind in _JIT_ENTRY_KINDS


def _own_name(value: EntryValue) -> str:
    if isinstance(value, (Program, Function)):
        return value.name
    return value.__name__


# -- DSL text files --------------------------------------------------------------------

def _load_text(path: str) -> Program | Function:
    try:
        return loads(path)
    except ParserError as err:
        raise ProgramError(render_parser_error(err), err) from err
    except SyntaxError as err:
        raise ProgramError(render_syntax_error(err), err) from err
    except UnicodeDecodeError as err:
        raise UsageError(f"cannot read '{path}': not UTF-8 text ({err.reason})") from err
    except ValueError as err:  # none or several programs in the text
        raise UsageError(str(err)) from err

"""Find the programs a command-line user means, in a Python file, a DSL text file or
standard input (``-``).

* A **Python file** is the user's program, so it is executed -- as ``runpy.run_path``
  runs it, under a ``__name__`` that is not ``"__main__"`` (a ``if __name__ ==
  "__main__":`` block does not run) and with the file's directory on ``sys.path``
  (sibling imports work as with ``python FILE``).  Its text is parsed once: the code
  is compiled from the syntax tree its decorators then read (``_run_file``).  It runs
  while parse errors are *collected*: a definition that fails is recorded and the
  module goes on, so every independent error of the file is found.  Its entries are the module-level ``ir.Program`` and ``ir.Function`` values
  and the ``@pl.jit`` / ``@pl.jit.host`` entry functions.  A Function that is part of
  one of those Programs (an external function it calls) is not an entry of its own,
  and kernels (``@pl.jit.incore`` ...) are dependencies, not entries.
* A **DSL text file** -- any file not ending in ``.py``, or one whose first line is
  the printer's ``# pypto.program:`` header -- is data: it is read with ``pl.parse``,
  which builds the program from the syntax tree and never runs any of the text.
* **Standard input** is DSL text when it starts with that header, Python otherwise.

``load`` returns the entries and the findings (problems found while loading); a
command-line mistake (missing file, not UTF-8, ...) is a ``UsageError``.
"""

from __future__ import annotations

import linecache
import os
import runpy
import sys
import types
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Iterator, Optional, TextIO, Union, cast

from ..errors import InternalError, SourceDiagnostic, is_pypto_defect
from ..ir.function import Function, Program
from ..language.parser.diagnostics import ParserError
from ..language.parser.findings import PYTHON_EXCEPTION, Finding, findings_of, sort_findings
from ..language.parser.recovery import DependentError, collect_entity_errors
from ..language.parser import pyast
from ..language.parser.source import module_ast_shared, registered_source
from ..language.parser.text_parser import parse
from .errors import ProgramError, UsageError
from .jit_values import is_jit_entry, is_jit_function, is_missing_argument
from .report import (findings_of_error, missing_argument_finding, module_exception_finding, plain_finding,
                     run_failure_finding, syntax_error_finding)

__all__ = ["Entry", "Source", "Loaded", "RUN_NAME", "PRINTER_HEADER", "STDIN",
           "open_source", "load", "load_entry", "select_entry", "entry_program"]

# ``__name__`` of an executed Python file: anything but "__main__".
RUN_NAME = "__pypto_cli__"
# The first line the printer writes for a Program (02-ir.md §12.2).
PRINTER_HEADER = "# pypto.program:"
STDIN = "-"
STDIN_NAME = "<stdin>"

if TYPE_CHECKING:  # the jit layer is imported only by files that use it (jit_values)
    from ..jit import JITFunction
    from ..jit.signature import MissingArgumentError

EntryValue = Union[Program, Function, "JITFunction"]


@dataclass(frozen=True)
class Entry:
    """One compilable thing defined by a file, under the name it is bound to."""

    name: str
    value: EntryValue
    aliases: tuple[str, ...] = ()  # other module-level names bound to the same object

    @property
    def is_jit(self) -> bool:
        return is_jit_function(self.value)

    def describe(self) -> str:
        value = self.value
        if isinstance(value, Program):
            return f"{self.name} (@pl.program)"
        if isinstance(value, Function):
            return f"{self.name} (@pl.function)"
        return f"{self.name} (@{value.kind.spelling})"


@dataclass(frozen=True)
class Source:
    """A file named on the command line, or standard input (``text`` read once)."""

    path: str
    text: Optional[str] = None  # standard input's text

    @property
    def is_stdin(self) -> bool:
        return self.path == STDIN

    @property
    def name(self) -> str:
        """The name diagnostics and spans use."""
        return STDIN_NAME if self.is_stdin else self.path


@dataclass
class Loaded:
    entries: list[Entry] = field(default_factory=list)
    findings: list[Finding] = field(default_factory=list)
    cause: Optional[BaseException] = None  # for PTO_BACKTRACE=1: the first failure


def open_source(path: str, stdin: Optional[TextIO] = None) -> Source:
    """``UsageError`` unless ``path`` is ``-`` or names a readable regular file."""
    if path == STDIN:
        stream = stdin if stdin is not None else sys.stdin
        if stream is None:
            raise UsageError("'-' reads standard input, but there is none")
        try:
            return Source(path, stream.read())
        except UnicodeDecodeError as err:
            raise UsageError(f"cannot read standard input: not UTF-8 text ({err.reason})") \
                from None
    if not os.path.exists(path):
        raise UsageError(f"no such file: '{path}'")
    if os.path.isdir(path):
        raise UsageError(f"'{path}' is a directory, not a file")
    if not os.access(path, os.R_OK):
        raise UsageError(f"cannot read '{path}': permission denied")
    return Source(path)


def load(source: Source) -> Loaded:
    """Every entry ``source`` defines (in definition order) and what went wrong."""
    if _is_text(source):
        return _load_text(source)
    with collect_entity_errors() as errors:
        namespace, failure, stopped_by = _run_python(source)
    findings = sort_findings(f for err in errors for f in findings_of(err))
    if failure is not None:
        findings.append(failure)
    cause = errors[0] if errors else stopped_by
    return Loaded(_entries_of(namespace), findings, cause)


def load_entry(path: str, wanted: str | None) -> Entry:
    """The one entry ``path`` names (``-`` is standard input); its problems as a
    ``ProgramError``, a wrong path or choice as a ``UsageError``."""
    source = open_source(path)
    loaded = load(source)
    if loaded.findings:
        raise ProgramError(loaded.findings, loaded.cause)
    return select_entry(loaded.entries, source.name, wanted)


def select_entry(entries: list[Entry], name: str, wanted: str | None) -> Entry:
    """The one entry to compile: the only one, or the one ``--entry`` names."""
    if wanted is not None:
        for entry in entries:
            if wanted in (entry.name, *entry.aliases, _own_name(entry.value)):
                return entry
        found = ", ".join(e.describe() for e in entries) or "nothing"
        raise UsageError(f"no entry named '{wanted}' in {name} (found: {found})")
    if not entries:
        raise UsageError(f"{name} defines no @pl.program, @pl.function or @pl.jit entry "
                         "at module level")
    if len(entries) > 1:
        listing = ", ".join(e.describe() for e in entries)
        raise UsageError(f"{name} defines {len(entries)} entries ({listing}); "
                         "choose one with --entry NAME")
    return entries[0]


def entry_program(entry: Entry, missing_arguments: str = "error") -> Program:
    """The entry as a Program before any pass (a jit entry is specialised from its
    signature; a lone Function becomes a one-function Program).

    A jit entry with a bare ``pl.Tensor`` parameter has no type until it is called:
    that is reported at the parameter with severity ``missing_arguments`` ("error" for
    ``compile``, which cannot go on; "warning" for ``check``: the file is not wrong).
    """
    value = entry.value
    if isinstance(value, Program):
        return value
    if isinstance(value, Function):
        return Program([value], value.name, value.span)
    try:
        return value.specialize()
    except (InternalError, AssertionError):
        raise
    except (ParserError, SyntaxError, ValueError, TypeError) as err:
        if is_missing_argument(err):
            finding = missing_argument_finding(cast("MissingArgumentError", err),
                                               missing_arguments)
            raise ProgramError([finding], err) from err
        raise ProgramError(findings_of_error(err), err) from err


# -- Python files ----------------------------------------------------------------------

def _run_python(source: Source
                ) -> tuple[dict[str, Any], Optional[Finding], Optional[BaseException]]:
    """The module namespace after running ``source``, the failure that stopped it and
    its exception."""
    directory = os.getcwd() if source.is_stdin else os.path.dirname(os.path.abspath(source.path))
    sys.path.insert(0, directory)
    namespace: dict[str, Any] = {}
    try:
        if source.is_stdin:
            namespace = _run_text_as_module(source.text or "")
        else:
            namespace = _run_file(source.path)
        return namespace, None, None
    except (InternalError, AssertionError):
        raise  # a bug in pypto: never dressed up as the user's mistake
    except DependentError:  # it used a definition whose error is already recorded
        return namespace, None, None
    except ParserError as err:  # outside a decorator: pl.parse, a jit call at module level
        return namespace, _first_of(findings_of(err)), err
    except SyntaxError as err:
        return namespace, syntax_error_finding(err), err
    except SystemExit as exc:
        return namespace, plain_finding(f"{source.name} called sys.exit({exc.code!r}) while "
                                        "loading", PYTHON_EXCEPTION), exc
    except SourceDiagnostic as err:  # pypto.run or a jit call at module level failed
        return namespace, run_failure_finding(err, source.name), err
    except Exception as exc:  # the user's module code failed (NameError, ImportError, ...)
        if is_pypto_defect(exc):
            raise  # a lookup failed in pypto's own code: a bug, reported as one
        return namespace, module_exception_finding(exc, source.name), exc
    finally:
        _remove_first(sys.path, directory)


def _run_file(path: str) -> dict[str, Any]:
    """``runpy.run_path(path, run_name=RUN_NAME)``, with the file parsed once.

    ``runpy`` compiles the file from its bytes, and then the first decorator's source
    lookup reads it through ``linecache`` and parses it again for the module index
    (``source.module_ast_shared``): about 0.1 s per 20,000 lines.  Here the code is
    compiled from the tree of the ``linecache`` text -- the text every decorator reads
    (decoded as ``inspect`` decodes it) -- and the decorators share that tree.  A file
    that does not parse or compile this way (a syntax error, undecodable bytes, a zip
    or bytecode file) is left to ``runpy``, so its failure is the one Python reports.
    """
    linecache.checkcache(path)  # lines cached by an earlier run may be of another file
    lines = linecache.getlines(path)
    compiled = _compiled("".join(lines), path) if lines else None
    if compiled is None:
        return runpy.run_path(path, run_name=RUN_NAME)
    tree, code = compiled
    module = types.ModuleType(RUN_NAME)
    # What runpy sets for a file run under a plain name (no package, no loader).
    module.__dict__.update(__file__=path, __cached__=None, __package__="")
    with _temporary_module(module, path), module_ast_shared(path, tree):
        exec(code, module.__dict__)  # noqa: S102 - the user's own program, as `python FILE`
    return module.__dict__.copy()


@contextmanager
def _temporary_module(module: types.ModuleType, path: str) -> Iterator[None]:
    """``sys.modules[RUN_NAME]`` and ``sys.argv[0]`` while the file runs, as runpy has
    them, restored afterwards."""
    saved_module = sys.modules.get(RUN_NAME)
    saved_argv0 = sys.argv[0] if sys.argv else None
    sys.modules[RUN_NAME] = module
    if sys.argv:
        sys.argv[0] = path
    try:
        yield
    finally:
        if saved_module is None:
            sys.modules.pop(RUN_NAME, None)
        else:
            sys.modules[RUN_NAME] = saved_module
        if sys.argv:
            sys.argv[0] = cast(str, saved_argv0)


def _run_text_as_module(text: str) -> dict[str, Any]:
    """``python -`` for pypto: standard input as the code of a module (parsed once, its
    tree shared with the decorators as for a file)."""
    module = types.ModuleType(RUN_NAME)
    module.__file__ = STDIN_NAME
    compiled = _compiled(text, STDIN_NAME)
    if compiled is None:  # raise the error exactly as compiling the text reports it
        compile(text, STDIN_NAME, "exec", dont_inherit=True)
        raise InternalError("standard input compiles from its text but not its tree")
    tree, code = compiled
    with registered_source(text, STDIN_NAME), module_ast_shared(STDIN_NAME, tree):
        exec(code, module.__dict__)  # noqa: S102 - the user's own program, as `python -`
    return module.__dict__


def _compiled(text: str, filename: str) -> Optional[tuple[Any, types.CodeType]]:
    """(syntax tree, module code) of ``text``; ``None`` when it does not compile (or is
    too deep for Python's parser: compiling the text again reports it as Python does)."""
    try:
        tree = pyast.parse(text, filename)
        return tree, pyast.compile_tree(tree, filename, "exec")
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        return None


def _first_of(findings: list[Finding]) -> Optional[Finding]:
    return findings[0] if findings else None


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
        if isinstance(value, (Program, Function)) or is_jit_entry(value):
            if id(value) not in names_of:
                names_of[id(value)] = []
                values.append(value)
            names_of[id(value)].append(name)
    entries = [Entry(names_of[id(v)][0], v, tuple(names_of[id(v)][1:])) for v in values]
    members = {id(func) for entry in entries if isinstance(entry.value, Program)
               for func in entry.value._functions.values()}
    return [e for e in entries if not (isinstance(e.value, Function) and id(e.value) in members)]




def _own_name(value: EntryValue) -> str:
    if isinstance(value, (Program, Function)):
        return value.name
    return value.__name__


# -- DSL text files --------------------------------------------------------------------

def _is_text(source: Source) -> bool:
    if source.is_stdin:
        return (source.text or "").startswith(PRINTER_HEADER)
    if not source.path.endswith(".py"):
        return True
    try:
        with open(source.path, encoding="utf-8") as handle:
            first_line = handle.readline()
    except (OSError, UnicodeDecodeError):
        return False  # let the Python loader report it
    return first_line.startswith(PRINTER_HEADER)


def _load_text(source: Source) -> Loaded:
    # (standard input's text was read by open_source)
    text = cast(str, source.text) if source.is_stdin else _read_text(source.path)
    try:
        value = parse(text, filename=source.name)
    except (InternalError, AssertionError):
        raise
    except (ParserError, SyntaxError) as err:
        return Loaded([], findings_of_error(err), err)
    except ValueError as err:  # none or several programs in the text
        raise UsageError(str(err)) from err
    return Loaded([Entry(value.name, value)])


def _read_text(path: str) -> str:
    try:
        with open(path, encoding="utf-8") as handle:
            return handle.read()
    except UnicodeDecodeError as err:
        raise UsageError(f"cannot read '{path}': not UTF-8 text ({err.reason})") from err
    except OSError as err:
        raise UsageError(f"cannot read '{path}': {err.strerror or err}") from err

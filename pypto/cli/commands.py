"""The ``pypto`` command: compile a program, check files, list the passes.

    pypto compile FILE|- [-p PIPELINE] [--entry NAME] [-o OUT|-] [--dump-dir DIR]
                  [--print-before=P,..] [--print-after=P,..] [--print-before-all]
                  [--print-after-all] [--print-changed] [--print-on-failure]
                  [--time-passes] [--pass-statistics] [--format=FMT] [-q]
    pypto check FILE|DIR|-... [--props PROPS] [--format=FMT] [-q]
    pypto passes
    pypto graph FILE [-o OUT.svg]        (graph_cmd.py)
    pypto diff A B                       (diff_cmd.py: exit status as diff(1))

Exit status, for every command: 0 clean (warnings alone do not fail); 1 the user's
program has errors (diagnostics); 2 a command-line mistake, shown as one line; 3 an
internal error in pypto (a bug: the traceback is shown).  A mistake of the user's
never shows a Python traceback unless ``PTO_BACKTRACE=1``.  ``python -m pypto`` is
the same command.

This module imports nothing of pypto beyond the command-line errors: ``--help`` and
``--version`` answer without loading the compiler; each command imports its module
when it runs.
"""

from __future__ import annotations

import argparse
import importlib
import logging
import os
import sys
import traceback
from typing import Any, Callable, NoReturn, Optional, Sequence, TextIO

from .. import __version__
from . import diff_cmd, graph_cmd
from .collector import leave_objects_to_exit
from .errors import (EXIT_DIAGNOSTICS, EXIT_INTERNAL, EXIT_INTERRUPTED, EXIT_OK, EXIT_USAGE,
                     ProgramError, UsageError)

__all__ = ["main", "build_parser", "EXIT_OK", "EXIT_DIAGNOSTICS", "EXIT_PROGRAM_ERROR",
           "EXIT_USAGE", "EXIT_INTERNAL"]

EXIT_PROGRAM_ERROR = EXIT_DIAGNOSTICS  # the older name
PROG = "pypto"
EXIT_BROKEN_PIPE = 141  # 128 + SIGPIPE, what a shell reports for a reader that stopped
FORMATS = ("full", "short", "json", "github", "sarif")


class _ArgumentParser(argparse.ArgumentParser):
    """argparse, but a bad command line is one line and a ``UsageError``, not an exit.

    Prefixes of long options are never accepted (``allow_abbrev=False``): with them
    ``--print-after`` could silently mean ``--print-after-all``.
    """

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        kwargs.setdefault("allow_abbrev", False)
        super().__init__(*args, **kwargs)

    def error(self, message: str) -> NoReturn:
        raise UsageError(f"{message} (see '{self.prog} --help')")


def build_parser() -> argparse.ArgumentParser:
    parser = _ArgumentParser(
        prog=PROG,
        description="pypto: the PyPTO tile DSL front end and scope-outlining compiler.",
        epilog="Run 'pypto COMMAND --help' for the options of one command. Exit status: "
               "0 clean, 1 diagnostics, 2 usage error, 3 internal error.")
    parser.add_argument("--version", action="version", version=f"{PROG} {__version__}")
    commands = parser.add_subparsers(dest="command", metavar="COMMAND",
                                     parser_class=_ArgumentParser)
    _add_compile(commands)
    _add_check(commands)
    commands.add_parser("passes", help="list the registered passes",
                        description="List the registered passes with their kind and "
                                    "required, produced and invalidated IR properties.")
    for extra in (graph_cmd, diff_cmd):  # pypto graph, pypto diff: one module each
        extra.register(commands)
    return parser


def _add_format(command: argparse.ArgumentParser, where: str) -> None:
    command.add_argument("--format", choices=FORMATS, default="full",
                         help=f"how diagnostics are reported {where}: full (snippets, the "
                              "default), short (file:line:col: error[CODE]: message), json, "
                              "github (workflow annotations) or sarif")
    command.add_argument("-q", "--quiet", action="store_true",
                         help="say less: " + ("no progress line" if "stderr" in where
                                              else "no lines for files that are fine"))


def _add_compile(commands: Any) -> None:
    cmd = commands.add_parser(
        "compile", help="run the pass pipeline on a program and print the result",
        description="Load the program defined in FILE (a @pl.program, @pl.function or "
                    "shape-annotated @pl.jit entry in a Python file, or printed DSL text; "
                    "'-' reads standard input), run the pass pipeline and print the "
                    "resulting program as DSL text.")
    cmd.add_argument("file", metavar="FILE", help="a Python file, a DSL text file, or -")
    cmd.add_argument("-p", "--passes", metavar="PIPELINE", dest="pipeline",
                     help="comma-separated pass names, e.g. "
                          "'convert-to-ssa,outline-graph-scopes' (default: the full default "
                          "pipeline; see 'pypto passes')")
    cmd.add_argument("--entry", metavar="NAME",
                     help="which program to compile when FILE defines several")
    cmd.add_argument("-o", "--output", metavar="OUT",
                     help="write the result to OUT instead of stdout ('-' is stdout)")
    cmd.add_argument("--dump-dir", metavar="DIR",
                     help="write the input and the IR after every pass to DIR, one numbered "
                          "file per pass")
    seeing = cmd.add_argument_group("seeing the pipeline (printed to stderr)")
    seeing.add_argument("--print-before", metavar="PASS[,PASS]", default=None,
                        help="print the IR before the named passes")
    seeing.add_argument("--print-after", metavar="PASS[,PASS]", default=None,
                        help="print the IR after the named passes")
    seeing.add_argument("--print-before-all", action="store_true",
                        help="print the IR before every pass")
    seeing.add_argument("--print-after-all", action="store_true",
                        help="print the IR after every pass")
    seeing.add_argument("--print-changed", action="store_true",
                        help="print the IR after a pass only if the pass changed it (after "
                             "every pass unless --print-after names some)")
    seeing.add_argument("--print-on-failure", action="store_true",
                        help="print the IR a failing pass (or its verification) saw")
    seeing.add_argument("--time-passes", action="store_true",
                        help="print the wall time of every pass")
    seeing.add_argument("--pass-statistics", action="store_true",
                        help="print functions, regions and statements before and after "
                             "every pass")
    _add_format(cmd, "on stderr")


def _add_check(commands: Any) -> None:
    cmd = commands.add_parser(
        "check", help="parse and verify files without running passes",
        description="Parse every program defined in each FILE and verify it, reporting every "
                    "independent error. A DIR is searched for *.py files; '-' reads standard "
                    "input. A file without DSL entries has nothing to check.")
    cmd.add_argument("files", metavar="FILE", nargs="+", help="a file, a directory, or -")
    cmd.add_argument("--props", metavar="PROPS",
                     help="comma-separated IR properties to verify, or 'default' (the default "
                          "verify set) or 'structural' (default: the default verify set less "
                          "SSAForm and NoNestedCalls, which only the front passes establish)")
    _add_format(cmd, "on stdout")


def main(argv: Optional[Sequence[str]] = None) -> int:
    """Run the command line; return the exit status (the console script exits with it)."""
    try:
        return _main(argv)
    finally:
        if argv is None:  # the console script's call: its process ends now
            leave_objects_to_exit()


def _main(argv: Optional[Sequence[str]]) -> int:
    args_list = list(sys.argv[1:] if argv is None else argv)
    stdout, stderr = sys.stdout, sys.stderr
    args: Optional[argparse.Namespace] = None
    try:
        try:
            args = build_parser().parse_args(args_list)
        except SystemExit as exc:  # --help and --version print, then "exit"
            return int(exc.code or 0)
        # main() without arguments is the console script's (and ``python -m pypto``'s)
        # call: the process ends when it returns (see collector.collector_paused).
        args.process_exits = argv is None
        if args.command is None:
            raise UsageError(f"a command is required: compile, check, passes, graph or diff "
                             f"(see '{PROG} --help')")
        _check_environment()
        with _warnings_to(stderr):
            return _command(args.command)(args, stdout, stderr)
    except UsageError as exc:
        print(f"{PROG}: error: {exc}", file=stderr)
        return EXIT_USAGE
    except ProgramError as exc:
        from .compile_command import report_program_error
        report_program_error(exc, getattr(args, "format", "full"), stdout, stderr)
        return EXIT_DIAGNOSTICS
    except KeyboardInterrupt:
        print(f"{PROG}: interrupted", file=stderr)
        return EXIT_INTERRUPTED
    except BrokenPipeError:  # `pypto check ... | head`: the reader has seen enough
        _silence_stdout()
        return EXIT_BROKEN_PIPE
    except Exception as exc:  # noqa: BLE001 - anything else is a bug in pypto
        report_internal_error(exc, stderr)
        return EXIT_INTERNAL


def _silence_stdout() -> None:
    """Point stdout at /dev/null so that the interpreter's final flush stays quiet."""
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
    except (OSError, ValueError, AttributeError):  # no real file behind stdout
        pass


def report_internal_error(exc: BaseException, stderr: TextIO) -> None:
    print(f"{PROG}: internal error (this is a bug in pypto): "
          f"{type(exc).__name__}: {exc}", file=stderr)
    traceback.print_exception(type(exc), exc, exc.__traceback__, file=stderr)


# command -> the module that runs it (imported when the command runs)
_COMMAND_MODULES = {"compile": "compile_command", "check": "check_command",
                    "passes": "passes_command", "graph": "graph_cmd", "diff": "diff_cmd"}


def _command(name: str) -> Callable[[argparse.Namespace, TextIO, TextIO], int]:
    module = importlib.import_module(f"{__package__}.{_COMMAND_MODULES[name]}")
    return module.run


def _check_environment() -> None:
    """Bad values of the environment variables pypto reads are usage errors."""
    from ..language.parser.display import backtrace_enabled
    from ..passes.pipeline import get_default_verification_level
    try:
        backtrace_enabled()
        get_default_verification_level()
    except ValueError as exc:
        raise UsageError(str(exc)) from None


class _WarningFormatter(logging.Formatter):
    def format(self, record: logging.LogRecord) -> str:
        return f"warning: {record.getMessage()}"


class _warnings_to:
    """Show pypto's logged warnings (verifier warnings) as ``warning: ...`` lines."""

    def __init__(self, stream: TextIO) -> None:
        self._handler = logging.StreamHandler(stream)
        self._handler.setFormatter(_WarningFormatter())
        self._handler.setLevel(logging.WARNING)
        self._logger = logging.getLogger("pypto")

    def __enter__(self) -> None:
        self._logger.addHandler(self._handler)

    def __exit__(self, *exc_info: Any) -> None:
        self._logger.removeHandler(self._handler)

"""The ``pypto`` command: compile a program, check files, list the passes.

    pypto compile FILE [-p PIPELINE] [--entry NAME] [--print-after-all] [--dump-dir DIR] [-o OUT]
    pypto check FILE... [--props PROPS]
    pypto passes
    pypto graph FILE [-o OUT.svg]        (graph_cmd.py)
    pypto diff A B                       (diff_cmd.py)

Exit status: 0 success; 1 the user's program has a problem (a rendered parser
error, a verification report, a pass's ``error: <message>``); 2 a command-line
mistake, shown as one line; 3 an internal error in pypto (a bug: the traceback is
shown).  A mistake of the user's never shows a Python traceback unless
``PTO_BACKTRACE=1``.  ``python -m pypto`` is the same command.
"""

from __future__ import annotations

import argparse
import logging
import os
import sys
import traceback
from typing import Any, Callable, NoReturn, Optional, Sequence, TextIO

from .. import __version__
from . import diff_cmd, graph_cmd
from .load import entry_program, load_entries, select_entry
from .pipeline import (describe_passes, frontend_check_properties, parse_props,
                         pass_context, resolve_pipeline, run_pipeline)
from .report import (ProgramError, UsageError, plain_error, render_diagnostic,
                         with_backtrace)
from ..errors import Error, InternalError
from ..ir.function import Program
from ..language.parser.diagnostics import ParserError
from ..language.parser.display import backtrace_enabled
from ..passes import PropertyVerifierRegistry
from ..passes.pipeline import get_default_verification_level

__all__ = ["main", "build_parser", "EXIT_OK", "EXIT_PROGRAM_ERROR", "EXIT_USAGE",
           "EXIT_INTERNAL"]

EXIT_OK = 0
EXIT_PROGRAM_ERROR = 1
EXIT_USAGE = 2
EXIT_INTERNAL = 3

PROG = "pypto"


class _ArgumentParser(argparse.ArgumentParser):
    """argparse, but a bad command line is one line and a ``UsageError``, not an exit."""

    def error(self, message: str) -> NoReturn:
        raise UsageError(f"{message} (see '{self.prog} --help')")


def build_parser() -> argparse.ArgumentParser:
    parser = _ArgumentParser(
        prog=PROG,
        description="pypto: the PyPTO tile DSL front end and scope-outlining compiler.",
        epilog="Run 'pypto COMMAND --help' for the options of one command.")
    parser.add_argument("--version", action="version", version=f"{PROG} {__version__}")
    commands = parser.add_subparsers(dest="command", metavar="COMMAND")

    compile_cmd = commands.add_parser(
        "compile", help="run the pass pipeline on a program and print the result",
        description="Load the program defined in FILE (a @pl.program, @pl.function or "
                    "shape-annotated @pl.jit entry in a Python file, or printed DSL text), "
                    "run the pass pipeline and print the resulting program as DSL text.")
    compile_cmd.add_argument("file", metavar="FILE", help="a Python file or a DSL text file")
    compile_cmd.add_argument("-p", "--passes", metavar="PIPELINE", dest="pipeline",
                             help="comma-separated pass names, e.g. "
                                  "'convert-to-ssa,outline-graph-scopes' (default: the full "
                                  "default pipeline; see 'pypto passes')")
    compile_cmd.add_argument("--entry", metavar="NAME",
                             help="which program to compile when FILE defines several")
    compile_cmd.add_argument("--print-after-all", action="store_true",
                             help="print the IR after every pass to stderr")
    compile_cmd.add_argument("--dump-dir", metavar="DIR",
                             help="write the input and the IR after every pass to DIR, "
                                  "one numbered file per pass")
    compile_cmd.add_argument("-o", "--output", metavar="OUT",
                             help="write the result to OUT instead of stdout")

    check_cmd = commands.add_parser(
        "check", help="parse and verify files without running passes",
        description="Parse every program defined in each FILE and verify it. Diagnostics are "
                    "printed for every failing file.")
    check_cmd.add_argument("files", metavar="FILE", nargs="+")
    check_cmd.add_argument("--props", metavar="PROPS",
                           help="comma-separated IR properties to verify, or 'default' "
                                "(the default verify set) or 'structural' (default: the "
                                "default verify set less SSAForm and NoNestedCalls, which "
                                "only the front passes establish)")

    commands.add_parser("passes", help="list the registered passes",
                        description="List the registered passes with their kind and "
                                    "required, produced and invalidated IR properties.")
    for extra in _EXTRA_COMMANDS:  # pypto graph, pypto diff: one module each
        extra.register(commands)
    return parser


def main(argv: Optional[Sequence[str]] = None) -> int:
    """Run the command line; return the exit status (the console script exits with it)."""
    args_list = list(sys.argv[1:] if argv is None else argv)
    stdout, stderr = sys.stdout, sys.stderr
    try:
        _check_environment()
        try:
            args = build_parser().parse_args(args_list)
        except SystemExit as exc:  # --help and --version print, then "exit"
            return int(exc.code or 0)
        if args.command is None:
            raise UsageError(f"a command is required: compile, check, passes, graph or diff "
                             f"(see '{PROG} --help')")
        with _warnings_to(stderr):
            return _COMMANDS[args.command](args, stdout, stderr)
    except UsageError as exc:
        print(f"{PROG}: error: {exc}", file=stderr)
        return EXIT_USAGE
    except ProgramError as exc:
        cause = exc.cause if exc.cause is not None else exc
        print(with_backtrace(exc.text, cause), file=stderr)
        return EXIT_PROGRAM_ERROR
    except KeyboardInterrupt:
        print(f"{PROG}: interrupted", file=stderr)
        return 130
    except Exception as exc:  # noqa: BLE001 - anything else is a bug in pypto
        print(f"{PROG}: internal error (this is a bug in pypto): "
              f"{type(exc).__name__}: {exc}", file=stderr)
        traceback.print_exception(type(exc), exc, exc.__traceback__, file=stderr)
        return EXIT_INTERNAL


def _check_environment() -> None:
    """Bad values of the environment variables pypto reads are usage errors."""
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


# -- pypto compile ----------------------------------------------------------------------

def _compile(args: argparse.Namespace, stdout: TextIO, stderr: TextIO) -> int:
    passes = resolve_pipeline(args.pipeline)
    _check_output_paths(args)
    entry = select_entry(load_entries(args.file), args.file, args.entry)
    uses_default = args.pipeline is None and not args.print_after_all and not args.dump_dir
    if entry.is_jit and uses_default:
        # The jit's own compile(): signature mode, cached, the default pipeline.
        with pass_context(len(passes)):
            result = _user_step(lambda: entry.value.compile().program)
    else:
        program = entry_program(entry)
        print_after = _print_after_pass(stderr) if args.print_after_all else None
        result = _user_step(lambda: run_pipeline(program, passes, print_after, args.dump_dir))
    text = result.as_python() + "\n"
    if args.output is None:
        stdout.write(text)
    else:
        _write_output(args.output, text)
    return EXIT_OK


def _user_step(step: Callable[[], Program]) -> Program:
    """Run passes; their user-facing failures become ``ProgramError``s."""
    try:
        return step()
    except (InternalError, AssertionError):
        raise
    except ParserError as err:  # a jit entry parses lazily, at compile time
        raise ProgramError(err.render(), err) from err
    except Error as err:  # a verification report
        raise ProgramError(plain_error(str(err)), err) from err
    except (ValueError, TypeError) as err:
        raise ProgramError(plain_error(str(err)), err) from err


def _print_after_pass(stream: TextIO) -> Callable[[str, int, int, Program], None]:
    def show(pass_name: str, index: int, total: int, program: Program) -> None:
        print(f"# ===== IR after {pass_name} (pass {index} of {total}) =====", file=stream)
        print(program.as_python(), file=stream)
        stream.flush()
    return show


def _check_output_paths(args: argparse.Namespace) -> None:
    if args.output is not None and os.path.isdir(args.output):
        raise UsageError(f"-o: '{args.output}' is a directory")
    if args.dump_dir is not None:
        if os.path.exists(args.dump_dir) and not os.path.isdir(args.dump_dir):
            raise UsageError(f"--dump-dir: '{args.dump_dir}' exists and is not a directory")
        try:
            os.makedirs(args.dump_dir, exist_ok=True)
        except OSError as exc:
            raise UsageError(f"--dump-dir: cannot create '{args.dump_dir}': "
                             f"{exc.strerror or exc}") from None


def _write_output(path: str, text: str) -> None:
    try:
        with open(path, "w", encoding="utf-8") as handle:
            handle.write(text)
    except OSError as exc:
        raise UsageError(f"-o: cannot write '{path}': {exc.strerror or exc}") from None


# -- pypto check ------------------------------------------------------------------------

def _check(args: argparse.Namespace, stdout: TextIO, stderr: TextIO) -> int:
    props = parse_props(args.props) if args.props is not None else frontend_check_properties()
    failed = 0
    for path in args.files:
        ok = _check_file(path, props, stdout, stderr)
        failed += not ok
    if len(args.files) > 1:
        print(f"checked {len(args.files)} files: {len(args.files) - failed} ok, "
              f"{failed} failed", file=stdout)
    return EXIT_PROGRAM_ERROR if failed else EXIT_OK


def _check_file(path: str, props: Any, stdout: TextIO, stderr: TextIO) -> bool:
    """Verify every entry of one file; print its diagnostics; True when it passed."""
    try:
        entries = load_entries(path)
        if not entries:
            raise UsageError(f"{path} defines no @pl.program, @pl.function or @pl.jit entry "
                             "at module level")
        programs = [entry_program(entry) for entry in entries]
    except UsageError as exc:
        print(f"{PROG}: error: {exc}", file=stderr)
        print(f"{path}: failed", file=stdout)
        return False
    except ProgramError as exc:
        print(with_backtrace(exc.text, exc.cause or exc), file=stderr)
        print(f"{path}: failed", file=stdout)
        return False
    errors = 0
    for program in programs:
        for diag in PropertyVerifierRegistry.verify(props, program):
            print(render_diagnostic(diag), file=stderr)
            errors += diag.is_error
    if errors:
        print(f"{path}: failed ({errors} error{'s' if errors != 1 else ''})", file=stdout)
        return False
    print(f"{path}: ok", file=stdout)
    return True


# -- pypto passes -----------------------------------------------------------------------

def _passes(args: argparse.Namespace, stdout: TextIO, stderr: TextIO) -> int:
    stdout.write(describe_passes() + "\n")
    return EXIT_OK


_EXTRA_COMMANDS = (graph_cmd, diff_cmd)
_COMMANDS: dict[str, Callable[[argparse.Namespace, TextIO, TextIO], int]] = {
    "compile": _compile,
    "check": _check,
    "passes": _passes,
    "graph": graph_cmd.run,
    "diff": diff_cmd.run,
}

"""``pypto compile``: load one program, run the pipeline, print the result."""

from __future__ import annotations

import argparse
import os
from typing import Callable, TextIO

from ..errors import Error, InternalError
from ..ir.function import Program
from ..language.parser.diagnostics import ParserError
from .collector import collector_paused
from .errors import EXIT_OK, ProgramError, UsageError
from .formats import FileReport, make_emitter
from .jit_values import is_jit_function
from .load import STDIN, entry_program, load, open_source, select_entry
from .pipeline import PipelineView, pass_context, pass_names, resolve_pipeline, run_pipeline
from .progress import Progress, ProgressInstrument
from .report import backtrace_text, program_error

__all__ = ["run", "report_program_error", "compiled"]


def run(args: argparse.Namespace, stdout: TextIO, stderr: TextIO) -> int:
    progress = Progress(stderr, enabled=not args.quiet)
    try:
        with collector_paused(getattr(args, "process_exits", False)):
            return _compile(args, stdout, stderr, progress)
    finally:
        progress.finish()


def _compile(args: argparse.Namespace, stdout: TextIO, stderr: TextIO,
             progress: Progress) -> int:
    passes = resolve_pipeline(args.pipeline)
    view = _view(args, passes, stderr)
    _check_output_paths(args)
    source = open_source(args.file)
    progress.stage(f"loading {source.name}")
    loaded = load(source)
    if loaded.findings:
        raise ProgramError(loaded.findings, loaded.cause)
    entry = select_entry(loaded.entries, source.name, args.entry)
    if not view.prints() and progress.enabled:
        view.extra.append(ProgressInstrument(progress, len(passes)))
    jit = entry.value
    if is_jit_function(jit) and args.pipeline is None and view.is_plain() \
            and not args.dump_dir:
        # The jit's own compile(): signature mode, cached, the default pipeline.
        with pass_context(view.extra):
            result = _user_step(lambda: jit.compile().program)
    else:
        program = entry_program(entry)
        result = _user_step(lambda: run_pipeline(program, passes, view, args.dump_dir))
    progress.stage("printing")
    text = result.as_python() + "\n"
    progress.finish()
    if args.output is None or args.output == STDIN:
        stdout.write(text)
    else:
        _write_output(args.output, text)
    return EXIT_OK


def _view(args: argparse.Namespace, passes: list, stream: TextIO) -> PipelineView:
    def names(option: str, value: str | None) -> list[str]:
        return [] if value is None else pass_names(option, value, passes)
    return PipelineView(print_before=names("--print-before", args.print_before),
                        print_after=names("--print-after", args.print_after),
                        print_before_all=args.print_before_all,
                        print_after_all=args.print_after_all,
                        print_changed=args.print_changed,
                        print_on_failure=args.print_on_failure,
                        time_passes=args.time_passes, pass_statistics=args.pass_statistics,
                        stream=stream)


def compiled(program: Program, passes: list) -> Program:
    """``program`` after ``passes`` (``pypto graph`` / ``pypto diff``); user-facing
    failures as a ``ProgramError``."""
    return _user_step(lambda: run_pipeline(program, passes, PipelineView()))


def _user_step(step: Callable[[], Program]) -> Program:
    """Run passes; their user-facing failures become ``ProgramError``s."""
    try:
        return step()
    except (InternalError, AssertionError):
        raise
    except (ParserError, Error, ValueError, TypeError) as err:  # a jit entry parses here too
        raise program_error(err) from err


def report_program_error(exc: ProgramError, fmt: str, stdout: TextIO, stderr: TextIO) -> None:
    """The findings of a failed compile, on stderr (stdout is for the program)."""
    emitter = make_emitter(fmt, stdout, stderr, summary=False)
    emitter.file(FileReport("", exc.findings))
    emitter.finish()
    trace = backtrace_text(exc.cause) if exc.cause is not None else None
    if trace is not None:
        print(trace, file=stderr)


def _check_output_paths(args: argparse.Namespace) -> None:
    if args.output not in (None, STDIN) and os.path.isdir(args.output):
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

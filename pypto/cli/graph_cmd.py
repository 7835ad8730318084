"""``pypto graph FILE [-o OUT.svg]``: draw the program after the passes as SVG.

Functions are boxes labelled with their type, level and role, calls are arrows, a
Graph function holds the kernels only it launches, and below the call graph the
region tree of the input shows which region became which function (``pypto.viz``).
"""

from __future__ import annotations

import argparse
from typing import Any, TextIO

from ..errors import Error, InternalError
from .load import entry_program, load_entries, run_user_step, select_entry
from .report import ProgramError, UsageError, plain_error

__all__ = ["register", "run"]


def register(commands: Any) -> None:
    command = commands.add_parser(
        "graph", help="draw the program after the passes as an SVG picture",
        description="Compile the program in FILE and draw it as SVG: functions as boxes "
                    "(type, level, role), calls as arrows, each Graph function around its "
                    "kernels, and the input's region tree (which pl.at / pl.graph / "
                    "pl.cluster / pl.spmd became which function).")
    command.add_argument("file", metavar="FILE", help="a Python file or a DSL text file")
    command.add_argument("--entry", metavar="NAME",
                         help="which program to draw when FILE defines several")
    command.add_argument("-p", "--passes", metavar="PIPELINE", dest="pipeline",
                         help="comma-separated pass names to run (default: the default "
                              "pipeline; see 'pypto passes')")
    command.add_argument("-o", "--output", metavar="OUT",
                         help="write the SVG to OUT instead of stdout")


def run(args: argparse.Namespace, stdout: TextIO, stderr: TextIO) -> int:
    from ..viz import draw_program
    from .pipeline import resolve_pipeline, run_pipeline
    passes = resolve_pipeline(args.pipeline)
    entry = select_entry(load_entries(args.file), args.file, args.entry)
    program = entry_program(entry)
    compiled = run_user_step(lambda: _compiled(program, passes, run_pipeline), "passes")
    svg = draw_program(program, compiled=compiled).svg
    write_output(args.output, svg, stdout)
    return 0


def _compiled(program: Any, passes: list, run_pipeline: Any) -> Any:
    try:
        return run_pipeline(program, passes)
    except (InternalError, AssertionError):
        raise
    except Error as err:  # a verification report
        raise ProgramError(plain_error(str(err)), err) from err


def write_output(path: str | None, text: str, stdout: TextIO) -> None:
    if path is None or path == "-":
        stdout.write(text)
        return
    try:
        with open(path, "w", encoding="utf-8") as handle:
            handle.write(text)
    except OSError as exc:
        raise UsageError(f"-o: cannot write '{path}': {exc.strerror or exc}") from None

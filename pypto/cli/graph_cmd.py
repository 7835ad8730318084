"""``pypto graph FILE [-o OUT.svg]``: draw the program after the passes as SVG.

Functions are boxes labelled with their type, level and role, calls are arrows, a
Graph function holds the kernels only it launches, and below the call graph the
region tree of the input shows which region became which function (``pypto.viz``).
This module is imported to register the command: the compiler loads when it runs.
"""

from __future__ import annotations

import argparse
from typing import Any, TextIO

from .errors import EXIT_OK, UsageError

__all__ = ["register", "run", "write_output"]


def register(commands: Any) -> None:
    command = commands.add_parser(
        "graph", help="draw the program after the passes as an SVG picture",
        description="Compile the program in FILE and draw it as SVG: functions as boxes "
                    "(type, level, role), calls as arrows, each Graph function around its "
                    "kernels, and the input's region tree (which pl.at / pl.graph / "
                    "pl.cluster / pl.spmd became which function).")
    command.add_argument("file", metavar="FILE", help="a Python file, a DSL text file, or -")
    command.add_argument("--entry", metavar="NAME",
                         help="which program to draw when FILE defines several")
    command.add_argument("-p", "--passes", metavar="PIPELINE", dest="pipeline",
                         help="comma-separated pass names to run (default: the default "
                              "pipeline; see 'pypto passes')")
    command.add_argument("-o", "--output", metavar="OUT",
                         help="write the SVG to OUT instead of stdout ('-' is stdout)")


def run(args: argparse.Namespace, stdout: TextIO, stderr: TextIO) -> int:
    from ..viz import draw_program
    from .collector import collector_paused
    from .compile_command import compiled
    from .load import entry_program, load_entry
    from .pipeline import resolve_pipeline
    passes = resolve_pipeline(args.pipeline)
    with collector_paused(getattr(args, "process_exits", False)):
        program = entry_program(load_entry(args.file, args.entry))
        svg = draw_program(program, compiled=compiled(program, passes)).svg
    write_output(args.output, svg, stdout)
    return EXIT_OK


def write_output(path: str | None, text: str, stdout: TextIO) -> None:
    if path is None or path == "-":
        stdout.write(text)
        return
    try:
        with open(path, "w", encoding="utf-8") as handle:
            handle.write(text)
    except OSError as exc:
        raise UsageError(f"-o: cannot write '{path}': {exc.strerror or exc}") from None

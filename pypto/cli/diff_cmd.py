"""``pypto diff A B``: a unified diff of two programs' canonical DSL text.

Each of A and B is a Python file or a DSL text file, loaded as ``pypto compile``
loads them; ``-p`` runs the same passes on both first.  Exit status as diff(1):
0 no difference, 1 differences, 2 trouble (a command-line mistake, or a file that
does not load: its diagnostics are printed).  This module is imported to register
the command: the compiler loads when it runs.
"""

from __future__ import annotations

import argparse
from typing import Any, TextIO

from .errors import ProgramError, UsageError
from .graph_cmd import write_output

__all__ = ["register", "run"]

EXIT_TROUBLE = 2  # diff(1)'s status for trouble; 1 means "they differ"


def register(commands: Any) -> None:
    command = commands.add_parser(
        "diff", help="show a unified diff of two programs' DSL text",
        description="Load the program in A and in B and print a unified diff of their "
                    "canonical DSL text. Exit status: 0 the same, 1 different, 2 trouble.")
    command.add_argument("a", metavar="A", help="a Python file or a DSL text file")
    command.add_argument("b", metavar="B", help="a Python file or a DSL text file")
    command.add_argument("--entry", metavar="NAME",
                         help="which program to take from a file that defines several")
    command.add_argument("-p", "--passes", metavar="PIPELINE", dest="pipeline",
                         help="comma-separated pass names to run on both programs first")
    command.add_argument("-U", "--unified", metavar="N", type=int, default=3,
                         help="lines of context (default: 3)")
    command.add_argument("-o", "--output", metavar="OUT",
                         help="write the diff to OUT instead of stdout")


def run(args: argparse.Namespace, stdout: TextIO, stderr: TextIO) -> int:
    from ..ir.diff import diff
    from .collector import collector_paused
    from .compile_command import compiled, report_program_error
    from .load import entry_program, load_entry
    from .pipeline import resolve_pipeline
    if args.unified < 0:
        raise UsageError("-U: the number of context lines must be 0 or more")
    if args.a == "-" and args.b == "-":
        raise UsageError("'-' (standard input) can be only one of A and B")
    passes = resolve_pipeline(args.pipeline) if args.pipeline is not None else None
    try:
        programs = []
        for path in (args.a, args.b):
            with collector_paused():
                program = entry_program(load_entry(path, args.entry))
                if passes is not None:
                    program = compiled(program, passes)
            programs.append(program)
    except ProgramError as exc:  # exit 2, not 1: 1 means "they differ"
        report_program_error(exc, "full", stdout, stderr)
        return EXIT_TROUBLE
    text = diff(programs[0], programs[1], args.a, args.b, context=args.unified)
    write_output(args.output, text, stdout)
    return 1 if text else 0

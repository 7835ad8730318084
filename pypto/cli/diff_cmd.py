"""``pypto diff A B``: a unified diff of two programs' canonical DSL text.

Each of A and B is a Python file or a DSL text file, loaded as ``pypto compile``
loads them; ``-p`` runs the same passes on both first.  Exit status as diff(1):
0 no difference, 1 differences, 2 trouble (a command-line mistake, or a file that
does not load: its diagnostics are printed).
"""

from __future__ import annotations

import argparse
from typing import Any, TextIO

from .graph_cmd import write_output
from .load import entry_program, load_entries, run_user_step, select_entry
from .report import ProgramError, with_backtrace

__all__ = ["register", "run"]


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
    from .graph_cmd import _compiled
    from .pipeline import resolve_pipeline, run_pipeline
    from .report import UsageError
    if args.unified < 0:
        raise UsageError("-U: the number of context lines must be 0 or more")
    passes = resolve_pipeline(args.pipeline) if args.pipeline is not None else None
    try:
        programs = []
        for path in (args.a, args.b):
            program = entry_program(select_entry(load_entries(path), path, args.entry))
            if passes is not None:
                program = run_user_step(
                    lambda p=program: _compiled(p, passes, run_pipeline), "passes")
            programs.append(program)
    except ProgramError as exc:  # exit 2, not 1: 1 means "they differ"
        print(with_backtrace(exc.text, exc.cause or exc), file=stderr)
        return 2
    text = diff(programs[0], programs[1], args.a, args.b, context=args.unified)
    write_output(args.output, text, stdout)
    return 1 if text else 0

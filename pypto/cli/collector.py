"""The cycle collector is paused while a command works on one program.

A compile builds and rebuilds a large tree of IR nodes that lives until the command
ends, and frees what it drops by reference counting: the IR is acyclic.  Python's
cycle collector still walks every live container each time the heap has grown by a
quarter, and on a 20,000-line program those walks were ten full collections, about
3.8 s of a 10 s `pypto compile` (it found about 1% of the objects to be garbage).
So a command turns the collector off for one program's load, passes and print and
restores the state it found afterwards: a test or a notebook calling ``cli.main``
gets its collector back as it was (the console script, whose process ends there,
leaves it off: see ``collector_paused``).  The cyclic garbage of the one program (module
namespaces, a few closures) stays until the collector runs again: about 20 MB on
those 20,000 lines.  ``pypto check`` pauses per file, so a directory of files never
holds more than one file's garbage.

The console script also freezes what is alive when its command is done
(``leave_objects_to_exit``), so the interpreter's exit does not walk and free it all.

Only the command line does this: the library never touches the collector (a caller
of ``ir.compile`` or ``PassManager`` owns its process).
"""

from __future__ import annotations

import gc
from contextlib import contextmanager
from typing import Iterator

__all__ = ["collector_paused", "leave_objects_to_exit"]


@contextmanager
def collector_paused(process_exits: bool = False) -> Iterator[None]:
    """Cycle collection off for the block; its earlier state restored afterwards.

    When the process ends right after the block (``process_exits``: the console
    script), the collector stays off.  Turned back on, its first young collection
    would walk every object made during the pause (0.7 s after a 20,000-line
    compile), and the interpreter's exit would collect in every generation again,
    about 3 s in all on that program.  Python promises nothing about finalizing cyclic
    garbage at exit, and the exit's module teardown still runs its own last
    collection.
    """
    was_enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was_enabled and not process_exits:
            gc.enable()


def leave_objects_to_exit() -> None:
    """The console script's last step before its process exits: every object alive now
    is left to the operating system (``gc.freeze``).

    The interpreter's exit runs the cycle collector over everything still alive and
    then frees it all: the user's module namespace with the input program, the
    modules and their caches -- about 0.9 s after a 20,000-line compile, a sixth of
    the command.  Frozen, those objects are skipped.  Nothing is lost that the exit
    delivered: the user module's own finalizers ran only after the module teardown
    had emptied the builtins (an unclosed file's buffer was not written, a
    ``__del__`` failed with ``NameError: name 'open' is not defined``); ``atexit``
    handlers and the flush of standard output and error run as before, and an object
    still reachable from a module is finalized by the module teardown as before.
    """
    gc.freeze()

"""The commands pause the cycle collector for one program's work and restore it after."""

from __future__ import annotations

import gc
import subprocess
import sys

import pytest

from pypto import cli, passes
from pypto.cli.collector import collector_paused

from _cli_helpers import plain_env, run_cli, run_process, write
from test_cli_compile import PROGRAM as TWICE

# The file itself fails to load when the collector runs while it is executed.
PROGRAM = """
    import gc

    if gc.isenabled():
        raise RuntimeError("the collector runs while the file loads")
""" + TWICE

# Reads a name it never defines: the compile fails with a diagnostic.
BROKEN = TWICE.replace("y = pl.add(x, x)", "y = pl.add(x, undefined_name)")


@pytest.fixture
def collector_on():
    was = gc.isenabled()
    gc.enable()
    yield
    if not was:
        gc.disable()


def _states_seen_by_passes(capsys, *args: str) -> tuple[int, list[bool]]:
    seen: list[bool] = []
    record = passes.CallbackInstrument(before_pass=lambda p, prog: seen.append(gc.isenabled()))
    with passes.PassContext([record]):
        code = run_cli(capsys, *args).code
    return code, seen


def test_compile_runs_load_and_passes_without_the_collector(tmp_path, capsys, collector_on):
    path = write(tmp_path, "twice.py", PROGRAM)
    code, seen = _states_seen_by_passes(capsys, "compile", str(path))
    assert code == 0
    assert seen and not any(seen)
    assert gc.isenabled()


def test_compile_leaves_a_paused_collector_paused(tmp_path, capsys, collector_on):
    path = write(tmp_path, "twice.py", PROGRAM)
    gc.disable()
    assert run_cli(capsys, "compile", str(path)).code == 0
    assert not gc.isenabled()


def test_a_failed_compile_restores_the_collector(tmp_path, capsys, collector_on):
    path = write(tmp_path, "broken.py", BROKEN)
    result = run_cli(capsys, "compile", str(path))
    assert result.code == 1 and "undefined_name" in result.err
    assert gc.isenabled()


def test_check_loads_each_file_without_the_collector(tmp_path, capsys, collector_on):
    write(tmp_path, "a.py", PROGRAM)
    write(tmp_path, "b.py", PROGRAM)
    result = run_cli(capsys, "check", str(tmp_path))
    assert result.code == 0, result.out
    assert gc.isenabled()


def test_graph_and_diff_run_without_the_collector(tmp_path, capsys, collector_on):
    path = write(tmp_path, "twice.py", PROGRAM)
    code, seen = _states_seen_by_passes(capsys, "graph", str(path))
    assert code == 0 and seen and not any(seen)
    code, seen = _states_seen_by_passes(capsys, "diff", "-p", "convert-to-ssa", str(path),
                                        str(path))
    assert code == 0 and seen and not any(seen)
    assert gc.isenabled()



def test_a_command_whose_process_ends_leaves_the_collector_off(collector_on):
    with collector_paused(process_exits=True):
        assert not gc.isenabled()
    assert not gc.isenabled()
    gc.enable()
    with collector_paused():
        assert not gc.isenabled()
    assert gc.isenabled()


def test_only_the_console_call_counts_as_the_process_ending(tmp_path, capsys, collector_on):
    # main(argv) -- a test, a notebook -- gets its collector back; the console script's
    # main() (no arguments) is the one whose process ends.
    path = write(tmp_path, "twice.py", PROGRAM)
    assert cli.main(["compile", str(path), "-q", "-o", str(tmp_path / "o.py")]) == 0
    assert gc.isenabled()
    result = run_process("compile", str(path), "-q", "-o", str(tmp_path / "p.py"))
    assert result.code == 0, result.err
    assert (tmp_path / "p.py").read_text() == (tmp_path / "o.py").read_text()


# A module whose objects are still alive when the process ends: an unflushed file, a
# finalizer that needs the builtins, an atexit handler.
LEFT_ALIVE = """
    import atexit
    import os

    log = open(os.environ["LOG"], "w")
    log.write("never flushed")


    class Noisy:
        def __del__(self):
            open(os.environ["LOG"] + ".del", "w").close()


    noisy = Noisy()
    atexit.register(lambda: open(os.environ["LOG"] + ".atexit", "w").close())
""" + TWICE


def test_the_console_call_leaves_its_objects_to_the_exit(tmp_path, capsys):
    frozen = gc.get_freeze_count()
    twice = write(tmp_path, "twice.py", PROGRAM)
    assert cli.main(["compile", str(twice), "-q", "-o", str(tmp_path / "o.py")]) == 0
    assert gc.get_freeze_count() == frozen  # main(argv): nothing frozen
    path = write(tmp_path, "alive.py", LEFT_ALIVE)
    log = tmp_path / "log.txt"
    script = ("import gc, sys; from pypto import cli; "
              f"sys.argv = ['pypto', 'compile', {str(path)!r}, '-q']; code = cli.main(); "
              "print(code, gc.get_freeze_count() > 0)")
    proc = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True,
                          env=plain_env(LOG=str(log)), timeout=120, cwd=tmp_path)
    assert proc.stdout.splitlines()[-1] == "0 True", proc.stderr
    assert "def main" in proc.stdout  # the compiled program, flushed at exit
    assert (tmp_path / "log.txt.atexit").exists()  # atexit handlers still run
    # What the exit never delivered before either: the buffer of the unclosed file and a
    # finalizer that needs the builtins (it failed with a NameError on `open`).
    assert log.read_text() == ""
    assert not (tmp_path / "log.txt.del").exists()
    assert "NameError" not in proc.stderr

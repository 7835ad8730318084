"""The progress line: on a terminal, after ~2 s, never otherwise."""

from __future__ import annotations

import io

from pypto.cli import progress as progress_module
from pypto.cli.progress import Progress, ProgressInstrument

from _cli_helpers import EXAMPLES, run_cli


class Terminal(io.StringIO):
    def isatty(self) -> bool:
        return True


class Clock:
    def __init__(self) -> None:
        self.now = 100.0

    def __call__(self) -> float:
        return self.now


def test_nothing_is_drawn_before_the_delay():
    stream, clock = Terminal(), Clock()
    line = Progress(stream, clock=clock)
    line.stage("pass 1/9 InlineFunctions")
    clock.now += 1.9
    line.stage("pass 2/9 ConvertToSSA")
    line.finish()
    assert stream.getvalue() == ""


def test_after_the_delay_the_line_is_redrawn_in_place_and_erased_at_the_end():
    stream, clock = Terminal(), Clock()
    line = Progress(stream, clock=clock)
    clock.now += 2.5
    line.stage("pass 2/9 ConvertToSSA")
    line.detail("functions 1/40")  # within 0.1 s of the last draw: skipped
    clock.now += 0.2
    line.detail("functions 2/40")
    line.finish()
    assert stream.getvalue() == ("\r\x1b[2K[pypto] pass 2/9 ConvertToSSA"
                                 "\r\x1b[2K[pypto] pass 2/9 ConvertToSSA functions 2/40"
                                 "\r\x1b[2K")


def test_silent_when_not_a_terminal_or_quiet():
    for stream, enabled in ((io.StringIO(), True), (Terminal(), False)):
        clock = Clock()
        line = Progress(stream, enabled=enabled, clock=clock)
        clock.now += 10
        line.stage("pass 1/1 X")
        line.finish()
        assert stream.getvalue() == ""


def test_the_instrument_names_the_pass_and_counts_functions():
    stream, clock = Terminal(), Clock()
    line = Progress(stream, delay=0.0, clock=clock)
    instrument = ProgressInstrument(line, total=9)

    class FakePass:
        def get_name(self) -> str:
            return "ConvertToSSA"

    instrument.run_before_pass(FakePass(), None)
    clock.now += 1
    instrument.run_after_function(FakePass(), 3, 5)
    assert stream.getvalue().endswith("[pypto] pass 1/9 ConvertToSSA functions 3/5")


def test_a_compile_on_a_terminal_shows_progress_after_the_delay(capsys, monkeypatch):
    # The delay set to zero stands for a long compile; stderr is a terminal.
    monkeypatch.setattr(progress_module, "DELAY_SECONDS", 0.0)
    terminal = Terminal()
    monkeypatch.setattr("sys.stderr", terminal)
    result = run_cli(capsys, "compile", str(EXAMPLES / "graph_layers.py"))
    shown = terminal.getvalue()
    assert result.code == 0 and result.out.startswith("# pypto.program: GraphLayers\n")
    assert "[pypto] loading " in shown
    assert "[pypto] pass 9/9 LegalizeGraphBoundary" in shown
    assert shown.endswith("\r\x1b[2K")  # erased before the program is written
    monkeypatch.setattr("sys.stderr", quiet := Terminal())
    run_cli(capsys, "compile", "--quiet", str(EXAMPLES / "graph_layers.py"))
    assert quiet.getvalue() == ""

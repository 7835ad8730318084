"""``pypto.tools.ir_trace``: the per-pass IR dumps as an HTML trace."""

from __future__ import annotations

import pytest

import pypto.language as pl
from pypto import ir
from pypto.tools.ir_trace import cli, diff, discovery, html, model

T = pl.Tensor[[16, 16], pl.FP32]


@pl.program
class Kernel:
    @pl.function(type=pl.FunctionType.Orchestration)
    def main(self, x: T, y: pl.Out[T]) -> T:
        with pl.at(level=pl.Level.CORE_GROUP):
            t = pl.load(x, [0, 0], [16, 16])
            y = pl.store(pl.add(t, t), [0, 0], y)
        return y


@pytest.fixture
def dumps(tmp_path):
    ir.PassManager.get_strategy().run_passes(Kernel, dump_ir=True, output_dir=str(tmp_path))
    return tmp_path


def test_discovery_reads_the_dumps_in_pass_order(dumps):
    snapshots = discovery.discover_snapshots(dumps)
    assert snapshots[0].index == 0 and snapshots[0].pass_name == "frontend"
    assert [s.index for s in snapshots] == sorted(s.index for s in snapshots)
    names = [s.pass_name for s in snapshots]
    assert "OutlineIncoreScopes" in names
    assert snapshots[0].lines == model.split_source_lines(snapshots[0].text)


def test_the_outlining_pass_adds_a_function_section(dumps):
    traces = diff.build_trace(discovery.discover_snapshots(dumps), 2)
    outline = next(t for t in traces if t.name == "OutlineIncoreScopes")
    assert outline.changed and outline.inserted > 0
    added = [s for s in outline.sections if s.deleted == 0 and s.inserted > 0
             and s.function_name not in ("main", "")]
    assert added, [(s.function_name, s.inserted, s.deleted) for s in outline.sections]
    assert all(row.kind == "insert" for hunk in added[0].hunks for row in hunk.rows)
    main = next(s for s in outline.sections if s.function_name == "main")
    assert main.deleted > 0  # the region's body left main
    assert outline.inserted == sum(s.inserted for s in outline.sections)
    unchanged = [t for t in traces if not t.changed]
    assert all(not t.hunks or all(h.collapsed for h in t.hunks) for t in unchanged)


def test_context_lines_and_collapsed_runs():
    before = model.Snapshot(0, "frontend", None, "", [f"line {i}" for i in range(20)])
    after_lines = [f"line {i}" for i in range(20)]
    after_lines[10] = "changed"
    after = model.Snapshot(1, "P", None, "", after_lines)
    (trace,) = diff.build_trace([before, after], 1)
    hunks = trace.sections[0].hunks
    assert [h.collapsed for h in hunks] == [True, False, True]
    shown = hunks[1].rows
    assert [r.kind for r in shown] == ["equal", "replace", "equal"]
    assert (trace.inserted, trace.deleted) == (1, 1)
    with pytest.raises(model.IRTraceError, match="non-negative"):
        diff.build_trace([before, after], -1)


def test_highlighting_escapes_and_marks_tokens():
    text = diff.highlight_python("if x < 1: return 'a<b'  # c")
    assert '<span class="kw">if</span>' in text and "&lt;" in text
    assert '<span class="str">&#x27;a&lt;b&#x27;</span>' in text
    assert '<span class="com"># c</span>' in text and '<span class="num">1</span>' in text


def test_render_and_cli(dumps, tmp_path, capsys):
    traces = diff.build_trace(discovery.discover_snapshots(dumps), 3)
    page = html.render_html(traces, "kernel")
    assert page.startswith("<!DOCTYPE html>") and "OutlineIncoreScopes" in page
    out = tmp_path / "trace.html"
    assert cli.main([str(dumps), "-o", str(out)]) == 0
    assert out.read_text(encoding="utf-8") == html.render_html(traces, str(dumps))
    assert cli.main([str(tmp_path / "missing")]) == 2
    assert "is not a directory of IR dumps" in capsys.readouterr().err
    empty = tmp_path / "empty"
    empty.mkdir()
    with pytest.raises(model.IRTraceError, match="holds no IR dumps"):
        discovery.discover_snapshots(empty)

"""How IR nodes display: one-line ``repr``; in notebooks DSL text with wrapped long
signatures, highlighted by the pypto lexer when Pygments is importable, escaped in a
``<pre>`` otherwise, readable on light and dark backgrounds."""

from __future__ import annotations

import html
import re
import sys

import pytest

import pypto.language as pl
from pypto import ir
from pypto.ir.display import display_text, wrap_signatures

T = pl.Tensor[[8], pl.FP32]


@pl.program
class Shown:
    @pl.function
    def main(self, x: T) -> T:
        y = pl.add(x, x)
        return y


@pl.program
class Regions:
    @pl.function(type=pl.FunctionType.Orchestration)
    def entry(self, very_long_parameter_name_number_one: T, very_long_parameter_name_two: T,
              accumulator_buffer_in_out: pl.InOut[T]) -> T:
        for i in pl.range(2):
            with pl.graph("step"):
                with pl.at(level=pl.Level.CORE_GROUP):
                    t = pl.add(pl.load(very_long_parameter_name_number_one, [0], [8]),
                               pl.load(accumulator_buffer_in_out, [0], [8]))
                    pl.store(pl.exp(t), [0], accumulator_buffer_in_out)
        return accumulator_buffer_in_out


def visible_text(page: str) -> str:
    return html.unescape(re.sub(r"<[^>]+>", "", page))


def spans_of(page: str, css: str) -> list[str]:
    return [html.unescape(m) for m in re.findall(rf'<span class="{css}"[^>]*>([^<]*)</span>', page)]


# -- repr ---------------------------------------------------------------------------

def test_repr_is_one_line():
    assert repr(Shown) == "<Program 'Shown': 1 function>"
    assert repr(Regions) == "<Program 'Regions': 1 function>"
    assert repr(ir.Program([], "")) == "<Program: 0 functions>"
    assert repr(Shown["main"]) == "<Function 'main': Opaque, 1 param>"
    assert repr(Regions["entry"]) == "<Function 'entry': Orchestration, 3 params>"
    assert repr(Shown["main"].body) == \
        "<SeqStmts: y: pl.Tensor[[8], pl.FP32] = pl.tensor.add(x, x) ...>"
    assert repr(Shown["main"].params[0]) == "x"


# -- wrapping -------------------------------------------------------------------------

def test_long_signatures_wrap_with_a_hanging_indent():
    text = display_text(Regions)
    assert max(len(line) for line in text.splitlines() if "def " in line) <= 100
    lines = text.splitlines()
    start = next(i for i, line in enumerate(lines) if line.strip().startswith("def entry("))
    assert lines[start] == "    def entry("
    end = next(i for i in range(start, len(lines)) if lines[i].endswith(":"))
    continuation = lines[start + 1:end + 1]
    assert len(continuation) >= 2
    assert all(line.startswith(" " * 12) and not line.startswith(" " * 13)
               for line in continuation), continuation
    assert continuation[-1].endswith(") -> pl.Tensor[[8], pl.FP32]:")
    assert lines[end + 1].startswith("        for ")  # the body, indented less


def test_wrapped_text_is_still_the_program():
    text = display_text(Regions)
    assert text != Regions.as_python()
    ir.assert_structural_equal(pl.parse(text), Regions)


def test_short_lines_and_other_long_lines_stay_as_printed():
    assert display_text(Shown) == Shown.as_python()
    long_call = "    x = pl.tensor.add(" + ", ".join(["a" * 20] * 6) + ")"
    assert wrap_signatures(long_call) == long_call


def test_a_parameter_is_never_split():
    line = ("def f(self, a: pl.Tensor[[1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14], pl.FP32], "
            "b: pl.Tensor[[8], pl.FP32], c: pl.Scalar[pl.INDEX]) -> pl.Tensor[[8], pl.FP32]:")
    wrapped = wrap_signatures(line, width=60).splitlines()
    assert wrapped[0] == "def f("
    assert "        a: pl.Tensor[[1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14], pl.FP32]," \
        in wrapped
    assert " ".join(w.strip() for w in wrapped).replace("( ", "(") == line


# -- HTML -----------------------------------------------------------------------------

def test_highlighted_html_shows_exactly_the_display_text():
    page = Regions._repr_html_()
    assert page.startswith('<pre class="pypto-ir" style="')
    assert visible_text(page) == display_text(Regions)


def test_the_lexer_tells_ops_types_regions_and_keywords_apart():
    page = Regions._repr_html_()
    assert {"pl.range", "def", "for", "return", "class"} <= set(spans_of(page, "pypto-keyword"))
    assert "pl.graph" in spans_of(page, "pypto-region")
    assert "pl.tensor.add" not in page
    compiled = ir.PassManager.get_strategy().run_passes(Regions)
    page = compiled._repr_html_()
    ops = set(spans_of(page, "pypto-op"))
    assert {"pl.tile.load", "pl.tile.exp", "pl.tile.store"} <= ops
    assert {"pl.Tensor", "pl.FP32", "pl.InOut", "pl.Tile"} <= set(spans_of(page, "pypto-type"))
    assert {"pl.FunctionType.Graph", "pl.Level.CHIP", "pl.Mem.Vec"} <= \
        set(spans_of(page, "pypto-constant"))
    assert "@pl.function" in spans_of(page, "pypto-decorator")
    assert {"8", "0"} <= set(spans_of(page, "pypto-number"))
    assert "entry" in spans_of(page, "pypto-def")


def _luminance(colour: str) -> float:
    channels = [int(colour[i:i + 2], 16) / 255 for i in (1, 3, 5)]
    linear = [c / 12.92 if c <= 0.03928 else ((c + 0.055) / 1.055) ** 2.4 for c in channels]
    return 0.2126 * linear[0] + 0.7152 * linear[1] + 0.0722 * linear[2]


def _contrast(a: str, b: str) -> float:
    high, low = sorted((_luminance(a), _luminance(b)), reverse=True)
    return (high + 0.05) / (low + 0.05)


@pytest.mark.parametrize("background", ["#ffffff", "#f5f5f5", "#1e1e1e", "#111111"],
                         ids=["light", "light-grey", "vscode-dark", "jupyterlab-dark"])
def test_every_colour_is_readable_on_light_and_dark_backgrounds(background):
    page = ir.PassManager.get_strategy().run_passes(Regions)._repr_html_()
    colours = set(re.findall(r"(?<!-)color: (#[0-9a-f]{6})", page))
    assert len(colours) >= 6
    for colour in colours:
        assert _contrast(colour, background) >= 3.5, (colour, background)


def test_the_block_sets_no_background_of_its_own():
    page = Regions._repr_html_()
    backgrounds = re.findall(r"background(?:-color)?: ([^;\"]+)", page)
    assert backgrounds == ["transparent"]
    assert "color: inherit" in page.split(">", 1)[0]  # plain text takes the theme's colour


def test_without_pygments_the_text_is_escaped_in_a_pre(monkeypatch):
    for name in [n for n in sys.modules if n == "pygments" or n.startswith("pygments.")]:
        monkeypatch.setitem(sys.modules, name, None)  # makes every pygments import fail
    monkeypatch.setitem(sys.modules, "pygments", None)
    monkeypatch.delitem(sys.modules, "pypto.ir.highlight", raising=False)
    page = Shown["main"]._repr_html_()
    assert page == ('<pre class="pypto-ir">'
                    + html.escape(Shown["main"].as_python()) + "</pre>")
    assert "-&gt; pl.Tensor[[8], pl.FP32]:" in page


def test_every_node_kind_has_the_html_form():
    body = Shown["main"].body
    for node in (Shown, Shown["main"], body, Shown["main"].params[0]):
        assert isinstance(node, ir.IRNode)
        assert visible_text(node._repr_html_()) == node.as_python()


def test_the_pygments_lexer_is_registered_by_name():
    from pygments.lexers import get_lexer_by_name
    assert type(get_lexer_by_name("pypto")).__name__ == "PyptoLexer"


# -- markdown and the terminal ----------------------------------------------------------

def test_markdown_is_a_fenced_block_of_the_display_text():
    assert Regions._repr_markdown_() == f"```python\n{display_text(Regions)}\n```"


def test_markdown_fence_outgrows_backticks_in_the_text():
    @pl.function
    def ticks(x: T) -> T:
        # a comment with ``` inside
        return x
    fenced = ticks._repr_markdown_()
    assert fenced.startswith("````python\n") and fenced.endswith("\n````")


def test_pretty_printer_form_is_the_display_text():
    IPython = __import__("IPython.lib.pretty", fromlist=["pretty"])
    assert IPython.pretty(Shown) == Shown.as_python()
    assert IPython.pretty(Regions) == display_text(Regions)

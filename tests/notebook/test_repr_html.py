"""``IRNode._repr_html_``: Jupyter shows programs as DSL text, highlighted when Pygments
is importable, escaped in a ``<pre>`` otherwise."""

from __future__ import annotations

import html
import re
import sys

import pypto.language as pl
from pypto import ir

T = pl.Tensor[[8], pl.FP32]


@pl.program
class Shown:
    @pl.function
    def main(self, x: T) -> T:
        y = pl.add(x, x)
        return y


def visible_text(page: str) -> str:
    return html.unescape(re.sub(r"<[^>]+>", "", page))


def test_highlighted_html_shows_exactly_the_dsl_text():
    page = Shown._repr_html_()
    assert page.startswith('<div class="pypto-ir" style="background: #f8f8f8">')
    assert "<span style=" in page  # inline styles: no stylesheet needed
    assert visible_text(page).strip("\n") == Shown.as_python()


def test_without_pygments_the_text_is_escaped_in_a_pre(monkeypatch):
    monkeypatch.setitem(sys.modules, "pygments", None)  # makes the import fail
    page = Shown["main"]._repr_html_()
    assert page == ('<pre class="pypto-ir">'
                    + html.escape(Shown["main"].as_python()) + "</pre>")
    assert "-&gt; pl.Tensor[[8], pl.FP32]:" in page


def test_every_node_kind_has_the_html_form():
    body = Shown["main"].body
    for node in (Shown, Shown["main"], body, Shown["main"].params[0]):
        assert isinstance(node, ir.IRNode)
        assert visible_text(node._repr_html_()).strip("\n") == node.as_python()


def test_pretty_printer_form_is_the_plain_text():
    IPython = __import__("IPython.lib.pretty", fromlist=["pretty"])
    assert IPython.pretty(Shown) == Shown.as_python()

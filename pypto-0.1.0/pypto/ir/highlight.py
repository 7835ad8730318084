"""The pypto lexer for Pygments, and the HTML the notebook display uses.

Imported only when Pygments is installed (the ``notebook`` extra); it is also
registered as Pygments' ``pypto`` lexer (``pygmentize -l pypto``).

The lexer is Python's, with the DSL's dotted names re-tagged by what they are in
the printed text: ``pl.tensor.add`` an op, ``pl.Tensor`` / ``pl.FP32`` a type,
``pl.Level.CHIP`` an enum constant, ``pl.at`` / ``pl.graph`` a region,
``pl.range`` / ``pl.yield_`` control flow.  The classification reads the
printer's spelling conventions (op namespaces are lowercase, types and dtypes
capitalised), so it needs no table of names.
"""

from __future__ import annotations

import html
from typing import Iterator

from pygments.lexers.python import PythonLexer
from pygments.token import Keyword, Name, Operator, Token, _TokenType

__all__ = ["PyptoLexer", "highlight_html", "PALETTE", "CATEGORY"]

Region = Keyword.Region
Control = Keyword.Control
Op = Name.Op
DslType = Keyword.Type
EnumConstant = Name.Constant

REGIONS = frozenset({"at", "graph", "cluster", "spmd", "scope", "manual_scope", "incore"})
CONTROL = frozenset({"range", "parallel", "unroll", "pipeline", "while_", "yield_", "cond"})


def classify(path: list[str]) -> _TokenType:
    """The token type of ``pl.<path...>``."""
    head = path[0]
    if head[:1].isupper():  # pl.Tensor, pl.FP32 / pl.Level.CHIP, pl.Mem.Vec
        return DslType if len(path) == 1 else EnumConstant
    if len(path) == 1:
        if head in REGIONS:
            return Region
        if head in CONTROL:
            return Control
    return Op


class PyptoLexer(PythonLexer):
    """Python, with the pypto DSL's ops, types, enums and regions told apart."""

    name = "pypto"
    aliases = ["pypto"]
    filenames: list[str] = []
    mimetypes = ["text/x-pypto"]

    def __init__(self, prefix: str = "pl", **options: object) -> None:
        super().__init__(**options)
        self.prefix = prefix

    def get_tokens_unprocessed(self, text: str, stack: tuple = ("root",)
                               ) -> Iterator[tuple[int, _TokenType, str]]:
        pending: list[tuple[int, _TokenType, str]] = []
        for item in super().get_tokens_unprocessed(text, stack):
            _, ttype, value = item
            if pending:
                expects_name = pending[-1][2] == "."
                if expects_name and ttype in Name and value.isidentifier():
                    pending.append(item)
                    continue
                if not expects_name and ttype is Operator and value == ".":
                    pending.append(item)
                    continue
                yield from self._flush(pending)
                pending = []
            if ttype in Name and value in (self.prefix, "@" + self.prefix):
                pending.append(item)
            else:
                yield item
        yield from self._flush(pending)

    @staticmethod
    def _flush(pending: list) -> Iterator[tuple[int, _TokenType, str]]:
        if not pending:
            return
        if pending[-1][2] == ".":  # ``pl.`` followed by something else: leave as lexed
            yield from pending
            return
        path = [value for _, _, value in pending[2::2]]
        if not path:
            yield from pending
            return
        kind = Name.Decorator if pending[0][2].startswith("@") else classify(path)
        yield pending[0][0], kind, "".join(value for _, _, value in pending)


# token type -> CSS class -> inline style.  Every colour keeps >= 3.9:1 contrast on
# white, #f5f5f5, #1e1e1e (VS Code dark) and #111111 (JupyterLab dark) (tests/notebook/test_repr_html.py checks it).
CATEGORY: list[tuple[_TokenType, str]] = [
    (Region, "pypto-region"), (Control, "pypto-keyword"), (DslType, "pypto-type"),
    (EnumConstant, "pypto-constant"), (Op, "pypto-op"), (Name.Decorator, "pypto-decorator"),
    (Name.Function, "pypto-def"), (Name.Class, "pypto-def"),
    (Keyword.Constant, "pypto-constant"), (Keyword, "pypto-keyword"),
    (Token.Literal.String, "pypto-string"), (Token.Literal.Number, "pypto-number"),
    (Token.Comment, "pypto-comment"),
]
PALETTE: dict[str, str] = {
    "pypto-region": "color: #a24bfa; font-weight: bold",
    "pypto-keyword": "color: #d6407f; font-weight: bold",
    "pypto-type": "color: #15897b",
    "pypto-constant": "color: #bb6313",
    "pypto-op": "color: #3f7ad2",
    "pypto-decorator": "color: #7f6ad4",
    "pypto-def": "font-weight: bold",
    "pypto-string": "color: #cf541f",
    "pypto-number": "color: #318b3f",
    "pypto-comment": "color: #7a7a7a; font-style: italic",
}
# No background: the block sits on the notebook's own (light or dark) cell colour.
BLOCK_STYLE = "color: inherit; background: transparent; white-space: pre; font-family: monospace"


def _css_class(ttype: _TokenType) -> str | None:
    for parent, css in CATEGORY:
        if ttype in parent:
            return css
    return None


def highlight_html(text: str, prefix: str = "pl") -> str:
    parts = [f'<pre class="pypto-ir" style="{BLOCK_STYLE}">']
    for ttype, value in PyptoLexer(prefix=prefix, stripnl=False,
                                   ensurenl=False).get_tokens(text):
        escaped = html.escape(value, quote=False)
        css = _css_class(ttype)
        if css is None:
            parts.append(escaped)
        else:
            parts.append(f'<span class="{css}" style="{PALETTE[css]}">{escaped}</span>')
    parts.append("</pre>")
    return "".join(parts)

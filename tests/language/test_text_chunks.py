"""DSL text read a definition at a time (``text_chunks``, issue 19 memory): the same IR,
the same spans and the same errors as reading the whole tree, and the whole tree of a
long text never parsed at once."""

from __future__ import annotations

import textwrap
from pathlib import Path

import pytest

import pypto
import pypto.language as pl
from pypto import ir
from pypto.ir.node import IRNode
from pypto.ir.span import Span
from pypto.language.parser import pyast, text_chunks, text_parser
from pypto.language.parser.diagnostics import ParserError

CORPUS = sorted(Path(__file__).with_name("corpus").glob("*.py"))
WHOLE = 10 ** 12  # chunk_min_chars that keeps every text whole


def _fields(obj, out: list, seen: set) -> None:
    """Every field of the IR below ``obj``, spans included (unique ids of Vars and MemRefs left out: two
    parses number their variables apart)."""
    if isinstance(obj, Span):
        out.append(repr(obj))
    elif isinstance(obj, (list, tuple)):
        for item in obj:
            _fields(item, out, seen)
    elif isinstance(obj, dict):
        for key, value in obj.items():
            out.append(repr(key))
            _fields(value, out, seen)
    elif isinstance(obj, IRNode) or hasattr(type(obj), "__slots__"):
        if id(obj) in seen:
            out.append("<seen>")
            return
        seen.add(id(obj))
        out.append(type(obj).__name__)
        for cls in type(obj).__mro__:
            for slot in cls.__dict__.get("__slots__", ()):
                if slot not in ("unique_id", "_uid") and hasattr(obj, slot):
                    _fields(getattr(obj, slot), out, seen)
    else:
        out.append(repr(obj))


def _all_fields(entity) -> list:
    out: list = []
    _fields(entity, out, set())
    return out


def _parse_counting(text: str, chunk_min_chars: int) -> tuple[object, list[int]]:
    sizes: list[int] = []
    original = pyast.parse

    def counting(source, *args, **kwargs):
        sizes.append(len(source))
        return original(source, *args, **kwargs)

    pyast.parse = counting
    try:
        return text_parser.parse_text(text, "<t>", chunk_min_chars=chunk_min_chars), sizes
    finally:
        pyast.parse = original


def _compiled_texts() -> list[tuple[str, str]]:
    texts = []
    for path in CORPUS:
        source = path.read_text()
        texts.append((path.stem, source))
        entity = pl.parse(source, filename=str(path))
        try:  # some corpus programs are for the parser only
            compiled = ir.PassManager.get_strategy(ir.OptimizationStrategy.Default) \
                .run_passes(entity)
        except (pypto.Error, TypeError):
            continue
        texts.append((f"{path.stem}-compiled", ir.python_print(compiled)))
    return texts


TEXTS = _compiled_texts()


@pytest.mark.parametrize("group", [text_chunks.BODY_GROUP_CHARS, 1])
@pytest.mark.parametrize("name,text", TEXTS, ids=[name for name, _ in TEXTS])
def test_read_in_pieces_equals_the_whole_tree_spans_included(name, text, group, monkeypatch):
    # group 1: every long method body is parsed a statement at a time
    monkeypatch.setattr(text_chunks, "BODY_GROUP_CHARS", group)
    whole = text_parser.parse_text(text, "<t>", chunk_min_chars=WHOLE)
    pieces, sizes = _parse_counting(text, 0)
    assert len(text) not in sizes and len(sizes) > 1, "the text was not read in pieces"
    ir.assert_structural_equal(whole, pieces)
    assert ir.python_print(pieces) == ir.python_print(whole)
    assert _all_fields(pieces) == _all_fields(whole)


def test_a_long_printed_program_is_never_parsed_whole(monkeypatch):
    text = max((text for name, text in TEXTS if name.endswith("-compiled")),
               key=lambda text: text.count("    @pl.function"))
    methods = text.count("    @pl.function")
    # the imports, the class line, then the methods, in one group (their headers are
    # built from their lines: the printer writes one decorator and a one-line def)
    (_, sizes) = _parse_counting(text, 0)
    assert len(sizes) == 3 and max(sizes) < len(text)
    monkeypatch.setattr(text_chunks, "BODY_GROUP_CHARS", 1)  # a method, a statement a group
    (_, sizes) = _parse_counting(text, 0)
    assert len(sizes) >= 2 + methods and max(sizes) < len(text) / 3


BAD_CUTS = {
    # a string with lines at the class-member indentation and at column 0
    "string": '''
        @pl.program
        class P:
            @pl.function(type=pl.FunctionType.InCore)
            def k(self, x: pl.Tensor[[64], pl.FP32]) -> pl.Tensor[[64], pl.FP32]:
                """doc
            @pl.function
        def f():
                """
                return x
    ''',
    # a bracket closed at the member indentation, a decorator over two lines
    "brackets": '''
        @pl.program(
            strict_ssa=False)
        class P:
            @pl.function(
                type=pl.FunctionType.InCore)
            def k(self, x: pl.Tensor[[64], pl.FP32]
            ) -> pl.Tensor[[64], pl.FP32]:
                return x
    ''',
    # a one-line def and members that are not methods
    "members": '''
        @pl.program
        class P:
            """A program."""
            @pl.function(type=pl.FunctionType.InCore)
            def k(self, x: pl.Tensor[[64], pl.FP32]) -> pl.Tensor[[64], pl.FP32]: return x
            pass
    ''',
}


@pytest.mark.parametrize("name", sorted(BAD_CUTS))
def test_text_a_cut_cannot_split_reads_as_a_whole(name, monkeypatch):
    monkeypatch.setattr(text_chunks, "BODY_GROUP_CHARS", 1)
    text = textwrap.dedent(BAD_CUTS[name]).lstrip()
    whole = text_parser.parse_text(text, "<t>", chunk_min_chars=WHOLE)
    pieces = text_parser.parse_text(text, "<t>", chunk_min_chars=0)
    ir.assert_structural_equal(whole, pieces)
    assert _all_fields(pieces) == _all_fields(whole)


ERRORS = {
    "undefined name in a body": '''
        @pl.program
        class P:
            @pl.function(type=pl.FunctionType.InCore)
            def k(self, x: pl.Tensor[[64], pl.FP32]) -> pl.Tensor[[64], pl.FP32]:
                return y

            @pl.function(type=pl.FunctionType.InCore)
            def j(self, x: pl.Tensor[[64], pl.FP32]) -> pl.Tensor[[64], pl.FP32]:
                return z
    ''',
    "duplicate method": '''
        @pl.program
        class P:
            @pl.function(type=pl.FunctionType.InCore)
            def k(self, x: pl.Tensor[[64], pl.FP32]) -> pl.Tensor[[64], pl.FP32]:
                return x

            @pl.function(type=pl.FunctionType.InCore)
            def k(self, x: pl.Tensor[[64], pl.FP32]) -> pl.Tensor[[64], pl.FP32]:
                return x
    ''',
    "bad decorator keyword": '''
        @pl.program
        class P:
            @pl.function(typ=pl.FunctionType.InCore)
            def k(self, x: pl.Tensor[[64], pl.FP32]) -> pl.Tensor[[64], pl.FP32]:
                return x
    ''',
}


def _error(text: str, chunk_min_chars: int) -> ParserError:
    with pytest.raises(ParserError) as info:
        text_parser.parse_text(text, "<t>", chunk_min_chars=chunk_min_chars)
    return info.value


@pytest.mark.parametrize("name", sorted(ERRORS))
def test_errors_read_in_pieces_are_those_of_the_whole_text(name):
    text = textwrap.dedent(ERRORS[name]).lstrip()
    whole, pieces = _error(text, WHOLE), _error(text, 0)
    assert type(pieces) is type(whole)
    assert str(pieces) == str(whole)
    assert pieces.span == whole.span
    assert [str(e) for e in getattr(pieces, "also", ())] == \
        [str(e) for e in getattr(whole, "also", ())]


def test_a_dynamic_dim_of_a_function_printed_alone_reads_in_pieces_too():
    # Only the whole tree knows every annotation's names: the reading falls back to it.
    text = textwrap.dedent('''
        @pl.function
        def f(x: pl.Tensor[[N], pl.FP32]) -> pl.Tensor[[N], pl.FP32]:
            y: pl.Tensor[[N], pl.FP32] = pl.add(x, x)
            return y
    ''').lstrip()
    whole = text_parser.parse_text(text, "<t>", chunk_min_chars=WHOLE)
    pieces = text_parser.parse_text(text, "<t>", chunk_min_chars=0)
    ir.assert_structural_equal(whole, pieces)
    assert _all_fields(pieces) == _all_fields(whole)


def test_a_long_method_body_is_parsed_in_groups_of_statements(monkeypatch):
    monkeypatch.setattr(text_chunks, "BODY_GROUP_CHARS", 40)
    body = "".join(f"        y{i}: pl.Tensor[[64], pl.FP32] = pl.add(x, x)\n" for i in range(20))
    text = ("@pl.program\nclass P:\n    @pl.function(type=pl.FunctionType.InCore)\n"
            "    def k(self, x: pl.Tensor[[64], pl.FP32]) -> pl.Tensor[[64], pl.FP32]:\n"
            "        # leading\n" + body + "\n        # between\n\n" + body.replace("y", "z")
            + "        return x\n")
    whole = text_parser.parse_text(text, "<t>", chunk_min_chars=WHOLE)
    pieces, sizes = _parse_counting(text, 0)
    assert len(sizes) > 20 and max(sizes) < len(text) / 4
    ir.assert_structural_equal(whole, pieces)
    assert _all_fields(pieces) == _all_fields(whole)
    assert ir.python_print(pieces) == ir.python_print(whole)


HEADERS = {  # headers the pattern does not read: parsed (or the text read whole)
    "two decorators": "@pl.function\n    @pl.function\n    def k(self, x: T) -> T:",
    "a default": "@pl.function\n    def k(self, x: T = None) -> T:",
    "keyword only": "@pl.function\n    def k(self, *, x: T) -> T:",
    "a comment between": "@pl.function\n    # the kernel\n    def k(self, x: T) -> T:",
    "a call in a shape": "@pl.function(type=pl.FunctionType.InCore)\n"
                         "    def k(self, x: pl.Tensor[[f(a, b)], pl.FP32]) -> T:",
    "a decorator over lines": "@pl.function(\n        type=pl.FunctionType.InCore)\n"
                              "    def k(self, x: T) -> T:",
}


@pytest.mark.parametrize("name", sorted(HEADERS))
def test_odd_method_headers_read_as_the_whole_text_does(name):
    text = ("T = pl.Tensor[[64], pl.FP32]\n\n@pl.program\nclass P:\n    " + HEADERS[name]
            + "\n        return x\n\n    @pl.function\n    def j(self, x: T) -> T:\n"
            "        return x\n")
    try:
        whole = text_parser.parse_text(text, "<t>", chunk_min_chars=WHOLE)
    except (ParserError, ValueError) as err:
        with pytest.raises(type(err)) as caught:
            text_parser.parse_text(text, "<t>", chunk_min_chars=0)
        assert str(caught.value) == str(err)
        return
    pieces = text_parser.parse_text(text, "<t>", chunk_min_chars=0)
    ir.assert_structural_equal(whole, pieces)
    assert _all_fields(pieces) == _all_fields(whole)


def test_a_defect_of_the_piecewise_reading_is_not_hidden_by_the_whole_one(monkeypatch):
    # The whole-text reading would succeed: a defect of the piecewise one must surface.
    def broken(item, header):
        raise KeyError("a defect in the piecewise reading")

    monkeypatch.setattr(text_chunks, "_as_method", broken)
    text = ("@pl.program\nclass P:\n    @pl.function(type=pl.FunctionType.InCore)\n"
            "    def k(self, x: pl.Tensor[[64], pl.FP32]) -> pl.Tensor[[64], pl.FP32]:\n"
            "        return x\n")
    assert isinstance(text_parser.parse_text(text, "<t>", chunk_min_chars=WHOLE), ir.Program)
    with pytest.raises(KeyError, match="a defect in the piecewise reading"):
        text_parser.parse_text(text, "<t>", chunk_min_chars=0)


def test_a_body_that_does_not_parse_alone_still_reads_as_the_whole_text(monkeypatch):
    # CannotSplit from a method body read on demand is the one miss the reading expects.
    def cannot(item, header):
        raise text_chunks.CannotSplit()

    monkeypatch.setattr(text_chunks, "_as_method", cannot)
    text = ("@pl.program\nclass P:\n    @pl.function(type=pl.FunctionType.InCore)\n"
            "    def k(self, x: pl.Tensor[[64], pl.FP32]) -> pl.Tensor[[64], pl.FP32]:\n"
            "        return x\n")
    whole = text_parser.parse_text(text, "<t>", chunk_min_chars=WHOLE)
    ir.assert_structural_equal(whole, text_parser.parse_text(text, "<t>", chunk_min_chars=0))

"""Parser error classes, concise messages and the snippet renderer (01-language.md §14)."""

from __future__ import annotations

import io
import pickle

import pytest

from pypto import ir
from pypto.language.parser import diagnostics as diag
from pypto.language.parser.diagnostics import (ErrorRenderer, InvalidOperationError,
                                               ParserError, ParserSyntaxError, ParserTypeError,
                                               ScopeIsolationError, SSAViolationError,
                                               UndefinedVariableError,
                                               UnsupportedFeatureError, concise_error_message)
from pypto.language.parser.source import registered_source

# The spec's example file (§14.4): 8 lines, the last one blank.
MODEL_LINES = [
    "import pypto.language as pl",
    "",
    "@pl.program",
    "class Model:",
    "    def main(self, x: pl.Tensor[[8], pl.FP32]) -> pl.Tensor[[8], pl.FP32]:",
    "        y = pl.add(x, x)",
    "        return acc",
    "",
]

SPEC_EXAMPLE = """\
Error: Undefined variable 'acc'
  --> model.py:7:16
  |
5 |     def main(self, x: pl.Tensor[[8], pl.FP32]) -> pl.Tensor[[8], pl.FP32]:
6 |         y = pl.add(x, x)
7 |         return acc
  |                ^^^ Undefined variable 'acc'
8 |
  |"""


@pytest.fixture(autouse=True)
def _plain_environment(monkeypatch, tmp_path):
    for name in ("NO_COLOR", "FORCE_COLOR", "TERM", "PTO_BACKTRACE"):
        monkeypatch.delenv(name, raising=False)
    # Relative file names in these tests must not find a real file by accident.
    monkeypatch.chdir(tmp_path)


def render(err: BaseException) -> str:
    return ErrorRenderer(use_color=False).render(err)


# -- classes and fields -------------------------------------------------------------------

SUBCLASSES = [ParserSyntaxError, ParserTypeError, UndefinedVariableError, SSAViolationError,
              UnsupportedFeatureError, InvalidOperationError, ScopeIsolationError]


@pytest.mark.parametrize("cls", SUBCLASSES)
def test_every_error_class_is_a_parser_error_exported_by_name(cls):
    assert issubclass(cls, ParserError)
    assert issubclass(ParserError, Exception)
    assert getattr(diag, cls.__name__) is cls
    assert cls.__name__ in diag.__all__


def test_fields_from_an_ir_span():
    err = ParserTypeError("bad annotation", ir.Span("k.py", 3, 5, 3, 9), hint="use pl.Tensor",
                          note="see §3", source_lines=["a\n", "b\r\n", "c"])
    assert str(err) == "bad annotation"
    assert err.message == "bad annotation"
    assert err.args == ("bad annotation",)
    assert err.span == {"filename": "k.py", "line": 3, "column": 5, "file": "k.py",
                        "begin_line": 3, "begin_column": 5, "end_line": 3, "end_column": 9}
    assert type(err.span) is dict
    assert err.hint == "use pl.Tensor"
    assert err.note == "see §3"
    assert err.source_lines == ["a", "b", "c"]


def test_span_without_end_has_no_end_keys():
    err = ParserSyntaxError("m", ir.Span("k.py", 2, 7))
    assert err.span == {"filename": "k.py", "line": 2, "column": 7, "file": "k.py",
                        "begin_line": 2, "begin_column": 7}


@pytest.mark.parametrize("given", [
    {"filename": "k.py", "line": 4, "column": 2},
    {"file": "k.py", "begin_line": 4, "begin_column": 2},
])
def test_span_from_a_dict_with_short_or_long_keys(given):
    assert ParserSyntaxError("m", given).span == {
        "filename": "k.py", "line": 4, "column": 2, "file": "k.py", "begin_line": 4,
        "begin_column": 2}


@pytest.mark.parametrize("unknown", [None, ir.Span.unknown(), {"filename": "k.py"},
                                     {"filename": "k.py", "line": 0, "column": 3}])
def test_unknown_position_gives_no_span(unknown):
    assert ParserSyntaxError("m", unknown).span is None


def test_unknown_column_is_stored_as_zero():
    assert ParserSyntaxError("m", ir.Span("k.py", 4, -1)).span["column"] == 0


def test_bad_span_type_is_a_type_error_naming_span():
    with pytest.raises(TypeError, match=r"span must be an ir\.Span, a dict or None, got str"):
        ParserSyntaxError("m", "k.py:1:1")
    with pytest.raises(TypeError, match=r"span line must be an int, got str"):
        ParserSyntaxError("m", {"filename": "k.py", "line": "3"})


def test_bad_source_lines_is_a_type_error():
    with pytest.raises(TypeError, match="source_lines must contain str, got int"):
        ParserSyntaxError("m", source_lines=[1, 2])


def test_source_lines_given_as_text_are_split():
    assert ParserSyntaxError("m", source_lines="a\nb\n").source_lines == ["a", "b"]


def test_ssa_violation_error_carries_the_previous_span():
    err = SSAViolationError("rebinding", ir.Span("k.py", 5, 1), previous_span=ir.Span("k.py", 2, 3))
    assert err.previous_span == {"filename": "k.py", "line": 2, "column": 3, "file": "k.py",
                                 "begin_line": 2, "begin_column": 3}
    assert SSAViolationError("rebinding").previous_span is None


def test_with_source_lines_attaches_once_unless_replaced():
    err = ParserSyntaxError("m")
    assert err.with_source_lines(["first\n"]) is err
    assert err.source_lines == ["first"]
    err.with_source_lines(["second"])
    assert err.source_lines == ["first"]
    err.with_source_lines(["third"], replace=True)
    assert err.source_lines == ["third"]


def test_errors_survive_pickling_with_all_fields():
    err = SSAViolationError("rebinding", ir.Span("k.py", 5, 1), hint="h", note="n",
                            source_lines=["x"], previous_span=ir.Span("k.py", 2, 3))
    copy = pickle.loads(pickle.dumps(err))
    assert type(copy) is SSAViolationError
    assert (copy.message, copy.span, copy.hint, copy.note, copy.source_lines,
            copy.previous_span) == (err.message, err.span, err.hint, err.note,
                                    err.source_lines, err.previous_span)


# -- concise_error_message ----------------------------------------------------------------

def test_concise_message_drops_a_trailing_backtrace():
    exc = ValueError("shape mismatch\n\nTraceback (most recent call last):\n  File \"x\"")
    assert concise_error_message(exc) == "shape mismatch"
    assert concise_error_message(RuntimeError("bad\nStack trace:\n  #0 f()")) == "bad"


def test_concise_message_drops_trailing_check_failure_noise():
    assert concise_error_message(ValueError("bad dims\nCheck failed: a == b")) == "bad dims"
    # A check failure that is the whole message is the message.
    assert concise_error_message(ValueError("Check failed: a == b")) == "Check failed: a == b"


def test_concise_message_strips_a_trailing_span_only_on_request():
    exc = ValueError("level conflict [model.py:3:5]")
    assert concise_error_message(exc) == "level conflict [model.py:3:5]"
    assert concise_error_message(exc, strip_trailing_span=True) == "level conflict"


def test_concise_message_of_an_empty_exception_is_its_class_name():
    assert concise_error_message(KeyError()) == "KeyError"


def test_concise_message_keeps_a_multi_line_message():
    assert concise_error_message(ValueError("line one\nline two\n")) == "line one\nline two"


# -- renderer: layout ---------------------------------------------------------------------

def spec_error() -> UndefinedVariableError:
    return UndefinedVariableError("Undefined variable 'acc'", ir.Span("model.py", 7, 16, 7, 19),
                                  source_lines=MODEL_LINES)


def test_spec_example_byte_for_byte():
    assert render(spec_error()) == SPEC_EXAMPLE
    assert spec_error().render(use_color=False) == SPEC_EXAMPLE


def test_snippet_is_read_from_the_real_file(tmp_path):
    path = tmp_path / "model.py"
    path.write_text("\n".join(MODEL_LINES) + "\n")
    err = UndefinedVariableError("Undefined variable 'acc'", ir.Span(str(path), 7, 16))
    assert render(err) == SPEC_EXAMPLE.replace("model.py", str(path))


def test_linecache_entry_wins_over_attached_source_lines():
    stale = ["# stale"] * 8
    err = UndefinedVariableError("Undefined variable 'acc'", ir.Span("<cell-1>", 7, 16),
                                 source_lines=stale)
    with registered_source("\n".join(MODEL_LINES) + "\n", "<cell-1>"):
        assert render(err) == SPEC_EXAMPLE.replace("model.py", "<cell-1>")


def test_snippet_at_the_first_line_and_two_digit_gutter():
    lines = [f"x{n} = {n}" for n in range(1, 13)]
    first = ParserSyntaxError("Bad statement", ir.Span("f.py", 1, 1), source_lines=lines)
    assert render(first) == """\
Error: Bad statement
  --> f.py:1:1
  |
1 | x1 = 1
  | ^^ Bad statement
2 | x2 = 2
3 | x3 = 3
  |"""
    wide = ParserSyntaxError("Bad statement", ir.Span("f.py", 9, 6), source_lines=lines)
    assert render(wide) == """\
Error: Bad statement
  --> f.py:9:6
   |
 7 | x7 = 7
 8 | x8 = 8
 9 | x9 = 9
   |      ^ Bad statement
10 | x10 = 10
11 | x11 = 11
   |"""


def test_dotted_name_is_one_token_but_a_trailing_dot_is_not():
    lines = ["for i in pl.range(4):", "y = x. z"]
    err = UnsupportedFeatureError("x", ir.Span("f.py", 1, 10), source_lines=lines)
    assert render(err).split("\n")[4] == "  |          ^^^^^^^^ x"
    err = UnsupportedFeatureError("x", ir.Span("f.py", 2, 5), source_lines=lines)
    assert render(err).split("\n")[5] == "  |     ^ x"


def test_non_identifier_token_gets_one_caret():
    err = ParserSyntaxError("x", ir.Span("f.py", 1, 6), source_lines=["y = (a + b)"])
    assert render(err).split("\n")[4] == "  |      ^ x"


def test_tab_counts_as_four_columns():
    err = UndefinedVariableError("Undefined variable 'acc'", ir.Span("f.py", 1, 2),
                                 source_lines=["\tacc"])
    assert render(err).split("\n")[3:5] == ["1 |     acc",
                                            "  |     ^^^ Undefined variable 'acc'"]


def test_column_zero_omits_the_column_and_points_at_the_line_start():
    err = ParserSyntaxError("NameError: boom", ir.Span("f.py", 1, 0), source_lines=["  foo(1)"])
    assert render(err) == """\
Error: NameError: boom
  --> f.py:1
  |
1 |   foo(1)
  |   ^^^ NameError: boom
  |"""


def test_caret_label_is_the_first_sentence_when_short():
    err = InvalidOperationError("Unknown op 'foo'. Did you mean 'add'?", ir.Span("f.py", 1, 1),
                                source_lines=["foo(x)"])
    assert render(err).split("\n")[4] == "  | ^^^ Unknown op 'foo'"


def test_caret_label_is_omitted_for_a_long_first_sentence():
    message = "A first sentence that is far too long to repeat next to the carets"
    err = ParserSyntaxError(message, ir.Span("f.py", 1, 1), source_lines=["foo(x)"])
    assert render(err).split("\n")[4] == "  | ^^^"


def test_no_span_gives_only_the_header_help_and_note():
    err = ParserSyntaxError("Cannot retrieve source code for f", hint="use pl.parse(text)",
                            note="defined via exec")
    assert render(err) == """\
Error: Cannot retrieve source code for f
   = help: use pl.parse(text)
   = note: defined via exec"""


def test_span_without_available_source_shows_the_location_only():
    err = ParserSyntaxError("boom", ir.Span("<nowhere>", 3, 2))
    assert render(err) == "Error: boom\n  --> <nowhere>:3:2"


def test_ssa_block_then_help_and_note():
    lines = ["def f(x):", "    y = x", "    y = x + 1", "    return y"]
    err = SSAViolationError("Variable 'y' is already defined", ir.Span("s.py", 3, 5),
                            hint="use a new name", note="strict_ssa=True",
                            source_lines=lines, previous_span=ir.Span("s.py", 2, 5))
    assert render(err) == """\
Error: Variable 'y' is already defined
  --> s.py:3:5
  |
1 | def f(x):
2 |     y = x
3 |     y = x + 1
  |     ^ Variable 'y' is already defined
4 |     return y
  |

   = note: Previous definition was here:
     --> s.py:2:5
     y = x
     ^
   = help: use a new name
   = note: strict_ssa=True"""


# -- renderer: colour ---------------------------------------------------------------------

def test_colours_of_each_part():
    lines = ["def f(x):", "    y = x", "    y = x + 1"]
    err = SSAViolationError("Variable 'y' is already defined", ir.Span("s.py", 3, 5),
                            hint="h", note="n", source_lines=lines,
                            previous_span=ir.Span("s.py", 2, 9))
    assert ErrorRenderer(use_color=True).render(err) == (
        "\x1b[1;31mError: Variable 'y' is already defined\x1b[0m\n"
        "\x1b[36m  --> s.py:3:5\x1b[0m\n"
        "  |\n"
        "1 | def f(x):\n"
        "2 |     y = x\n"
        "3 |     y = x + 1\n"
        "  |     \x1b[1;31m^ Variable 'y' is already defined\x1b[0m\n"
        "  |\n"
        "\n"
        "\x1b[36m   = note: Previous definition was here:\x1b[0m\n"
        "\x1b[36m     --> s.py:2:9\x1b[0m\n"
        "     y = x\n"
        "         \x1b[36m^\x1b[0m\n"
        "\x1b[32m   = help: h\x1b[0m\n"
        "\x1b[36m   = note: n\x1b[0m")


class _FakeTerminal(io.StringIO):
    def isatty(self) -> bool:
        return True


@pytest.mark.parametrize("env, tty, expected", [
    ({}, False, False),
    ({}, True, True),
    ({"NO_COLOR": "1"}, True, False),
    ({"TERM": "dumb"}, True, False),
    ({"FORCE_COLOR": "1"}, False, True),
    ({"FORCE_COLOR": "1", "NO_COLOR": "1"}, False, False),
])
def test_default_colour_rules(monkeypatch, env, tty, expected):
    for name, value in env.items():
        monkeypatch.setenv(name, value)
    monkeypatch.setattr("sys.stderr", _FakeTerminal() if tty else io.StringIO())
    assert ErrorRenderer().use_color is expected
    assert ("\x1b[" in spec_error().render()) is expected


def test_explicit_use_color_wins_over_the_environment(monkeypatch):
    monkeypatch.setenv("NO_COLOR", "1")
    assert ErrorRenderer(use_color=True).use_color is True
    monkeypatch.setenv("FORCE_COLOR", "1")
    monkeypatch.delenv("NO_COLOR")
    assert "\x1b[" not in spec_error().render(use_color=False)

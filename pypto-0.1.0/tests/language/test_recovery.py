"""Error recovery: every independent error of a program is reported, the errors that
only follow from another one are not, and the first error is the one raised."""

from __future__ import annotations

import threading

import pytest

import pypto.language as pl
from pypto.language.parser.diagnostics import (InvalidOperationError, ParserError,
                                               UndefinedVariableError)
from pypto.language.parser.findings import findings_of
from pypto.language.parser.recovery import FailedEntity, collect_entity_errors
from pypto.language.parser.source import registered_source

HEADER = "import pypto.language as pl\nT = pl.Tensor[[64], pl.FP32]\n"


def run_source(text: str, filename: str = "m.py") -> dict:
    """Run ``text`` as the module ``filename`` (the decorators read it from linecache)."""
    namespace: dict = {"__name__": "m"}
    with registered_source(text, filename):
        exec(compile(text, filename, "exec"), namespace)  # noqa: S102 - our own text
    return namespace


def all_errors(err: ParserError) -> list[tuple[str, int]]:
    return [(e.message, e.span["line"]) for e in (err, *err.also)]


def parse_errors(body: str) -> list[tuple[str, int]]:
    with pytest.raises(ParserError) as info:
        run_source(HEADER + body)
    return all_errors(info.value)


def test_every_statement_error_of_a_function_is_reported_in_order():
    assert parse_errors('''\
@pl.function
def f(x: T) -> T:
    a = pl.add(x, q)
    b = pl.mul(x, x)
    for i in range(4):
        b = pl.add(b, b)
    return zz
''') == [("Undefined variable 'q'", 5),
         ("For loop must use pl.range(), pl.parallel(), pl.unroll(), pl.pipeline(), "
          "pl.while_() or pl.spmd()", 7),
         ("Undefined variable 'zz'", 9)]


def test_a_name_bound_by_a_failed_statement_does_not_cascade():
    # 'a' is poisoned by its failed definition: its uses are not reported again.
    assert parse_errors('''\
@pl.function
def f(x: T) -> T:
    a = pl.add(x, q)
    b = pl.mul(a, a)
    c = pl.add(b, a)
    return c
''') == [("Undefined variable 'q'", 5)]


def test_an_error_inside_a_loop_is_reported_once_and_the_rest_goes_on():
    assert parse_errors('''\
@pl.function
def f(x: T) -> T:
    for i in pl.range(4):
        x = pl.add(x, q)
        x = pl.mul(x, w)
    return zz
''') == [("Undefined variable 'q'", 6), ("Undefined variable 'w'", 7),
         ("Undefined variable 'zz'", 8)]


def test_every_method_is_parsed_and_calls_of_a_failed_one_are_not_reported():
    errors = parse_errors('''\
@pl.program
class P:
    @pl.function
    def helper(self, x: T) -> T:
        return q

    @pl.function
    def main(self, x: T) -> T:
        y = self.helper(x)
        z = pl.add(y, y)
        return w
''')
    assert errors == [("Undefined variable 'q'", 7), ("Undefined variable 'w'", 13)]


def test_the_first_error_is_the_one_a_single_error_parse_gave():
    with pytest.raises(UndefinedVariableError) as info:
        run_source(HEADER + "@pl.function\ndef f(x: T) -> T:\n    y = pl.add(x, q)\n"
                            "    for i in range(3):\n        pass\n    return y\n")
    assert str(info.value) == "Undefined variable 'q'"
    assert [type(e).__name__ for e in info.value.also] == ["ParserSyntaxError"]


def test_findings_of_an_error_list_every_error_with_its_code():
    with pytest.raises(ParserError) as info:
        run_source(HEADER + "@pl.function\ndef f(x: T) -> T:\n    a = pl.add(x, q)\n"
                            "    b = pl.tensor.nope(x)\n    return zz\n")
    found = findings_of(info.value)
    assert [(f.code, f.span["line"]) for f in found] == [("E200", 5), ("E302", 6), ("E200", 7)]
    assert isinstance(info.value.also[0], InvalidOperationError)


def test_the_decorator_path_reports_every_error_too():
    with pytest.raises(ParserError) as info:
        @pl.function
        def f(x: pl.Tensor[[8], pl.FP32]) -> pl.Tensor[[8], pl.FP32]:
            a = pl.add(x, q)  # noqa: F821
            return zz  # noqa: F821
    assert [e.message for e in (info.value, *info.value.also)] == [
        "Undefined variable 'q'", "Undefined variable 'zz'"]
    assert all(e.source_lines for e in info.value.also)  # every one renders a snippet


def test_collecting_goes_on_past_a_failed_definition():
    text = HEADER + '''\
@pl.function
def helper(x: T) -> T:
    return q

@pl.program
class Uses:
    @pl.function
    def main(self, x: T) -> T:
        y = helper(x)
        return w

@pl.function
def other(x: T) -> T:
    return r
'''
    with collect_entity_errors() as errors:
        namespace = run_source(text, "c.py")
    # helper's error, Uses' own error (not its use of helper), other's error
    assert [(e.message, e.span["line"]) for e in errors] == [
        ("Undefined variable 'q'", 5), ("Undefined variable 'w'", 12),
        ("Undefined variable 'r'", 16)]
    assert isinstance(namespace["helper"], FailedEntity)
    assert isinstance(namespace["Uses"], FailedEntity)


def test_outside_a_collection_a_failed_definition_raises_as_always():
    with pytest.raises(UndefinedVariableError):
        @pl.function
        def f(x: pl.Tensor[[8], pl.FP32]) -> pl.Tensor[[8], pl.FP32]:
            return q  # noqa: F821


def test_collections_in_threads_are_their_own():
    results: dict[int, list[str]] = {}

    def work(index: int) -> None:
        text = HEADER + f"@pl.function\ndef f{index}(x: T) -> T:\n    return v{index}\n"
        with collect_entity_errors() as errors:
            for _ in range(20):
                run_source(text, f"t{index}.py")
        results[index] = sorted({e.message for e in errors})

    threads = [threading.Thread(target=work, args=(i,)) for i in range(8)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert results == {i: [f"Undefined variable 'v{i}'"] for i in range(8)}

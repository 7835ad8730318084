"""pypto's own defects raised while parsing stay loud; the user's mistakes stay diagnostics.

A defect is simulated with code compiled under a file name inside the pypto package:
to ``pypto.errors.is_pypto_defect`` it is pypto's code, which is what it judges by.
"""

from __future__ import annotations

import ast
import collections
import os
import textwrap

import pytest

import pypto
import pypto.language as pl
from pypto.errors import InternalError, is_pypto_defect
from pypto.ir.function import Program
from pypto.language.op.unified_ops import UNIFIED_OPS
from pypto.language.parser.diagnostics import InvalidOperationError, ParserSyntaxError
from pypto.language.parser.function_parser import FunctionParser

PYPTO_DIR = os.path.dirname(pypto.__file__)


def pypto_code(source: str, name: str):
    """The function ``name`` defined by ``source``, as if it were a module of pypto."""
    namespace: dict = {"collections": collections}
    code = compile(textwrap.dedent(source), os.path.join(PYPTO_DIR, "_simulated.py"), "exec")
    exec(code, namespace)  # noqa: S102 - the test's own text
    return namespace[name]


def raised_by(fn, *args) -> BaseException:
    try:
        fn(*args)
    except Exception as exc:  # noqa: BLE001 - the error is what is judged
        return exc
    raise AssertionError("no error raised")


# -- the judgement ----------------------------------------------------------------------------

def test_a_failed_lookup_in_pypto_code_is_a_defect():
    lookup = pypto_code("def lookup(table): return table['slot']", "lookup")
    attribute = pypto_code("def attribute(x): return x.missing", "attribute")
    imported = pypto_code("def imported(): from os import no_such_name", "imported")
    unbound = pypto_code("def unbound():\n    return value_never_set", "unbound")
    assert is_pypto_defect(raised_by(lookup, {}))
    assert is_pypto_defect(raised_by(attribute, 1))
    assert is_pypto_defect(raised_by(imported))
    assert is_pypto_defect(raised_by(unbound))


def test_a_lookup_failing_inside_the_standard_library_is_pypto_s_call():
    # ChainMap raises KeyError in its own (Python) code: the frame that asked is pypto's.
    lookup = pypto_code("def lookup(): return collections.ChainMap({})['slot']", "lookup")
    assert is_pypto_defect(raised_by(lookup))


def test_errors_pypto_raises_on_purpose_are_not_defects():
    program = Program([], "P")
    assert not is_pypto_defect(raised_by(program.__getitem__, "missing"))  # raise KeyError
    refuse = pypto_code("def refuse(): raise IndexError('rank 3 out of range')", "refuse")
    assert not is_pypto_defect(raised_by(refuse))
    wrong = pypto_code("def wrong(x): return x + 'a'", "wrong")
    assert not is_pypto_defect(raised_by(wrong, 1))  # a TypeError: user errors have it too


def test_errors_of_the_user_s_own_code_are_not_defects():
    def users_lookup(table):
        return table["slot"]

    assert not is_pypto_defect(raised_by(users_lookup, {}))
    # The user's code called from pypto's: the innermost frame is still the user's.
    calls = pypto_code("def calls(fn, arg): return fn(arg)", "calls")
    assert not is_pypto_defect(raised_by(calls, users_lookup, {}))


# -- the parser's catch-alls ------------------------------------------------------------------

PROGRAM = """\
import pypto.language as pl

@pl.function
def f(x: pl.Tensor[[4], pl.FP32]) -> pl.Tensor[[4], pl.FP32]:
    y = pl.exp(x)
    return y
"""


def test_a_defect_in_an_op_builder_is_an_internal_error_at_the_user_s_line(monkeypatch):
    monkeypatch.setitem(UNIFIED_OPS, "exp", pypto_code(
        "def exp(*args, span=None, **kwargs): return {}['slot']", "exp"))
    with pytest.raises(InternalError) as info:
        pl.parse(PROGRAM, filename="user.py")
    message = str(info.value)
    assert message.startswith("pypto failed while parsing pl.exp(...) at user.py:5: "
                              "KeyError: 'slot'"), message
    assert "a bug in pypto" in message
    assert isinstance(info.value.__cause__, KeyError)


def test_the_same_error_raised_by_the_user_is_a_diagnostic(monkeypatch):
    def exp(*args, span=None, **kwargs):  # the user's code, not pypto's
        return {}["slot"]

    monkeypatch.setitem(UNIFIED_OPS, "exp", exp)
    with pytest.raises(InvalidOperationError) as info:
        pl.parse(PROGRAM, filename="user.py")
    assert str(info.value) == "Error in pl.tensor operation 'exp': KeyError: 'slot'"
    assert info.value.span["line"] == 5


def test_a_defect_in_a_statement_handler_is_an_internal_error(monkeypatch):
    monkeypatch.setitem(FunctionParser.STMT_HANDLERS, ast.Pass, pypto_code(
        "def handler(p, node): return p.no_such_attribute", "handler"))
    text = PROGRAM.replace("    y = pl.exp(x)\n", "    pass\n    y = pl.exp(x)\n")
    with pytest.raises(InternalError) as info:
        pl.parse(text, filename="user.py")
    assert str(info.value).startswith(
        "pypto failed while parsing function 'f' at user.py:5: AttributeError:"), info.value
    assert isinstance(info.value.__cause__, AttributeError)


def test_a_defect_in_a_namespaced_op_is_an_internal_error(monkeypatch):
    from pypto.language.op import NAMESPACES
    monkeypatch.setitem(NAMESPACES["tensor"].PARSER_ENTRIES, "exp", pypto_code(
        "def exp(*args, span=None, **kwargs): return [][0]", "exp"))
    with pytest.raises(InternalError) as info:
        pl.parse(PROGRAM.replace("pl.exp(x)", "pl.tensor.exp(x)"), filename="user.py")
    assert str(info.value).startswith("pypto failed while parsing pl.tensor.exp(...) at "
                                      "user.py:5: IndexError: list index out of range")


def test_a_deliberate_refusal_from_pypto_stays_the_user_s_error(monkeypatch):
    monkeypatch.setitem(UNIFIED_OPS, "exp", pypto_code(
        "def exp(*args, span=None, **kwargs): raise KeyError('no such mode')", "exp"))
    with pytest.raises(InvalidOperationError):
        pl.parse(PROGRAM)
    monkeypatch.setitem(FunctionParser.STMT_HANDLERS, ast.Pass, pypto_code(
        "def handler(p, node): raise ValueError('refused')", "handler"))
    with pytest.raises(ParserSyntaxError, match="Failed to parse function 'f': refused"):
        pl.parse(PROGRAM.replace("    y = pl.exp(x)\n", "    pass\n    y = x\n"))


# -- passes: a ValueError of pypto's own code is a defect, a raised one a refusal ---------------

PASS_INPUT = """\
import pypto.language as pl

@pl.program
class P:
    @pl.function
    def main(self, x: pl.Tensor[[64], pl.FP32]) -> pl.Tensor[[64], pl.FP32]:
        y = pl.add(x, x)
        return y
"""


def test_a_value_error_of_pypto_code_in_a_pass_is_an_internal_error():
    unpack = pypto_code("def unpack(func):\n    a, b = [func, func, func]\n    return a",
                        "unpack")
    program = pl.parse(PASS_INPUT)
    with pytest.raises(InternalError, match=r"Pass 'Unpack' failed on function 'main': "
                       r"ValueError: too many values to unpack") as info:
        pypto.passes.create_function_pass(unpack, "Unpack")(program)
    assert isinstance(info.value.__cause__, ValueError)


def test_a_value_error_a_pass_raises_is_a_refusal_at_the_function():
    refuse = pypto_code("def refuse(func):\n    raise ValueError('not this one')", "refuse")
    program = pl.parse(PASS_INPUT)
    with pytest.raises(pypto.passes.PassError,
                       match="Refuse: in function 'main': not this one") as info:
        pypto.passes.create_function_pass(refuse, "Refuse")(program)
    assert info.value.span is not None and info.value.span.begin_line == 6

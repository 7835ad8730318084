"""Loading DSL text never runs it (issue 16); the decorators' evaluator refuses dunders.

Every place the text could smuggle code into is tried with a payload that creates a
marker file if anything evaluates it: ``pl.parse`` must refuse it with a diagnostic at
the payload's line, and the marker must never appear.  ``test_the_payloads_work`` shows
each payload does create its marker when Python evaluates it -- through a restricted
``eval`` too -- so a test here cannot pass because its payload is harmless.
"""

from __future__ import annotations

import importlib.util
import json
import os
import sys
import textwrap
from pathlib import Path

import pytest

import pypto.language as pl
from pypto import cli
from pypto.language.parser.closure import SAFE_BUILTINS
from pypto.language.parser.diagnostics import ParserError, ParserSyntaxError

from _parser_helpers import find_marker


# Payloads quote with " only, so a test can wrap one in '...' (f-strings, annotations).

def escape_payload(marker: Path) -> str:
    """Out of a restricted eval: object's subclasses -> os's globals -> ``open``."""
    return ('[c for c in ().__class__.__base__.__subclasses__() if c.__name__ == "_wrap_close"]'
            f'[0].__init__.__globals__["__builtins__"]["open"]({json.dumps(str(marker))}, "w")'
            '.close()')


def import_payload(marker: Path) -> str:
    """With the builtins at hand (module level of an executed text)."""
    return f'__import__("pathlib").Path({json.dumps(str(marker))}).touch()'


@pytest.fixture
def marker(tmp_path):
    path = tmp_path / "marker"
    yield path
    assert not path.exists(), "the payload ran"


def test_the_payloads_work(tmp_path):
    first, second = tmp_path / "a", tmp_path / "b"
    eval(escape_payload(first), {"__builtins__": SAFE_BUILTINS}, {})  # noqa: S307
    exec(import_payload(second), {})  # noqa: S102
    assert first.exists() and second.exists()


SIGNATURE = "x: pl.Tensor[[4], pl.FP32]"

# Each text holds the payload at {P}; the refusal must point at the line marked `# @here`.
INJECTIONS = {
    "module expression": "{P}  # @here\n",
    "module constant": "X = {P}  # @here\n",
    "module import": "import os  # @here\nX = os.system('true')\n",
    "module if": "if True:  # @here\n    {P}\n",
    "module try": "try:  # @here\n    {P}\nexcept Exception:\n    pass\n",
    "module lambda": "X = (lambda: {P})()  # @here\n",
    "module annotated constant": "X: int = {P}  # @here\n",
    "module undecorated def": "def helper():  # @here\n    return {P}\nY = helper()\n",
    "module f-string": "X = f'{{P}}'  # @here\n",
    "pl.dynamic argument": "M = pl.dynamic({P})  # @here\n",
    "type alias": "T = pl.Tensor[[4], {P}]  # @here\n",
    "dunder through pl": "X = pl.__loader__  # @here\n",
    "dunder through an enum": "X = pl.Mem.__class__  # @here\n",
    "dunder through pl.adir": "X = pl.adir.__class__  # @here\n",
    "module through pl": "X = pl.parser  # @here\n",
    "call of a pl function": "X = pl.parse('')  # @here\n",
    "decorator expression": "@{P}  # @here\ndef f(" + SIGNATURE + "):\n    return\n",
    "second decorator": "@pl.function\n@{P}  # @here\ndef f(" + SIGNATURE + "):\n    return\n",
    "decorator type=": "@pl.function(type={P})  # @here\ndef f(" + SIGNATURE + "):\n    return\n",
    "decorator attrs=": "@pl.function(attrs={'k': {P}})  # @here\ndef f(" + SIGNATURE
                        + "):\n    return\n",
    "decorator unknown keyword": "@pl.function(color={P})  # @here\ndef f(" + SIGNATURE
                                 + "):\n    return\n",
    "default argument": "@pl.function\ndef f(x: pl.Tensor[[4], pl.FP32] = {P}):  # @here\n"
                        "    return\n",
    "parameter annotation": "@pl.function\ndef f(x: {P}):  # @here\n    return\n",
    "string annotation": "@pl.function\ndef f(x: '{P}'):  # @here\n    return\n",
    "return annotation": "@pl.function\ndef f(" + SIGNATURE + ") -> {P}:  # @here\n    return\n",
    "shape": "@pl.function\ndef f(x: pl.Tensor[{P}, pl.FP32]):  # @here\n    return\n",
    "shape dim": "@pl.function\ndef f(x: pl.Tensor[[{P}], pl.FP32]):  # @here\n    return\n",
    "dtype": "@pl.function\ndef f(x: pl.Tensor[[4], {P}]):  # @here\n    return\n",
    "layout": "@pl.function\ndef f(x: pl.Tensor[[4], pl.FP32, {P}]):  # @here\n    return\n",
    "view argument": "@pl.function\ndef f(x: pl.Tensor[[4], pl.FP32, pl.TensorView(stride={P})]):"
                     "  # @here\n    return\n",
    "memory space": "@pl.function(type=pl.FunctionType.InCore)\n"
                    "def f(x: pl.Tile[[4], pl.FP32, {P}]):  # @here\n    return\n",
    "local annotation": "@pl.function\ndef f(" + SIGNATURE + "):\n"
                        "    y: pl.Tensor[[4], {P}] = pl.add(x, x)  # @here\n",
    "static_assert": "@pl.function\ndef f(" + SIGNATURE + "):\n    pl.static_assert({P})  # @here\n",
    "static_assert f-string": "@pl.function\ndef f(" + SIGNATURE + "):\n"
                              "    pl.static_assert(True, f'{{P}}')  # @here\n",
    "func_attr": "@pl.function\ndef f(" + SIGNATURE + "):\n    pl.func_attr({'k': {P}})  # @here\n",
    "func_attr dunder": "@pl.function\ndef f(" + SIGNATURE + "):\n"
                        "    pl.func_attr({'k': pl.Mem.__base__})  # @here\n",
    "body f-string": "@pl.function\ndef f(" + SIGNATURE + "):\n    y = f'{{P}}'  # @here\n",
    "body dunder attribute": "@pl.function\ndef f(" + SIGNATURE + "):\n"
                             "    y = pl.Mem.__class__  # @here\n",
    "op keyword": "@pl.function\ndef f(" + SIGNATURE + "):\n"
                  "    y = pl.tensor.add(x, x, mode={P})  # @here\n",
    "op argument": "@pl.function\ndef f(" + SIGNATURE + "):\n    y = pl.add(x, {P})  # @here\n",
    "pl.const dtype": "@pl.function\ndef f(" + SIGNATURE + "):\n    y = pl.const(1, {P})  # @here\n",
    "subscript index": "@pl.function\ndef f(" + SIGNATURE + "):\n    y = x[{P}]  # @here\n",
    "pl.at level": "@pl.function\ndef f(" + SIGNATURE + "):\n"
                   "    with pl.at(level={P}):  # @here\n        y = pl.add(x, x)\n",
    "pl.range bound": "@pl.function\ndef f(" + SIGNATURE + "):\n"
                      "    for i in pl.range({P}):  # @here\n        y = pl.add(x, x)\n",
    "walrus in a shape": "@pl.function\ndef f(x: pl.Tensor[[(M := {P})], pl.FP32]):  # @here\n"
                         "    return\n",
    "program decorator argument": "@pl.program(strict_ssa={P})  # @here\nclass P:\n"
                                  "    @pl.function\n    def f(self, " + SIGNATURE + "):\n"
                                  "        return\n",
    "program positional argument": "@pl.program({P})  # @here\nclass P:\n    @pl.function\n"
                                   "    def f(self, " + SIGNATURE + "):\n        return\n",
    "class base": "@pl.program\nclass P({P}):  # @here\n    @pl.function\n"
                  "    def f(self, " + SIGNATURE + "):\n        return\n",
    "class keyword": "@pl.program\nclass P(metaclass={P}):  # @here\n    @pl.function\n"
                     "    def f(self, " + SIGNATURE + "):\n        return\n",
    "class body": "@pl.program\nclass P:\n    X = {P}  # @here\n    @pl.function\n"
                  "    def f(self, " + SIGNATURE + "):\n        return\n",
    "undecorated method": "@pl.program\nclass P:\n    def helper(self):  # @here\n"
                          "        return {P}\n    @pl.function\n    def f(self, " + SIGNATURE
                          + "):\n        return\n",
    "method decorator": "@pl.program\nclass P:\n    @pl.function(level={P})  # @here\n"
                        "    def f(self, " + SIGNATURE + "):\n        return\n",
    "method default": "@pl.program\nclass P:\n    @pl.function\n"
                      "    def f(self, x: pl.Tensor[[4], pl.FP32] = {P}):  # @here\n        return\n",
}


# Some snippets use the deprecated attrs= on purpose (their errors come first).
@pytest.mark.filterwarnings(r"ignore:@pl.function\(attrs=\.\.\.\) is deprecated:DeprecationWarning")
@pytest.mark.parametrize("payload", [escape_payload, import_payload],
                         ids=["restricted-eval escape", "__import__"])
@pytest.mark.parametrize("where", list(INJECTIONS))
def test_text_is_never_run(where, payload, marker):
    text = "import pypto.language as pl\n" + INJECTIONS[where].replace("{P}", payload(marker))
    with pytest.raises(ParserError) as info:
        pl.parse(text, filename="payload.pl")
    line, _ = find_marker(text.splitlines(), "here")
    assert info.value.span is not None and info.value.span["line"] == line, info.value
    assert info.value.source_lines, "the diagnostic carries the text's lines"


@pytest.mark.parametrize("where, fragment", [
    ("module expression", "An expression statement ("),
    ("module import", "'import os' is not allowed in DSL text"),
    ("module if", "An if statement ("),
    ("module undecorated def", "An undecorated def 'helper' is not allowed in DSL text"),
    ("module f-string", "An f-string ("),
    ("default argument", "A default parameter value is not allowed in DSL text"),
    ("dunder through pl", "'pl.__loader__' (a name starting with '_') is not allowed"),
    ("module through pl", "'pl.parser' (a module) is not allowed in DSL text"),
    ("call of a pl function", "The call 'pl.parse(...)' is not allowed in DSL text"),
    ("class body", "in a @pl.program class is not allowed in DSL text"),
    ("decorator expression", "The decorator '@"),
])
def test_refusals_name_what_is_not_allowed(where, fragment, marker):
    text = "import pypto.language as pl\n" + INJECTIONS[where].replace("{P}",
                                                                     escape_payload(marker))
    with pytest.raises(ParserSyntaxError, match="not allowed in DSL text") as info:
        pl.parse(text)
    assert fragment in str(info.value)


def test_a_subworker_body_is_kept_as_text_and_never_run(marker):
    # A HOST-level SubWorker's body is verbatim Python kept in the IR; nothing runs it.
    text = f"""\
import pypto.language as pl
@pl.function(level=pl.Level.HOST, role=pl.Role.SubWorker)
def worker(x: pl.Tensor[[4], pl.FP32]):
    {escape_payload(marker)}
    {import_payload(marker)}
"""
    func = pl.parse(text)
    assert import_payload(marker) in func.body.body


def test_what_the_text_may_contain_still_parses():
    program = pl.parse('''\
"""A docstring."""
from __future__ import annotations
import pypto.language as pl
from pypto import ir
ROWS = 2 ** 3
COLS = (ROWS * 2 + 1) // 2 - -0
SPACE = pl.Mem.Vec
ATTRS = {"slot_num": 2}
KIND = pl.adir.input
T = pl.Tensor[[ROWS, COLS], pl.FP32]
D = pld.DistributedTensor[[ROWS], pl.FP32]
M = pl.dynamic("M")
...
@pl.program(strict_ssa=False)
class P:
    """Docstring."""
    @pl.function(type=pl.FunctionType.InCore)
    def k(self, x: T, y: pl.Tensor[[M, COLS], pl.DataType.FP32], z: D) -> T:
        pl.static_assert(ROWS == 8 and COLS > 4 and not False, "sizes")
        t: pl.Tile[[ROWS, COLS], pl.FP32, SPACE] = pl.load(x, [0, 0], [ROWS, COLS])
        return pl.store(t, [0, 0], x)
''')
    kernel = program.get_function("k")
    assert [d.value for d in kernel.params[0].type.shape] == [8, 8]
    assert kernel.params[1].type.shape[0].name_hint == "M"
    assert type(kernel.params[2].type).__name__ == "DistributedTensorType"


def test_constants_cannot_grow_without_bound():
    with pytest.raises(ParserSyntaxError, match="OverflowError: integer constant larger than"):
        pl.parse("X = 9 ** 9 ** 9\n")
    with pytest.raises(ParserError, match="integer constant larger than"):
        pl.parse("import pypto.language as pl\n@pl.function\n"
                 "def f(x: pl.Scalar[pl.INDEX]):\n    y = x + 7 ** 99999\n")
    with pytest.raises(ParserSyntaxError, match="arithmetic on str"):
        pl.parse("X = 'ab' * 10 ** 9\n")


@pytest.mark.parametrize("value, fragment", [
    ("None < 1", "comparing NoneType with int"),
    ("1.5 & 2", "TypeError: unsupported operand"),
    ("'a' * 3", "arithmetic on str"),
    ("-'s'", "arithmetic on str"),
    ("pl.FP32 + 1", "arithmetic on DataType"),
    ("1 / 0", "ZeroDivisionError"),
    ("[1, 2][0]", "Subscripting"),
    ("{**{}}", "Dict unpacking"),
    ("{[1]: 2}", "A list dict key"),
    ("pl.TensorView(*[1])", "Argument unpacking"),
    ("pl.dynamic('not an identifier')", "Invalid 'pl.dynamic(...)'"),
])
def test_values_the_text_cannot_have_are_diagnostics(value, fragment):
    with pytest.raises(ParserError) as info:
        pl.parse(f"import pypto.language as pl\nX = {value}\n")
    assert fragment in str(info.value) and info.value.span["line"] == 2


# -- the command line: text files use the safe loader -----------------------------------------

@pytest.mark.parametrize("name", ["model.pl", "model.py"])
def test_the_cli_loads_text_files_safely(name, marker, tmp_path, capsys):
    path = tmp_path / name
    path.write_text("# pypto.program: P\nimport pypto.language as pl\n"
                    + INJECTIONS["class body"].replace("{P}", import_payload(marker)))
    code = cli.main(["check", str(path)])
    err = capsys.readouterr().err
    assert code == 1 and "not allowed in DSL text" in err


# -- the decorator path: the user's namespace, but no dunder escapes --------------------------

def _import_module(tmp_path: Path, source: str) -> None:
    """Define ``source`` as a module of its own (the decorators read its file)."""
    path = tmp_path / "user_module.py"
    path.write_text("from __future__ import annotations\nimport pypto.language as pl\n"
                    + textwrap.dedent(source))
    spec = importlib.util.spec_from_file_location(f"user_module_{os.getpid()}", path)
    module = importlib.util.module_from_spec(spec)
    try:
        spec.loader.exec_module(module)
    finally:
        sys.modules.pop(spec.name, None)


@pytest.mark.parametrize("where", [
    "def f(x: pl.Tensor[{P}, pl.FP32]):\n    return\n",
    "def f(x: pl.Tensor[[4], {P}]):\n    return\n",
    "def f(x: pl.Tensor[[4], pl.FP32]):\n    pl.static_assert({P})\n",
    "def f(x: pl.Tensor[[4], pl.FP32]):\n    y: pl.Tensor[[4], pl.FP32, {P}] = pl.add(x, x)\n",
    "def f(x: pl.Tensor[[4], pl.FP32]):\n    pl.func_attr({'k': pl.Mem.__base__})\n",
    "def f(x: pl.Tensor[[4], pl.FP32]):\n    y = pl.Mem.__class__\n",
])
def test_the_decorators_refuse_dunder_chains(where, marker, tmp_path):
    source = "@pl.function\n" + where.replace("{P}", escape_payload(marker))
    with pytest.raises(ParserSyntaxError, match="dunder names and attributes are not allowed"):
        _import_module(tmp_path, source)


def test_the_decorators_still_evaluate_in_the_users_namespace(tmp_path):
    _import_module(tmp_path, """\
        SIZES = [4, 8]
        @pl.function
        def f(x: pl.Tensor[SIZES, pl.FP32]):
            pl.static_assert(len(SIZES) == 2 and max(SIZES) == 8)
    """)

"""Source retrieval and span computation (01-language.md §13, §15)."""

from __future__ import annotations

import ast
import importlib.util
import inspect
import json
import linecache
import os
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from pypto import ir
from pypto.language.parser.diagnostics import ParserSyntaxError
from pypto.language.parser.source import (SourceInfo, get_source_info, register_source,
                                          registered_source, unregister_source)

REPO_ROOT = Path(__file__).resolve().parents[2]

MODULE_TEXT = '''\
import functools


def deco(fn):
    return fn


@deco
@functools.lru_cache
def top(x):
    return x + 1


def outer():
    @deco
    def inner(a, b):
        total = a + b
        return total
    return inner


@deco
class Model:
    def main(self, x):
        y = x
        return y

    @staticmethod
    def helper(q):
        return q


def greet():
    s = "héllo wörld"; t = s
    return t
'''


@pytest.fixture(scope="module")
def module(tmp_path_factory):
    path = tmp_path_factory.mktemp("src") / "dsl_module.py"
    path.write_text(MODULE_TEXT, encoding="utf-8")
    spec = importlib.util.spec_from_file_location("dsl_module_for_source_tests", path)
    loaded = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(loaded)
    return loaded


def file_text_at(info: SourceInfo, span: ir.Span) -> str:
    """The text a single-line span covers, read from the file's own lines."""
    assert span.begin_line == span.end_line
    return info.file_lines[span.begin_line - 1][span.begin_column - 1:span.end_column - 1]


def find(tree: ast.AST, kind: type, **fields) -> ast.AST:
    def matches(node: ast.AST, key: str, value: object) -> bool:
        actual = getattr(node, key)
        return isinstance(actual, value) if isinstance(value, type) else actual == value

    return next(node for node in ast.walk(tree) if isinstance(node, kind)
                and all(matches(node, key, value) for key, value in fields.items()))


def subprocess_env(tmp_path: Path) -> dict:
    env = {key: value for key, value in os.environ.items()
           if key not in ("NO_COLOR", "FORCE_COLOR", "PTO_BACKTRACE")}
    env["PYTHONPATH"] = os.pathsep.join(filter(None, [str(REPO_ROOT), env.get("PYTHONPATH")]))
    env["IPYTHONDIR"] = str(tmp_path / "ipython")
    return env


# -- functions and classes in files -------------------------------------------------------

def test_top_level_function_keeps_its_decorators(module):
    info = get_source_info(module.top.__wrapped__)
    assert info.filename == module.__file__
    assert info.source == "@deco\n@functools.lru_cache\ndef top(x):\n    return x + 1\n"
    assert (info.line_offset, info.col_offset) == (7, 0)
    assert info.file_lines == MODULE_TEXT.split("\n")[:-1]


def test_nested_function_is_dedented_and_spans_are_file_coordinates(module):
    info = get_source_info(module.outer())
    assert info.source == ("@deco\ndef inner(a, b):\n    total = a + b\n    return total\n")
    assert (info.line_offset, info.col_offset) == (14, 4)
    tree = ast.parse(info.source)
    total = find(tree, ast.Name, id="total", ctx=ast.Load)
    span = info.span(total)
    assert (span.filename, span.begin_line, span.begin_column, span.end_line,
            span.end_column) == (module.__file__, 18, 16, 18, 21)
    assert file_text_at(info, span) == "total"
    add = find(tree, ast.BinOp)
    assert file_text_at(info, info.span(add)) == "a + b"


def test_class_source_starts_at_its_decorator(module):
    info = get_source_info(module.Model)
    assert info.source.startswith("@deco\nclass Model:\n    def main(self, x):\n")
    assert info.source.endswith("    def helper(q):\n        return q\n")
    assert (info.line_offset, info.col_offset) == (21, 0)
    method = find(ast.parse(info.source), ast.FunctionDef, name="main")
    assert info.span(method).begin_line == 24


def test_method_and_staticmethod(module):
    info = get_source_info(module.Model.main)
    assert info.source == "def main(self, x):\n    y = x\n    return y\n"
    assert (info.line_offset, info.col_offset) == (23, 4)
    helper = get_source_info(vars(module.Model)["helper"])
    assert helper.source == "@staticmethod\ndef helper(q):\n    return q\n"


def test_non_ascii_line_columns_count_characters(module):
    info = get_source_info(module.greet)
    tree = ast.parse(info.source)
    target = find(tree, ast.Name, id="t", ctx=ast.Store)
    span = info.span(target)
    # "    s = \"héllo wörld\"; t = s": 't' is the 24th character but the 26th byte.
    assert (span.begin_line, span.begin_column, span.end_column) == (34, 24, 25)
    assert file_text_at(info, span) == "t"
    string = find(tree, ast.Constant, value="héllo wörld")
    assert file_text_at(info, info.span(string)) == '"héllo wörld"'


def test_node_without_position_has_the_unknown_span(module):
    info = get_source_info(module.greet)
    assert info.span(ast.Load()) is ir.Span.unknown()
    assert info.span(ast.arguments()) is ir.Span.unknown()


def test_multi_line_node_span():
    info = SourceInfo.from_text("    x = f(\n        1,\n    )\n", "t.py", line_offset=10)
    call = find(ast.parse(info.source), ast.Call)
    span = info.span(call)
    assert (span.begin_line, span.begin_column, span.end_line, span.end_column) == (
        11, 9, 13, 6)


# -- text sources and linecache -----------------------------------------------------------

def test_from_text_dedents_and_pads_file_lines():
    info = SourceInfo.from_text("  def f():\n      return 1\n", "<text>", line_offset=2)
    assert info.source == "def f():\n    return 1\n"
    assert (info.filename, info.line_offset, info.col_offset) == ("<text>", 2, 2)
    assert info.file_lines == ["", "", "  def f():", "      return 1"]
    ret = find(ast.parse(info.source), ast.Return)
    assert info.span(ret).to_string() == "<text>:4:7"


def test_from_text_leaves_string_continuation_lines_alone():
    text = '    def f():\n        s = """\nabc"""; t = s\n        return t\n'
    info = SourceInfo.from_text(text, "<text>")
    assert info.source == 'def f():\n    s = """\nabc"""; t = s\n    return t\n'
    target = find(ast.parse(info.source), ast.Name, id="t", ctx=ast.Store)
    span = info.span(target)
    assert (span.begin_line, span.begin_column) == (3, 9)
    assert file_text_at(info, span) == "t"


def test_register_and_unregister_source():
    register_source("a = 1\r\nb = 2", "<registered-test>")
    try:
        assert linecache.getlines("<registered-test>") == ["a = 1\n", "b = 2\n"]
        assert linecache.getline("<registered-test>", 2) == "b = 2\n"
        linecache.checkcache("<registered-test>")  # must not drop the entry
        assert linecache.getline("<registered-test>", 1) == "a = 1\n"
    finally:
        unregister_source("<registered-test>")
    assert "<registered-test>" not in linecache.cache
    unregister_source("<registered-test>")  # absent: no error


def test_registered_source_restores_the_previous_entry():
    register_source("old = 1\n", "<nested-test>")
    try:
        with registered_source("new = 2\n", "<nested-test>"):
            assert linecache.getline("<nested-test>", 1) == "new = 2\n"
        assert linecache.getline("<nested-test>", 1) == "old = 1\n"
    finally:
        unregister_source("<nested-test>")
    with pytest.raises(RuntimeError):
        with registered_source("x = 1\n", "<nested-test>"):
            raise RuntimeError("inside")
    assert "<nested-test>" not in linecache.cache


def define_in(text: str, filename: str) -> dict:
    namespace: dict = {"__name__": "cell_module"}
    exec(compile(text, filename, "exec"), namespace)
    return namespace


CELL_TEXT = '''\
x = 1
def deco(f):
    return f

class Kernel:
    def main(self):
        return 1

if True:
    @deco
    def kernel(a):
        return a
'''


def test_linecache_fallback_finds_the_definition(monkeypatch):
    def no_inspect(obj):
        raise OSError("could not get source code")

    monkeypatch.setattr(inspect, "getsourcelines", no_inspect)
    with registered_source(CELL_TEXT, "<cell-7>"):
        namespace = define_in(CELL_TEXT, "<cell-7>")
        info = get_source_info(namespace["kernel"])
        assert info.source == "@deco\ndef kernel(a):\n    return a\n"
        assert (info.filename, info.line_offset, info.col_offset) == ("<cell-7>", 9, 4)
        assert info.file_lines == CELL_TEXT.split("\n")[:-1]
        cls_info = get_source_info(namespace["Kernel"])
        assert cls_info.source == "class Kernel:\n    def main(self):\n        return 1\n"
        assert cls_info.line_offset == 4


def test_command_line_program_fallback(monkeypatch):
    monkeypatch.delitem(linecache.cache, "<string>", raising=False)
    namespace = define_in(CELL_TEXT, "<string>")
    monkeypatch.setattr(sys, "orig_argv", ["python", "-X", "dev", "-c", CELL_TEXT], raising=False)
    assert get_source_info(namespace["kernel"]).source == "@deco\ndef kernel(a):\n    return a\n"
    monkeypatch.setattr(sys, "orig_argv", ["python", "-Sc" + CELL_TEXT], raising=False)
    assert get_source_info(namespace["Kernel"]).line_offset == 4
    monkeypatch.setattr(sys, "orig_argv", ["python", "script.py", "-c", CELL_TEXT],
                        raising=False)
    with pytest.raises(ParserSyntaxError, match="Cannot retrieve source code for kernel"):
        get_source_info(namespace["kernel"])


def test_failure_names_the_entity_and_suggests_pl_parse(monkeypatch):
    monkeypatch.delitem(linecache.cache, "<exec-only>", raising=False)
    namespace = define_in("def lost(x):\n    return x\n", "<exec-only>")
    with pytest.raises(ParserSyntaxError) as caught:
        get_source_info(namespace["lost"])
    err = caught.value
    assert str(err) == "Cannot retrieve source code for lost"
    assert "pl.parse(text)" in err.hint
    assert err.span == {"filename": "<exec-only>", "line": 1, "column": 0,
                        "file": "<exec-only>", "begin_line": 1, "begin_column": 0}


def test_non_function_input_is_a_type_error():
    with pytest.raises(TypeError, match="expects a function or a class, got int"):
        get_source_info(42)
    with pytest.raises(TypeError, match="got builtin_function_or_method"):
        get_source_info(len)


# -- real environments --------------------------------------------------------------------

def test_python_dash_c(tmp_path):
    program = textwrap.dedent('''\
        import ast, json
        from pypto.language.parser.source import get_source_info
        if True:
            def kernel(x):
                return x
        class Model:
            def main(self):
                return 1
        info = get_source_info(kernel)
        ret = ast.parse(info.source).body[0].body[0]
        print(json.dumps([info.filename, info.source, info.line_offset, info.col_offset,
                          info.span(ret).to_string(), get_source_info(Model).source]))
        ''')
    result = subprocess.run([sys.executable, "-c", program], capture_output=True, text=True,
                            env=subprocess_env(tmp_path), cwd=tmp_path, timeout=120)
    assert result.returncode == 0, result.stderr
    assert json.loads(result.stdout) == [
        "<string>", "def kernel(x):\n    return x\n", 3, 4, "<string>:5:9",
        "class Model:\n    def main(self):\n        return 1\n"]


def test_ipython_cell(tmp_path):
    script = textwrap.dedent('''\
        import json
        from IPython.core.interactiveshell import InteractiveShell
        shell = InteractiveShell.instance()
        shell.run_cell("from pypto.language.parser.source import get_source_info")
        cell = """\\
        y = 2

        def kernel(a):
            return a

        class Model:
            def main(self):
                return 1
        """
        assert shell.run_cell(cell).success
        result = shell.run_cell("""
        import ast
        infos = [get_source_info(kernel), get_source_info(Model)]
        ret = ast.parse(infos[0].source).body[0].body[0]
        out = [[i.filename, i.source, i.line_offset, i.col_offset] for i in infos]
        out.append(infos[0].span(ret).to_string())
        """)
        assert result.success, result.error_in_exec
        print(json.dumps(shell.user_ns["out"]))
        ''')
    result = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True,
                            env=subprocess_env(tmp_path), cwd=tmp_path, timeout=120)
    assert result.returncode == 0, result.stderr
    kernel, model, ret_span = json.loads(result.stdout.strip().splitlines()[-1])
    cell_file = kernel[0]
    assert cell_file.startswith("<ipython-input-")
    assert kernel[1:] == ["def kernel(a):\n    return a\n", 2, 0]
    assert model == [cell_file, "class Model:\n    def main(self):\n        return 1\n", 5, 0]
    assert ret_span == f"{cell_file}:4:5"

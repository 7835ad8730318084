"""Display of uncaught parser errors: sys.excepthook and IPython (01-language.md §14.5, §15)."""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from pypto import ir
from pypto.language.parser import display
from pypto.language.parser.diagnostics import ParserError, UndefinedVariableError

REPO_ROOT = Path(__file__).resolve().parents[2]

# A script whose line 8 uses an undefined name; the "parser" reports it at 8:10.
SCRIPT = '''\
from pypto import ir
from pypto.language.parser.diagnostics import UndefinedVariableError

def parse_kernel():
    raise UndefinedVariableError("Undefined variable 'acc'", ir.Span(__file__, 8, 10))

parse_kernel()
result = acc
'''

EXPECTED_SNIPPET = """\
Error: Undefined variable 'acc'
  --> {path}:8:10
  |
6 |
7 | parse_kernel()
8 | result = acc
  |          ^^^ Undefined variable 'acc'
  |"""


@pytest.fixture(autouse=True)
def _plain_environment(monkeypatch):
    for name in ("NO_COLOR", "FORCE_COLOR", "TERM", "PTO_BACKTRACE"):
        monkeypatch.delenv(name, raising=False)


def subprocess_env(tmp_path: Path, **extra: str) -> dict:
    env = {key: value for key, value in os.environ.items()
           if key not in ("NO_COLOR", "FORCE_COLOR", "PTO_BACKTRACE", "TERM")}
    env["PYTHONPATH"] = os.pathsep.join(filter(None, [str(REPO_ROOT), env.get("PYTHONPATH")]))
    env["IPYTHONDIR"] = str(tmp_path / "ipython")
    env.update(extra)
    return env


def run_script(tmp_path: Path, text: str = SCRIPT,
               **env: str) -> tuple[Path, subprocess.CompletedProcess]:
    path = tmp_path / "kernel_script.py"
    path.write_text(text)
    result = subprocess.run([sys.executable, str(path)], capture_output=True, text=True,
                            env=subprocess_env(tmp_path, **env), cwd=tmp_path, timeout=120)
    return path, result


def spec_like_error() -> UndefinedVariableError:
    lines = ["def kernel(x):", "    return acc"]
    return UndefinedVariableError("Undefined variable 'acc'", ir.Span("k.py", 2, 12),
                                  hint="define 'acc' first", source_lines=lines)


# -- sys.excepthook -----------------------------------------------------------------------

def test_import_installs_the_wrapper_once():
    hook = sys.excepthook
    assert isinstance(hook, display._ParserExceptHook)
    assert hook.error_class is ParserError
    display.install_excepthook(ParserError)
    assert sys.excepthook is hook


def test_a_hook_left_by_an_earlier_copy_is_replaced_not_stacked(monkeypatch):
    original = sys.excepthook.pypto_previous_hook

    class StaleParserError(Exception):
        pass

    monkeypatch.setattr(sys, "excepthook", display._ParserExceptHook(StaleParserError, original))
    display.install_excepthook(ParserError)
    assert sys.excepthook.error_class is ParserError
    assert sys.excepthook.pypto_previous_hook is original


def test_other_exceptions_go_to_the_previous_hook(monkeypatch, capsys):
    seen = []
    monkeypatch.setattr(sys, "excepthook", lambda *args: seen.append(args))
    display.install_excepthook(ParserError)
    error = ValueError("not a parser error")
    sys.excepthook(ValueError, error, None)
    assert seen == [(ValueError, error, None)]
    assert capsys.readouterr().err == ""
    display.uninstall_excepthook()
    assert not isinstance(sys.excepthook, display._ParserExceptHook)


def test_hook_prints_rendered_error_and_backtrace_hint(capsys):
    err = spec_like_error()
    sys.excepthook(type(err), err, None)
    assert capsys.readouterr().err == err.render(use_color=False) + "\n" + (
        "note: run with PTO_BACKTRACE=1 to show the Python backtrace\n")


def test_uncaught_parser_error_in_a_script(tmp_path):
    path, result = run_script(tmp_path)
    assert result.returncode == 1
    assert result.stdout == ""
    assert result.stderr == EXPECTED_SNIPPET.format(path=path) + (
        "\nnote: run with PTO_BACKTRACE=1 to show the Python backtrace\n")
    assert "Traceback" not in result.stderr


@pytest.mark.parametrize("value", ["0", ""])
def test_backtrace_off_values(tmp_path, value):
    _, result = run_script(tmp_path, PTO_BACKTRACE=value)
    assert "Traceback" not in result.stderr
    assert "^^^ Undefined variable 'acc'" in result.stderr


def test_pto_backtrace_1_adds_the_traceback(tmp_path):
    path, result = run_script(tmp_path, PTO_BACKTRACE="1")
    assert result.returncode == 1
    snippet, rest = result.stderr.split("\n---------- Python backtrace (PTO_BACKTRACE=1) "
                                        "----------\n")
    assert snippet == EXPECTED_SNIPPET.format(path=path)
    assert rest.startswith("Traceback (most recent call last):\n")
    assert 'line 7, in <module>\n    parse_kernel()' in rest
    assert rest.endswith("pypto.language.parser.diagnostics.exceptions.UndefinedVariableError: "
                         "Undefined variable 'acc'\n")


def test_invalid_pto_backtrace_is_a_value_error(tmp_path):
    _, result = run_script(tmp_path, PTO_BACKTRACE="yes")
    assert result.returncode == 1
    assert ("ValueError: Invalid value 'yes' for environment variable PTO_BACKTRACE: "
            "valid values are '0' (or unset) and '1'") in result.stderr


def test_non_parser_exceptions_keep_the_normal_traceback(tmp_path):
    _, result = run_script(tmp_path, "import pypto.language.parser.diagnostics\n"
                                     "raise KeyError('k')\n")
    assert result.stderr.startswith("Traceback (most recent call last):\n")
    assert result.stderr.endswith("KeyError: 'k'\n")
    assert "PTO_BACKTRACE" not in result.stderr


def test_python_dash_c_shows_the_snippet(tmp_path):
    program = ("from pypto import ir\n"
               "from pypto.language.parser.diagnostics import ParserSyntaxError\n"
               "raise ParserSyntaxError('Bad thing', ir.Span('<string>', 3, 7), "
               "source_lines=__import__('sys').orig_argv[-1].split('\\n'))")
    result = subprocess.run([sys.executable, "-c", program], capture_output=True, text=True,
                            env=subprocess_env(tmp_path), cwd=tmp_path, timeout=120)
    assert result.returncode == 1
    assert "Traceback" not in result.stderr
    assert "3 | raise ParserSyntaxError(" in result.stderr
    assert "  |       ^^^^^^^^^^^^^^^^^ Bad thing\n" in result.stderr


# -- IPython protocol ---------------------------------------------------------------------

def test_render_traceback_is_coloured_unless_no_color(monkeypatch):
    err = spec_like_error()
    monkeypatch.setenv("TERM", "dumb")  # notebooks render colour whatever the terminal says
    assert err._render_traceback_() == err.render(use_color=True).split("\n")
    monkeypatch.setenv("NO_COLOR", "1")
    assert err._render_traceback_() == err.render(use_color=False).split("\n")
    assert str(err) == "Undefined variable 'acc'"


def test_render_traceback_with_backtrace(monkeypatch):
    monkeypatch.setenv("NO_COLOR", "1")
    monkeypatch.setenv("PTO_BACKTRACE", "1")
    try:
        raise spec_like_error()
    except ParserError as caught:
        lines = caught._render_traceback_()
        rendered = caught.render(use_color=False).split("\n")
    assert lines[:len(rendered)] == rendered
    rest = lines[len(rendered):]
    assert rest[0] == "---------- Python backtrace (PTO_BACKTRACE=1) ----------"
    assert rest[1] == "Traceback (most recent call last):"
    assert "test_render_traceback_with_backtrace" in rest[2]
    assert rest[-1] == "UndefinedVariableError: Undefined variable 'acc'"


def test_render_traceback_reports_an_invalid_backtrace_value(monkeypatch):
    monkeypatch.setenv("NO_COLOR", "1")
    monkeypatch.setenv("PTO_BACKTRACE", "2")
    lines = spec_like_error()._render_traceback_()
    assert lines[-1] == ("ValueError: Invalid value '2' for environment variable PTO_BACKTRACE: "
                         "valid values are '0' (or unset) and '1'")


IPYTHON_DRIVER = '''\
import sys
from IPython.core.interactiveshell import InteractiveShell
shell = InteractiveShell.instance()
{setup}
shell.run_cell("""\\
from pypto.language.parser.diagnostics import UndefinedVariableError
from pypto.language.parser.source import get_source_info
""")
shell.run_cell("""\\
def kernel(x):
    return acc
""")
print("=== cell output ===")
result = shell.run_cell("""\\
import ast
info = get_source_info(kernel)
use = ast.parse(info.source).body[0].body[0].value
raise UndefinedVariableError("Undefined variable 'acc'", info.span(use),
                             hint="define it", source_lines=info.file_lines)
""")
print("=== end ===")
print("error type:", type(result.error_in_exec).__name__)
print("custom:", [c.__name__ for c in shell.custom_exceptions])
'''

IPYTHON_SNIPPET = """\
Error: Undefined variable 'acc'
  --> Cell In[1], line 2
  |
1 | def kernel(x):
2 |     return acc
  |            ^^^ Undefined variable 'acc'
  |
   = help: define it"""


def run_ipython(tmp_path: Path, setup: str = "", **env: str) -> tuple[str, str]:
    script = IPYTHON_DRIVER.format(setup=setup)
    result = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True,
                            env=subprocess_env(tmp_path, **env), cwd=tmp_path, timeout=120)
    assert result.returncode == 0, result.stderr
    shown = result.stdout.split("=== cell output ===\n", 1)[1]
    cell, summary = shown.split("=== end ===\n")
    return cell, summary


def test_ipython_cell_shows_the_snippet_not_a_pypto_stack(tmp_path):
    cell, summary = run_ipython(tmp_path, NO_COLOR="1")
    assert cell == IPYTHON_SNIPPET + "\n"
    assert "Traceback" not in cell
    assert "pypto" not in cell
    assert "error type: UndefinedVariableError" in summary
    assert "custom: ['ParserError', 'PassError', 'VerificationError', 'SourceDiagnostic']" in summary


def test_ipython_output_is_coloured_by_default(tmp_path):
    cell, _ = run_ipython(tmp_path)
    assert cell.startswith("\x1b[1;31mError: Undefined variable 'acc'\x1b[0m\n")
    assert "\x1b[1;31m^^^ Undefined variable 'acc'\x1b[0m" in cell


def test_ipython_backtrace_on_request(tmp_path):
    cell, _ = run_ipython(tmp_path, NO_COLOR="1", PTO_BACKTRACE="1")
    snippet, backtrace = cell.split("---------- Python backtrace (PTO_BACKTRACE=1) ----------\n")
    assert snippet == IPYTHON_SNIPPET + "\n"
    assert backtrace.startswith("Traceback (most recent call last):\n  File \"<ipython-input-1-")
    assert "interactiveshell.py" not in backtrace
    assert backtrace.endswith("UndefinedVariableError: Undefined variable 'acc'\n")


def test_ipython_without_the_custom_handler_uses_render_traceback(tmp_path):
    # Simulates a shell where our handler is absent: showtraceback alone must do it.
    setup = ("import pypto.language.parser.diagnostics\n"
             "shell.set_custom_exc((), None)\n")
    cell, summary = run_ipython(tmp_path, setup=setup, NO_COLOR="1")
    assert cell == IPYTHON_SNIPPET + "\n"
    assert "custom: []" in summary


def test_a_user_custom_handler_is_not_displaced(tmp_path):
    setup = ("def mine(shell, etype, value, tb, tb_offset=None):\n"
             "    print('user handler:', etype.__name__)\n"
             "shell.set_custom_exc((LookupError,), mine)\n")
    _, summary = run_ipython(tmp_path, setup=setup, NO_COLOR="1")
    assert "custom: ['LookupError']" in summary


def test_no_ipython_import_when_ipython_is_not_running(tmp_path):
    program = textwrap.dedent('''\
        import sys
        from pypto.language.parser.diagnostics import ParserSyntaxError
        ParserSyntaxError("x")
        print("IPython" in sys.modules)
        ''')
    result = subprocess.run([sys.executable, "-c", program], capture_output=True, text=True,
                            env=subprocess_env(tmp_path), cwd=tmp_path, timeout=120)
    assert result.returncode == 0, result.stderr
    assert result.stdout == "False\n"

"""mypy --strict with the pypto plugin on the examples and on a user program."""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
UNTYPED: set[str] = set()  # examples not checked (none)


@pytest.fixture(scope="module")
def mypy_cache(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """One mypy cache for the module's runs: pypto's own modules are analysed once."""
    return tmp_path_factory.mktemp("mypy-cache")


def _mypy(tmp_path: Path, *files: Path, cache: Path | None = None) -> subprocess.CompletedProcess[str]:
    pytest.importorskip("mypy")
    config = tmp_path / "mypy.ini"
    config.write_text("[mypy]\nplugins = pypto.mypy_plugin\nstrict = True\n")
    return subprocess.run(
        [sys.executable, "-m", "mypy", "--config-file", str(config), "--cache-dir",
         str(cache or tmp_path / "cache"), "--follow-imports=silent", *map(str, files)],
        cwd=ROOT, capture_output=True, text=True, timeout=600)


@pytest.mark.slow
def test_mypy_strict_passes_on_the_examples_and_a_user_program(tmp_path: Path,
                                                              mypy_cache: Path) -> None:
    files = [p for p in [*sorted((ROOT / "examples").glob("*.py")),
                         *sorted((ROOT / "examples" / "scripts").glob("*.py"))]
             if p.name not in UNTYPED]
    files.append(ROOT / "tests" / "typing" / "user_program.py")
    result = _mypy(tmp_path, *files, cache=mypy_cache)
    assert result.returncode == 0, result.stdout + result.stderr


@pytest.mark.slow
def test_mypy_reports_a_wrong_op_argument(tmp_path: Path, mypy_cache: Path) -> None:
    bad = tmp_path / "bad.py"
    bad.write_text("import pypto.language as pl\n\n\n"
                   "@pl.function\n"
                   "def f(x: pl.Tensor[[4], pl.FP32]) -> pl.Tensor[[4], pl.FP32]:\n"
                   "    t = pl.tile.exp(x)\n"
                   "    return x\n")
    result = _mypy(tmp_path, bad, cache=mypy_cache)
    assert result.returncode == 1
    assert 'bad.py:6: error: Argument 1 to "exp" has incompatible type "Tensor"; expected "Tile"' \
        in result.stdout, result.stdout


@pytest.mark.slow
def test_mypy_knows_the_ir_operator_classes_and_builders(tmp_path: Path,
                                                         mypy_cache: Path) -> None:
    """``isinstance(e, ir.Add)`` gives ``e.left`` its type; IR operators, ``replace`` and the
    ``ir.op`` builders have their result types (each wrong use below is reported)."""
    bad = tmp_path / "bad.py"
    bad.write_text("from pypto import ir\n\n\n"
                   "def f(e: ir.Expr, v: ir.Var) -> None:\n"
                   "    if isinstance(e, ir.Add):\n"
                   "        a: str = e.left\n"
                   "    b: str = v + 1\n"
                   "    c: str = v.replace(name_hint='w')\n"
                   "    d: str = ir.op.tensor.full([4], ir.DataType.FP32, 0.0)\n")
    result = _mypy(tmp_path, bad, cache=mypy_cache)
    assert result.returncode == 1
    for line, got in ((6, "Expr"), (7, "Expr"), (8, "Var"), (9, "Call")):
        assert (f'bad.py:{line}: error: Incompatible types in assignment (expression has type '
                f'"{got}", variable has type "str")') in result.stdout, result.stdout


def _pyright(config: Path, *files: Path) -> subprocess.CompletedProcess[str]:
    pytest.importorskip("pyright")
    try:
        result = subprocess.run(
            [sys.executable, "-m", "pyright", "--pythonpath", sys.executable, "-p", str(config),
             *map(str, files)], cwd=ROOT, capture_output=True, text=True, timeout=600)
    except OSError as err:  # pragma: no cover -- no node runtime for pyright here
        pytest.skip(f"pyright cannot run: {err}")
    if not re.search(r"\d+ errors?, \d+ warnings?", result.stdout):
        # the pip package fetches node's pyright on first use; without it nothing is checked
        pytest.skip(f"pyright could not start: {(result.stdout + result.stderr)[-300:]}")
    return result


# What a DSL file tells pyright (docs/guide/typing.md): the first is all the examples need;
# a bare dtype annotation (``n: pl.INDEX``) or an alias without TypeAlias needs the second.
DSL_RULES = "# pyright: reportInvalidTypeArguments=false\n"
ALL_DSL_RULES = "# pyright: reportInvalidTypeForm=false, reportInvalidTypeArguments=false\n"


def _examples() -> list[Path]:
    return [p for p in [*sorted((ROOT / "examples").glob("*.py")),
                        *sorted((ROOT / "examples" / "scripts").glob("*.py"))]
            if p.name not in UNTYPED]


def _config(tmp_path: Path, mode: str = "standard") -> Path:
    """A user's configuration: nothing DSL-specific (the DSL files carry the two rules in a
    ``# pyright:`` comment, docs/guide/typing.md); pypto and the example scripts' own
    directory (they run as ``python examples/scripts/x.py``) on the path."""
    config = tmp_path / "pyrightconfig.json"
    config.write_text(json.dumps({"typeCheckingMode": mode, "extraPaths": [
        str(ROOT), str(ROOT / "examples" / "scripts")]}))
    return config


def _rules(output: str) -> set[str]:
    return set(re.findall(r"\((report[A-Za-z]+)\)", output))


@pytest.mark.slow
@pytest.mark.parametrize("mode", ["standard", "strict"])
def test_pyright_passes_on_the_examples_and_a_user_program(tmp_path: Path, mode: str) -> None:
    files = [*_examples(), ROOT / "tests" / "typing" / "user_program.py"]
    result = _pyright(_config(tmp_path, mode), *files)
    assert "0 errors" in result.stdout, result.stdout + result.stderr


@pytest.mark.slow
def test_the_shipped_examples_configuration_passes() -> None:
    result = _pyright(ROOT / "examples" / "pyrightconfig.json", *_examples())
    assert "0 errors" in result.stdout, result.stdout + result.stderr


@pytest.mark.slow
def test_the_dsl_files_need_only_the_type_arguments_rule_off(tmp_path: Path) -> None:
    # Without the file's `# pyright:` comment, what pyright reports on DSL code is the
    # shaped annotations alone (docs/guide/typing.md): nothing else is inherent to the DSL.
    stripped = []
    for path in [*_examples(), ROOT / "tests" / "typing" / "user_program.py"]:
        text = path.read_text()
        if DSL_RULES in text:
            copy = tmp_path / "src" / path.relative_to(ROOT)
            copy.parent.mkdir(parents=True, exist_ok=True)
            copy.write_text(text.replace(DSL_RULES, ""))
            stripped.append(copy)
    assert len(stripped) > 10
    result = _pyright(_config(tmp_path, "strict"), *stripped)
    assert _rules(result.stdout) == {"reportInvalidTypeArguments"}, result.stdout


_JIT_SIGNATURES = ("import pypto.language as pl\n\n"
                   "Row = pl.Tensor[[4], pl.FP32]\n\n\n"
                   "@pl.jit\n"
                   "def f(x: Row, n: pl.INDEX, out: pl.Out[pl.Tensor]) -> pl.Tensor:\n"
                   "    return out\n")


@pytest.mark.slow
def test_a_bare_dtype_or_untyped_alias_needs_the_type_form_rule_off(tmp_path: Path) -> None:
    bare = tmp_path / "bare.py"
    bare.write_text(DSL_RULES + _JIT_SIGNATURES)
    result = _pyright(_config(tmp_path, "strict"), bare)
    assert re.findall(r"bare.py:(\d+:\d+) - error: Variable not allowed in type expression "
                      r"\(reportInvalidTypeForm\)", result.stdout) == ["8:10", "8:18"], \
        result.stdout
    bare.write_text(ALL_DSL_RULES + _JIT_SIGNATURES)
    assert "0 errors" in _pyright(_config(tmp_path), bare).stdout
    # ... and they stay unknown to pyright: strict mode reports the parameters
    strict = _pyright(_config(tmp_path, "strict"), bare).stdout
    assert _rules(strict) == {"reportUnknownParameterType", "reportUnknownMemberType"}, strict


@pytest.mark.slow
def test_pyright_reports_a_wrong_op_argument(tmp_path: Path) -> None:
    bad = tmp_path / "bad.py"
    bad.write_text(DSL_RULES + "import pypto.language as pl\n\n\n"
                   "@pl.function\n"
                   "def f(x: pl.Tensor[[4], pl.FP32]) -> pl.Tensor[[4], pl.FP32]:\n"
                   "    t = pl.tile.exp(x)\n"
                   "    return x\n")
    result = _pyright(_config(tmp_path), bad)
    assert "bad.py:7:21 - error: Argument of type \"Tensor\" cannot be assigned to parameter " \
           "\"tile\" of type \"Tile\"" in result.stdout, result.stdout


@pytest.mark.slow
def test_pyright_wants_self_on_a_program_method(tmp_path: Path) -> None:
    # Documented limit: pyright checks that a method's first parameter accepts its class,
    # so a kernel written without ``self`` in a @pl.program class is reported.
    source = tmp_path / "selfless.py"
    source.write_text(DSL_RULES + "import pypto.language as pl\n\n\n"
                      "@pl.program\n"
                      "class P:\n"
                      "    @pl.function\n"
                      "    def k(x: pl.Tensor[[4], pl.FP32]) -> pl.Tensor[[4], pl.FP32]:\n"
                      "        return x\n")
    result = _pyright(_config(tmp_path), source)
    assert 'selfless.py:8:14 - error: Type of parameter "x" must be a supertype of its class ' \
           '"P"' in result.stdout, result.stdout


@pytest.mark.slow
def test_mypy_reports_a_misspelt_ir_builder_or_keyword(tmp_path: Path, mypy_cache: Path) -> None:
    bad = tmp_path / "bad.py"
    bad.write_text("from pypto import ir\n\n\n"
                   "def f(x: ir.Expr) -> ir.Call:\n"
                   "    ir.op.tensor.addd(x, x)\n"
                   "    ir.op.tile.exp(x, spam=1)\n"
                   "    return ir.op.tensor.add(x, x)\n")
    result = _mypy(tmp_path, bad, cache=mypy_cache)
    assert result.returncode == 1
    assert 'bad.py:5: error: Module has no attribute "addd"' in result.stdout, result.stdout
    assert 'bad.py:6: error: Unexpected keyword argument "spam" for "exp"' in result.stdout, \
        result.stdout


@pytest.mark.slow
def test_mypy_passes_on_pypto_itself(tmp_path: Path) -> None:
    """pypto/ at the strictness pyproject.toml's [tool.mypy] documents."""
    pytest.importorskip("mypy")
    result = subprocess.run([sys.executable, "-m", "mypy", "--cache-dir", str(tmp_path / "cache")],
                            cwd=ROOT, capture_output=True, text=True, timeout=900)
    assert result.returncode == 0, result.stdout + result.stderr


@pytest.mark.slow
def test_mypy_reads_a_program_class_with_shaped_annotations(tmp_path: Path,
                                                           mypy_cache: Path) -> None:
    # Rebinding the class name broke mypy's analysis of such methods (an internal error);
    # the plugin gives the class Program as its metaclass instead.
    source = tmp_path / "program_class.py"
    source.write_text("import pypto.language as pl\nfrom pypto import ir\n\n\n"
                      "@pl.program(strict_ssa=True)\n"
                      "class P:\n"
                      "    @pl.function\n"
                      "    def f(self, x: pl.Tensor[[4], pl.FP32]) -> pl.Tensor[[4], pl.FP32]:\n"
                      "        return x\n\n\n"
                      "program: ir.Program = P\n"
                      "text: str = P.as_python()\n"
                      "count: int = len(P.functions)\n")
    result = _mypy(tmp_path, source, cache=mypy_cache)
    assert result.returncode == 0, result.stdout + result.stderr

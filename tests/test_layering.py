"""The layering of docs/design.md, checked on the import graph of the source.

Every ``import`` and ``from ... import`` in every module under ``pypto/`` (at any
nesting: function-level imports count) is resolved to the subpackage it names;
a module may only import the subpackages its layer allows.  PyPTO's module paths
that sit below their code's layer (``pypto.ir.pass_manager`` ...) are lazy
re-exports through ``importlib`` and carry no import statement at all.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent / "pypto"

# subpackage -> the subpackages its modules may import (besides itself and the
# package-level helpers in BASE).  A new subpackage must be placed here.
ALLOWED: dict[str, set[str]] = {
    "ir": set(),
    "backend": {"ir"},
    "arith": {"ir"},
    "passes": {"ir", "backend", "arith"},
    "language": {"ir", "backend", "arith", "passes"},
    "runtime": {"ir", "backend", "arith", "passes", "language"},
    "viz": {"ir", "backend", "arith", "passes"},
    "jit": {"ir", "backend", "arith", "passes", "language", "runtime"},
    "debug": {"ir", "backend", "arith", "passes", "language", "runtime", "jit"},
    "tools": {"ir", "backend", "arith", "passes", "language", "runtime", "jit"},
    "pypto_core": {"ir", "backend", "arith", "passes", "language", "runtime", "jit"},
    "cli": {"ir", "backend", "arith", "passes", "language", "runtime", "jit", "viz"},
}
# Modules directly under pypto/ that any layer may use (they import nothing of pypto).
BASE = {"errors", "_lazy", "logging_", "_version", "compile_profiling", "_external_source",
        "_function_attrs", "_core_enum"}
# pypto/__init__.py and pypto/__main__.py assemble the package: they may import anything.
TOP = {"__init__", "__main__"}


def _module_name(path: Path) -> list[str]:
    parts = list(path.relative_to(ROOT.parent).with_suffix("").parts)
    return parts[:-1] if parts[-1] == "__init__" else parts


def _imported(tree: ast.AST, module: list[str], is_package: bool) -> list[tuple[int, list[str]]]:
    """``(line, dotted target as parts)`` for every import in ``tree``."""
    package = module if is_package else module[:-1]
    found = []
    type_only = _type_checking_imports(tree)
    for node in ast.walk(tree):
        if id(node) in type_only:
            continue
        if isinstance(node, ast.Import):
            found += [(node.lineno, alias.name.split(".")) for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package[:len(package) - (node.level - 1)]
                target = base + (node.module.split(".") if node.module else [])
            else:
                target = node.module.split(".")
            if node.module is None or len(target) == 1:
                # "from . import x" / "from pypto import ir": the names are modules
                found += [(node.lineno, target + [alias.name]) for alias in node.names]
            else:
                found.append((node.lineno, target))
    return [(line, t) for line, t in found if t and t[0] == "pypto"]


def _type_checking_imports(tree: ast.AST) -> set[int]:
    """Imports under ``if TYPE_CHECKING:``: read by type checkers only, never executed,
    so they add no dependency between layers (``pl.jit``'s type in ``pypto.language``)."""
    out: set[int] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.If) and isinstance(node.test, ast.Name) \
                and node.test.id == "TYPE_CHECKING":
            out.update(id(inner) for stmt in node.body for inner in ast.walk(stmt)
                       if isinstance(inner, (ast.Import, ast.ImportFrom)))
    return out


def _sources() -> list[Path]:
    return sorted(ROOT.rglob("*.py"))


def test_every_subpackage_has_a_layer():
    layers = {p.relative_to(ROOT).parts[0] for p in _sources() if len(p.relative_to(ROOT).parts) > 1}
    assert layers <= set(ALLOWED), f"place {sorted(layers - set(ALLOWED))} in ALLOWED"


def test_no_module_imports_a_higher_layer():
    violations = []
    for path in _sources():
        rel = path.relative_to(ROOT).parts
        if len(rel) == 1:
            name = rel[0][:-3]
            if name in TOP:
                continue
            allowed: set[str] = set()
            own = name
        else:
            own = rel[0]
            allowed = ALLOWED[own]
        module = _module_name(path)
        tree = ast.parse(path.read_text(encoding="utf-8"), str(path))
        for line, target in _imported(tree, module, path.name == "__init__.py"):
            if len(target) < 2:
                continue
            dep = target[1]
            if dep == own or dep in BASE or dep in allowed or dep == "__version__":
                continue
            violations.append(f"{path.relative_to(ROOT.parent)}:{line}: imports "
                              f"{'.'.join(target)} ({own} may import {sorted(allowed) or 'nothing'})")
    assert not violations, "upward imports:\n" + "\n".join(violations)


def test_the_checker_resolves_relative_absolute_and_nested_imports():
    tree = ast.parse("def f():\n    from ...passes import Pass\nimport pypto.jit\n"
                     "from .. import language\nfrom . import names\n")
    found = sorted(".".join(t) for _, t in _imported(tree, ["pypto", "ir", "printer", "x"], False))
    assert found == ["pypto.ir.language", "pypto.ir.printer.names", "pypto.jit", "pypto.passes"]


@pytest.mark.parametrize("path, names", [
    ("pypto.ir.pass_manager", ["PassManager", "OptimizationStrategy", "PassDumpLevel"]),
    ("pypto.ir.instruments", ["make_roundtrip_instrument"]),
])
def test_compat_paths_reexport_the_real_objects(path, names):
    import importlib
    shim = importlib.import_module(path)
    for name in names:
        obj = getattr(shim, name)
        assert obj.__module__.split(".")[1] in {"passes", "language"}, obj

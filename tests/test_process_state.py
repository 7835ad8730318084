"""No process-wide mutable state, checked on the source (docs/design.md, "Thread
safety and determinism").

Every module under ``pypto/`` is read for state a call could leave behind for the
next one, or share with another thread:

* a module-level name bound to a container that a function mutates
  (``NAME[k] = v``, ``NAME.append/add/update/setdefault/pop/clear ...``, ``del NAME[k]``);
* a ``global`` statement;
* ``functools.lru_cache`` / ``functools.cache`` on a function;
* a class attribute a method mutates (``cls.X[k] = v``, ``cls.X = v``, ``Name.X = v``),
  outside ``__init_subclass__`` (class set-up at import);
* another module's state: an assignment to or a mutating call on an attribute of an
  imported module (``linecache.cache[f] = ...``, ``sys.modules[n] = ...``,
  ``sys.excepthook = ...``, ``sys.path.insert(...)``), or ``sys.set*(...)``.

Each finding must be in ``ALLOWED``, with the reason it is safe; a memo a pass or the
parser keeps for itself belongs in the object of its run (``passes/run_memo.py``, the
parse's ``ProgramContext``, the ``SourceInfo`` of the text), not here.  An entry that no
longer matches anything fails too, so the list stays the true one.
"""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent / "pypto"

_MUTATORS = {"append", "extend", "insert", "clear", "pop", "popitem", "setdefault", "add",
             "update", "remove", "discard", "move_to_end", "appendleft", "sort", "reverse"}

# Why each finding is safe.  The kinds: an *intern table* maps a value (a name, a
# dtype, a class) to what it determines, so whichever thread fills an entry stores
# what any other would; a *registry* is PyPTO's public, process-wide extension point
# (users register ops, conversions, verifiers), filled at import and by explicit calls.
_INTERN = "intern table keyed by value: racing threads store the same entry"
_DISPATCH = "dispatch table per class, filled on first sight: same entry from any thread"
ALLOWED: dict[tuple[str, str], str] = {
    ("ir/dtype.py", "_BY_NAME"): _INTERN + " (one DataType object per name)",
    ("ir/expr.py", "_SCALAR_TYPES"): _INTERN + " (one ScalarType per dtype, by setdefault)",
    ("ir/distributed_types.py", "cls._instances"):
        "one instance per unit type class, stored with setdefault: every thread gets the same",
    ("ir/structural.py", "_NAME_HASH"): _INTERN + " (crc32 of a name)",
    ("ir/walk.py", "_STMT_SHAPE"): _DISPATCH,
    ("ir/visitor.py", "cls._hooks"): _DISPATCH + " (a visitor class's hook per node class)",
    ("passes/transforms/flatten_call_expr.py", "_STMT_HANDLERS"): _DISPATCH,
    ("passes/transforms/ssa_index.py", "_WALKS"): _DISPATCH,
    ("language/parser/source.py", "_BLOCK_FIELDS"): _DISPATCH + " (an AST class's block fields)",
    ("language/parser/source.py", "_MODULE_INDEX"):
        "per-file index of decorated definitions, valid while linecache holds the same "
        "lines list (checked with `is`); immutable once built, its AST never mutated "
        "(the jit rewrites a deep copy): a race builds it twice",
    ("language/parser/function_parser.py", "cls.STMT_HANDLERS"):
        "the parser's statement handlers, installed at import (_install_handlers)",
    ("language/parser/function_parser.py", "cls.EXPR_HANDLERS"): "as STMT_HANDLERS",
    ("language/parser/calls.py", "global _UNIFIED"): "a lazily imported constant table",
    ("language/parser/display.py", "_shells_with_handler"):
        "IPython shells given pypto's error display: once per shell, by design",
    ("language/parser/text_namespace.py", "lru_cache dsl_module"):
        "module path -> imported module: an intern table",
    ("language/parser/text_namespace.py", "lru_cache _constructors"): "a constant, built lazily",
    ("ir/ops/signature.py", "lru_cache wrapper_params"):
        "an op entry's parameter layout: entries are immutable and registered once",
    ("ir/ops/signature.py", "lru_cache router_params"): "as wrapper_params",
    ("passes/names.py", "lru_cache split_auto_name"): "a pure function of a string (bounded)",
    ("passes/names.py", "lru_cache base_name"): "a pure function of a string (bounded)",
    ("ir/ops/registry.py", "_OPS"): "the op registry (PyPTO's register_op): a registry",
    ("ir/op_conversion.py", "_CONVERSIONS"): "PyPTO's op-conversion registry: a registry",
    ("passes/verifier_registry.py", "cls._verifiers"):
        "PyPTO's PropertyVerifierRegistry: a registry; its first fill runs under a lock",
    ("passes/verifier_registry.py", "cls._instance"): "the registry's one instance",
    ("passes/verifier_registry.py", "cls._builtins_loaded"): "set under the fill lock",
    ("passes/verifier_registry.py", "cls._builtins_loading"): "set under the fill lock",
    ("ir/printer/__init__.py", "global _format_callback"):
        "PyPTO's register_format_callback: a process-wide setting the user installs",
    ("language/parser/source.py", "linecache.cache"):
        "register_source: only the CLI's loader, which owns the process, makes the file "
        "it runs readable to inspect (pl.parse never registers text)",
    ("language/parser/display.py", "sys.excepthook"):
        "pypto's error display outside IPython, installed once and only over Python's own",
    ("cli/load.py", "sys.path"): "the CLI's loader: the process is the command's",
    ("pypto_core/__init__.py", "sys.modules"): "the compiled-core facade, at import",
    ("runtime/jit_bridge.py", "_EXECUTORS"):
        "weak per-compiled-program executors of run_jit: the program's own, dropped with it",
}


def _module_names(tree: ast.Module) -> set[str]:
    names: set[str] = set()
    for node in tree.body:
        targets = (node.targets if isinstance(node, ast.Assign)
                   else [node.target] if isinstance(node, ast.AnnAssign) and node.value else [])
        names.update(t.id for t in targets if isinstance(t, ast.Name))
    return names


def _base_name(node: ast.expr, names: set[str], classes: set[str]) -> str | None:
    """``NAME`` for a module container, ``cls.X`` / ``Class.X`` for a class attribute."""
    if isinstance(node, ast.Name) and node.id in names:
        return node.id
    if isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name) \
            and (node.value.id == "cls" or node.value.id in classes):
        return f"cls.{node.attr}"
    return None


def _decorator_name(node: ast.expr) -> str:
    target = node.func if isinstance(node, ast.Call) else node
    return target.attr if isinstance(target, ast.Attribute) else getattr(target, "id", "")


def _foreign(node: ast.expr, modules: set[str]) -> str | None:
    """``mod.attr`` when ``node`` is an attribute of an imported module ``mod``."""
    if isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name) \
            and node.value.id in modules:
        return f"{node.value.id}.{node.attr}"
    return None


def _foreign_findings(tree: ast.Module) -> set[str]:
    modules = {(alias.asname or alias.name).split(".")[0] for node in ast.walk(tree)
               if isinstance(node, ast.Import) for alias in node.names}
    found: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, (ast.Assign, ast.AugAssign, ast.Delete)):
            targets = node.target if isinstance(node, ast.AugAssign) else node.targets
            for target in targets if isinstance(targets, list) else [targets]:
                base = target.value if isinstance(target, ast.Subscript) else target
                name = _foreign(base, modules)
                if name is not None:
                    found.add(name)
        elif isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute):
            called = _foreign(node.func, modules)  # sys.setrecursionlimit ...
            name = (_foreign(node.func.value, modules) if node.func.attr in _MUTATORS
                    else called if called and called.startswith("sys.set") else None)
            if name is not None:
                found.add(name)
    return found


def _findings(tree: ast.Module) -> set[str]:
    names = _module_names(tree)
    classes = {n.name for n in ast.walk(tree) if isinstance(n, ast.ClassDef)}
    found: set[str] = _foreign_findings(tree)
    for func in ast.walk(tree):
        if not isinstance(func, (ast.FunctionDef, ast.AsyncFunctionDef)):
            continue
        if any(_decorator_name(d) in ("lru_cache", "cache") for d in func.decorator_list):
            found.add(f"lru_cache {func.name}")
        if func.name == "__init_subclass__":
            continue
        for node in ast.walk(func):
            if isinstance(node, ast.Global):
                found.update(f"global {name}" for name in node.names)
            elif isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) \
                    and node.func.attr in _MUTATORS:
                base = _base_name(node.func.value, names, classes)
                if base is not None:
                    found.add(base)
            elif isinstance(node, (ast.Assign, ast.AugAssign, ast.AnnAssign, ast.Delete)):
                targets = (node.targets if isinstance(node, (ast.Assign, ast.Delete))
                           else [node.target])
                for target in targets:
                    if isinstance(target, ast.Subscript):
                        base = _base_name(target.value, names, classes)
                    elif isinstance(target, ast.Attribute) and not isinstance(node, ast.Delete):
                        base = _base_name(target, set(), classes)
                    else:
                        base = None
                    if base is not None:
                        found.add(base)
    return found


def _all_findings() -> set[tuple[str, str]]:
    return {(path.relative_to(ROOT).as_posix(), what)
            for path in sorted(ROOT.rglob("*.py"))
            for what in _findings(ast.parse(path.read_text(encoding="utf-8")))}


def test_every_process_wide_mutable_state_is_listed_with_its_reason():
    unlisted = sorted(_all_findings() - set(ALLOWED))
    assert unlisted == [], (
        "process-wide state a call mutates; move it into the object of the run "
        "(passes/run_memo.py, the parse's ProgramContext) or list it in ALLOWED with "
        f"why it is safe: {unlisted}")


def test_every_listed_state_still_exists():
    assert sorted(set(ALLOWED) - _all_findings()) == []


def test_the_scan_sees_a_shared_memo():
    memo = ("_SEEN: dict = {}\n\ndef answer(f):\n    _SEEN[id(f)] = f\n"
            "class R:\n    table = {}\n    @classmethod\n    def put(cls, k):\n"
            "        cls.table[k] = 1\n"
            "import functools\n@functools.lru_cache(maxsize=None)\ndef facts(func):\n"
            "    return func\n"
            "import sys, linecache\ndef run(f):\n    linecache.cache[f] = ()\n"
            "    sys.setrecursionlimit(10 ** 6)\n    sys.modules.pop(f)\n")
    assert _findings(ast.parse(memo)) == {"_SEEN", "cls.table", "lru_cache facts",
                                          "linecache.cache", "sys.setrecursionlimit",
                                          "sys.modules"}

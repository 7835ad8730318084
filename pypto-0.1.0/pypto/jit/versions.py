"""Versioned names for rebindings in a specialised body: ``t = ...; t = f(t)`` becomes
``t = ...; t_v1 = f(t)``, as PyPTO's specializer writes it.

PyPTO gives a name a new version when it is bound again in the block that bound it
first (parameters belong to the function's block); a rebinding inside a nested block
(a loop body, a ``with`` region, a branch) of a name bound outside keeps the name, so
values carried through loops and merged after branches stay one variable.  The
versions are distinct variables in the parsed IR, which is what makes the
specialised program structurally equal to PyPTO's.

Where PyPTO's rule would change what a program computes, pypto keeps the name
(``docs/guide/differences.md``): nothing is versioned inside an ``if``/``else``
branch (the two branches' last versions would differ at the merge), loop targets are
never versioned, and a ``while`` body is a block like any other (PyPTO versions an
outer name rebound there, which breaks the loop's carried value).

Reads are renamed to the current version, in program order: the version a block
ends with is the one read after it (Python names outlive the blocks that bind them).
"""

from __future__ import annotations

import ast
from dataclasses import dataclass, field

__all__ = ["version_rebindings"]


@dataclass
class _Block:
    owned: set[str] = field(default_factory=set)  # names first bound in this block
    versioning: bool = True


class _Versioner:
    def __init__(self, taken: set[str]) -> None:
        self.spelled: dict[str, str] = {}  # user name -> the version in force
        self.blocks: list[_Block] = []
        self.taken = taken  # every name the function uses: versions must not collide
        self.counters: dict[str, int] = {}
        self.renames: dict[str, list[str]] = {}

    # -- reads --------------------------------------------------------------------------
    def read(self, node: ast.AST | None) -> None:
        """Rename every loaded name under ``node`` to its version in force."""
        if node is None:
            return
        for sub in ast.walk(node):
            if isinstance(sub, ast.Name) and isinstance(sub.ctx, ast.Load):
                sub.id = self.spelled.get(sub.id, sub.id)

    # -- bindings -----------------------------------------------------------------------
    def bind(self, target: ast.expr, may_version: bool) -> None:
        if isinstance(target, ast.Name):
            self._bind_name(target, may_version)
        elif isinstance(target, (ast.Tuple, ast.List)):
            for element in target.elts:
                self.bind(element, False)
        elif isinstance(target, ast.Starred):
            self.bind(target.value, False)
        else:  # x[...] = v, x.a = v: the base is read
            self.read(target)

    def _bind_name(self, target: ast.Name, may_version: bool) -> None:
        name = target.id
        block = self.blocks[-1]
        if name in block.owned:
            if may_version and all(b.versioning for b in self.blocks):
                target.id = self.spelled[name] = self._new_version(name)
            else:
                target.id = self.spelled.get(name, name)
        elif any(name in b.owned for b in self.blocks):
            target.id = self.spelled.get(name, name)  # bound outside: keep it one variable
        else:  # a first binding (maybe again, after the block that bound it ended)
            block.owned.add(name)
            self.spelled[name] = name

    def _new_version(self, name: str) -> str:
        count = self.counters.get(name, 0)
        while True:
            count += 1
            candidate = f"{name}_v{count}"
            if candidate not in self.taken:
                break
        self.counters[name] = count
        self.taken.add(candidate)
        self.renames.setdefault(name, []).append(candidate)
        return candidate

    # -- blocks -------------------------------------------------------------------------
    def block(self, statements: list[ast.stmt], versioning: bool = True,
              bound: tuple[ast.expr, ...] = ()) -> None:
        """A nested block; ``bound`` (loop targets) belong to a level around it, so the
        body never versions them."""
        if bound:
            self.blocks.append(_Block())
            for target in bound:
                self.bind(target, False)
        self.blocks.append(_Block(versioning=versioning))
        for statement in statements:
            self.statement(statement)
        self.blocks.pop()
        if bound:
            self.blocks.pop()

    def statement(self, node: ast.stmt) -> None:
        if isinstance(node, ast.Assign):
            self.read(node.value)
            single = len(node.targets) == 1
            for target in node.targets:
                self.bind(target, single)
        elif isinstance(node, ast.AnnAssign):
            self.read(node.annotation)
            self.read(node.value)
            self.bind(node.target, node.value is not None)
        elif isinstance(node, ast.AugAssign):
            self.read(node.value)
            target = node.target
            if isinstance(target, ast.Name):  # reads and rebinds: the version in force
                target.id = self.spelled.get(target.id, target.id)
            else:
                self.read(target)
        elif isinstance(node, (ast.For, ast.AsyncFor)):
            self.read(node.iter)
            # Loop targets are bound by the loop itself, not versioned in its body.
            self.block(node.body, bound=(node.target,))
            self.block(node.orelse)
        elif isinstance(node, ast.While):
            self.read(node.test)
            self.block(node.body)
            self.block(node.orelse)
        elif isinstance(node, ast.If):
            self.read(node.test)
            self.block(node.body, versioning=False)
            self.block(node.orelse, versioning=False)
        elif isinstance(node, (ast.With, ast.AsyncWith)):
            for item in node.items:
                self.read(item.context_expr)
                if item.optional_vars is not None:
                    self.bind(item.optional_vars, False)
            self.block(node.body)
        else:  # expression statements, return, pass, ...
            self.read(node)


def version_rebindings(function: ast.FunctionDef) -> dict[str, list[str]]:
    """Version the rebindings of ``function``'s body in place; returns each renamed
    name's versions in order (``{"t": ["t_v1", "t_v2"]}``)."""
    params = [arg.arg for arg in function.args.args if arg.arg != "self"]
    taken = {node.id for node in ast.walk(function) if isinstance(node, ast.Name)}
    taken.update(params)
    versioner = _Versioner(taken)
    versioner.blocks.append(_Block(owned=set(params)))
    for name in params:
        versioner.spelled[name] = name
    for statement in function.body:
        versioner.statement(statement)
    return versioner.renames

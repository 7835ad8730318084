"""The floor: what the least possible Python work on the same text costs.

    python benchmarks/bench_floor.py [--repeats K]

Issue 19's ratio targets (pipeline <= 1.5x ``ast.parse``, parse + pipeline + print
<= 4x) are set against CPython's C parser.  This benchmark measures what a Python
program must pay at the very least for each of pypto's stages, on the source shapes
of ``bench_scale.py`` (``_gen.py``), so the targets can be read in Python terms:

* ``build``   -- visit CPython's tree and make one slotted object per AST node,
  holding its children and a (line, column) tuple: a front end that checks,
  types and resolves nothing;
* ``copy``    -- copy that tree once, node by node: the least a pass that rewrites
  the whole function can do (no analysis, no lookups);
* ``render``  -- one string per node, joined: a printer that formats nothing.

Each is reported as a ratio to ``ast.parse`` of the same text, next to pypto's own
stage, and the line below each table says how many whole-tree copies the pipeline
target leaves for the nine passes and their verification.  CPU time, best of K,
collector paused (``_timing.py``).
"""

from __future__ import annotations

import argparse
import ast
import os
import sys
from typing import Callable

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))

import _gen  # noqa: E402
from _timing import best_of  # noqa: E402
import pypto.language as pl  # noqa: E402
from pypto import ir  # noqa: E402

PIPELINE_TARGET = 1.5
END_TO_END_TARGET = 4.0

SHAPES: dict[str, Callable[[], str]] = {
    "flat": lambda: _gen.flat_function_source(5_000),
    "functions": lambda: _gen.many_functions_source(500),
    "regions": lambda: _gen.long_function_source(220),
    "nested": lambda: _gen.deep_nests_source(20),
}


class Node:
    """The smallest node a front end could build: kind, children, location."""

    __slots__ = ("kind", "children", "where")

    def __init__(self, kind: type, children: list["Node"], where: tuple[int, int]) -> None:
        self.kind = kind
        self.children = children
        self.where = where


def build(tree: ast.AST) -> Node:
    children: list[Node] = []
    for field in type(tree)._fields:
        value = getattr(tree, field, None)
        if isinstance(value, list):
            children.extend(build(item) for item in value if isinstance(item, ast.AST))
        elif isinstance(value, ast.AST):
            children.append(build(value))
    return Node(type(tree), children,
                (getattr(tree, "lineno", 0), getattr(tree, "col_offset", 0)))


def copy(node: Node) -> Node:
    return Node(node.kind, [copy(child) for child in node.children], node.where)


def render(node: Node) -> str:
    out: list[str] = []

    def emit(current: Node) -> None:
        out.append(current.kind.__name__)
        for child in current.children:
            emit(child)

    emit(node)
    return "\n".join(out)


def measure(source: str, repeats: int) -> dict[str, float]:
    tree = ast.parse(source)
    root = build(tree)
    program = pl.parse(source)
    pipeline = ir.PassManager.get_strategy(ir.OptimizationStrategy.Default)
    compiled = pipeline.run_passes(program)
    times = {
        "ast.parse": best_of(lambda: ast.parse(source), repeats),
        "floor build": best_of(lambda: build(tree), repeats),
        "floor copy": best_of(lambda: copy(root), repeats),
        "floor render": best_of(lambda: render(root), repeats),
        "pypto parse": best_of(lambda: pl.parse(source), repeats),
        "pypto pipeline": best_of(lambda: pipeline.run_passes(program), repeats),
        "pypto print": best_of(lambda: ir.python_print(compiled), repeats),
    }
    return times


def report(name: str, times: dict[str, float]) -> list[str]:
    reference = times["ast.parse"]
    lines = [f"{name}", f"  {'stage':<16} {'s':>7} {'x ast':>6}"]
    for stage, seconds in times.items():
        lines.append(f"  {stage:<16} {seconds:7.3f} {seconds / reference:6.2f}")
    copies = PIPELINE_TARGET * reference / times["floor copy"]
    floor_end = (reference + times["floor build"] + times["floor copy"]
                 + times["floor render"]) / reference
    ours_end = (times["pypto parse"] + times["pypto pipeline"] + times["pypto print"]) / reference
    lines.append(f"  the pipeline target ({PIPELINE_TARGET}x) buys {copies:.1f} bare whole-tree "
                 f"copies; a front end that builds, copies once and renders costs "
                 f"{floor_end:.2f}x (target {END_TO_END_TARGET}x, pypto {ours_end:.2f}x)")
    return lines


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeats", type=int, default=3)
    args = parser.parse_args()
    # The floor walkers recurse once per AST level; the deepest shape nests 90 blocks.
    sys.setrecursionlimit(max(sys.getrecursionlimit(), 5_000))
    print(f"pypto floor benchmark; Python {sys.version.split()[0]}; CPU time, best of "
          f"{args.repeats}, gc paused")
    for name, make in SHAPES.items():
        print("\n".join(report(name, measure(make(), args.repeats))))


if __name__ == "__main__":
    main()

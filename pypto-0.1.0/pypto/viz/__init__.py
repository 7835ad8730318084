"""Pictures of what the passes did: ``draw_program`` (``Program.show_graph()``,
``pypto graph``) draws a compiled program as SVG, with the input's region tree.

Drawing needs the passes (a program that still holds regions is compiled first),
so this package sits above them; the SVG is written by pypto itself.
"""

from __future__ import annotations

from pathlib import Path

from ..ir import scope as S
from ..ir.enums import FunctionType
from ..ir.function import Program
from ..ir.walk import iter_stmts
from .model import CallEdge, FunctionBox, Region, call_graph, region_tree
from .svg import render_svg

__all__ = ["Picture", "draw_program", "needs_passes", "CallEdge", "FunctionBox", "Region",
           "call_graph", "region_tree"]


class Picture:
    """An SVG picture; a notebook shows it (``_repr_svg_``), ``save`` writes it."""

    def __init__(self, svg: str, title: str) -> None:
        self.svg = svg
        self.title = title

    def _repr_svg_(self) -> str:
        return self.svg

    def save(self, path: str | Path) -> None:
        Path(path).write_text(self.svg, encoding="utf-8")

    def __repr__(self) -> str:
        return f"<Picture {self.title!r}: {len(self.svg)} bytes of SVG>"


def needs_passes(program: Program) -> bool:
    """Whether ``program`` still holds what the passes lift: regions or Inline functions."""
    for func in program.functions.values():
        if func.func_type is FunctionType.Inline:
            return True
        for stmt in iter_stmts(func.body):
            if isinstance(stmt, S.ScopeStmt) and not isinstance(stmt, S.RuntimeScopeStmt):
                return True
    return False


def draw_program(program: Program, compiled: Program | None = None,
                 compile: bool | None = None) -> Picture:  # noqa: A002 - a plain word here
    """The picture of ``program`` after the passes.

    ``compiled`` is the program after the passes, if the caller ran them; else the
    default pipeline runs when ``compile`` is true, or (``None``) when the program
    still holds regions or Inline functions.  The region tree relates the regions of
    ``program`` to the functions of the compiled one.
    """
    if not isinstance(program, Program):
        raise TypeError(f"draw_program expects an ir.Program, got {type(program).__name__}")
    if compiled is None:
        if compile or (compile is None and needs_passes(program)):
            from ..passes.pass_manager import OptimizationStrategy, PassManager
            compiled = PassManager.get_strategy(OptimizationStrategy.Default).run_passes(program)
        else:
            compiled = program
    boxes, edges = call_graph(compiled)
    regions = region_tree(program, compiled) if compiled is not program else []
    title = f"{program.name or 'program'} after the passes" if compiled is not program \
        else f"{program.name or 'program'}"
    return Picture(render_svg(title, boxes, edges, regions), title)

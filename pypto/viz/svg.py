"""SVG for a compiled program: function boxes, call arrows, Graph functions holding
their kernels, and the input's region tree below.  Written as text, by pypto.

Readable on light and dark pages: boxes carry their own light fill under dark text;
everything drawn on the page itself (arrows, notes, the region tree) uses mid-tone
colours with at least 3.5:1 contrast on white and on near-black.
"""

from __future__ import annotations

from xml.sax.saxutils import escape, quoteattr

from .layout import Placed, layered_layout
from .model import CallEdge, FunctionBox, Region

__all__ = ["render_svg"]

FONT_SIZE = 12
CHAR_WIDTH = 7.3   # a 12 px monospace glyph, a little generous
LINE = 16
PAD = 8
MARGIN = 16
INDENT = 20
BOX_TEXT = "#1f2328"
PAGE_TEXT = "#7a7a7a"   # >= 3.9:1 on #ffffff and on #111111
REGION_TEXT = "#a24bfa"
FUNCTION_TEXT = "#3f7ad2"
FILLS = {  # function type -> (fill, stroke)
    "Orchestration": ("#dbe7fb", "#3f7ad2"), "Graph": ("#efe6fd", "#a24bfa"),
    "InCore": ("#dcf3e3", "#318b3f"), "AIC": ("#dcf3e3", "#318b3f"),
    "AIV": ("#dcf3e3", "#318b3f"), "Group": ("#fbeedd", "#bb6313"),
    "Spmd": ("#fbe3ea", "#d6407f"), "Opaque": ("#e8e8e8", "#7a7a7a"),
    "Inline": ("#e8e8e8", "#7a7a7a"),
}


def _n(value: float) -> str:
    return f"{value:.1f}".rstrip("0").rstrip(".")


def _text_width(*lines: str) -> float:
    return max(len(line) for line in lines) * CHAR_WIDTH


def _leaf_size(box: FunctionBox) -> tuple[float, float]:
    return _text_width(box.name, box.label) + 2 * PAD, 2 * LINE + PAD


def _container_size(box: FunctionBox, kernels: list[FunctionBox]) -> tuple[float, float]:
    sizes = [_leaf_size(k) for k in kernels]
    inner = sum(w for w, _ in sizes) + PAD * 2 * (len(sizes) - 1)
    width = max(_text_width(box.name, box.label), inner) + 2 * PAD + 2 * PAD
    return width, 2 * LINE + PAD + LINE + max(h for _, h in sizes) + 2 * PAD


class _Canvas:
    def __init__(self) -> None:
        self.parts: list[str] = []

    def add(self, text: str) -> None:
        self.parts.append(text)

    def box(self, box: FunctionBox, at: Placed | tuple[float, float, float, float],
            container: bool = False) -> None:
        x, y, w, h = (at.x, at.y, at.width, at.height) if isinstance(at, Placed) else at
        fill, stroke = FILLS.get(box.func_type, FILLS["Opaque"])
        kind = "graph-group" if container else "function"
        self.add(f'<g class="{kind}" data-name={quoteattr(box.name)} '
                 f'data-type={quoteattr(box.func_type)}>')
        dash = ' stroke-dasharray="6 3"' if container else ""
        self.add(f'<rect x="{_n(x)}" y="{_n(y)}" width="{_n(w)}" height="{_n(h)}" rx="6" '
                 f'fill="{fill}" stroke="{stroke}" stroke-width="1.5"{dash}/>')
        centre = x + w / 2
        self.add(f'<text class="name" x="{_n(centre)}" y="{_n(y + PAD + LINE - 4)}" '
                 f'text-anchor="middle" font-weight="bold" fill="{BOX_TEXT}">'
                 f'{escape(box.name)}</text>')
        self.add(f'<text class="label" x="{_n(centre)}" y="{_n(y + PAD + 2 * LINE - 4)}" '
                 f'text-anchor="middle" fill="{BOX_TEXT}">{escape(box.label)}</text>')
        if not container:  # a Graph function's group closes after its kernels
            self.add("</g>")

    def arrow(self, edge: CallEdge, start: tuple[float, float], end: tuple[float, float]) -> None:
        (x1, y1), (x2, y2) = start, end
        if y2 > y1:
            middle = (y1 + y2) / 2
            path = f"M{_n(x1)},{_n(y1)} C{_n(x1)},{_n(middle)} {_n(x2)},{_n(middle)} {_n(x2)},{_n(y2)}"
        else:  # a call that closes a cycle: loop out to the right
            path = f"M{_n(x1)},{_n(y1)} C{_n(x1 + 60)},{_n(y1 + 40)} {_n(x2 + 60)},{_n(y2 - 40)} {_n(x2)},{_n(y2)}"
        self.add(f'<path class="call" data-from={quoteattr(edge.caller)} '
                 f'data-to={quoteattr(edge.callee)} d="{path}" fill="none" '
                 f'stroke="{PAGE_TEXT}" stroke-width="1.3" marker-end="url(#pypto-arrow)"/>')
        note = ", ".join(n for n in (f"×{edge.count}" if edge.count > 1 else "", edge.note) if n)
        if note:
            self.add(f'<text class="call-note" x="{_n(x2 + 6)}" y="{_n(y2 - 6)}" '
                     f'fill="{PAGE_TEXT}">{escape(note)}</text>')


def render_svg(title: str, boxes: list[FunctionBox], edges: list[CallEdge],
               regions: list[Region]) -> str:
    by_name = {b.name: b for b in boxes}
    grouped = {k for b in boxes for k in b.kernels}
    top = [b for b in boxes if b.name not in grouped]
    sizes = {b.name: (_container_size(b, [by_name[k] for k in b.kernels]) if b.kernels
                      else _leaf_size(b)) for b in top}
    owner = {k: b.name for b in top for k in b.kernels}
    layer_edges = [(owner.get(e.caller, e.caller), owner.get(e.callee, e.callee))
                   for e in edges]
    placed = layered_layout([b.name for b in top], sizes, layer_edges)
    for p in placed.values():
        p.x += MARGIN
        p.y += MARGIN + LINE
    frames: dict[str, tuple[float, float, float, float]] = {
        name: (p.x, p.y, p.width, p.height) for name, p in placed.items()}
    for box in top:  # kernels in a row inside their Graph function
        x0, y0, _, _ = frames[box.name]
        left = x0 + 2 * PAD
        for k in box.kernels:
            w, h = _leaf_size(by_name[k])
            frames[k] = (left, y0 + 2 * LINE + PAD + LINE + PAD, w, h)
            left += w + 2 * PAD

    canvas = _Canvas()
    for box in top:
        canvas.box(box, frames[box.name], container=bool(box.kernels))
        for k in box.kernels:
            canvas.box(by_name[k], frames[k])
        if box.kernels:
            canvas.add("</g>")
    for edge in edges:
        x, y, w, h = frames[edge.caller]
        tx, ty, tw, _ = frames[edge.callee]
        inner = owner.get(edge.callee) == edge.caller
        start_y = y + 2 * LINE + PAD if inner else y + h
        canvas.arrow(edge, (x + w / 2, start_y), (tx + tw / 2, ty))

    width = max((x + w for x, _, w, _ in frames.values()), default=0.0) + MARGIN
    height = max((y + h for _, y, _, h in frames.values()), default=0.0) + MARGIN
    if regions:
        tree, tree_width, height = _region_rows(regions, height + LINE)
        canvas.parts += tree
        width = max(width, tree_width + MARGIN)
    head = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{_n(width)}" '
            f'height="{_n(height)}" viewBox="0 0 {_n(width)} {_n(height)}" '
            f'font-family="monospace" font-size="{FONT_SIZE}">',
            f"<title>{escape(title)}</title>",
            '<defs><marker id="pypto-arrow" viewBox="0 0 10 10" refX="10" refY="5" '
            'markerWidth="7" markerHeight="7" orient="auto-start-reverse">'
            f'<path d="M0,0 L10,5 L0,10 z" fill="{PAGE_TEXT}"/></marker></defs>',
            f'<text class="title" x="{MARGIN}" y="{MARGIN + 4}" fill="{PAGE_TEXT}">'
            f'{escape(title)}</text>']
    return "\n".join(head + canvas.parts + ["</svg>"]) + "\n"


def _region_rows(regions: list[Region], top: float) -> tuple[list[str], float, float]:
    """The region tree as indented rows with guide lines; (parts, width, bottom)."""
    parts = ['<g class="regions">',
             f'<text class="title" x="{MARGIN}" y="{_n(top + LINE)}" fill="{PAGE_TEXT}">'
             'Regions of the input, and the functions they became</text>']
    y = top + LINE
    width = 0.0
    stack: list[tuple[Region, int, float | None]] = [(region, 0, None)
                                                     for region in reversed(regions)]
    while stack:
        region, depth, parent_y = stack.pop()
        y += LINE + 4
        x = MARGIN + depth * INDENT
        if parent_y is not None:  # guide: down from the parent, across to this row
            parts.append(f'<path class="guide" d="M{_n(x - INDENT + 6)},{_n(parent_y + 4)} '
                         f'V{_n(y - 4)} H{_n(x - 4)}" fill="none" stroke="{PAGE_TEXT}"/>')
        became = ", ".join(region.functions) if region.functions else (
            "stays in place" if region.kind in ("scope", "function") else "not outlined")
        line = "" if region.kind == "function" else f"  line {region.line}"
        parts.append(f'<g class="region" data-kind="{region.kind}" '
                     f'data-functions={quoteattr(" ".join(region.functions))}>')
        colour = FUNCTION_TEXT if region.kind == "function" else REGION_TEXT
        parts.append(f'<text x="{_n(x)}" y="{_n(y)}" xml:space="preserve" '
                     f'style="white-space: pre"><tspan fill="{colour}">'
                     f'{escape(region.text)}</tspan><tspan fill="{PAGE_TEXT}">{escape(line)}'
                     f'</tspan>' + ("" if region.kind == "function" else
                                    f'<tspan fill="{PAGE_TEXT}">  → </tspan>'
                                    f'<tspan fill="{FUNCTION_TEXT}">{escape(became)}</tspan>')
                     + "</text></g>")
        shown = len(region.text) + len(line) + (0 if region.kind == "function"
                                                else 4 + len(became))
        width = max(width, x + shown * CHAR_WIDTH)
        stack.extend((child, depth + 1, y) for child in reversed(region.children))
    parts.append("</g>")
    return parts, width, y + LINE

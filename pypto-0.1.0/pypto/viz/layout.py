"""A small layered layout for call graphs (no graphviz).

1. Layers: a node's layer is the longest call path from a root (a function nobody
   calls) to it, so every call points down.  Calls that close a cycle (found by a
   depth-first walk in input order) are left out of the layering and drawn as
   they are.
2. Order in a layer: first-discovery order of that walk, then a few sweeps that
   sort each layer by the mean position of its neighbours in the layer above
   (down) or below (up) — the barycentre heuristic, which removes most crossings.
3. Coordinates: layers are rows; a node is placed under the mean of its parents
   where the row has room, never overlapping its left neighbour.

Linear in nodes and edges per sweep, with a fixed number of sweeps.
"""

from __future__ import annotations

from dataclasses import dataclass

__all__ = ["Placed", "layered_layout", "ROW_GAP", "COLUMN_GAP"]

ROW_GAP = 48
COLUMN_GAP = 28
SWEEPS = 4


@dataclass
class Placed:
    x: float   # left
    y: float   # top
    width: float
    height: float
    layer: int

    @property
    def centre_x(self) -> float:
        return self.x + self.width / 2


def layered_layout(nodes: list[str], sizes: dict[str, tuple[float, float]],
                   edges: list[tuple[str, str]]) -> dict[str, Placed]:
    """Positions for ``nodes`` (in input order) of ``sizes`` joined by ``edges``."""
    down: dict[str, list[str]] = {n: [] for n in nodes}
    up: dict[str, list[str]] = {n: [] for n in nodes}
    seen: set[tuple[str, str]] = set()
    for a, b in edges:
        if a != b and (a, b) not in seen:
            seen.add((a, b))
            down[a].append(b)
    order, forward = _discover(nodes, down, up)
    layer = _layers(order, forward)
    rows: list[list[str]] = [[] for _ in range(max(layer.values(), default=-1) + 1)]
    for name in order:
        rows[layer[name]].append(name)
    _sweep(rows, forward, up)
    return _coordinates(rows, sizes, up)


def _discover(nodes: list[str], down: dict[str, list[str]], up: dict[str, list[str]]
              ) -> tuple[list[str], dict[str, list[str]]]:
    """First-discovery order from the roots, and the edges that do not close a cycle."""
    called = {b for targets in down.values() for b in targets}
    starts = [n for n in nodes if n not in called] + nodes  # every node, roots first
    state: dict[str, int] = {}  # 1 on the walk's path, 2 done
    order: list[str] = []
    forward: dict[str, list[str]] = {n: [] for n in nodes}
    for start in starts:
        if start in state:
            continue
        state[start] = 1
        order.append(start)
        stack = [(start, iter(down[start]))]
        while stack:
            node, targets = stack[-1]
            target = next(targets, None)
            if target is None:
                state[node] = 2
                stack.pop()
                continue
            if state.get(target) == 1:
                continue  # closes a cycle
            forward[node].append(target)
            up[target].append(node)
            if target not in state:
                state[target] = 1
                order.append(target)
                stack.append((target, iter(down[target])))
    return order, forward


def _layers(order: list[str], forward: dict[str, list[str]]) -> dict[str, int]:
    indegree = {n: 0 for n in order}
    for targets in forward.values():
        for t in targets:
            indegree[t] += 1
    layer = {n: 0 for n in order}
    ready = [n for n in order if indegree[n] == 0]
    while ready:  # Kahn's order on the acyclic edges: longest path from a root
        node = ready.pop()
        for t in forward[node]:
            layer[t] = max(layer[t], layer[node] + 1)
            indegree[t] -= 1
            if indegree[t] == 0:
                ready.append(t)
    return layer


def _sweep(rows: list[list[str]], forward: dict[str, list[str]],
           up: dict[str, list[str]]) -> None:
    for sweep in range(SWEEPS):
        downwards = sweep % 2 == 0
        indices = range(1, len(rows)) if downwards else range(len(rows) - 2, -1, -1)
        for i in indices:
            neighbours = up if downwards else forward
            other = {name: k for k, name in enumerate(rows[i - 1 if downwards else i + 1])}
            position = {name: k for k, name in enumerate(rows[i])}

            def key(name: str) -> tuple[float, int]:
                linked = [other[n] for n in neighbours[name] if n in other]
                mean = sum(linked) / len(linked) if linked else position[name]
                return mean, position[name]
            rows[i].sort(key=key)


def _coordinates(rows: list[list[str]], sizes: dict[str, tuple[float, float]],
                 up: dict[str, list[str]]) -> dict[str, Placed]:
    placed: dict[str, Placed] = {}
    top = 0.0
    for number, row in enumerate(rows):
        height = max(sizes[n][1] for n in row)
        right = 0.0
        for name in row:
            width = sizes[name][0]
            parents = [placed[p] for p in up[name] if p in placed]
            wanted = (sum(p.centre_x for p in parents) / len(parents) - width / 2
                      if parents else right)
            x = max(right, wanted)
            placed[name] = Placed(x, top, width, sizes[name][1], number)
            right = x + width + COLUMN_GAP
        top += height + ROW_GAP
    return placed

"""Doubling benchmark of the four outliners (issue: O(N log N) in IR size).

For each outliner and each input shape, the IR is built at size N and 2N and
the pass is timed; the ratio t(2N)/t(N) stays near 2 for linear work (above
2.3 would be a complexity bug).  Shapes:

* ``many``  -- many functions, each with a few regions;
* ``long``  -- one function, one long body, regions spread through it;
* ``deep``  -- regions nested inside each other, D levels deep;
* ``loops`` -- D nested loops with a region at the bottom (carried store target).

    python benchmarks/bench_outline.py [--quick]
"""

from __future__ import annotations

import argparse

from _timing import best_of
from pypto import ir, passes
from pypto.ir import DataType as D

F32 = ir.TensorType([64], D.FP32)
INDEX = ir.ScalarType(D.INDEX)


def _add(a: ir.Expr, b: ir.Expr) -> ir.Call:
    return ir.create_op_call("tensor.add", [a, b])


def _region(kind: str, body: list[ir.Stmt]) -> ir.Stmt:
    if kind == "hierarchy":
        return ir.HierarchyScopeStmt(ir.Level.HOST, body=body)
    if kind == "graph":
        return ir.GraphScopeStmt("g", body=body)
    if kind == "incore":
        return ir.InCoreScopeStmt(body=body)
    return ir.ClusterScopeStmt(body=body)


def _chain_function(name: str, kind: str, statements: int, every: int) -> ir.Function:
    """``statements`` SSA adds; every ``every``-th one sits in its own region."""
    x = ir.Var("x", F32)
    current = x
    body: list[ir.Stmt] = []
    for i in range(statements):
        nxt = ir.Var(f"v{i}", F32)
        stmt = ir.AssignStmt(nxt, _add(current, x))
        body.append(_region(kind, [stmt]) if i % every == 0 else stmt)
        current = nxt
    body.append(ir.ReturnStmt([current]))
    return ir.Function(name, [x], [F32], body)


def many(kind: str, n: int) -> ir.Program:
    return ir.Program([_chain_function(f"f{i}", kind, 8, 2) for i in range(n)], "Many")


def long(kind: str, n: int) -> ir.Program:
    return ir.Program([_chain_function("main", kind, 8 * n, 4)], "Long")


def deep(kind: str, n: int) -> ir.Program:
    """Regions nested n deep, each holding one statement plus the next region."""
    x = ir.Var("x", F32)
    values = [ir.Var(f"v{i}", F32) for i in range(n)]
    inner: list[ir.Stmt] = []
    for i in reversed(range(n)):
        source = values[i - 1] if i else x
        stmts = [ir.AssignStmt(values[i], _add(source, x))] + inner
        inner = [_region(kind, stmts) if kind in ("hierarchy",) or i == n - 1 else
                 ir.RuntimeScopeStmt(body=stmts)]
    body = inner + [ir.ReturnStmt([values[-1]])]
    return ir.Program([ir.Function("main", [x], [F32], body)], "Deep")


def loops(kind: str, n: int) -> ir.Program:
    """n nested loops; the innermost body holds a region storing into ``out``."""
    x = ir.Var("x", F32)
    out = ir.Var("out", F32)
    t = ir.Var("t", ir.TileType([8], D.FP32, memory_space=ir.MemorySpace.Vec))
    zero = ir.ConstInt(0, D.INDEX)
    load = ir.create_op_call("tile.load", [x, [zero], [8]])
    store = ir.create_op_call("tile.store", [t, [zero], out])
    body: ir.Stmt = _region(kind, [ir.AssignStmt(t, load), ir.EvalStmt(store)])
    for i in range(n):
        body = ir.ForStmt(ir.Var(f"i{i}", INDEX), 0, 2, 1, [], body, [])
    func = ir.Function("main", [x, (out, ir.ParamDirection.Out)], [F32],
                       [body, ir.ReturnStmt([out])])
    return ir.Program([func], "Loops")


OUTLINERS = {
    "hierarchy": passes.outline_hierarchy_scopes,
    "graph": passes.outline_graph_scopes,
    "incore": passes.outline_incore_scopes,
    "cluster": passes.outline_cluster_scopes,
}
SHAPES = {"many": many, "long": long, "deep": deep, "loops": loops}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--quick", action="store_true", help="small sizes (a smoke run)")
    args = parser.parse_args()
    sizes = {"many": 200, "long": 400, "deep": 400, "loops": 400}
    if args.quick:
        sizes = {k: v // 4 for k, v in sizes.items()}
    print(f"{'outliner':<10} {'shape':<6} {'N':>6} {'t(N) ms':>10} {'t(2N) ms':>10} {'ratio':>7}")
    with passes.PassContext([]):
        for name, factory in OUTLINERS.items():
            for shape, build in SHAPES.items():
                if shape == "loops" and name in ("hierarchy",):
                    continue  # Hierarchy exports no store targets: nothing is carried
                n = sizes[shape]
                small, large = build(name, n), build(name, 2 * n)
                t1 = best_of(lambda: factory()(small), 5)
                t2 = best_of(lambda: factory()(large), 5)
                print(f"{name:<10} {shape:<6} {n:>6} {t1 * 1e3:>10.2f} {t2 * 1e3:>10.2f} "
                      f"{t2 / t1:>7.2f}")


if __name__ == "__main__":
    main()

"""Doubling benchmark of every property verifier (O(N log N) in IR size).

Each verifier registered for an ``IRProperty`` runs on programs of size N and 2N
(the shapes of ``bench_outline.py``: many functions, one long function, deep
nesting, deep loops -- every region kind) and the time ratio t(2N)/t(N) is
printed; about 2 is linear, 4 would be quadratic.

    python benchmarks/bench_verifiers.py [--quick]
"""

from __future__ import annotations

import argparse
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from _timing import best_of  # noqa: E402
from bench_outline import SHAPES  # noqa: E402  (same generators, one definition)

from pypto import passes  # noqa: E402

KINDS = ("hierarchy", "graph", "incore", "cluster")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--quick", action="store_true", help="small sizes (a smoke run)")
    args = parser.parse_args()
    sizes = {"many": 100, "long": 200, "deep": 200, "loops": 200}
    if args.quick:
        sizes = {k: v // 4 for k, v in sizes.items()}
    registry = passes.PropertyVerifierRegistry
    props = [p for p in passes.IRProperty if registry.get_verifier(p) is not None]
    print(f"{'shape':<6} {'N':>5} {'all verifiers t(N) ms':>22} {'t(2N) ms':>9} {'ratio':>6}"
          f"   worst verifier (ratio)")
    for shape, build in SHAPES.items():
        n = sizes[shape]
        # one program per region kind, concatenated: every verifier sees every scope kind
        small = [build(kind, n) for kind in KINDS]
        large = [build(kind, 2 * n) for kind in KINDS]
        ratios = {}
        total_small = total_large = 0.0
        for prop in props:
            subset = passes.IRPropertySet([prop])
            t1 = best_of(lambda: [registry.verify(subset, p) for p in small], 5)
            t2 = best_of(lambda: [registry.verify(subset, p) for p in large], 5)
            total_small, total_large = total_small + t1, total_large + t2
            if t1 > 2e-4:  # below ~0.2 ms the ratio is timer noise
                ratios[prop.name] = t2 / t1
        name, ratio = max(ratios.items(), key=lambda item: item[1])
        print(f"{shape:<6} {n:>5} {total_small * 1e3:>22.2f} {total_large * 1e3:>9.2f} "
              f"{total_large / total_small:>6.2f}   {name} ({ratio:.2f})")



if __name__ == "__main__":
    main()

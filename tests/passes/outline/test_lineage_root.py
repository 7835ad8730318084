"""``BodyFacts.root`` on lineages that loop (IR before SSA form).

``acc = pl.store(.., acc)`` names itself, so following its lineage never ends; the
walk is capped at ``_ROOT_STEPS`` steps.  The answer must be the Var that many steps
along (what the capped walk gives), found without taking every step.
"""

from __future__ import annotations

import random
import time

from pypto.ir import expr as E
from pypto.ir.dtype import DataType
from pypto.ir.types import ScalarType
from pypto.passes.outline import facts
from pypto.passes.outline.facts import BodyFacts

_T = ScalarType(DataType.INDEX)


def _capped_walk(lineage: dict, var: E.Var) -> E.Var:
    """The definition: every step, up to the cap."""
    steps = 0
    while var in lineage and steps < facts._ROOT_STEPS:
        var = lineage[var]
        steps += 1
    return var


def _facts(lineage: dict) -> BodyFacts:
    made = BodyFacts.__new__(BodyFacts)
    made.lineage = lineage
    return made


def test_root_matches_the_capped_walk_on_random_lineages() -> None:
    rng = random.Random(19)
    for _ in range(500):
        vs = [E.Var(f"v{i}", _T) for i in range(rng.randint(1, 9))]
        lineage = {v: rng.choice(vs) for v in vs if rng.random() < 0.8}
        found = _facts(lineage)
        for v in vs:
            assert found.root(v) is _capped_walk(lineage, v)


def test_root_of_a_two_var_loop_depends_on_the_cap_parity() -> None:
    a, b, c = (E.Var(n, _T) for n in "abc")
    lineage = {c: a, a: b, b: a}  # c -> a -> b -> a ...
    # 10,000 steps from c: one to a, then 9,999 around the loop of two: b.
    assert _facts(lineage).root(c) is b
    assert _facts(lineage).root(a) is a


def test_root_of_a_self_loop_takes_no_cap_of_steps() -> None:
    acc = E.Var("acc", _T)
    found = _facts({acc: acc})
    start = time.process_time()
    for _ in range(2000):
        assert found.root(acc) is acc
    # 2,000 capped walks would take 20 million steps (seconds); a loop check, milliseconds.
    assert time.process_time() - start < 0.5

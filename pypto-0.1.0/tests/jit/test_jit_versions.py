"""Rebindings get versioned names as PyPTO's specializer writes them (``t`` -> ``t_v1``),
except where that would change what the program computes (``pypto/jit/versions.py``)."""

from __future__ import annotations

import ast
import textwrap

import numpy as np

import pypto.language as pl
from pypto import ir
from pypto.jit.versions import version_rebindings

from _jit_helpers import f32


def versioned(source: str) -> tuple[str, dict]:
    function = ast.parse(textwrap.dedent(source)).body[0]
    renames = version_rebindings(function)
    return ast.unparse(function), renames


def test_straight_line_rebindings_get_versions_and_reads_follow_them():
    text, renames = versioned("""
        def f(x, y):
            t = load(x)
            t = mul(t, 2)
            y = store(t, y)
            return y
        """)
    assert text.splitlines()[1:] == ["    t = load(x)", "    t_v1 = mul(t, 2)",
                                     "    y_v1 = store(t_v1, y)", "    return y_v1"]
    assert renames == {"t": ["t_v1"], "y": ["y_v1"]}


def test_rebinding_an_outer_name_in_a_loop_or_region_keeps_one_variable():
    text, _ = versioned("""
        def f(x, acc):
            acc = g(acc)
            for i in range(3):
                acc = add(acc, x)
                acc = mul(acc, 2)
            with at():
                acc = h(acc)
            return acc
        """)
    lines = text.splitlines()
    assert lines[1:] == ["    acc_v1 = g(acc)", "    for i in range(3):",
                         "        acc_v1 = add(acc_v1, x)", "        acc_v1 = mul(acc_v1, 2)",
                         "    with at():", "        acc_v1 = h(acc_v1)", "    return acc_v1"]


def test_names_first_bound_in_a_block_are_versioned_there_and_read_after_it():
    text, _ = versioned("""
        def f(x):
            with at():
                t = load(x)
                t = exp(t)
            return t
        """)
    assert text.splitlines()[2:] == ["        t = load(x)", "        t_v1 = exp(t)",
                                     "    return t_v1"]


def test_branches_while_bodies_and_loop_targets_are_never_versioned():
    source = """
        def f(x, c):
            if c:
                r = a(x)
                r = b(r)
            else:
                r = d(x)
            n = 0
            while n < 3:
                n = n + 1
            for k, (cur,) in rng(init_values=(x,)):
                cur = e(cur)
                k = k + 1
            return r
        """
    text, renames = versioned(source)
    assert text == ast.unparse(ast.parse(textwrap.dedent(source)).body[0])
    assert renames == {}


def test_a_version_never_collides_with_a_name_of_the_function():
    text, _ = versioned("""
        def f(t, t_v1):
            t = g(t, t_v1)
            return t
        """)
    assert "t_v2 = g(t, t_v1)" in text and "return t_v2" in text


def test_versions_are_distinct_variables_and_the_program_computes_the_same():
    @pl.jit
    def chain(x: pl.Tensor, y: pl.Out[pl.Tensor]):
        with pl.at(level=pl.Level.CORE_GROUP):
            t = pl.load(x, [0, 0], [4, 8])
            t = pl.mul(t, 2.0)
            t = pl.add(t, 1.0)
            y = pl.store(t, [0, 0], y)
        return y

    program = chain.specialize(f32(4, 8), f32(4, 8))
    assigns = [s for s in program["chain"].body.stmts[0].body.stmts
               if isinstance(s, ir.AssignStmt)]
    assert [a.var.name_hint for a in assigns] == ["t", "t_v1", "t_v2", "y"]
    assert len({id(a.var) for a in assigns}) == 4
    x = np.arange(32, dtype=np.float32).reshape(4, 8)
    y = np.zeros((4, 8), np.float32)
    chain(x, y)
    np.testing.assert_array_equal(y, x * 2 + 1)

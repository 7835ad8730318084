"""Property tests on random valid DSL programs (``strategies.programs``).

* parse -> print -> parse is structurally equal and the printed text is a fixpoint;
* the default pipeline leaves no region behind (Runtime scopes excepted), satisfies
  every verifier of ``get_default_verify_properties()``, and its output round-trips;
* outlining never changes which ops run in which order (``optrace``).

The default example count keeps the suite fast; ``PYPTO_PROPERTY_EXAMPLES=N`` runs N
examples per property with a random seed (default: a fixed, derandomized set).
"""

from __future__ import annotations

import ast
import os
import re

from hypothesis import HealthCheck, given, settings

import pypto.language as pl
from pypto import ir, passes
from pypto.ir.walk import iter_stmts

from optrace import op_trace, tensor_arg
from strategies import DEVICE_LEVELS, ORCH_LEVELS, GeneratedProgram, programs

_REQUESTED = os.environ.get("PYPTO_PROPERTY_EXAMPLES", "").strip()
EXAMPLES = int(_REQUESTED) if _REQUESTED else 25
PROPERTY_SETTINGS = settings(
    max_examples=EXAMPLES,
    derandomize=not _REQUESTED,  # CI sees the same programs every run
    deadline=None,
    database=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
    print_blob=True,
)


def _compile(program: ir.Program) -> ir.Program:
    return ir.PassManager.get_strategy(ir.OptimizationStrategy.Default).run_passes(program)


def _assert_round_trip(node: ir.Program) -> None:
    text = ir.python_print(node, format=False)
    again = pl.parse(text)
    ir.assert_structural_equal(node, again)
    assert ir.python_print(again, format=False) == text


def _trace(program: ir.Program, generated: GeneratedProgram) -> list[str]:
    return op_trace(program, "main",
                    [tensor_arg("x"), tensor_arg("acc"), *generated.scalar_args])


@PROPERTY_SETTINGS
@given(programs())
def test_parse_print_parse_is_a_fixpoint(generated):
    program = pl.parse(generated.text)
    assert isinstance(program, ir.Program)
    _assert_round_trip(program)


@PROPERTY_SETTINGS
@given(programs())
def test_pipeline_outlines_every_region_and_round_trips(generated):
    compiled = _compile(pl.parse(generated.text))
    left = [(name, type(stmt).__name__) for name, func in compiled.functions.items()
            for stmt in iter_stmts(func.body)
            if isinstance(stmt, ir.ScopeStmt) and not isinstance(stmt, ir.RuntimeScopeStmt)]
    assert left == []
    diagnostics = passes.PropertyVerifierRegistry.verify(
        passes.get_default_verify_properties(), compiled)
    errors = [d for d in diagnostics if d.severity is passes.DiagnosticSeverity.Error]
    assert errors == []
    _assert_round_trip(compiled)


@PROPERTY_SETTINGS
@given(programs())
def test_outlining_keeps_the_op_trace(generated):
    program = pl.parse(generated.text)
    before = _trace(program, generated)
    after = _trace(_compile(program), generated)
    assert after == before


# -- the interpreter itself: a trace that could not tell programs apart proves nothing ----

KERNEL = """
    @pl.function(type=pl.FunctionType.InCore)
    def kern(x: pl.Tensor[[16], pl.FP32], acc: pl.InOut[pl.Tensor[[16], pl.FP32]]) -> pl.Tensor[[16], pl.FP32]:
        t = pl.load(x, [0], [16])
        a = pl.load(acc, [0], [16])
        acc = pl.store(pl.add(t, a), [0], acc)
        return acc
"""


def _program(body: str) -> ir.Program:
    return pl.parse("@pl.program\nclass P:" + KERNEL + """
    @pl.function(type=pl.FunctionType.Orchestration)
    def main(self, x: pl.Tensor[[16], pl.FP32], acc: pl.InOut[pl.Tensor[[16], pl.FP32]], n: pl.Scalar[pl.INDEX]) -> pl.Tensor[[16], pl.FP32]:
""" + body + "        return acc\n")


def _trace_of(program: ir.Program, n: int) -> list[str]:
    return op_trace(program, "main", [tensor_arg("x"), tensor_arg("acc"), n])


def test_trace_follows_calls_loops_and_branches():
    program = _program("""\
        for i in pl.range(n):
            if i == 1:
                acc = self.kern(x, acc)
            else:
                with pl.at(level=pl.Level.CORE_GROUP):
                    t = pl.load(x, [0], [16])
                    acc = pl.store(pl.exp(t), [0], acc)
""")
    kernel = ["tile.load", "tile.load", "tile.add", "tile.store"]
    region = ["tile.load", "tile.exp", "tile.store"]
    assert _trace_of(program, 3) == region + kernel + region
    assert _trace_of(program, 0) == []
    assert _trace_of(_compile(program), 3) == region + kernel + region


def test_trace_sees_a_reordering():
    first = _program("""\
        with pl.at(level=pl.Level.CORE_GROUP):
            t = pl.load(x, [0], [16])
            acc = pl.store(pl.exp(t), [0], acc)
        acc = self.kern(x, acc)
""")
    second = _program("""\
        acc = self.kern(x, acc)
        with pl.at(level=pl.Level.CORE_GROUP):
            t = pl.load(x, [0], [16])
            acc = pl.store(pl.exp(t), [0], acc)
""")
    assert _trace_of(first, 1) != _trace_of(second, 1)


def test_trace_of_while_loops_with_carried_values():
    program = _program("""\
        for (w, c) in pl.while_(init_values=(0, acc)):
            pl.cond(w < n)
            c2 = self.kern(x, c)
            w2, c3 = pl.yield_(w + 1, c2)
        acc = c3
""")
    assert len(_trace_of(program, 2)) == 8
    assert _trace_of(_compile(program), 2) == _trace_of(program, 2)


def test_generated_programs_are_not_trivial():
    """The generator reaches the constructs the properties are about."""
    texts = []

    @settings(max_examples=150, derandomize=True, database=None, deadline=None,
              suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
    @given(programs(max_depth=4))
    def collect(generated):
        texts.append(generated.text)

    collect()
    corpus = "\n".join(texts)
    assert any(level in corpus for level in ORCH_LEVELS)  # a Hierarchy pl.at
    assert any(level in corpus for level in DEVICE_LEVELS)
    for construct in ("pl.graph(", "pl.cluster()", "pl.spmd(", "pl.Level.CORE_GROUP",
                      "init_values=", "pl.while_(",
                      "while w", "pl.yield_(", "else:", "FunctionType.Inline",
                      "FunctionType.Orchestration", "pl.scope()", "pl.parallel(", "base",
                  'pl.dynamic("M")', "pl.Tensor[[M, 16]"):
        assert construct in corpus, construct
    # a helper's second result read later (out of the pl.at / pl.scope defining it)
    assert re.search(r"self\.kern_\d\((o\d+)|pl\.load\((o\d+)", corpus)
    # an Inline helper spliced into a graph
    assert any(isinstance(node, ast.With) and "pl.graph" in ast.unparse(node.items[0])
               and "self.helper_" in ast.unparse(node)
               for text in texts for node in ast.walk(ast.parse(text)))

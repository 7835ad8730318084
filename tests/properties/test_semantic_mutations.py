"""Semantic mutations of random valid programs (issue 15, point 2).

Each base program comes from the grammar-aware generator (``strategies.programs``:
nested loops, branches, every region kind, calls, tuples, yields).  Each mutation
keeps the text valid Python and changes its meaning at one line:

* ``undefined``: a name read on the line becomes a name defined nowhere;
* ``unknown-op``: a ``pl.<op>`` callee on the line becomes an op that does not exist;
* ``swap``: a name read on the line becomes another name the same function reads
  (another variable, perhaps of another kind).

Every outcome must be a pypto diagnostic -- for ``undefined`` and ``unknown-op`` at
the mutated line, for ``swap`` at a line of the program -- or a compile whose output
reads back equal and, where the op-trace interpreter follows both, runs the same ops
before and after the pipeline.  A bug-typed exception (``fuzzcheck``) fails the case.

``BASES`` x ``MUTANTS_PER_BASE`` = 3,000 cases per run, deterministic:
``PYPTO_MUTATION_BASES`` changes the number of base programs; a failure names its
base and mutant number, and the mutation is a pure function of both.
"""

from __future__ import annotations

import ast
import os
import random
import sys
from dataclasses import dataclass

from hypothesis import HealthCheck, given, settings

import pypto.language as pl
from pypto import ir, passes
from pypto.language.parser.diagnostics import ParserError

from optrace import TraceError, op_trace, tensor_arg
from strategies import programs

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "fuzz"))
from fuzzcheck import FuzzFailure, compile_outcome, parse_outcome  # noqa: E402

BASES = int(os.environ.get("PYPTO_MUTATION_BASES", "") or 30)
MUTANTS_PER_BASE = 100
KINDS = ("undefined", "unknown-op", "swap")
_SKIPPED_NAMES = {"pl", "self", "pld", "range", "len"}
_seen_bases: list[str] = []


@dataclass(frozen=True)
class Site:
    line: int          # 1-based
    start: int         # column range of the replaced text on that line
    end: int
    text: str
    function: str


def _sites(text: str) -> tuple[list[Site], list[Site]]:
    """Names read in function bodies, and ``pl.<op>`` callees (not in annotations)."""
    tree = ast.parse(text)
    names: list[Site] = []
    callees: list[Site] = []
    for func in ast.walk(tree):
        if not isinstance(func, ast.FunctionDef):
            continue
        for stmt in func.body:
            for node in ast.walk(stmt):
                if isinstance(node, ast.Name) and isinstance(node.ctx, ast.Load) \
                        and node.id not in _SKIPPED_NAMES and node.lineno == node.end_lineno:
                    names.append(Site(node.lineno, node.col_offset, node.end_col_offset,
                                      node.id, func.name))
                elif isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) \
                        and isinstance(node.func.value, ast.Name) and node.func.value.id == "pl" \
                        and node.func.attr not in ("range", "yield_", "at", "graph", "spmd",
                                                   "cluster", "scope", "while_", "unroll"):
                    f = node.func
                    callees.append(Site(f.lineno, f.col_offset, f.end_col_offset,
                                        f"pl.{f.attr}", func.name))
    return names, callees


def _replace(text: str, site: Site, new: str) -> str:
    lines = text.split("\n")
    line = lines[site.line - 1]
    lines[site.line - 1] = line[:site.start] + new + line[site.end:]
    return "\n".join(lines)


def mutate(text: str, rng: random.Random) -> tuple[str, str, Site] | None:
    names, callees = _sites(text)
    kind = rng.choice(KINDS)
    if kind == "unknown-op" and callees:
        site = rng.choice(callees)
        return kind, _replace(text, site, "pl.no_such_op"), site
    if not names:
        return None
    site = rng.choice(names)
    if kind == "swap":
        others = sorted({s.text for s in names if s.function == site.function} - {site.text})
        if others:
            return kind, _replace(text, site, rng.choice(others)), site
    return "undefined", _replace(text, site, "never_defined_name"), site


def _error_line(err: BaseException) -> int | None:
    span = getattr(err, "span", None)
    if isinstance(span, dict):
        return span.get("line")
    if span is not None and span.is_valid():
        return span.begin_line
    diagnostics = getattr(err, "diagnostics", None)
    if diagnostics:
        first = diagnostics[0].span
        return first.begin_line if first is not None and first.is_valid() else None
    return None


def _trace(program: ir.Program, scalars: tuple) -> list[str] | None:
    try:
        return op_trace(program, "main", [tensor_arg("x"), tensor_arg("acc"), *scalars])
    except (TraceError, ValueError, TypeError, KeyError, IndexError):
        return None  # the interpreter cannot follow this mutant: no trace to compare


def check_mutant(kind: str, text: str, site: Site, scalars: tuple) -> str:
    """The mutant's outcome; ``AssertionError`` (FuzzFailure) when it breaks a rule."""
    try:
        parsed = parse_outcome(text)
    except FuzzFailure:
        raise
    if parsed is None:  # a clean diagnostic: where?
        try:
            pl.parse(text)
        except ParserError as err:
            line = _error_line(err)
            if kind != "swap":
                assert line == site.line, (f"{kind} at line {site.line} reported at line "
                                           f"{line}: {err}\n{text}")
            return "parse-error"
        except SyntaxError:
            raise AssertionError(f"a mutation broke Python syntax:\n{text}")
        raise AssertionError("parse_outcome and pl.parse disagree")
    assert kind == "swap", f"{kind} at line {site.line} was accepted:\n{text}"
    program = parsed if isinstance(parsed, ir.Program) else ir.Program([parsed], "P")
    compiled = compile_outcome(program, text)
    if compiled is None:
        return "pass-error"
    printed = ir.python_print(compiled, format=False)
    ir.assert_structural_equal(compiled, pl.parse(printed))
    before, after = _trace(program, scalars), _trace(compiled, scalars)
    if before is not None and after is not None:
        assert after == before, f"the pipeline changed the ops that run:\n{text}"
    return "compiled"


@settings(max_examples=BASES, derandomize=True, deadline=None, database=None,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large,
                                 HealthCheck.function_scoped_fixture])
@given(programs())
def test_semantic_mutations_end_in_a_diagnostic_or_an_equal_compile(generated):
    base = len(_seen_bases)
    _seen_bases.append(generated.text)
    rng = random.Random(f"{base}:{generated.text}")
    outcomes: dict[str, int] = {}
    with passes.PassContext([], verification_level=passes.VerificationLevel.BASIC):
        for mutant in range(MUTANTS_PER_BASE):
            found = mutate(generated.text, rng)
            if found is None:
                continue
            kind, text, site = found
            try:
                result = check_mutant(kind, text, site, generated.scalar_args)
            except AssertionError as err:
                raise AssertionError(f"base {base}, mutant {mutant} ({kind} at line "
                                     f"{site.line}): {err}") from None
            outcomes[result] = outcomes.get(result, 0) + 1
    assert sum(outcomes.values()) >= MUTANTS_PER_BASE // 2, outcomes


def test_the_mutations_keep_python_syntax_and_change_the_line():
    text = ("import pypto.language as pl\n\n@pl.function\n"
            "def f(a: pl.Scalar[pl.INDEX], b: pl.Scalar[pl.INDEX]) -> pl.Scalar[pl.INDEX]:\n"
            "    c = a + b\n    return c\n")
    seen = set()
    rng = random.Random(7)
    for _ in range(60):
        kind, mutated, site = mutate(text, rng)
        ast.parse(mutated)
        assert mutated.split("\n")[site.line - 1] != text.split("\n")[site.line - 1]
        seen.add(kind)
    assert seen == {"undefined", "swap"}  # no pl.<op> callee in this text

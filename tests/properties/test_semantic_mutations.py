"""Semantic mutations of random valid programs (issue 15, point 2).

Each base program comes from the grammar-aware generator (``strategies.programs``:
nested loops, branches, every region kind, calls, tuples, yields).  Each mutation
keeps the text valid Python and changes its meaning at one line:

* ``undefined``: a name read on the line becomes a name defined nowhere;
* ``unknown-op``: a ``pl.<op>`` callee on the line becomes an op that does not exist;
* ``swap``: a name read on the line becomes another name the same function reads
  (another variable, perhaps of another kind).

Every outcome must be one of:

* a pypto diagnostic (a ``ParserError``, or a pipeline ``ValueError``/``TypeError``/
  ``pypto.Error``) at the mutated line.  A swap may instead be reported at a later use,
  as Python and mypy would: ``s = k0 * 2`` becoming ``s = x * 2`` is well typed until
  ``pl.load(x, [s, 0], ...)``.  So a swap's diagnostic may also be at a line that reads
  a name whose value depends on the mutated line, transitively through assignments,
  ``pl.yield_`` and returns (``dependence.dependent_lines``).  Any other line fails the
  case: pypto reported the user's mistake somewhere else.
* a compile whose output reads back equal, runs the same ops before and after the
  pipeline where the op-trace interpreter follows both (``optrace``), and computes the
  same result on pypto's CPU executor (``execution.execute_main``): ``main(x, acc, n,
  m)`` on the same seeded NumPy inputs, before and after, compared bitwise (the
  returned values and ``acc``, written in place; see ``execution`` for why bitwise).
  The executor runs only programs whose op trace ends (the trace bounds the steps: a
  swapped loop counter can loop forever), and a program it refuses by name (a
  device-only op) is counted and not compared.  Each base program itself is compiled
  and compared the same way.

A bug-typed exception (``fuzzcheck``) fails the case.  The test prints how many cases
ended which way, and asserts that at least 80% of the compiled ones were run and
compared.

``BASES`` x ``MUTANTS_PER_BASE`` = 3,000 cases per run, deterministic:
``PYPTO_MUTATION_BASES`` changes the number of base programs; a failure names its
base and mutant number, and the mutation is a pure function of both.
``PYPTO_FUZZ_SEED=text`` salts the mutations (other mutants of the same bases; more
bases come from a larger ``PYPTO_MUTATION_BASES``: the bases are derandomized from the
test's own source, which the salt must not change).
"""

from __future__ import annotations

import ast
import os
import random
import sys
from collections import Counter
from dataclasses import dataclass
from functools import lru_cache

from hypothesis import HealthCheck, Phase, given, settings

import pypto
import pypto.language as pl
from pypto import ir, passes

from dependence import dependent_lines
from execution import Refused, execute_main
from optrace import TraceError, op_trace, tensor_arg
from strategies import programs

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "fuzz"))
from fuzzcheck import compile_outcome, parse_or_diagnostic  # noqa: E402

BASES = int(os.environ.get("PYPTO_MUTATION_BASES", "") or 30)
MUTANTS_PER_BASE = 100
SEED_SALT = os.environ.get("PYPTO_FUZZ_SEED", "")
KINDS = ("undefined", "unknown-op", "swap")
_SKIPPED_NAMES = {"pl", "self", "pld", "range", "len"}


@dataclass(frozen=True)
class Site:
    line: int          # 1-based
    start: int         # column range of the replaced text on that line
    end: int
    text: str
    function: str


@lru_cache(maxsize=8)  # one base program's sites serve its hundred mutants
def _sites(text: str) -> tuple[tuple[Site, ...], tuple[Site, ...]]:
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
    return tuple(names), tuple(callees)


def _replace(text: str, site: Site, new: str) -> str:
    lines = text.split("\n")
    line = lines[site.line - 1]
    lines[site.line - 1] = line[:site.start] + new + line[site.end:]
    return "\n".join(lines)


def mutate(text: str, rng: random.Random) -> tuple[str, str, Site] | None:
    if SEED_SALT:  # another stream, still a pure function of the one given
        rng.seed(f"{rng.random()}:{SEED_SALT}")
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


def _diagnostic_line_ok(kind: str, text: str, site: Site, err: BaseException) -> str:
    """The rule for where a mutant's diagnostic may be (see the module docstring);
    returns where it was."""
    line = _error_line(err)
    if line == site.line:
        return "at the mutated line"
    detail = f"{kind} at line {site.line} reported at line {line}: {err}\n{text}"
    assert kind == "swap" and line is not None, detail
    assert line in dependent_lines(text, site.line), (
        f"{detail}\n(line {line} reads no name computed from line {site.line})")
    return "at a later use of its value"


def _pipeline_error(program: ir.Program) -> BaseException:
    """The clean error ``compile_outcome`` saw (the pipeline is deterministic)."""
    try:
        ir.PassManager.get_strategy(ir.OptimizationStrategy.Default).run_passes(program)
    except (ValueError, TypeError, pypto.Error) as err:
        return err
    raise AssertionError("the pipeline failed once and then compiled")


def check_mutant(kind: str, text: str, site: Site, scalars: tuple, seed: int) -> str:
    """The mutant's outcome; ``AssertionError`` (FuzzFailure) when it breaks a rule."""
    parsed = parse_or_diagnostic(text)
    if isinstance(parsed, SyntaxError):
        raise AssertionError(f"a mutation broke Python syntax:\n{text}")
    if isinstance(parsed, BaseException):  # a clean diagnostic: where?
        return "parse-error " + _diagnostic_line_ok(kind, text, site, parsed)
    assert kind == "swap", f"{kind} at line {site.line} was accepted:\n{text}"
    program = parsed if isinstance(parsed, ir.Program) else ir.Program([parsed], "P")
    compiled = compile_outcome(program, text)  # FuzzFailure on a bug-typed exception
    if compiled is None:
        return "pass-error " + _diagnostic_line_ok(kind, text, site, _pipeline_error(program))
    return "compiled, " + check_compiled(program, compiled, text, scalars, seed)


def check_compiled(program: ir.Program, compiled: ir.Program, text: str, scalars: tuple,
                   seed: int) -> str:
    """Round trip, op trace and result of a compiled program: how it was compared."""
    printed = ir.python_print(compiled, format=False)
    ir.assert_structural_equal(compiled, pl.parse(printed))
    before, after = _trace(program, scalars), _trace(compiled, scalars)
    if before is not None and after is not None:
        assert after == before, f"the pipeline changed the ops that run:\n{text}"
    if before is None:
        return "not run (no op trace bounds its steps)"  # e.g. a swapped loop counter
    result_before = execute_main(program, scalars, seed)
    result_after = execute_main(compiled, scalars, seed)
    if isinstance(result_before, Refused) or isinstance(result_after, Refused):
        return "refused by the executor"
    assert result_after == result_before, (
        f"the pipeline changed the result:\nbefore: {result_before}\nafter:  {result_after}"
        f"\n{text}")
    return "same result"


def test_semantic_mutations_end_in_a_diagnostic_or_an_equal_compile():
    seen_bases: list[str] = []
    totals: Counter[str] = Counter()

    # No shrinking: a failure keeps its base number (the bases are numbered as drawn),
    # and shrinking a program with 100 mutants each costs minutes.
    @settings(max_examples=BASES, derandomize=True, deadline=None, database=None,
              phases=(Phase.explicit, Phase.generate),
              suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
    @given(programs())
    def one_base(generated):
        base = len(seen_bases)
        seen_bases.append(generated.text)
        rng = random.Random(f"{base}:{generated.text}")
        outcomes: Counter[str] = Counter()
        with passes.PassContext([], verification_level=passes.VerificationLevel.BASIC):
            program = pl.parse(generated.text)
            compiled = compile_outcome(program, generated.text)
            assert compiled is not None, f"base {base} does not compile"
            totals["base compiled, " + check_compiled(
                program, compiled, generated.text, generated.scalar_args, base)] += 1
            for mutant in range(MUTANTS_PER_BASE):
                found = mutate(generated.text, rng)
                if found is None:
                    continue
                kind, text, site = found
                try:
                    result = check_mutant(kind, text, site, generated.scalar_args, base)
                except AssertionError as err:
                    raise AssertionError(f"base {base}, mutant {mutant} ({kind} at line "
                                         f"{site.line}): {err}") from None
                outcomes[result] += 1
        assert sum(outcomes.values()) >= MUTANTS_PER_BASE // 2, outcomes
        totals.update(outcomes)

    one_base()
    print(f"\nsemantic mutations, {len(seen_bases)} bases:")
    for outcome, count in sorted(totals.items()):
        print(f"  {count:5d}  {outcome}")
    compiled = sum(n for o, n in totals.items() if o.startswith("compiled"))
    compared = totals["compiled, same result"]
    # The executor must compare most compiled mutants: only its refusals by name and
    # mutants whose trace does not end go without.
    assert compared >= 0.8 * compiled, totals
    assert totals["base compiled, same result"] >= 0.8 * len(seen_bases), totals


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


def test_a_branch_yield_depends_on_the_other_branch_yield():
    # A swap in the first branch's yield fixes the if's result type there; the parser
    # reports the disagreement at the other branch's yield (as mypy reports the second
    # of two assignments), which counts as a use of the swapped line.
    text = ("def main(self, x, acc, m):\n"
            "    if m == 4:\n"
            "        a4 = pl.load(acc, [0, 0], [16, 16])\n"
            "        acc1 = pl.yield_(a4)\n"
            "    else:\n"
            "        acc1 = pl.yield_(acc)\n"
            "    s = 1 + m\n"
            "    return acc1, s\n")
    assert dependent_lines(text, 4) == {6, 8}
    assert dependent_lines(text, 6) == {4, 8}
    assert dependent_lines(text, 7) == {8}


def test_a_name_passed_to_a_call_depends_on_the_call():
    # `self.k(x, x)`: x given for an InOut parameter is written; reading x later is a use
    text = ("def main(self, x, acc):\n"
            "    acc = self.k(x, x)\n"
            "    y = pl.load(x, [0], [16])\n"
            "    return acc\n")
    assert dependent_lines(text, 2) == {3, 4}

"""Miscompile hunt over a corpus of DSL programs (the conformance programs, the examples).

    python tests/corpus/corpus_check.py [--limit N] [--only ID,ID] [--examples-only]
                                        [--no-examples] [--show N] [--jsonl OUT]

For every program pypto parses:

* **round trip**: the parsed program and the output of every stage -- each outliner
  stage of the conformance runner's chain (``STAGES``, each pass on the previous
  result) and the Default pipeline on the parsed program -- print to text that parses
  back structurally equal, and that reprints to the same text;
* **execution**: every root function (one no other function calls) runs on pypto's CPU
  executor before and after each stage with the same deterministic random inputs of
  its declared shapes and dtypes; results (returned values and every array argument
  afterwards: ``Out``/``InOut`` are written in place) must be bitwise equal.  No pass
  reorders or re-associates floating-point work, so equal means the same bits.
  Arguments come from ``VARIANTS`` (a dynamic dim's extent, the integer, bool and
  float scalar values, the seed of the arrays): the comparison runs on up to
  ``CLEAN_RUNS`` variants with which the parsed program runs without an
  ``ExecutionError`` (so both arms of a branch on a scalar are seen), else on the
  first variant (both runs must then stop at an ``ExecutionError``);
* **diagnostics**: any error anywhere is a pypto diagnostic with a span (a
  ``ParserError``, a ``PassError``, an ``ExecutionError``) or a ``pypto.Error``;
  anything else raised from inside pypto (``InternalError``, ``KeyError`` ...) is a
  crash.

The programs come from ``corpus_sources`` (the conformance programs, the examples, the
conformance jit cases; ``--mutants``/``--damage`` derive variants of them), the
arguments from ``corpus_args``.

A program is skipped with a recorded reason only when there is nothing to compare (no
root function left, a parameter kind the executor cannot be given, a device op the
executor refuses).  The summary prints counts: parsed, compiled, executed-equal,
differing, skipped by reason, crashes, round-trip failures.
"""

from __future__ import annotations

import argparse
import collections
import json
import os
import signal
import sys
import traceback
import warnings
from dataclasses import dataclass, field
from typing import Any, Callable, Iterator

import numpy as np

import pypto
import pypto.language as pl
import pypto.runtime as runtime
from pypto import ir, passes
from pypto.errors import InternalError
from pypto.ir.walk import iter_calls
from pypto.language.parser.diagnostics import ParserError

from corpus_args import CLEAN_RUNS, VARIANTS, Unsupported, frozen, make_args, show
from corpus_sources import (AUTO_SCOPE_RULE, conformance_programs, damaged, example_programs,
                            jit_cases, mutants, without_auto_scope)

PYPTO_DIR = os.path.dirname(pypto.__file__)

STAGES = ("inline_functions", "convert_to_ssa", "normalize_stmt_structure", "flatten_call_expr",
          "outline_hierarchy_scopes", "outline_incore_scopes", "outline_cluster_scopes")


TIMEOUT_S = 30

# Executor refusals by name: there is nothing to compare (pypto/runtime's documented ones).
REFUSALS = {"is a device-only op: the CPU executor refuses it": "device-only op",
            "cannot run on the reference executor": "not runnable on the reference executor"}


class Timeout(BaseException):  # not an Exception: no handler of pypto errors catches it
    pass


@dataclass
class Outcome:
    pid: str
    status: str = "parse-rejected"  # final class, see summary()
    reason: str = ""
    parsed: bool = False
    compiled: bool = False
    executed: int = 0  # (stage, entry) comparisons made
    errored: int = 0  # of those, where both runs stopped at the same ExecutionError
    observable: bool = False  # some entry returns a value or writes an Out/InOut argument
    notes: list[str] = field(default_factory=list)


# -- errors ---------------------------------------------------------------------------------

def _raised_in(exc: BaseException, package: str = "") -> bool:
    frames = traceback.extract_tb(exc.__traceback__)
    return bool(frames) and frames[-1].filename.startswith(os.path.join(PYPTO_DIR, package))


def _raised_inside_pypto(exc: BaseException) -> bool:
    return _raised_in(exc)


def _first_line(exc: BaseException) -> str:
    lines = str(exc).strip().splitlines()
    return f"{type(exc).__name__}: {lines[0] if lines else ''}"[:300]


def crash_text(exc: BaseException) -> str | None:
    """Why ``exc`` is not a clean pypto diagnostic, or None when it is one."""
    if isinstance(exc, InternalError):
        return "InternalError"
    if isinstance(exc, ParserError):
        span = getattr(exc, "span", None)
        return None if span and span.get("line", 0) >= 1 else "ParserError without a span"
    if isinstance(exc, passes.PassError):
        return None  # a span where the pass has one; the CLI renders it either way
    if isinstance(exc, pypto.Error):
        return None
    if isinstance(exc, SyntaxError) and not _raised_inside_pypto(exc):
        return None
    if isinstance(exc, (ValueError, TypeError)) and (
            not _raised_inside_pypto(exc) or _raised_in(exc, "jit")):
        return None  # a call pypto.jit's signature refuses, as Python refuses a bad call
    return f"raw {type(exc).__name__}"


def _describe_crash(stage: str, exc: BaseException) -> str:
    tail = "".join(traceback.format_exception(type(exc), exc, exc.__traceback__)[-4:])
    return f"{stage}: {_first_line(exc)}\n{tail}"


# -- round trip -----------------------------------------------------------------------------

def round_trip_problem(program: ir.Program) -> str | None:
    text = ir.python_print(program)
    try:
        again = pl.parse(text)
    except Exception as exc:  # noqa: BLE001 - the reason is the report
        return f"reparse fails: {_first_line(exc)}"
    try:
        ir.assert_structural_equal(program, again)
    except Exception as exc:  # noqa: BLE001
        return f"reparse differs: {_first_line(exc)}"
    if ir.python_print(again) != text:
        return "reprint differs"
    try:
        ir.assert_structural_equal(program, ir.deserialize(ir.serialize(program)))
    except Exception as exc:  # noqa: BLE001
        return f"serialize round trip differs: {_first_line(exc)}"
    return None


# -- arguments ------------------------------------------------------------------------------

@dataclass(frozen=True)
class Run:
    """One execution: the frozen results, or the op and detail of an ExecutionError."""
    values: Any = None
    error: tuple[str, str] | None = None
    refused: str | None = None


def execute(program: ir.Program, entry: str, args: tuple) -> Run:
    """Run ``entry`` on copies of ``args`` (raises anything but an ExecutionError)."""
    fresh = tuple(_copy(a) for a in args)
    try:
        with np.errstate(all="ignore"), warnings.catch_warnings():
            warnings.simplefilter("ignore")
            returned = runtime.execute(program, *fresh, entry=entry)
    except runtime.ExecutionError as err:
        if err.span is None:
            raise
        for text, reason in REFUSALS.items():
            if text in err.detail:
                return Run(refused=reason)
        return Run(error=(str(err.what), err.detail))
    return Run(values=(frozen(returned), frozen(fresh)))


def _copy(value: Any) -> Any:
    if isinstance(value, np.ndarray):
        return value.copy()
    if isinstance(value, tuple):
        return tuple(_copy(v) for v in value)
    return value


def roots(program: ir.Program) -> list[str]:
    called: set[str] = set()
    for name, func in program._functions.items():
        for call, _ in iter_calls(func.body):
            op = call.op
            if isinstance(op, ir.GlobalVar) and op.name != name:
                called.add(op.name)
    return [name for name in program._functions if name not in called]


# -- one program ----------------------------------------------------------------------------

Stages = Callable[[ir.Program, "Outcome"], Iterator[tuple[str, ir.Program]]]


def pipeline_stages(parsed: ir.Program, outcome: Outcome) -> Iterator[tuple[str, ir.Program]]:
    """(stage name, output) of each stage of the chain, then of the Default pipeline."""
    prog = parsed
    for stage in STAGES:
        try:
            prog = getattr(passes, stage)()(prog)
        except Exception as exc:  # noqa: BLE001 - classified below
            crash = crash_text(exc)
            if crash:
                raise _Crash(_describe_crash(stage, exc)) from exc
            outcome.notes.append(f"{stage} refuses: {_first_line(exc)}")
            break
        yield stage, prog
    pipeline = ir.PassManager.get_strategy(ir.OptimizationStrategy.Default)
    try:
        compiled = pipeline.run_passes(parsed)
    except Exception as exc:  # noqa: BLE001
        crash = crash_text(exc)
        if crash:
            raise _Crash(_describe_crash("Default pipeline", exc)) from exc
        outcome.notes.append(f"Default refuses: {_first_line(exc)}")
        return
    outcome.compiled = True
    yield "Default", compiled
    try:  # compiling a compiled program again keeps its meaning
        yield "Default twice", pipeline.run_passes(compiled)
    except Exception as exc:  # noqa: BLE001
        crash = crash_text(exc)
        if crash:
            raise _Crash(_describe_crash("Default twice", exc)) from exc
        outcome.notes.append(f"Default twice refuses: {_first_line(exc)}")


class _Crash(Exception):
    pass


class _Differs(Exception):
    pass


def _baselines(parsed: ir.Program, entry: str, function: ir.Function
               ) -> list[tuple[tuple, Run]] | str:
    """(arguments, the parsed program's run) per variant compared, or the skip reason."""
    clean: list[tuple[tuple, Run]] = []
    first: tuple[tuple, Run] | None = None
    refused = ""
    for variant in VARIANTS:
        try:
            args = make_args(function, variant)
        except Unsupported as why:
            return str(why)
        base = _guarded_execute("execute parsed", parsed, entry, args)
        if base.refused:
            refused = base.refused  # this variant's path reaches a device op
            continue
        first = first or (args, base)
        if base.error is None:
            clean.append((args, base))
            if len(clean) == CLEAN_RUNS:
                break
    if first is None:
        return refused
    return clean or [first]


def _guarded_execute(stage: str, program: ir.Program, entry: str, args: tuple) -> Run:
    try:
        return execute(program, entry, args)
    except Timeout:
        raise
    except Exception as exc:  # noqa: BLE001
        raise _Crash(_describe_crash(stage, exc)) from exc


def check_program(pid: str, text: str | None, program: ir.Program | None = None,
                  stages: Stages = pipeline_stages) -> Outcome:
    """Check one program (DSL ``text``, or an ``ir.Program``); ``stages`` yields the
    outputs to compare with the parsed program (the tests give a broken one)."""
    outcome = Outcome(pid)
    try:
        _check(text, program, outcome, stages)
    except _Crash as crash:
        outcome.status, outcome.reason = "crash", str(crash)
    except _Differs as why:
        outcome.status, outcome.reason = "differing", str(why)
    except Timeout:
        outcome.status, outcome.reason = "skipped", "timeout"
    except Exception as exc:  # noqa: BLE001 - a stage that escaped classification
        outcome.status, outcome.reason = "crash", _describe_crash("stages", exc)
    return outcome


def _parse(text: str, outcome: Outcome) -> ir.Program | ir.Function | None:
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", SyntaxWarning)
            return pl.parse(text)
    except Exception as exc:  # noqa: BLE001
        crash = crash_text(exc)
        if crash:
            raise _Crash(_describe_crash("parse", exc)) from exc
        outcome.status, outcome.reason = "parse-rejected", _first_line(exc)
        return None


def _check(text: str | None, program: ir.Program | None, outcome: Outcome,
           stages: Stages) -> None:
    if program is None:
        assert text is not None
        parsed = _parse(text, outcome)
        if parsed is None and AUTO_SCOPE_RULE in outcome.reason:
            parsed = _parse(without_auto_scope(text), outcome)
            outcome.notes.append("normalised: auto_scope=False")
        if parsed is None:
            return
        program = parsed if isinstance(parsed, ir.Program) else ir.Program([parsed], "P")
    outcome.parsed = True
    problem = round_trip_problem(program)
    if problem:
        outcome.notes.append(f"parse: {problem}")
    outputs = []
    for stage, result in stages(program, outcome):
        problem = round_trip_problem(result)
        if problem:
            outcome.notes.append(f"{stage}: {problem}")
        outputs.append((stage, result))
    round_trip = [n for n in outcome.notes if "round trip" in n or "reparse" in n
                  or "reprint" in n]
    skip_reasons = []
    for entry in roots(program):
        function = program._functions[entry]
        baselines = _baselines(program, entry, function)
        if isinstance(baselines, str):
            skip_reasons.append(baselines)
            continue
        for args, base in baselines:
            _compare(entry, function, args, base, outputs, outcome)
    if round_trip:
        outcome.status, outcome.reason = "roundtrip", round_trip[0]
    elif outcome.executed:
        outcome.status = "executed-equal"
    else:
        outcome.status = "skipped"
        outcome.reason = skip_reasons[0] if skip_reasons else (
            "no root function" if not roots(program) else
            "no stage output to compare" if not outputs else "entry gone after every stage")


def _compare(entry: str, function: ir.Function, args: tuple, base: Run,
             outputs: list[tuple[str, ir.Program]], outcome: Outcome) -> None:
    if base.error is None and _observable(function, base):
        outcome.observable = True
    for stage, result in outputs:
        if entry not in result._functions:
            outcome.notes.append(f"{stage}: entry {entry} is gone")
            continue
        after = _guarded_execute(f"execute after {stage}", result, entry, args)
        if after.refused:
            continue  # outlining may expose a device op the parsed form hid: nothing to compare
        outcome.executed += 1
        if (after.error is None) != (base.error is None) or after.values != base.values:
            raise _Differs(f"{stage}, entry {entry}: before {_run_text(base)}; "
                           f"after {_run_text(after)}")
        if base.error is not None:
            outcome.errored += 1
            if after.error != base.error:
                outcome.notes.append(f"{stage}: error text changed: {after.error}")


def _observable(function: ir.Function, run: Run) -> bool:
    returned = run.values[0]
    writes = any(d in (ir.ParamDirection.Out, ir.ParamDirection.InOut)
                 for d in function.param_directions)
    return writes or returned not in (None, ())


def _run_text(run: Run) -> str:
    if run.error is not None:
        return f"ExecutionError in {run.error[0]}: {run.error[1]}"
    return show(run.values)


# -- the corpus -----------------------------------------------------------------------------

def _with_timeout(fn: Callable[[], Outcome], pid: str, timeout: int) -> Outcome:
    def alarm(signum: int, frame: Any) -> None:
        raise Timeout()
    old = signal.signal(signal.SIGALRM, alarm)
    signal.alarm(timeout)
    try:
        return fn()
    except Timeout:
        return Outcome(pid, status="skipped", reason="timeout")
    finally:
        signal.alarm(0)
        signal.signal(signal.SIGALRM, old)


def run_corpus(items: list[tuple[str, Any]], timeout: int = TIMEOUT_S) -> list[Outcome]:
    outcomes = []
    with passes.PassContext([], verification_level=passes.VerificationLevel.BASIC):
        for pid, item in items:
            if isinstance(item, Outcome):
                outcome = item
            elif isinstance(item, Unsupported):
                outcome = Outcome(pid, status="skipped", reason=str(item))
            elif isinstance(item, BaseException):
                outcome = Outcome(pid)
                crash = crash_text(item)
                outcome.status = "crash" if crash else "parse-rejected"
                outcome.reason = _first_line(item)
            elif isinstance(item, ir.Program):
                outcome = _with_timeout(lambda: check_program(pid, None, item), pid, timeout)
            else:
                outcome = _with_timeout(lambda: check_program(pid, item), pid, timeout)
            outcomes.append(outcome)
    return outcomes


def summary(outcomes: list[Outcome], show: int = 3) -> str:
    by = collections.Counter(o.status for o in outcomes)
    lines = [f"programs            {len(outcomes)}",
             f"parsed              {sum(o.parsed for o in outcomes)}",
             f"compiled (Default)  {sum(o.compiled for o in outcomes)}",
             f"executed-equal      {by['executed-equal']}",
             f"  of which every run stopped at an ExecutionError "
             f"{sum(o.status == 'executed-equal' and o.errored == o.executed for o in outcomes)}",
             f"  of which nothing observable (no result, no Out/InOut) "
             f"{sum(o.status == 'executed-equal' and not o.observable for o in outcomes)}",
             f"differing           {by['differing']}",
             f"round-trip failures {by['roundtrip']}",
             f"crashes             {by['crash']}",
             f"parse-rejected      {by['parse-rejected']}",
             f"skipped             {by['skipped']}"]
    reasons = collections.Counter(o.reason for o in outcomes if o.status == "skipped")
    for reason, count in reasons.most_common():
        lines.append(f"  {count:5d}  {reason}")
    for status in ("differing", "crash", "roundtrip"):
        bad = [o for o in outcomes if o.status == status]
        for o in bad[:show]:
            lines.append(f"--- {status} {o.pid}: {o.reason}")
        if len(bad) > show:
            lines.append(f"--- ... and {len(bad) - show} more {status}: "
                         + " ".join(o.pid for o in bad[show:]))
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--limit", type=int)
    ap.add_argument("--only", help="comma-separated ids")
    ap.add_argument("--no-examples", action="store_true")
    ap.add_argument("--examples-only", action="store_true")
    ap.add_argument("--show", type=int, default=3)
    ap.add_argument("--jsonl")
    ap.add_argument("--mutants", type=int, default=0,
                    help="check N semantic mutants of each program instead of the programs")
    ap.add_argument("--damage", type=int, default=0,
                    help="check N damaged copies of each program instead of the programs")
    ap.add_argument("--timeout", type=int, default=TIMEOUT_S, help="seconds per program")
    opts = ap.parse_args(argv)
    items: list[tuple[str, Any]] = []
    if not opts.examples_only:
        items += list(conformance_programs())
    if not opts.no_examples:
        items += list(example_programs()) + list(jit_cases())
    if opts.only:
        wanted = set(opts.only.split(","))
        items = [(pid, item) for pid, item in items if pid in wanted]
    if opts.limit:
        items = items[:opts.limit]
    if opts.mutants or opts.damage:
        items = mutants(items, opts.mutants) + damaged(items, opts.damage)
    outcomes = run_corpus(items, opts.timeout)
    print(summary(outcomes, opts.show))
    if opts.jsonl:
        with open(opts.jsonl, "w") as f:
            for o in outcomes:
                f.write(json.dumps(o.__dict__) + "\n")
    return 1 if any(o.status in ("differing", "crash", "roundtrip") for o in outcomes) else 0


if __name__ == "__main__":
    sys.exit(main())

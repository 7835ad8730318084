"""What "ends cleanly" means for damaged input, and the mutations that damage it.

``outcome(text)`` feeds ``text`` to ``pl.parse`` and, when that gives a program, to
the default pipeline.  Acceptable endings:

* ``pl.parse``: an ``ir.Program``/``ir.Function``; a ``ParserError`` carrying a span
  (and no pypto bug hidden in its ``__cause__`` chain); a ``SyntaxError`` for text
  that is not Python; the ``ValueError`` of ``pl.parse`` step 7 (no / several
  results).
* the pipeline: a compiled program; a ``ValueError``/``TypeError`` (user errors in
  passes); a ``pypto.Error`` (a verification failure).

Anything else -- ``KeyError``, ``AttributeError``, ``IndexError``, ``RecursionError``,
``InternalError``, an ``AssertionError``, a ``TypeError`` leaking out of the parser,
a ``RuntimeError`` -- is a pypto bug, and ``outcome`` raises ``FuzzFailure`` naming it.
"""

from __future__ import annotations

import os
import random
import re
import traceback
import warnings

import pypto
import pypto.language as pl
from pypto import ir, passes
from pypto.errors import InternalError
from pypto.language.parser.diagnostics import ParserError

PYPTO_DIR = os.path.dirname(pypto.__file__)
_BUG_TYPES = (KeyError, AttributeError, IndexError, RecursionError, AssertionError,
              InternalError, UnboundLocalError, NameError, ZeroDivisionError)
_STEP7 = re.compile(r"(No @pl.function or @pl.program found|Multiple functions/programs found)")


class FuzzFailure(AssertionError):
    pass


def _raised_inside_pypto(exc: BaseException) -> bool:
    frames = traceback.extract_tb(exc.__traceback__)
    return bool(frames) and frames[-1].filename.startswith(PYPTO_DIR)


def _hidden_bug(err: BaseException) -> BaseException | None:
    """A bug-typed exception raised inside pypto somewhere in ``err``'s cause chain."""
    cause = err.__cause__
    while cause is not None:
        if _raised_inside_pypto(cause) and (
                isinstance(cause, _BUG_TYPES)
                or (isinstance(cause, TypeError) and not str(cause).startswith("pl."))):
            return cause
        cause = cause.__cause__
    return None


def _fail(stage: str, err: BaseException, text: str) -> FuzzFailure:
    where = "".join(traceback.format_exception(type(err), err, err.__traceback__)[-6:])
    return FuzzFailure(f"{stage}: {type(err).__name__}: {err}\n{where}\n--- input ---\n{text}")


def parse_outcome(text: str, filename: str = "<fuzz>") -> ir.Program | ir.Function | None:
    """The parsed program, or None after a clean diagnostic; FuzzFailure otherwise."""
    parsed = parse_or_diagnostic(text, filename)
    return None if isinstance(parsed, BaseException) else parsed


def parse_or_diagnostic(text: str, filename: str = "<fuzz>"
                        ) -> ir.Program | ir.Function | BaseException:
    """The parsed program, or the clean diagnostic (returned, not raised); FuzzFailure
    otherwise."""
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", SyntaxWarning)  # damaged literals: noise only
            return pl.parse(text, filename=filename)
    except ParserError as err:
        hidden = _hidden_bug(err)
        if hidden is not None:
            raise _fail("parse (wrapped)", hidden, text) from err
        if err.span is None or not err.span.get("line", 0) >= 1:
            raise _fail("parse (diagnostic without a span)", err, text) from err
        return err
    except SyntaxError as err:
        return err
    except ValueError as err:
        if _STEP7.match(str(err)):
            return err
        raise _fail("parse", err, text) from err
    except BaseException as err:  # noqa: BLE001 - everything else is a bug
        raise _fail("parse", err, text) from err


def compile_outcome(program: ir.Program, text: str) -> ir.Program | None:
    """The compiled program, or None after a clean pass error; FuzzFailure otherwise."""
    pipeline = ir.PassManager.get_strategy(ir.OptimizationStrategy.Default)
    try:
        return pipeline.run_passes(program)
    except InternalError as err:
        raise _fail("pipeline", err, text) from err
    except (ValueError, TypeError, pypto.Error) as err:
        if isinstance(err, TypeError) and _raised_inside_pypto(err) \
                and not str(err).startswith("pl."):
            raise _fail("pipeline (TypeError)", err, text) from err
        return None
    except BaseException as err:  # noqa: BLE001
        raise _fail("pipeline", err, text) from err


def outcome(text: str, filename: str = "<fuzz>", compile_: bool = True) -> str:
    """``"parse-error"``, ``"pass-error"`` or ``"compiled"``; raises FuzzFailure on a bug."""
    parsed = parse_outcome(text, filename)
    if parsed is None:
        return "parse-error"
    if not compile_:
        return "parsed"
    program = parsed if isinstance(parsed, ir.Program) else ir.Program([parsed], "P")
    return "compiled" if compile_outcome(program, text) is not None else "pass-error"


# -- mutations --------------------------------------------------------------------------------

_IDENT = re.compile(r"[A-Za-z_][A-Za-z_0-9]*")
_NUMBER = re.compile(r"\b\d+(\.\d+)?\b")
TOKENS = ["(", ")", "[", "]", ":", ",", "=", ".", "pl.", "self.", "None", "0", "-1", "1.5",
          "'s'", "lambda", "yield", "return", "pass", "with", "for", "if", "else:", "*", "**",
          "pl.range(", "pl.yield_(", "pl.at(", "pl.graph(", "pl.Level.HOST", "pl.FP32",
          "pl.INDEX", "pl.Tensor[", "pl.Scalar[", "pl.InOut[", "acc", "x", "tid", "\\", "#",
          "pl.spmd(", "pl.cluster()", "init_values=", "level=", "as t", "not", "and", "@"]
NAMES = ["x", "acc", "out", "i", "n", "self", "pl", "kern", "main", "main_incore_0", "tile",
         "tensor", "range", "load", "store", "yield_", "Level", "FP32", "INDEX", "None",
         "True", "qq", "_tuple_tmp", "__class__", "print", "dynamic"]


def mutate(text: str, rng: random.Random) -> str:
    """``text`` with 1-3 random damages: deleted, duplicated or swapped lines, wrong
    indentation, random tokens inserted or deleted, renamed identifiers, other numbers."""
    lines = text.split("\n")
    for _ in range(rng.randint(1, 3)):
        if not lines:
            break
        i = rng.randrange(len(lines))
        kind = rng.randrange(9)
        if kind == 0:
            del lines[i]
        elif kind == 1:
            lines.insert(i, lines[i])
        elif kind == 2:
            j = rng.randrange(len(lines))
            lines[i], lines[j] = lines[j], lines[i]
        elif kind == 3:
            shift = rng.choice((-4, -2, -1, 1, 2, 4, 8))
            lines[i] = " " * max(0, len(lines[i]) - len(lines[i].lstrip()) + shift) \
                + lines[i].lstrip()
        elif kind == 4:
            pos = rng.randint(0, len(lines[i]))
            lines[i] = lines[i][:pos] + rng.choice(TOKENS) + lines[i][pos:]
        elif kind == 5:
            matches = list(_IDENT.finditer(lines[i]))
            if matches:
                m = rng.choice(matches)
                lines[i] = lines[i][:m.start()] + rng.choice(NAMES) + lines[i][m.end():]
        elif kind == 6:
            matches = list(_NUMBER.finditer(lines[i]))
            if matches:
                m = rng.choice(matches)
                value = rng.choice(("0", "-1", "1", "3", "17", "1024", "2.5", "100000"))
                lines[i] = lines[i][:m.start()] + value + lines[i][m.end():]
        elif kind == 7:
            matches = list(_IDENT.finditer(lines[i]))
            if matches:
                m = rng.choice(matches)
                lines[i] = lines[i][:m.start()] + lines[i][m.end():]
        else:
            # a random identifier of the file in place of another: names that exist
            words = _IDENT.findall(text)
            matches = list(_IDENT.finditer(lines[i]))
            if matches and words:
                m = rng.choice(matches)
                lines[i] = lines[i][:m.start()] + rng.choice(words) + lines[i][m.end():]
    return "\n".join(lines)


def run_with_pipeline_context(fn, *args):
    """Run ``fn`` with production pass settings (no per-test instruments): the fuzz loop
    compiles thousands of programs, and verification at BASIC still checks the input."""
    with passes.PassContext([], verification_level=passes.VerificationLevel.BASIC):
        return fn(*args)

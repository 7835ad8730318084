"""Every error raised after parsing -- by a pass, a verifier, the jit's binding of call
arguments, the executor -- points at the user's own line: one row per entry of the
inventory in docs/guide/diagnostics.md ("After parsing").

Each case is a user's module, written to a file and run as a script would run it; the
error must keep its class and message beginning (users' tests catch them), name the
user's file, line and column, and render as the parser's errors do: the line, a caret
under the column, the hint or note where there is one.
"""

from __future__ import annotations

import re
import runpy
from dataclasses import dataclass
from typing import Optional

import pytest

from pypto.language.parser.diagnostics import (InvalidOperationError, ParserSyntaxError,
                                               UndefinedVariableError)
from pypto.language.parser.display import rendered_lines
from pypto.language.parser.findings import findings_of
from pypto.passes import PassError, VerificationError

from _user_programs import OFFSETS, RUN_OFFSETS

HEADER = """\
import pypto
import pypto.language as pl
from pypto import ir, passes

T = pl.Tensor[[64], pl.FP32]
IDX = pl.Scalar[pl.INDEX]


def default_pipeline(program):
    return ir.PassManager.get_strategy().run_passes(program)


def pipeline(text, program):
    with passes.PassContext([]):
        return passes.build_pipeline(text).run(program)

"""


@dataclass(frozen=True)
class Case:
    source: str          # the module after HEADER; its last statement raises
    error: type          # the class users catch (PyPTO's where the reference names it)
    message: str         # how str(err) begins
    line: str            # the text of the line the snippet points at
    caret: str           # where on that line the caret starts (its first occurrence)
    code: str            # the stable code of the finding
    hint: Optional[str] = None  # how the hint begins, when there is one
    note: Optional[str] = None  # how the note begins, when there is one


def _error_class(name: str) -> type:
    """Classes of layers these tests import lazily (the executor needs NumPy)."""
    if name == "ExecutionError":
        from pypto.runtime import ExecutionError
        return ExecutionError
    from pypto.jit import arg_errors, signature
    return {"OptionTypeError": arg_errors.OptionTypeError,
            "ArgumentTypeError": arg_errors.ArgumentTypeError,
            "ArgumentValueError": arg_errors.ArgumentValueError,
            "MissingArgumentError": signature.MissingArgumentError}[name]



TYPED_SCALE = """\
@pl.jit
def scale(x: pl.Tensor[[64], pl.FP32], out: pl.Out[pl.Tensor]):
    out = pl.mul(x, 2.0)
    return out


"""
BARE_SCALE = TYPED_SCALE.replace("pl.Tensor[[64], pl.FP32]", "pl.Tensor")

CASES: dict[str, Case] = {
    # -- pass refusals (PassError) ---------------------------------------------------
    "P000 a ValueError of a function pass": Case("""\
@pl.program
class P:
    @pl.function
    def main(self, x: T) -> T:
        y = pl.add(x, x)
        return y


def refuse(func):
    raise ValueError("my pass refuses it")


passes.create_function_pass(refuse, "MyPass")(P)
""", PassError, "MyPass: in function 'main': my pass refuses it", "    def main(self, x: T) -> T:",
        "def main", "P000"),
    "P100 an Inline cycle": Case("""\
@pl.program
class P:
    @pl.function(type=pl.FunctionType.Inline)
    def a(self, x: T) -> T:
        y: T = self.a(x)
        return y

    @pl.function
    def main(self, x: T) -> T:
        return x


default_pipeline(P)
""", PassError, "InlineFunctions: Cycle detected in FunctionType::Inline call graph: a -> a",
        "    def a(self, x: T) -> T:", "def a", "P100", hint="An Inline function is spliced"),
    "P102 a hand-placed scope spliced into an auto-scoped body": Case("""\
@pl.program
class P:
    @pl.function(type=pl.FunctionType.Inline, auto_scope=False)
    def helper(self, x: T) -> T:
        with pl.scope():
            y = pl.add(x, x)
        return y

    @pl.function
    def main(self, x: T) -> T:
        z = self.helper(x)
        return z


default_pipeline(P)
""", PassError, "InlineFunctions: in function 'main': the Inline function 'helper' places an "
        "AUTO 'with pl.scope()' by hand", "        z = self.helper(x)", "self.helper",
        "P102", hint="Add auto_scope=False to 'main' too"),
    "P200 a pl.unroll loop carrying a value": Case("""\
@pl.program
class P:
    @pl.function
    def main(self, x: T) -> T:
        acc = x
        for i in pl.unroll(4):
            acc = pl.add(acc, x)
        return acc


default_pipeline(P)
""", PassError, "ConvertToSSA: in function 'main': the pl.unroll loop carries 'acc'",
        "        for i in pl.unroll(4):", "for", "P200"),
    "P200 a loop value with no initial value": Case("""\
@pl.program
class P:
    @pl.function
    def main(self, x: T) -> pl.Tensor[[32], pl.FP32]:
        for i in pl.range(4):
            t = pl.create_tensor([32], pl.FP32)
        return t


default_pipeline(P)
""", PassError, "ConvertToSSA: in function 'main': 't' may be unbound after the loop",
        "        return t", "return", "P200"),  # at the read, as Python's unbound name
    "P200 a break dropping an update": Case("""\
@pl.program
class P:
    @pl.function
    def main(self, n: IDX) -> IDX:
        acc = 0
        for i in pl.range(n):
            acc = acc + 1
            if i > 2:
                break
            acc = acc + 100
        return acc


default_pipeline(P)
""", PassError, "ConvertToSSA: in function 'main': the 'break' would drop the update of 'acc'",
        "                break", "break", "P200"),
    "P300 a while condition reading a carried value": Case("""\
@pl.program
class P:
    @pl.function
    def main(self, x: T) -> T:
        k = 0
        while pl.tensor.read(x, [k]) > 0.0:
            k = k + 1
        y = pl.tensor.adds(x, k)
        return y


default_pipeline(P)
""", PassError, "FlattenCallExpr: in function 'main': the while condition calls 'tensor.read'",
        "        while pl.tensor.read(x, [k]) > 0.0:", "while", "P300"),
    "P400 outlining before SSA": Case("""\
@pl.program
class P:
    @pl.function
    def main(self, x: T) -> T:
        with pl.at(level=pl.Level.HOST):
            y = pl.add(x, x)
            y = pl.add(y, x)
        return y


pipeline("outline-hierarchy-scopes", P)
""", PassError, "OutlineHierarchyScopes requires SSA form, but function 'main'",
        "            y = pl.add(y, x)", "y = pl.add(y", "P400"),
    "P402 a graph region left in an Inline function": Case("""\
@pl.program
class P:
    @pl.function(type=pl.FunctionType.Inline)
    def helper(self, x: T) -> T:
        with pl.graph("g"):
            y = pl.add(x, x)
        return y

    @pl.function(type=pl.FunctionType.Orchestration)
    def main(self, x: T) -> T:
        y = self.helper(x)
        return y


pipeline("convert-to-ssa,outline-graph-scopes", P)
""", PassError, "OutlineGraphScopes: pl.graph(...) survives in function 'helper'",
        '        with pl.graph("g"):', "with", "P402"),
    "P404 no_dep_args naming an unused tensor": Case("""\
@pl.program
class P:
    @pl.function
    def main(self, x: T, y: T, out: pl.Out[T]) -> T:
        with pl.at(level=pl.Level.CORE_GROUP, no_dep_args=[y]):
            t = pl.load(x, [0], [64])
            out = pl.store(t, [0], out)
        return out


default_pipeline(P)
""", PassError, "OutlineIncoreScopes: no_dep_args names 'y', which the scope outlined as",
        "        with pl.at(level=pl.Level.CORE_GROUP, no_dep_args=[y]):", "with", "P404",
        hint="Remove 'y' from no_dep_args"),
    "P405 a block count computed inside the cluster": Case("""\
@pl.program
class P:
    @pl.function(type=pl.FunctionType.InCore)
    def k1(x: T, o: pl.Out[T]) -> T:
        t = pl.load(x, [0], [64])
        r = pl.store(t, [0], o)
        return r

    @pl.function(type=pl.FunctionType.Orchestration)
    def run(self, x: T, o: pl.Out[T], n: IDX) -> T:
        with pl.cluster():
            inner = n * 2
            with pl.spmd(inner):
                r = self.k1(x, o)
        return r


pipeline("convert-to-ssa,outline-cluster-scopes", P)
""", PassError, "OutlineClusterScopes: pl.spmd() block count references 'inner'",
        "            with pl.spmd(inner):", "with", "P405"),
    "P500 a value escaping a graph region": Case("""\
@pl.program
class P:
    @pl.function(type=pl.FunctionType.Orchestration)
    def main(self, x: pl.Tensor[[16, 16], pl.FP32],
             acc: pl.InOut[pl.Tensor[[16, 16], pl.FP32]]) -> pl.Tensor[[16, 16], pl.FP32]:
        with pl.graph("g1"):
            with pl.at(level=pl.Level.CORE_GROUP):
                t = pl.load(x, [0, 0], [16, 16])
                a = pl.load(acc, [0, 0], [16, 16])
                acc = pl.store(pl.add(t, a), [0, 0], acc)
        with pl.at(level=pl.Level.CORE_GROUP):
            a2 = pl.load(acc, [0, 0], [16, 16])
            acc = pl.store(pl.mul(t, a2), [0, 0], acc)
        return acc


default_pipeline(P)
""", PassError, "LegalizeGraphBoundary: 't' is defined inside pl.graph region 'g1' and read "
        "after it", "            acc = pl.store(pl.mul(t, a2), [0, 0], acc)", "pl.mul", "P500"),
    "P601 a recorded direction contradicting the parameter": Case("""\
@pl.program
class P:
    @pl.function(type=pl.FunctionType.InCore)
    def kernel(self, a: pl.Tensor[[16], pl.FP32],
               c: pl.Out[pl.Tensor[[16], pl.FP32]]) -> pl.Tensor[[16], pl.FP32]:
        return c

    @pl.function(type=pl.FunctionType.Orchestration)
    def main(self, x: pl.Tensor[[16], pl.FP32],
             y: pl.Out[pl.Tensor[[16], pl.FP32]]) -> pl.Tensor[[16], pl.FP32]:
        r: pl.Tensor[[16], pl.FP32] = self.kernel(x, y, attrs={"arg_directions": [
            pl.adir.input, pl.adir.input]})
        return r


passes.derive_call_directions()(P)
""", PassError, "DeriveCallDirections: the call of 'kernel' records argument 1 ('c') as Input",
        "        r: pl.Tensor[[16], pl.FP32] = self.kernel(x, y, attrs={\"arg_directions\": [",
        "self.kernel", "P601"),
    # -- refused by the parser before any pass (the pass's check stays for built IR) ----
    "P101 is the parser's: an Inline call inside an expression": Case("""\
@pl.program
class P:
    @pl.function(type=pl.FunctionType.Inline)
    def helper(self, x: T) -> T:
        y = pl.add(x, x)
        return y

    @pl.function
    def main(self, x: T) -> T:
        z = pl.add(self.helper(x), x)
        return z
""", ParserSyntaxError, "A call of the Inline function 'helper' must be a statement of its own",
        "        z = pl.add(self.helper(x), x)", "self.helper", "E001", hint="Bind it first"),
    "P401 is the parser's: a graph in a graph": Case("""\
@pl.program
class P:
    @pl.function(type=pl.FunctionType.Orchestration)
    def main(self, x: T) -> T:
        with pl.graph("outer"):
            with pl.graph("inner"):
                y = pl.add(x, x)
        return y
""", ParserSyntaxError, 'pl.graph("inner") cannot be nested inside another pl.graph',
        '            with pl.graph("inner"):', "with", "E001", hint="Keep graph regions disjoint"),
    "P408 is the parser's: a break leaving a region": Case("""\
@pl.program
class P:
    @pl.function
    def main(self, x: T, out: pl.Out[T]) -> T:
        for i in pl.range(4):
            with pl.at(level=pl.Level.CORE_GROUP):
                t = pl.load(x, [0], [64])
                out = pl.store(t, [0], out)
                if i > 2:
                    break
        return out
""", InvalidOperationError, "'break' inside pl.at(level=pl.Level.CORE_GROUP) cannot leave the "
        "region", "                    break", "break", "E302", hint="Test the condition"),
    "P409 is the parser's: a kernel in a kernel": Case("""\
@pl.program
class P:
    @pl.function
    def main(self, x: T, out: pl.Out[T]) -> T:
        with pl.at(level=pl.Level.CORE_GROUP):
            with pl.at(level=pl.Level.CORE_GROUP):
                t = pl.load(x, [0], [64])
                out = pl.store(t, [0], out)
        return out
""", ParserSyntaxError, "pl.at(level=pl.Level.CORE_GROUP) cannot be nested inside",
        "            with pl.at(level=pl.Level.CORE_GROUP):", "with", "E001"),
    "P600 is the parser's: pl.unroll with runtime bounds": Case("""\
@pl.program
class P:
    @pl.function
    def main(self, x: T, n: IDX) -> T:
        for i in pl.unroll(n):
            x = pl.add(x, x)
        return x
""", ParserSyntaxError, "pl.unroll() bounds must be compile-time constants",
        "        for i in pl.unroll(n):", "n)", "E001"),
    "P407 is the parser's: a region reading a name defined nowhere": Case("""\
@pl.program
class P:
    @pl.function
    def main(self, x: T, out: pl.Out[T]) -> T:
        with pl.at(level=pl.Level.CORE_GROUP):
            t = pl.load(x, [N], [64])
            out = pl.store(t, [0], out)
        return out
""", UndefinedVariableError, "Undefined variable 'N'", "            t = pl.load(x, [N], [64])",
        "N]", "E200"),
    # -- verification (VerificationError) ----------------------------------------------
    "V020 an InOut argument read after the call": Case("""\
@pl.program
class P:
    @pl.function(type=pl.FunctionType.InCore)
    def k(self, x: T, io: pl.InOut[T]) -> T:
        t = pl.load(x, [0], [64])
        io = pl.store(t, [0], io)
        return io

    @pl.function(type=pl.FunctionType.Orchestration)
    def main(self, x: T, y: T) -> T:
        r = self.k(x, y)
        z = pl.add(y, r)
        return z


default_pipeline(P)
""", VerificationError, "Verification failed after 'pipeline_input'",
        "        z = pl.add(y, r)", "z =", "V020",
        note="found by verification (of the program as written, before the first pass)"),
    "V000 a name assigned twice, verified by the user": Case("""\
@pl.function
def twice(x: T) -> T:
    y = pl.add(x, x)
    y = pl.mul(y, y)
    return y


passes.run_verifier()(ir.Program([twice], "P"))
""", VerificationError, "IR Verification Report", "    y = pl.mul(y, y)", "y =", "V000"),
    # -- the executor (ExecutionError) -------------------------------------------------
    "R000 an op failing in a kernel, with the call that ran it": Case(
        OFFSETS + "\n\n" + RUN_OFFSETS, "ExecutionError", "tile.load at ",
        "        t = pl.load(x, [n], [64])", "pl.load", "R000",
        note="'k' was called at "),
    "R000 an op failing in an outlined region": Case("""\
@pl.program
class P:
    @pl.function
    def main(self, x: T, n: IDX, out: pl.Out[T]) -> T:
        with pl.at(level=pl.Level.CORE_GROUP):
            t = pl.load(x, [n], [64])
            out = pl.store(t, [0], out)
        return out


pypto.run(default_pipeline(P), np.ones(64, np.float32), 4, np.zeros(64, np.float32))
""", "ExecutionError", "tile.load at ", "            t = pl.load(x, [n], [64])", "pl.load",
        "R000", note="'main_incore_0' was called at "),
    "R000 an argument of the wrong shape, at its parameter": Case("""\
@pl.program
class P:
    @pl.function
    def main(self, x: T) -> T:
        y = pl.add(x, x)
        return y


pypto.run(P, np.ones(32, np.float32))
""", "ExecutionError", "argument 'x' of 'main' at ", "    def main(self, x: T) -> T:", "x:",
        "R000"),
    "R000 a float for an index parameter": Case("""\
@pl.program
class P:
    @pl.function
    def main(self, x: T, n: IDX) -> T:
        y = pl.tensor.adds(x, n)
        return y


pypto.run(P, np.ones(64, np.float32), 2.5)
""", "ExecutionError", "argument 'n' of 'main' at ", "    def main(self, x: T, n: IDX) -> T:",
        "n:", "R000"),
    "R000 one dynamic dim of two sizes": Case("""\
M = pl.dynamic("M")


@pl.program
class P:
    @pl.function
    def main(self, x: pl.Tensor[[M], pl.FP32], y: pl.Tensor[[M], pl.FP32]) -> pl.Tensor[[M], pl.FP32]:
        z = pl.add(x, y)
        return z


pypto.run(P, np.ones(64, np.float32), np.ones(32, np.float32))
""", "ExecutionError", "argument 'y' of 'main' at ",
        "    def main(self, x: pl.Tensor[[M], pl.FP32], y: pl.Tensor[[M], pl.FP32]) -> "
        "pl.Tensor[[M], pl.FP32]:", "y:", "R000"),
    "R000 too many arguments": Case("""\
@pl.program
class P:
    @pl.function
    def main(self, x: T) -> T:
        y = pl.add(x, x)
        return y


pypto.run(P, np.ones(64, np.float32), np.ones(64, np.float32))
""", "ExecutionError", "call of 'main' at ", "    def main(self, x: T) -> T:", "def", "R000"),
    "R000 a division by zero": Case("""\
@pl.program
class P:
    @pl.function
    def main(self, n: IDX) -> IDX:
        m = 10 // n
        return m


pypto.run(P, 0)
""", "ExecutionError", "FloorDiv (//) at ", "        m = 10 // n", "10", "R000"),
    "R000 a loop step of 0": Case("""\
@pl.program
class P:
    @pl.function
    def main(self, n: IDX) -> IDX:
        acc = 0
        for i in pl.range(0, 8, n):
            acc = acc + i
        return acc


pypto.run(P, 0)
""", "ExecutionError", "ForStmt at ", "        for i in pl.range(0, 8, n):", "for", "R000"),
    "R000 an SPMD block count of 0": Case("""\
@pl.program
class P:
    @pl.function(type=pl.FunctionType.InCore)
    def k1(self, x: T, o: pl.Out[T]) -> T:
        t = pl.load(x, [0], [64])
        r = pl.store(t, [0], o)
        return r

    @pl.function(type=pl.FunctionType.Orchestration)
    def main(self, x: T, o: pl.Out[T], n: IDX) -> T:
        with pl.spmd(n):
            r = self.k1(x, o)
        return r


pypto.run(P, np.ones(64, np.float32), np.zeros(64, np.float32), 0)
""", "ExecutionError", "core_num at ", "        with pl.spmd(n):", "with", "R000"),
    # -- @pl.jit ------------------------------------------------------------------------
    "E403 a jit argument of the wrong dtype": Case(TYPED_SCALE + """\
scale(np.ones(64, np.int32), np.zeros(64, np.float32))
""", "ArgumentTypeError", "scale(): parameter 'x' is annotated pl.Tensor[[64], pl.FP32] but "
        "the argument's dtype is INT32",
        "def scale(x: pl.Tensor[[64], pl.FP32], out: pl.Out[pl.Tensor]):", "x:", "E403",
        note="in the call at "),
    "E403 a jit argument of the wrong shape": Case(TYPED_SCALE + """\
scale(np.ones(32, np.float32), np.zeros(64, np.float32))
""", "ArgumentValueError", "scale(): parameter 'x' is annotated pl.Tensor[[64], pl.FP32] but "
        "the argument's dimension 0 is 32, not 64",
        "def scale(x: pl.Tensor[[64], pl.FP32], out: pl.Out[pl.Tensor]):", "x:", "E403",
        note="in the call at "),
    "E403 a float for a jit index scalar": Case("""\
@pl.jit
def shift(x: pl.Tensor, n: pl.Scalar[pl.INDEX], out: pl.Out[pl.Tensor]):
    out = pl.tensor.adds(x, n)
    return out


shift(np.ones(64, np.float32), 2.5, np.zeros(64, np.float32))
""", "ArgumentTypeError", "shift(): parameter 'n' is pl.Scalar[pl.INDEX]; expected an int, "
        "got float", "def shift(x: pl.Tensor, n: pl.Scalar[pl.INDEX], out: pl.Out[pl.Tensor]):",
        "n:", "E403", note="in the call at "),
    "E403 too many jit arguments": Case(BARE_SCALE + """\
scale(np.ones(64, np.float32), np.zeros(64, np.float32), 3)
""", "ArgumentTypeError", "@pl.jit function 'scale': too many positional arguments",
        "def scale(x: pl.Tensor, out: pl.Out[pl.Tensor]):", "def", "E403",
        note="in the call at "),
    "E402 a jit tensor argument missing": Case(BARE_SCALE + """\
scale(np.ones(64, np.float32))
""", "MissingArgumentError", "@pl.jit function 'scale': missing a required argument: 'out'",
        "def scale(x: pl.Tensor, out: pl.Out[pl.Tensor]):", "out:", "E402",
        note="in the call at "),
    "E404 a keyword its @pl.jit form does not take": Case("""\
@pl.jit.incore(auto_scope=False)
def kern(x: pl.Tensor, out: pl.Out[pl.Tensor]):
    return out
""", "OptionTypeError", "pl.jit.incore() got an unexpected keyword argument 'auto_scope'",
        "@pl.jit.incore(auto_scope=False)", "pl.jit", "E404"),
    "P300 from a jit function, at its line": Case("""\
@pl.jit
def carried(x: pl.Tensor, out: pl.Out[pl.Tensor]):
    k = 0
    while pl.tensor.read(x, [k]) > 0.0:
        k = k + 1
    out = pl.tensor.adds(x, k)
    return out


carried(np.ones(64, np.float32), np.zeros(64, np.float32))
""", PassError, "FlattenCallExpr: in function 'carried': the while condition calls",
        "    while pl.tensor.read(x, [k]) > 0.0:", "while", "P300"),
    "P200 from a jit function, at its line": Case("""\
@pl.jit
def carry(x: pl.Tensor, out: pl.Out[pl.Tensor]):
    acc = x
    for i in pl.unroll(4):
        acc = pl.add(acc, x)
    out = pl.assemble(out, acc, [0])
    return out


carry(np.ones(64, np.float32), np.zeros(64, np.float32))
""", PassError, "ConvertToSSA: in function 'carry': the pl.unroll loop carries 'acc'",
        "    for i in pl.unroll(4):", "for", "P200"),
    "P500 from a jit function, at the read": Case("""\
@pl.jit
def escapes(x: pl.Tensor, acc: pl.InOut[pl.Tensor]):
    with pl.graph("g1"):
        with pl.at(level=pl.Level.CORE_GROUP):
            t = pl.load(x, [0, 0], [16, 16])
            a = pl.load(acc, [0, 0], [16, 16])
            acc = pl.store(pl.add(t, a), [0, 0], acc)
    with pl.at(level=pl.Level.CORE_GROUP):
        a2 = pl.load(acc, [0, 0], [16, 16])
        acc = pl.store(pl.mul(t, a2), [0, 0], acc)
    return acc


escapes(np.ones((16, 16), np.float32), np.zeros((16, 16), np.float32))
""", PassError, "LegalizeGraphBoundary: 't' is defined inside pl.graph region 'g1'",
        "        acc = pl.store(pl.mul(t, a2), [0, 0], acc)", "pl.mul", "P500"),
    "R000 from a jit kernel, with the call that ran it": Case("""\
@pl.jit.incore
def kern(x: pl.Tensor, out: pl.Out[pl.Tensor], n: pl.Scalar[pl.INDEX]):
    t = pl.load(x, [n], [64])
    out = pl.store(t, [0], out)
    return out


@pl.jit
def entry(x: pl.Tensor, out: pl.Out[pl.Tensor], n: pl.Scalar[pl.INDEX]):
    out = kern(x, out, n)
    return out


entry(np.ones(64, np.float32), np.zeros(64, np.float32), 8)
""", "ExecutionError", "tile.load at ", "    t = pl.load(x, [n], [64])", "pl.load", "R000",
        note="'kern' was called at "),
}


def run_module(path) -> BaseException:
    with pytest.raises(Exception) as info:
        runpy.run_path(str(path), run_name="__main__")
    return info.value


@pytest.mark.parametrize("name", CASES)
def test_the_error_points_at_the_users_line_with_a_snippet_and_a_caret(tmp_path, name):
    case = CASES[name]
    source = HEADER + case.source
    if "np." in source:
        pytest.importorskip("numpy")
        source = "import numpy as np\n" + source
    path = tmp_path / "model.py"
    path.write_text(source, encoding="utf-8")
    err = run_module(path)
    expected = case.error if isinstance(case.error, type) else _error_class(case.error)
    assert type(err) is expected, f"{type(err).__name__}: {err}"
    assert str(err).startswith(case.message), str(err)

    lines = source.splitlines()
    line = lines.index(case.line) + 1
    column = case.line.index(case.caret) + 1
    (finding, *_) = findings_of(err)
    assert finding.code == case.code
    assert (finding.span["filename"], finding.span["line"], finding.span["column"]) == (
        str(path), line, column), finding

    rendered = rendered_lines(err, use_color=False)
    assert rendered[0].startswith("Error: "), rendered
    assert f"  --> {path}:{line}:{column}" in rendered
    shown = next(i for i, text in enumerate(rendered)
                 if re.fullmatch(rf" *{line} \| {re.escape(case.line)}", text))
    gutter = rendered[shown].index("|")
    caret = rendered[shown + 1]
    assert caret[gutter] == "|" and caret.index("^") == gutter + 1 + column, "\n".join(rendered)
    if case.hint is not None:
        assert any(text.startswith(f"   = help: {case.hint}") for text in rendered), rendered
    if case.note is not None:
        assert any(text.startswith(f"   = note: {case.note}") for text in rendered), rendered
    assert not any("pypto/" in text for text in rendered), "no pypto frame in a snippet"


def test_every_after_parsing_code_of_the_guide_has_a_case():
    from pathlib import Path
    page = Path(__file__).resolve().parents[2] / "docs" / "guide" / "diagnostics.md"
    table = page.read_text(encoding="utf-8").split("## After parsing", 1)[1].split("\n## ", 1)[0]
    rows = re.findall(r"^\| `([EPRV]\d{3})` ", table, flags=re.M)
    assert rows, "the inventory table is in docs/guide/diagnostics.md"
    assert set(rows) <= {case.code for case in CASES.values()} | _NOT_FROM_SOURCE


# Codes whose check stays for IR built with ir constructors: no DSL source reaches it
# (the parser refuses first, or only a hand-built program can hold it).
_NOT_FROM_SOURCE = {"P001", "P002", "P406"}

"""Printed text that did not read back (issue 15, printing): a tuple-returning dispatch
inside ``pl.spmd``, a graph named ``pl`` or with a name Python folds (NFKC), an empty
program.  Each is printed, reparsed and compared, or refused at the user's line."""

from __future__ import annotations

import pytest

import pypto.language as pl
from pypto import ir
from pypto.language.parser.diagnostics import ParserSyntaxError

from _parser_helpers import expect_text_error

T = pl.Tensor[[64], pl.FP32]


def test_a_tuple_returning_dispatch_inside_spmd_reads_back_after_every_pass():
    # ConvertToSSA unpacks the tuple (`_tuple_tmp = self.k(...)`, then projections):
    # the spmd body is still a dispatch, and the parser must read it as one.
    @pl.program
    class P:
        @pl.function(type=pl.FunctionType.InCore)
        def k(self, x: T, a: pl.Out[T], b: pl.Out[T]) -> tuple[T, T]:
            t = pl.load(x, [0], [64])
            a = pl.store(t, [0], a)
            b = pl.store(t, [0], b)
            return a, b

        @pl.function
        def main(self, x: T, a: pl.Out[T], b: pl.Out[T]) -> T:
            with pl.spmd(4):
                a, b = self.k(x, a, b)
            return a

    # The harness's round-trip instrument reparses after every pass.
    compiled = ir.PassManager.get_strategy().run_passes(P)
    assert compiled.get_function("main_spmd_0").func_type is ir.FunctionType.Spmd
    text = ir.python_print(compiled)
    ir.assert_structural_equal(pl.parse(text), compiled)


def test_an_spmd_body_with_more_than_projections_is_no_dispatch():
    expect_text_error("""\
import pypto.language as pl
@pl.program
class P:
    @pl.function(type=pl.FunctionType.InCore)
    def k(self, x: pl.Tensor[[64], pl.FP32]) -> pl.Tensor[[64], pl.FP32]:
        return x
    @pl.function
    def main(self, x: pl.Tensor[[64], pl.FP32]) -> pl.Tensor[[64], pl.FP32]:
        with pl.spmd(4):  # @spmd
            r = self.k(x)
            y = pl.add(r, r)
        return y
""", ParserSyntaxError, "pl.spmd() body neither reads the per-block index nor dispatches a "
                        "kernel", "spmd", "with")


@pytest.mark.parametrize("name, fragment", [
    ("pl", "pl.graph() name 'pl' would shadow the module `pl` in the printed program"),
    ("\ufb01", "pl.graph() name '\ufb01' is read by Python as 'fi' (identifiers are "
               "NFKC-normalised)"),
    ("\uff58", "is read by Python as 'x'"),  # fullwidth x
])
def test_graph_names_that_would_not_read_back(name, fragment):
    err = expect_text_error(f"""\
import pypto.language as pl
@pl.program
class P:
    @pl.function(type=pl.FunctionType.Orchestration)
    def main(self, x: pl.Tensor[[64], pl.FP32]) -> pl.Tensor[[64], pl.FP32]:
        with pl.graph("{name}"):  # @graph
            y = pl.add(x, x)
        return y
""", ParserSyntaxError, fragment, "graph", '"')
    assert err.hint


def test_a_scope_name_hint_and_a_method_named_pl_are_refused_too():
    expect_text_error("""\
import pypto.language as pl
@pl.function
def f(x: pl.Tensor[[64], pl.FP32]) -> pl.Tensor[[64], pl.FP32]:
    with pl.at(level=pl.Level.HOST, name_hint="pl"):  # @hint
        y = pl.add(x, x)
    return y
""", ParserSyntaxError, "name_hint 'pl' would shadow the module `pl`", "hint", '"pl"')
    expect_text_error("""\
import pypto.language as pl
@pl.program
class P:
    @pl.function
    def pl(self, x: pl.Tensor[[64], pl.FP32]) -> pl.Tensor[[64], pl.FP32]:  # @def
        return x
""", ParserSyntaxError, "Method name 'pl' would shadow the module `pl`", "def", "def")


def test_a_hand_built_function_named_pl_prints_under_another_name():
    x = ir.Var("x", ir.TensorType([64], ir.DataType.FP32))
    callee = ir.Function("pl", [x], [x.type], ir.ReturnStmt([x]))
    y = ir.Var("y", x.type)
    main = ir.Function("main", [x], [x.type], ir.SeqStmts([
        ir.AssignStmt(y, ir.Call(ir.GlobalVar("pl"), [x], x.type)), ir.ReturnStmt([y])]))
    text = ir.python_print(ir.Program([callee, main], "P"))
    assert "def _pl(self" in text and "self._pl(" in text
    reparsed = pl.parse(text)
    assert set(reparsed.functions) == {"_pl", "main"}


def test_an_empty_program_reads_back():
    # Every function was Inline: the pipeline leaves none, and the printer writes `pass`.
    empty = ir.Program([], "Nothing")
    text = ir.python_print(empty)
    assert text.rstrip().endswith("class Nothing:\n    pass")
    again = pl.parse(text)
    assert isinstance(again, ir.Program) and not again.functions and again.name == "Nothing"

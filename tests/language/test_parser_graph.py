"""``pl.graph`` regions (01-language.md §9.4 and the OutlineGraphScopes design notes)."""

from __future__ import annotations

import pytest

import pypto.language as pl
from pypto import ir
from pypto.language.parser.diagnostics import ParserSyntaxError

from _parser_helpers import (SPAN, assert_roundtrip, body_text, expect_error, expect_text_error,
                             find_marker, stmts, tensor, _file_lines)

T4 = tensor([4])


def graph_function(body: str, func_type: str | None = None, auto_scope: bool = True) -> str:
    """Text of a function ``f`` with ``body`` (indented by 4) and an optional type."""
    options = ([] if func_type is None else [f"type=pl.FunctionType.{func_type}"]) + \
        ([] if auto_scope else ["auto_scope=False"])
    deco = f"@pl.function({', '.join(options)})" if options else "@pl.function"
    return f"""\
import pypto.language as pl
{deco}
def f(n: pl.Scalar[pl.INDEX], x: pl.Tensor[[4], pl.FP32]):
{body}
"""


# -- accepted -------------------------------------------------------------------------------

def test_graph_region_is_a_graph_scope():
    @pl.function(type=pl.FunctionType.Orchestration)
    def f(x: pl.Tensor[[4], pl.FP32]) -> pl.Tensor[[4], pl.FP32]:
        with pl.graph("layer"):
            y = pl.add(x, x)
        return y

    (x,) = f.params
    y = ir.Var("y", T4, SPAN)
    region = ir.GraphScopeStmt("layer", body=ir.AssignStmt(y, pl.add(x, x), SPAN), span=SPAN)
    expected = ir.Function("f", [x], [T4], ir.SeqStmts.flatten([region, ir.ReturnStmt([y], SPAN)]),
                           SPAN, type=ir.FunctionType.Orchestration)
    ir.assert_structural_equal(f, expected)
    assert stmts(f)[0].scope_kind is ir.ScopeKind.Graph


@pytest.mark.parametrize("func_type", [None, "Opaque", "Orchestration", "Graph", "Inline"])
def test_graph_allowed_function_types(func_type):
    f = pl.parse(graph_function("""\
    with pl.graph("g"):
        y = pl.add(x, x)""", func_type))
    assert isinstance(stmts(f)[0], ir.GraphScopeStmt)


def test_graph_in_loops_containing_dispatches_and_same_names():
    @pl.program
    class P:
        @pl.function(type=pl.FunctionType.InCore)
        def k(x: pl.Tensor[[4], pl.FP32]) -> pl.Tensor[[4], pl.FP32]:
            return x

        @pl.function(type=pl.FunctionType.Orchestration)
        def main(self, x: pl.Tensor[[4], pl.FP32]) -> pl.Tensor[[4], pl.FP32]:
            for i in pl.range(4):
                with pl.graph("band"):
                    with pl.at(level=pl.Level.CORE_GROUP):
                        y = pl.add(x, x)
                    with pl.manual_scope():
                        z = self.k(y)
                    out, tid = pl.submit(self.k, z)
            with pl.graph("band"):
                w = self.k(x)
            return w

    loop, second, _ = stmts(P.get_function("main"))
    first = loop.body
    assert isinstance(first, ir.GraphScopeStmt) and first.name_hint == "band"
    assert isinstance(second, ir.GraphScopeStmt) and second.name_hint == "band"
    kinds = [type(s) for s in ir.flatten_to_stmts(first.body)]
    assert kinds[:2] == [ir.InCoreScopeStmt, ir.RuntimeScopeStmt]
    assert_roundtrip(P)


def test_graph_dumps_are_kept_and_printed():
    @pl.function
    def f(x: pl.Tensor[[4], pl.FP32]):
        with pl.graph("g", dumps=[x]):
            y = pl.add(x, x)

    region = stmts(f)[0]
    assert region.attrs["dump_vars"][0] is f.params[0]
    assert body_text(f).splitlines()[0] == 'with pl.graph("g", dumps=[x]):'


def test_graph_may_contain_hierarchy_and_runtime_scopes():
    @pl.function(auto_scope=False)
    def f(x: pl.Tensor[[4], pl.FP32]):
        with pl.graph("outer_ok"):
            with pl.scope():
                with pl.at(level=pl.Level.HOST):
                    y = pl.add(x, x)

    assert isinstance(stmts(f)[0].body.body, ir.HierarchyScopeStmt)


# -- rejected -------------------------------------------------------------------------------

@pytest.mark.parametrize("header, fragment, token", [
    ('pl.graph()', "exactly one positional argument", "pl.graph"),
    ('pl.graph("a", "b")', "exactly one positional argument", "pl.graph"),
    ('pl.graph(4)', "must be a string literal", "4"),
    ('pl.graph(NAME)', "must be a string literal", "NAME"),
    ('pl.graph(name="g")', "exactly one positional argument", "pl.graph"),
    ('pl.graph("")', "must not be empty", '""'),
    ('pl.graph("class")', "valid non-keyword identifier", '"class"'),
    ('pl.graph("a-b")', "valid non-keyword identifier", '"a-b"'),
    ('pl.graph("1st")', "valid non-keyword identifier", '"1st"'),
    ('pl.graph("g") as t', "`as ...:` is not supported", "t:"),
    ('pl.graph("g", colour=1)', "Unknown keyword argument 'colour' in pl.graph()", "colour"),
])
def test_graph_header_rejections(header, fragment, token):
    text = graph_function(f"""\
    with {header}:  # @graph
        pass""").replace("@pl.function", 'NAME = "g"\n@pl.function')
    expect_text_error(text, ParserSyntaxError, fragment, "graph", token)


def test_nested_graph_names_both_regions_and_points_at_the_inner_with():
    path = __file__
    with expect_error(ParserSyntaxError, "cannot be nested inside another pl.graph", "inner",
                      "with") as info:
        @pl.function
        def f(x: pl.Tensor[[4], pl.FP32]):
            with pl.graph("outer"):  # @outer
                for i in pl.range(2):
                    with pl.graph("inner"):  # @inner
                        y = pl.add(x, x)
    message = str(info.value)
    outer_line, _ = find_marker(_file_lines(path), "outer")
    assert 'pl.graph("inner")' in message and 'pl.graph("outer")' in message
    assert f"line {outer_line}" in message


@pytest.mark.parametrize("outer, construct", [
    ("pl.at(level=pl.Level.CORE_GROUP)", "pl.at"),
    ("pl.at(level=pl.Level.AIV)", "pl.at"),
    ("pl.at(level=pl.Level.AIC)", "pl.at"),
    ("pl.at(level=pl.Level.CHIP_DIE)", "pl.at"),
    ("pl.at(level=pl.Level.L2CACHE)", "pl.at"),
    ("pl.cluster()", "pl.cluster"),
])
def test_graph_inside_dispatch_scopes(outer, construct):
    expect_text_error(graph_function(f"""\
    with {outer}:
        with pl.graph("g"):  # @nested
            pass"""), ParserSyntaxError, f"cannot be nested inside `{construct}`", "nested",
                      "with")


@pytest.mark.parametrize("header", ["with pl.spmd(4):", "for b in pl.spmd(4):"])
def test_graph_inside_spmd(header):
    expect_text_error(graph_function(f"""\
    {header}
        i = pl.tile.get_block_idx()
        with pl.graph("g"):  # @nested
            pass"""), ParserSyntaxError, "cannot be nested inside `pl.spmd`", "nested", "with")


@pytest.mark.parametrize("level", ["CHIP", "HOST", "NODE", "CLUSTER_1", "GLOBAL"])
def test_graph_inside_orchestration_levels_of_pl_at(level):
    # A pl.at at CHIP or above is orchestration, not one device task, but a graph inside
    # any pl.at is out of scope (graph x distributed, 03-passes.md §16).
    err = expect_text_error(graph_function(f"""\
    with pl.at(level=pl.Level.{level}, role=pl.Role.Orchestrator):
        with pl.scope():
            with pl.graph("g"):  # @in-at
                with pl.at(level=pl.Level.CORE_GROUP):
                    y = pl.add(x, x)""", auto_scope=False), ParserSyntaxError,
                            f"cannot be nested inside `pl.at`: a graph inside any pl.at region, "
                            f"pl.at(level=pl.Level.{pl.Level[level].name}) included, is out "
                            "of scope "
                            "(graph x distributed)", "in-at", "with")
    assert "beside the pl.at region" in err.hint


def test_graph_inside_at_through_a_runtime_scope():
    expect_text_error(graph_function("""\
    with pl.at(level=pl.Level.CORE_GROUP):
        with pl.scope():
            for i in pl.range(2):
                with pl.graph("g"):  # @deep
                    pass"""), ParserSyntaxError, "cannot be nested inside `pl.at`", "deep", "with")


@pytest.mark.parametrize("func_type", ["InCore", "AIC", "AIV", "Group", "Spmd"])
def test_graph_inside_forbidden_function_types(func_type):
    expect_text_error(graph_function("""\
    for i in pl.range(2):
        with pl.graph("g"):  # @kernel
            pass""", func_type), ParserSyntaxError,
                      f"not valid inside a {func_type} function", "kernel", "with")


def test_graph_spliced_from_inline_into_a_kernel_is_rejected():
    @pl.inline
    def region(x):
        with pl.graph("g"):  # @spliced
            y = pl.add(x, x)
        return y

    with expect_error(ParserSyntaxError, "not valid inside a InCore function", "spliced", "with"):
        @pl.function(type=pl.FunctionType.InCore)
        def k(x: pl.Tensor[[4], pl.FP32]) -> pl.Tensor[[4], pl.FP32]:
            y = region(x)
            return y

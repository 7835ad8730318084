"""``ASTParser``'s per-construct entries: one AST node of DSL source parsed into IR in
the parser's statement session (``pypto/language/parser/ast_entries.py``)."""

from __future__ import annotations

import ast
import inspect
from types import SimpleNamespace

import pytest

import pypto.language as pl
from pypto import ir
from pypto.language.parser.ast_parser import ASTParser
from pypto.language.parser.diagnostics import ParserError, ParserSyntaxError, ParserTypeError

T16 = ir.TensorType([16], ir.DataType.FP32)
INDEX = ir.ScalarType(ir.DataType.INDEX)

BODY = """\
x = pl.add(a, a)
y: pl.Tensor[[16], pl.FP32] = pl.mul(x, 2.0)
for i, (acc,) in pl.range(4, init_values=(y,)):
    nxt = pl.add(acc, x)
    out = pl.yield_(nxt)
if n > 2:
    z = pl.yield_(out)
else:
    z = pl.yield_(x)
with pl.at(level=pl.Level.CORE_GROUP):
    w = pl.exp(z)
return w
"""


@pl.program
class Reference:
    @pl.function(type=pl.FunctionType.Orchestration)
    def main(self, a: pl.Tensor[[16], pl.FP32],
             n: pl.Scalar[pl.INDEX]) -> pl.Tensor[[16], pl.FP32]:
        x = pl.add(a, a)
        y: pl.Tensor[[16], pl.FP32] = pl.mul(x, 2.0)
        for i, (acc,) in pl.range(4, init_values=(y,)):
            nxt = pl.add(acc, x)
            out = pl.yield_(nxt)
        if n > 2:
            z = pl.yield_(out)
        else:
            z = pl.yield_(x)
        with pl.at(level=pl.Level.CORE_GROUP):
            w = pl.exp(z)
        return w


def _parser(source: str, **closure) -> tuple[ASTParser, list[ast.stmt], dict[str, ir.Var]]:
    parser = ASTParser("snippet.py", source.splitlines(), closure_vars={"pl": pl, **closure})
    names = {"a": ir.Var("a", T16, ir.Span.unknown()), "n": ir.Var("n", INDEX, ir.Span.unknown())}
    for name, var in names.items():
        parser.define_var(name, var)
    return parser, ast.parse(source).body, names


def _expr(text: str) -> ast.expr:
    return ast.parse(text, mode="eval").body


def test_statement_entries_build_what_a_function_parse_builds():
    parser, body, _ = _parser(BODY)
    entries = [parser.parse_assignment, parser.parse_annotated_assignment,
               parser.parse_for_loop, parser.parse_if_statement,
               parser.parse_with_statement, parser.parse_return]
    for entry, node in zip(entries, body):
        assert entry(node) is None
    got = parser.parsed_statements()
    expected = Reference.get_function("main").body.stmts
    assert len(got) == len(expected) == 6
    for mine, theirs in zip(got, expected):
        ir.assert_structural_equal(mine, theirs, enable_auto_mapping=True)
    assert [s.span.begin_line for s in got] == [1, 2, 3, 6, 10, 12]
    assert {s.span.filename for s in got} == {"snippet.py"}


def test_parse_statement_dispatches_and_later_statements_see_earlier_names():
    parser, body, names = _parser("x = pl.add(a, a)\npl.exp(x)\n")
    parser.parse_statement(body[0])
    x = parser.parse_name(ast.parse("x", mode="eval").body)
    assert isinstance(x, ir.Var) and x.name_hint == "x" and x.type == T16
    parser.parse_evaluation_statement(body[1])
    assign, evaluation = parser.parsed_statements()
    assert isinstance(assign, ir.AssignStmt) and assign.var is x
    assert isinstance(evaluation, ir.EvalStmt) and evaluation.expr.args[0] is x


def test_expression_entries_return_ir():
    config = SimpleNamespace(tile=8)
    parser, _, names = _parser("", config=config)
    a, n = names["a"], names["n"]
    total = parser.parse_binop(_expr("n * 4 + 1"))
    assert total.type == INDEX and ir.python_print(total) == "n * 4 + 1"
    assert ir.python_print(parser.parse_unaryop(_expr("-n"))) == "-n"
    cond = parser.parse_boolop(_expr("n > 1 and n < 5"))
    assert cond.type == ir.ScalarType(ir.DataType.BOOL)
    assert ir.python_print(parser.parse_compare(_expr("n >= 3"))) == "n >= 3"
    const = parser.parse_constant(_expr("7"))
    assert isinstance(const, ir.ConstInt) and const.value == 7
    assert parser.parse_attribute(_expr("config.tile")).value == 8
    call = parser.parse_call(_expr("pl.exp(a)"))
    assert isinstance(call, ir.Call) and call.op.name == "tensor.exp" and call.args[0] is a
    op = parser.parse_op_call(_expr("pl.tensor.add(a, a)"))
    assert op.op.name == "tensor.add" and op.span.begin_line == 1
    part = parser.parse_subscript(_expr("a[0:8]"))
    assert part.type.shape[0].value == 8
    items = parser.parse_list(_expr("[n, 2]"))
    assert isinstance(items, ir.MakeTuple) and items.elements[0] is n
    pair = parser.parse_tuple_literal(_expr("(a, n)"))
    assert isinstance(pair, ir.MakeTuple) and len(pair.elements) == 2
    assert parser.parse_expression(_expr("n")) is n
    assert parser.parsed_statements() == []  # expressions emit nothing


def test_entries_refuse_other_node_kinds():
    parser, body, _ = _parser("x = pl.add(a, a)\n")
    with pytest.raises(TypeError, match=r"parse_for_loop expects an ast.For node, got Assign"):
        parser.parse_for_loop(body[0])
    with pytest.raises(TypeError, match=r"parse_expression expects an ast.expr node"):
        parser.parse_expression(body[0])
    with pytest.raises(TypeError, match="expects a pl.yield_"):
        parser.parse_yield_call(_expr("pl.add(a, a)"))
    with pytest.raises(TypeError, match="define_var expects an IR expression"):
        parser.define_var("k", 3)


def test_entries_report_dsl_errors_with_spans_and_leave_the_session_usable():
    source = ("break\nq = pl.add(a, missing)\nout = pl.yield_(a)\nx = pl.add(a, 'no')\n"
              "ok = pl.exp(a)\n")
    parser, body, _ = _parser(source)
    with pytest.raises(ParserError, match="outside") as info:
        parser.parse_break(body[0])
    assert info.value.span["line"] == 1
    with pytest.raises(ParserError, match="missing") as info:
        parser.parse_assignment(body[1])
    assert info.value.span["line"] == 2
    with pytest.raises(ParserSyntaxError, match=r"pl.yield_\(\) outside a loop or if body"):
        parser.parse_yield_assignment(body[2].targets[0], body[2].value)
    with pytest.raises(ParserError) as info:
        parser.parse_statement(body[3])
    assert info.value.span["line"] == 4
    assert parser.parsed_statements() == []
    parser.parse_statement(body[4])
    assert [s.var.name_hint for s in parser.parsed_statements()] == ["ok"]
    with pytest.raises(ParserError, match="dotted callee"):
        parser.parse_op_call(_expr("print(a)"))


def test_annotation_mismatch_is_a_type_error():
    parser, body, _ = _parser("y: pl.Tensor[[8], pl.FP32] = pl.add(a, a)\n")
    with pytest.raises(ParserTypeError):
        parser.parse_annotated_assignment(body[0])


def test_entry_signatures_are_pyptos():
    params = {name: list(inspect.signature(getattr(ASTParser, name)).parameters)[1:]
              for name in dir(ASTParser) if name.startswith("parse_")}
    assert params["parse_yield_assignment"] == ["target", "value"]
    assert params["parse_list"] == ["list_node"] and params["parse_unaryop"] == ["unary"]
    assert len(params) == 27


def test_line_offset_and_strict_ssa_apply_to_the_session():
    from pypto.language.parser.diagnostics import SSAViolationError
    source = "x = pl.add(a, a)\nx = pl.mul(x, 2.0)\n"
    parser = ASTParser("f.py", source.splitlines(), line_offset=10, closure_vars={"pl": pl},
                       strict_ssa=True)
    parser.define_var("a", ir.Var("a", T16, ir.Span.unknown()))
    first, second = ast.parse(source).body
    parser.parse_statement(first)
    assert parser.parsed_statements()[0].span.to_string() == "f.py:11:1"
    with pytest.raises(SSAViolationError, match="'x' is assigned more than once") as info:
        parser.parse_statement(second)
    assert info.value.span["line"] == 12

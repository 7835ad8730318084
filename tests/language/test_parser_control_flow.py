"""Loops (01-language.md §6.1, §6.2): for over pl.range/parallel/unroll/pipeline, carries, while."""

from __future__ import annotations

import pytest

import pypto.language as pl
from pypto import ir
from pypto.language.parser.diagnostics import (ParserSyntaxError, ParserTypeError,
                                               UnsupportedFeatureError)

from _parser_helpers import (INDEX, INT32, INT64, SPAN, body_text, expect_error,
                             expect_text_error, scalar, stmts, tensor)

S = scalar(INDEX)


def seq(*items):
    return ir.SeqStmts.flatten(list(items))


def c(value, dtype=INDEX):
    return ir.ConstInt(value, dtype, SPAN)


# -- for loops --------------------------------------------------------------------------------

def test_range_bound_forms():
    @pl.function
    def f(n: pl.Scalar[pl.INDEX]):
        for i in pl.range(n):
            pass
        for j in pl.range(2, n):
            pass
        for k in pl.range(2, n, 3):
            pass
        return

    (n,) = f.params
    i, j, k = (ir.Var(name, S, SPAN) for name in "ijk")
    empty = ir.SeqStmts([], SPAN)
    expected = ir.Function("f", [n], [], seq(
        ir.ForStmt(i, c(0), n, c(1), [], empty, [], SPAN),
        ir.ForStmt(j, c(2), n, c(1), [], empty, [], SPAN),
        ir.ForStmt(k, c(2), n, c(3), [], empty, [], SPAN),
        ir.ReturnStmt([], SPAN)), SPAN)
    ir.assert_structural_equal(f, expected)


@pytest.mark.parametrize("iterator, kind", [("range", ir.ForKind.Sequential),
                                            ("parallel", ir.ForKind.Parallel),
                                            ("unroll", ir.ForKind.Unroll)])
def test_loop_kinds(iterator, kind):
    f = pl.parse(f"""\
import pypto.language as pl
@pl.function
def f(x: pl.Tensor[[4], pl.FP32]):
    for i in pl.{iterator}(4):
        y = pl.add(x, x)
""")
    loop = stmts(f)[0]
    assert isinstance(loop, ir.ForStmt) and loop.kind is kind and loop.attrs == {}


def test_pipeline_stage_is_an_attr():
    @pl.function
    def f(n: pl.Scalar[pl.INDEX]):
        for i in pl.pipeline(n, stage=3):
            pass

    loop = stmts(f)[0]
    assert loop.kind is ir.ForKind.Pipeline and loop.attrs == {"pipeline_stages": 3}
    assert body_text(f).splitlines()[0] == "for i in pl.pipeline(n, stage=3):"


def test_hidden_loop_attrs_are_kept():
    @pl.function
    def f(n: pl.Scalar[pl.INDEX]):
        for i in pl.range(n, attrs={"unroll_hint": 4, "tag": "hot"}):
            pass

    assert stmts(f)[0].attrs == {"unroll_hint": 4, "tag": "hot"}


@pytest.mark.parametrize("header, fragment, token", [
    ("pl.pipeline(n)", "pl.pipeline() requires stage=N", "pl.pipeline"),
    ("pl.pipeline(n, stage=0)", "stage= must be an integer literal >= 1", "0"),
    ("pl.pipeline(n, stage=n)", "stage= must be an integer literal >= 1", "n)"),
    ("pl.range(n, stage=2)", "stage= is only valid on pl.pipeline(), not pl.range()", "2"),
    ("pl.parallel(n, stage=2)", "stage= is only valid on pl.pipeline(), not pl.parallel()", "2"),
    ("pl.unroll(n)", "pl.unroll() bounds must be compile-time constants", "n)"),
    ("pl.unroll(0, 8, 0)", "pl.unroll() step must not be 0", "pl.unroll"),
    ("pl.range()", "pl.range() takes 1 to 3 positional bounds", "pl.range"),
    ("pl.range(1, 2, 3, 4)", "pl.range() takes 1 to 3 positional bounds", "pl.range"),
    ("pl.range(n, colour=1)", "Unknown keyword argument 'colour' in pl.range()", "colour"),
    ("pl.range(2.5)", "Loop stop must be an integer scalar", "2.5"),
    ("range(n)", "For loop must use pl.range()", "range"),
    ("pl.foo(n)", "For loop must use pl.range()", "pl.foo"),
    ("[1, 2]", "For loop must use pl.range()", "[1"),
])
def test_loop_header_rejections(header, fragment, token):
    expect_text_error(f"""\
import pypto.language as pl
@pl.function
def f(n: pl.Scalar[pl.INDEX]):
    for i in {header}:  # @header
        pass
""", ParserSyntaxError if "integer scalar" not in fragment else ParserTypeError, fragment,
        "header", token)


def test_unroll_rejects_init_values():
    expect_text_error("""\
import pypto.language as pl
@pl.function
def f(n: pl.Scalar[pl.INDEX]):
    for i, (a,) in pl.unroll(4, init_values=(n,)):  # @unroll-init
        b = pl.yield_(a)
""", ParserSyntaxError, "pl.unroll() does not take init_values", "unroll-init", "(n,)")


def test_for_else_is_unsupported():
    with expect_error(UnsupportedFeatureError, "for ... else is not supported", "for-else", "for"):
        @pl.function
        def f(n: pl.Scalar[pl.INDEX]):
            for i in pl.range(n):  # @for-else
                pass
            else:
                pass


@pytest.mark.parametrize("bounds, dtype", [
    ("n", INDEX), ("m", INT64), ("0, m", INT64), ("k", INT32), ("m, k", INT32),
    ("pl.const(0, pl.INT64), 8", INT64), ("8", INDEX)])
def test_loop_variable_dtype(bounds, dtype):
    f = pl.parse(f"""\
import pypto.language as pl
@pl.function
def f(n: pl.Scalar[pl.INDEX], m: pl.Scalar[pl.INT64], k: pl.Scalar[pl.INT32]):
    for i in pl.range({bounds}):
        pass
""")
    assert stmts(f)[0].loop_var.type == scalar(dtype)


# -- implicit carry ---------------------------------------------------------------------------

def test_implicit_carry_assigns_the_outer_var_and_names_leak():
    @pl.function
    def f(n: pl.Scalar[pl.INDEX]) -> pl.Scalar[pl.INDEX]:
        acc = 0
        for i in pl.range(4):  # surely runs: `last` is bound after it, as in Python
            acc = acc + i
            last = i
        total = acc + last
        return total

    (n,) = f.params
    acc, i, last, total = (ir.Var(name, S, SPAN) for name in ("acc", "i", "last", "total"))
    loop = ir.ForStmt(i, c(0), c(4), c(1), [], seq(ir.AssignStmt(acc, ir.add(acc, i), SPAN),
                                                ir.AssignStmt(last, i, SPAN)), [], SPAN)
    expected = ir.Function("f", [n], [S], seq(
        ir.AssignStmt(acc, c(0), SPAN), loop,
        ir.AssignStmt(total, ir.add(acc, last), SPAN), ir.ReturnStmt([total], SPAN)), SPAN)
    ir.assert_structural_equal(f, expected)
    assert not stmts(f)[1].iter_args and not stmts(f)[1].return_vars


# -- explicit carry ---------------------------------------------------------------------------

def test_explicit_carry_builds_iter_args_and_return_vars():
    @pl.function
    def f(n: pl.Scalar[pl.INDEX], x: pl.Tensor[[4], pl.FP32]) -> pl.Tensor[[4], pl.FP32]:
        for i, (acc, cnt) in pl.range(n, init_values=(x, 0)):
            nxt = pl.add(acc, acc)
            more = cnt + 1
            acc_out, cnt_out = pl.yield_(nxt, more)
        return acc_out

    n, x = f.params
    zero = c(0)
    acc = ir.IterArg("acc", tensor([4]), x, SPAN)
    cnt = ir.IterArg("cnt", S, zero, SPAN)
    i, nxt, more = ir.Var("i", S, SPAN), ir.Var("nxt", tensor([4]), SPAN), ir.Var("more", S, SPAN)
    acc_out, cnt_out = ir.Var("acc_out", tensor([4]), SPAN), ir.Var("cnt_out", S, SPAN)
    body = seq(ir.AssignStmt(nxt, pl.add(acc, acc), SPAN),
               ir.AssignStmt(more, ir.add(cnt, 1), SPAN), ir.YieldStmt([nxt, more], SPAN))
    loop = ir.ForStmt(i, c(0), n, c(1), [acc, cnt], body, [acc_out, cnt_out], SPAN)
    expected = ir.Function("f", [n, x], [tensor([4])],
                           seq(loop, ir.ReturnStmt([acc_out], SPAN)), SPAN)
    ir.assert_structural_equal(f, expected)


def test_single_carry_and_annotated_yield_target():
    @pl.function
    def f(n: pl.Scalar[pl.INDEX]) -> pl.Scalar[pl.INT32]:
        for i, (acc,) in pl.range(n, init_values=(pl.const(0, pl.INT32),)):
            out: pl.Scalar[pl.INT32] = pl.yield_(acc)
        return out

    loop = stmts(f)[0]
    assert loop.iter_args[0].type == scalar(INT32)
    assert loop.return_vars[0].type == scalar(INT32)
    assert body_text(f).splitlines()[0] == \
        "for i, (acc,) in pl.range(n, init_values=(pl.const(0, pl.INT32),)):"


def test_explicit_carry_requires_assignment_form_yield():
    with expect_error(ParserSyntaxError, "requires an assignment-form pl.yield_", "bare-yield",
                      "pl.yield_"):
        @pl.function
        def f(n: pl.Scalar[pl.INDEX]):
            for i, (acc,) in pl.range(n, init_values=(n,)):
                pl.yield_(acc)  # @bare-yield


def test_explicit_carry_requires_a_trailing_yield():
    with expect_error(ParserSyntaxError, "requires an assignment-form pl.yield_ as its last",
                      "no-yield", "for"):
        @pl.function
        def f(n: pl.Scalar[pl.INDEX]):
            for i, (acc,) in pl.range(n, init_values=(n,)):  # @no-yield
                b = acc + 1


def test_tuple_target_without_init_values():
    with expect_error(ParserSyntaxError, "A tuple loop target needs init_values=", "tuple-target",
                      "i, (acc,)"):
        @pl.function
        def f(n: pl.Scalar[pl.INDEX]):
            for i, (acc,) in pl.range(n):  # @tuple-target
                pass


def test_init_values_need_a_tuple_target():
    with expect_error(ParserSyntaxError, "target must be a tuple when init_values", "name-target",
                      "i in"):
        @pl.function
        def f(n: pl.Scalar[pl.INDEX]):
            for i in pl.range(n, init_values=(n,)):  # @name-target
                a = pl.yield_(n)


def test_iter_arg_count_mismatch():
    with expect_error(ParserSyntaxError, "Mismatch: 2 iter_args but 1 init_values", "mismatch",
                      "i, (a, b)"):
        @pl.function
        def f(n: pl.Scalar[pl.INDEX]):
            for i, (a, b) in pl.range(n, init_values=(n,)):  # @mismatch
                a2, b2 = pl.yield_(a, b)


def test_yield_arity_mismatch():
    with expect_error(ParserSyntaxError, "pl.yield_ yields 2 value(s) into 1 name(s)", "arity",
                      "a2 ="):
        @pl.function
        def f(n: pl.Scalar[pl.INDEX]):
            for i, (a,) in pl.range(n, init_values=(n,)):
                a2 = pl.yield_(a, a)  # @arity


def test_a_yield_keeps_the_kind_of_the_carried_value():
    # Found by the corpus check (tests/corpus, a swap mutant of program 0808): the parser
    # took a scalar yielded into a tensor carry; the loop then ran one way as written and
    # failed once OutlineIncoreScopes made the carried value a tensor parameter.
    with expect_error(ParserTypeError, "pl.yield_ gives 'acc' a value of type "
                      "pl.Scalar[pl.INDEX], but the loop carries it as pl.Tensor[[64], "
                      "pl.FP32] (kind Scalar != Tensor)", "scalar-into-tensor", "pl.yield_"):
        @pl.function
        def f(x: pl.Tensor[[64], pl.FP32], n: pl.Scalar[pl.INDEX]) -> pl.Tensor[[64], pl.FP32]:
            for i, (acc,) in pl.range(n, init_values=(x,)):
                k: pl.Scalar[pl.INDEX] = i + 1
                r = pl.yield_(k)  # @scalar-into-tensor
            return r


def test_a_yield_keeps_the_dtype_of_a_while_carry():
    with expect_error(ParserTypeError, "pl.yield_ gives 'x1' a value of type "
                      "pl.Tensor[[64], pl.INT32], but the loop carries it as pl.Tensor[[64], "
                      "pl.FP32] (dtype int32 != fp32)", "dtype", "pl.yield_"):
        @pl.function
        def f(x: pl.Tensor[[64], pl.FP32], n: pl.Scalar[pl.INDEX]) -> pl.Tensor[[64], pl.FP32]:
            k: pl.Scalar[pl.INDEX] = 0
            for (k1, x1) in pl.while_(init_values=(k, x)):
                pl.cond(k1 < n)
                y: pl.Tensor[[64], pl.INT32] = pl.cast(x1, pl.INT32)
                k2, x2 = pl.yield_(k1 + 1, y)  # @dtype
            return x2


def test_a_yield_of_the_carried_type_is_taken():
    @pl.function
    def f(x: pl.Tensor[[64], pl.FP32], n: pl.Scalar[pl.INDEX]) -> pl.Tensor[[64], pl.FP32]:
        for i, (acc, j) in pl.range(n, init_values=(x, 0)):
            acc2, j2 = pl.yield_(pl.add(acc, acc), j + 1)
        return acc2

    loop = stmts(f)[0]
    assert [a.type for a in loop.iter_args] == [rv.type for rv in loop.return_vars]


def test_assignment_yield_in_a_loop_without_init_values():
    with expect_error(ParserSyntaxError, "x = pl.yield_(...) in a loop without init_values",
                      "implicit-yield", "for"):
        @pl.function
        def f(n: pl.Scalar[pl.INDEX]):
            for i in pl.range(n):  # @implicit-yield
                a = pl.yield_(i)


def test_yield_outside_a_loop_or_if():
    with expect_error(ParserSyntaxError, "pl.yield_() outside a loop or if body", "stray",
                      "pl.yield_"):
        @pl.function
        def f(n: pl.Scalar[pl.INDEX]):
            pl.yield_(n)  # @stray


def test_yield_inside_an_expression():
    with expect_error(ParserSyntaxError, "pl.yield_() must be a statement", "yield-expr",
                      "pl.yield_"):
        @pl.function
        def f(n: pl.Scalar[pl.INDEX]):
            for i, (a,) in pl.range(n, init_values=(n,)):
                b = pl.yield_(a) + 1  # @yield-expr


# -- while ------------------------------------------------------------------------------------

def test_plain_while_has_no_iter_args():
    @pl.function
    def f(n: pl.Scalar[pl.INDEX]) -> pl.Scalar[pl.INDEX]:
        k = 0
        while k < n:
            k = k + 1
        return k

    (n,) = f.params
    k = ir.Var("k", S, SPAN)
    loop = ir.WhileStmt(ir.lt(k, n), [], ir.AssignStmt(k, ir.add(k, 1), SPAN), [], SPAN)
    expected = ir.Function("f", [n], [S], seq(ir.AssignStmt(k, c(0), SPAN), loop,
                                              ir.ReturnStmt([k], SPAN)), SPAN)
    ir.assert_structural_equal(f, expected)


def test_while_with_iter_args():
    @pl.function
    def f(n: pl.Scalar[pl.INDEX]) -> pl.Scalar[pl.INDEX]:
        for (a, b) in pl.while_(init_values=(n, 0)):
            pl.cond(a > 0)
            a2, b2 = pl.yield_(a - 1, b + 1)
        return b2

    (n,) = f.params
    a, b = ir.IterArg("a", S, n, SPAN), ir.IterArg("b", S, c(0), SPAN)
    a2, b2 = ir.Var("a2", S, SPAN), ir.Var("b2", S, SPAN)
    loop = ir.WhileStmt(ir.gt(a, 0), [a, b],
                        ir.YieldStmt([ir.sub(a, 1), ir.add(b, 1)], SPAN), [a2, b2], SPAN)
    expected = ir.Function("f", [n], [S], seq(loop, ir.ReturnStmt([b2], SPAN)), SPAN)
    ir.assert_structural_equal(f, expected)


@pytest.mark.parametrize("header, body, fragment, marker, token", [
    ("pl.while_(n, init_values=(n,))", ["pl.cond(a > 0)", "a2 = pl.yield_(a)"],
     "pl.while_() takes no positional arguments", "header", "pl.while_"),
    ("pl.while_()", ["pl.cond(a > 0)", "a2 = pl.yield_(a)"],
     "pl.while_() requires init_values=", "header", "pl.while_"),
    ("pl.while_(init_values=())", ["pl.cond(a > 0)", "a2 = pl.yield_(a)"],
     "init_values= must not be empty", "header", "()"),
    ("pl.while_(init_values=(n,), step=1)", ["pl.cond(a > 0)", "a2 = pl.yield_(a)"],
     "Unknown keyword argument 'step' in pl.while_()", "header", "step"),
    ("pl.while_(init_values=(n, n))", ["pl.cond(a > 0)", "a2 = pl.yield_(a)"],
     "Mismatch: 1 iter_args but 2 init_values", "header", "(a,)"),
    ("pl.while_(init_values=(n,))", ["a2 = pl.yield_(a)  # @first"],
     "The first statement of a pl.while_ loop must be pl.cond", "first", "a2"),
    ("pl.while_(init_values=(n,))", ["pl.cond(a > 0)", "pl.cond(a > 1)  # @second",
                                     "a2 = pl.yield_(a)"],
     "pl.cond(...) is only allowed as the first statement", "second", "pl.cond"),
    ("pl.while_(init_values=(n,))", ["pl.cond(a > 0)", "pl.yield_(a)  # @bare"],
     "requires an assignment-form pl.yield_", "bare", "pl.yield_"),
    ("pl.while_(init_values=(n,))", ["pl.cond(a > 0)", "b = a  # @last"],
     "requires an assignment-form pl.yield_ as its last", "header", "for"),
    ("pl.while_(init_values=(n,))", ["pl.cond(a, a)", "a2 = pl.yield_(a)  # @x"],
     "pl.cond() takes exactly one condition", "header-next", "pl.cond"),
])
def test_while_iter_args_rejections(header, body, fragment, marker, token):
    lines = "\n".join("        " + line for line in body)
    if marker == "header-next":
        lines = lines.replace("pl.cond(a, a)", "pl.cond(a, a)  # @header-next")
    expect_text_error(f"""\
import pypto.language as pl
@pl.function
def f(n: pl.Scalar[pl.INDEX]):
    for (a,) in {header}:  # @header
{lines}
""", ParserSyntaxError, fragment, marker, token)


def test_while_target_must_be_a_tuple():
    with expect_error(ParserSyntaxError, "target must be a tuple when init_values", "while-name",
                      "a in"):
        @pl.function
        def f(n: pl.Scalar[pl.INDEX]):
            for a in pl.while_(init_values=(n,)):  # @while-name
                pl.cond(a > 0)
                a2 = pl.yield_(a)


def test_cond_outside_while():
    with expect_error(ParserSyntaxError, "pl.cond(...) is only allowed as the first statement",
                      "cond-out", "pl.cond"):
        @pl.function
        def f(n: pl.Scalar[pl.INDEX]):
            pl.cond(n > 0)  # @cond-out


@pytest.mark.parametrize("snippet, what, token", [
    ("while n:  # @cond\n        pass", "while", "n:"),
    ("if n:  # @cond\n        pass", "if", "n:"),
    ("for (a,) in pl.while_(init_values=(n,)):\n        pl.cond(a)  # @cond\n"
     "        a2 = pl.yield_(a)", "while", "a)"),
])
def test_conditions_must_be_bool(snippet, what, token):
    err = expect_text_error(f"""\
import pypto.language as pl
@pl.function
def f(n: pl.Scalar[pl.INDEX]):
    {snippet}
""", ParserTypeError, f"{what} condition must be a Bool-typed scalar", "cond", token)
    assert str(err).startswith(f"{what} condition")


def test_while_else_is_unsupported():
    with expect_error(UnsupportedFeatureError, "while ... else is not supported", "while-else",
                      "while"):
        @pl.function
        def f(n: pl.Scalar[pl.INDEX]):
            while n > 0:  # @while-else
                pass
            else:
                pass


def test_trailing_yield_inside_a_runtime_scope_ends_the_loop_body():
    # ConvertToSSA may leave a loop's yield inside pl.scope(); runtime scopes are transparent.
    text = '''
@pl.function(auto_scope=False)
def f(x: pl.Tensor[[64], pl.FP32], y: pl.Tensor[[64], pl.FP32]) -> pl.Tensor[[64], pl.FP32]:
    for i, (a, b) in pl.range(4, init_values=(x, y)):
        c = a
        with pl.scope():
            r, yy = pl.yield_(a, c)
    return r
'''
    func = pl.parse(text)
    loop = func.body.stmts[0]
    assert [v.name_hint for v in loop.return_vars] == ["r", "yy"]
    assert isinstance(loop.body.stmts[-1], ir.RuntimeScopeStmt)
    ir.assert_structural_equal(pl.parse(ir.python_print(func, format=False)), func)

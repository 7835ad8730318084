"""InlineFunctions (03-passes.md §7): call forms, result binding, fresh names,
callee-first expansion, cycles, dump_vars, scopes, dropped functions, identity,
internal errors, verifier-visible leftovers and 100-deep nesting."""

from __future__ import annotations

import re

import numpy as np
import pytest

import pypto
import pypto.language as pl
from pypto import ir, passes
from pypto.errors import InternalError
from pypto.language.parser.diagnostics import ParserSyntaxError
from pypto.ir import DataType as DT

T = pl.Tensor[[64], pl.FP32]
IDX = pl.Scalar[pl.INDEX]


def inline(program: ir.Program) -> ir.Program:
    return passes.inline_functions()(program)


def assert_roundtrip(program: ir.Program) -> None:
    ir.assert_structural_equal(program, pl.parse(ir.python_print(program, format=False)))


def def_names(func: ir.Function) -> list[str]:
    return [v.name_hint for v in ir.collect_def_vars(func.body)]


def splice_numbers(func: ir.Function) -> set[int]:
    """The N of every ``<name>_inline<N>`` defined in ``func``."""
    return {int(m.group(1)) for n in def_names(func)
            if (m := re.fullmatch(r".*_inline(\d+)", n))}


# -- identity and dropping ---------------------------------------------------------------

def test_program_without_inline_functions_is_returned_unchanged():
    @pl.program
    class Before:
        @pl.function
        def main(self, x: T) -> T:
            y = pl.add(x, x)
            return y

    assert inline(Before) is Before


def test_every_inline_function_is_dropped_even_when_never_called():
    @pl.program
    class Before:
        @pl.function(type=pl.FunctionType.Inline)
        def unused(self, a: T) -> T:
            return a

        @pl.function
        def main(self, x: T) -> T:
            return x

    after = inline(Before)
    assert list(after.functions) == ["main"]
    assert after["main"] is Before["main"]  # untouched functions keep their object
    assert after.name == "Before"


# -- call forms and result binding ------------------------------------------------------------

def test_assignment_of_a_single_result_binds_the_cloned_value():
    @pl.program
    class Before:
        @pl.function(type=pl.FunctionType.Inline)
        def double(self, a: T) -> T:
            b = pl.add(a, a)
            c = pl.mul(b, a)
            return c

        @pl.function
        def main(self, x: T) -> T:
            y = self.double(x)
            return y

    @pl.program
    class Expected:
        @pl.function
        def main(self, x: T) -> T:
            b = pl.add(x, x)
            c = pl.mul(b, x)
            y = c
            return y

    after = inline(Before)
    ir.assert_structural_equal(after, Expected)
    assert_roundtrip(after)


def test_argument_expressions_replace_the_parameters():
    @pl.program
    class Before:
        @pl.function(type=pl.FunctionType.Inline)
        def scale(self, a: T, s: IDX) -> T:
            b = pl.add(a, a)
            n = s * 2
            return b

        @pl.function
        def main(self, x: T, k: IDX) -> T:
            y = self.scale(pl.exp(x), k + 1)
            return y

    @pl.program
    class Expected:
        @pl.function
        def main(self, x: T, k: IDX) -> T:
            b = pl.add(pl.exp(x), pl.exp(x))
            n = (k + 1) * 2
            y = b
            return y

    after = inline(Before)
    ir.assert_structural_equal(after, Expected)
    assert_roundtrip(after)


def test_binding_is_omitted_when_it_would_be_a_self_assignment():
    @pl.program
    class Before:
        @pl.function(type=pl.FunctionType.Inline)
        def touch(self, a: T, o: pl.Out[T]) -> T:
            t = pl.exp(a)
            return o

        @pl.function
        def main(self, x: T, o: pl.Out[T]) -> T:
            o = self.touch(x, o)
            return o

    @pl.program
    class Expected:
        @pl.function
        def main(self, x: T, o: pl.Out[T]) -> T:
            t = pl.exp(x)
            return o

    after = inline(Before)
    ir.assert_structural_equal(after, Expected)


def test_several_results_bind_nothing_and_projections_read_the_values():
    @pl.program
    class Before:
        @pl.function(type=pl.FunctionType.Inline)
        def split(self, a: T) -> tuple[T, T]:
            b = pl.add(a, a)
            c = pl.mul(a, a)
            return b, c

        @pl.function
        def main(self, x: T) -> T:
            p, q = self.split(x)
            r = pl.add(p, q)
            return r

    @pl.program
    class Expected:
        @pl.function
        def main(self, x: T) -> T:
            b = pl.add(x, x)
            c = pl.mul(x, x)
            p = b
            q = c
            r = pl.add(p, q)
            return r

    after = inline(Before)
    ir.assert_structural_equal(after, Expected)
    assert "_tuple_tmp" not in ir.python_print(after)
    assert_roundtrip(after)


def test_single_make_tuple_result_counts_as_several_values():
    tensor = ir.TensorType([64], DT.FP32)
    a = ir.Var("a", tensor)
    b = ir.Var("b", tensor)
    pair = ir.TupleType([tensor, tensor])
    callee = ir.Function("pair", [a], [pair], ir.SeqStmts([
        ir.AssignStmt(b, ir.create_op_call("tensor.exp", [a])),
        ir.ReturnStmt([ir.MakeTuple([b, a])])]), type=ir.FunctionType.Inline)
    x = ir.Var("x", tensor)
    t = ir.Var("t", pair)
    y = ir.Var("y", tensor)
    call = ir.Call(ir.GlobalVar("pair"), [x], pair)
    main = ir.Function("main", [x], [pair], ir.SeqStmts([
        ir.AssignStmt(t, call),
        ir.AssignStmt(y, ir.TupleGetItemExpr(t, 0)),
        ir.ReturnStmt([t])]))
    after = inline(ir.Program([callee, main], "P"))["main"]
    b_new, y_new = ir.collect_def_vars(after.body)
    assert y_new is y and after.body.stmts[1].value is b_new  # y = t[0] reads b directly
    (whole,) = after.body.stmts[2].value  # a bare use of t is the tuple of the values
    assert isinstance(whole, ir.MakeTuple)
    assert whole.elements[0] is b_new and whole.elements[1] is x


def test_statement_call_is_spliced_and_its_return_dropped():
    @pl.program
    class Before:
        @pl.function(type=pl.FunctionType.Inline)
        def fill(self, o: pl.InOut[T]) -> T:
            t = pl.exp(o)
            return t

        @pl.function
        def main(self, o: pl.InOut[T]) -> T:
            self.fill(o)
            return o

    @pl.program
    class Expected:
        @pl.function
        def main(self, o: pl.InOut[T]) -> T:
            t = pl.exp(o)
            return o

    after = inline(Before)
    ir.assert_structural_equal(after, Expected)


def test_discarded_arithmetic_result_is_dropped_0254():
    """As PyPTO (conformance 0254): computing the dropped value does nothing else."""

    @pl.program
    class Before:
        @pl.function(type=pl.FunctionType.Inline)
        def twice(self, a: T) -> T:
            return pl.add(pl.mul(a, a), a)

        @pl.function
        def main(self, x: T) -> T:
            self.twice(x)
            return x

    @pl.program
    class Expected:
        @pl.function
        def main(self, x: T) -> T:
            return x

    ir.assert_structural_equal(inline(Before), Expected)


def test_discarded_result_with_an_effect_is_still_evaluated():
    """A store (it writes ``out``) or a call of a program function still has to run."""

    @pl.program
    class Before:
        @pl.function(type=pl.FunctionType.Inline)
        def put(self, a: T, out: pl.InOut[T]) -> T:
            t = pl.load(a, [0], [64])
            return pl.store(t, [0], out)

        @pl.function(type=pl.FunctionType.Inline)
        def via(self, a: T) -> T:
            return self.helper(a)

        @pl.function
        def helper(self, a: T) -> T:
            return pl.add(a, a)

        @pl.function
        def main(self, x: T, out: pl.InOut[T]) -> T:
            self.put(x, out)
            self.via(x)
            return out

    @pl.program
    class Expected:
        @pl.function
        def helper(self, a: T) -> T:
            return pl.add(a, a)

        @pl.function
        def main(self, x: T, out: pl.InOut[T]) -> T:
            t = pl.load(x, [0], [64])
            pl.store(t, [0], out)
            self.helper(x)
            return out

    ir.assert_structural_equal(inline(Before), Expected)


def test_return_of_a_call_becomes_the_body_and_a_fresh_return():
    @pl.program
    class Before:
        @pl.function(type=pl.FunctionType.Inline)
        def split(self, a: T) -> tuple[T, T]:
            b = pl.add(a, a)
            return b, a

        @pl.function
        def main(self, x: T) -> tuple[T, T]:
            return self.split(x)

    @pl.program
    class Expected:
        @pl.function
        def main(self, x: T) -> tuple[T, T]:
            b = pl.add(x, x)
            return b, x

    after = inline(Before)
    ir.assert_structural_equal(after, Expected)
    assert_roundtrip(after)


def test_calls_inside_if_and_loop_bodies_are_spliced():
    @pl.program
    class Before:
        @pl.function(type=pl.FunctionType.Inline)
        def step(self, a: T) -> T:
            b = pl.add(a, a)
            return b

        @pl.function
        def main(self, x: T, n: IDX) -> T:
            for i in pl.range(n):
                x = self.step(x)
            if n > 2:
                x = self.step(x)
            else:
                self.step(x)
            return x

    @pl.program
    class Expected:
        @pl.function
        def main(self, x: T, n: IDX) -> T:
            for i in pl.range(n):
                b0 = pl.add(x, x)
                x = b0
            if n > 2:
                b1 = pl.add(x, x)
                x = b1
            else:
                b2 = pl.add(x, x)
            return x

    after = inline(Before)
    ir.assert_structural_equal(after, Expected)
    assert_roundtrip(after)


def test_parameter_reassigned_in_straight_line_code_reads_the_argument_until_then():
    @pl.program
    class Before:
        @pl.function(type=pl.FunctionType.Inline)
        def twice(self, a: T) -> T:
            b = pl.exp(a)
            with pl.at(level=pl.Level.CORE_GROUP):
                a = pl.add(a, b)
            a = pl.mul(a, a)
            return a

        @pl.function
        def main(self, x: T) -> T:
            y = self.twice(x)
            z = pl.add(y, x)  # reads the argument after the call
            return z

    @pl.program
    class Expected:
        @pl.function
        def main(self, x: T) -> T:
            b = pl.exp(x)
            with pl.at(level=pl.Level.CORE_GROUP):
                a = pl.add(x, b)
            a = pl.mul(a, a)
            y = a
            z = pl.add(y, x)
            return z

    after = inline(Before)
    ir.assert_structural_equal(after, Expected)
    assert_roundtrip(after)


def test_parameter_reassigned_in_a_loop_becomes_a_local_seeded_with_the_argument():
    @pl.program
    class Before:
        @pl.function(type=pl.FunctionType.Inline)
        def repeat(self, a: T, n: IDX) -> T:
            for i in pl.range(n):
                a = pl.add(a, a)
            return a

        @pl.function
        def main(self, x: T, n: IDX) -> T:
            for j in pl.range(2):  # the next iteration reads the argument again
                y = self.repeat(x, n)
            return y

    @pl.program
    class Expected:
        @pl.function
        def main(self, x: T, n: IDX) -> T:
            for j in pl.range(2):
                a = x
                for i in pl.range(n):
                    a = pl.add(a, a)
                y = a
            return y

    after = inline(Before)
    ir.assert_structural_equal(after, Expected)
    assert_roundtrip(after)
    # ... and it stays a proper loop carry after ConvertToSSA.
    ssa = passes.convert_to_ssa()(after)
    assert len(ssa["main"].body.stmts[0].body.stmts[1].iter_args) == 1


def test_a_rebound_parameter_is_spliced_onto_an_argument_dead_after_the_call():
    """As PyPTO splices it (conformance 0443): the caller's ``x`` is read nowhere after
    the call, so the callee's assignments may update it directly, with no copy."""
    @pl.program
    class Before:
        @pl.function(type=pl.FunctionType.Inline)
        def repeat(self, a: T, n: IDX) -> T:
            for i in pl.range(n):
                a = pl.add(a, a)
            a = pl.mul(a, a)
            return a

        @pl.function
        def main(self, x: T, n: IDX) -> T:
            y = self.repeat(x, n)
            return y

    @pl.program
    class Expected:
        @pl.function
        def main(self, x: T, n: IDX) -> T:
            for i in pl.range(n):
                x = pl.add(x, x)
            x = pl.mul(x, x)
            y = x
            return y

    after = inline(Before)
    ir.assert_structural_equal(after, Expected)
    assert_roundtrip(after)
    args = (np.arange(64, dtype=np.float32) / 64, 3)
    assert np.array_equal(pypto.run(Before, *args), pypto.run(after, *args))


@pytest.mark.parametrize("tail, why", [
    ("z = pl.add(y, x)\n        return z", "read after the call"),
    ("z = self.repeat(x, n)\n        return z", "passed again"),
])
def test_a_rebound_parameter_gets_a_copy_when_the_argument_is_still_needed(tail, why):
    text = f"""
import pypto.language as pl
T = pl.Tensor[[64], pl.FP32]
@pl.program
class P:
    @pl.function(type=pl.FunctionType.Inline)
    def repeat(self, a: T, n: pl.Scalar[pl.INDEX]) -> T:
        for i in pl.range(n):
            a = pl.add(a, a)
        return a

    @pl.function
    def main(self, x: T, n: pl.Scalar[pl.INDEX]) -> T:
        y = self.repeat(x, n)
        {tail}
"""
    before = pl.parse(text)
    after = inline(before)
    first = after["main"].body.stmts[0]
    assert first.var.name_hint == "a_inline0" and first.value is after["main"].params[0], why
    args = (np.arange(64, dtype=np.float32) / 64, 2)
    assert np.array_equal(pypto.run(before, *args), pypto.run(after, *args))


# -- names ---------------------------------------------------------------------------------

def test_spliced_definitions_get_fresh_inline_names_per_splice():
    @pl.program
    class Before:
        @pl.function(type=pl.FunctionType.Inline)
        def step(self, a: T) -> T:
            b = pl.add(a, a)
            for i in pl.range(2):
                b = pl.mul(b, a)
            return b

        @pl.function
        def main(self, x: T) -> T:
            y = self.step(x)
            z = self.step(y)
            return z

    after = inline(Before)
    names = def_names(after["main"])
    # The splices of one run are numbered from 0, so the names depend only on the program.
    assert names == ["b_inline0", "i_inline0", "y", "b_inline1", "i_inline1", "z"]
    # Original callee Vars never leak into the caller.
    callee_vars = set(ir.collect_def_vars(Before["step"].body))
    assert not callee_vars & set(ir.collect_def_vars(after["main"].body))


def test_inline_functions_calling_inline_functions_expand_callee_first_once_each():
    @pl.program
    class Before:
        @pl.function(type=pl.FunctionType.Inline)
        def leaf(self, a: T) -> T:
            b = pl.exp(a)
            return b

        @pl.function(type=pl.FunctionType.Inline)
        def mid(self, a: T) -> T:
            c = self.leaf(a)
            d = self.leaf(c)
            return d

        @pl.function
        def main(self, x: T) -> T:
            y = self.mid(x)
            z = self.mid(y)
            w = self.mid(z)
            return w

    after = inline(Before)
    # mid's body is expanded once (leaf splices 0 and 1), then mid is spliced 3 times.
    assert splice_numbers(after["main"]) == {2, 3, 4}
    assert list(after.functions) == ["main"]
    stmts = after["main"].body.stmts
    assert len(stmts) == 3 * 5 + 1
    names = def_names(after["main"])
    assert all(re.fullmatch(r"(b|c|d)_inline\d+|y|z|w", n) for n in names), names
    assert_roundtrip(after)


def test_call_cycle_is_rejected_with_its_path():
    @pl.program
    class Before:
        @pl.function(type=pl.FunctionType.Inline)
        def a(self, x: T) -> T:
            y: T = self.b(x)
            return y

        @pl.function(type=pl.FunctionType.Inline)
        def b(self, x: T) -> T:
            y: T = self.a(x)
            return y

        @pl.function
        def main(self, x: T) -> T:
            y: T = self.a(x)
            return y

    with pytest.raises(passes.PassError) as info:
        inline(Before)
    err = info.value
    assert isinstance(err, ValueError) and isinstance(err, pypto.Error)
    assert err.message == "Cycle detected in FunctionType::Inline call graph: a -> b -> a"
    assert (err.pass_name, err.code.code) == ("InlineFunctions", "P100")
    # The span is the first function of the cycle, in the user's file.
    assert (err.span.filename, err.span.begin_line) == (__file__, a_line(Before))
    assert str(err) == f"InlineFunctions: {err.message} [{err.span}]"


def test_self_recursive_inline_function_is_a_cycle():
    @pl.program
    class Before:
        @pl.function(type=pl.FunctionType.Inline)
        def again(self, x: T) -> T:
            y: T = self.again(x)
            return y

        @pl.function
        def main(self, x: T) -> T:
            return x

    with pytest.raises(passes.PassError, match=r"call graph: again -> again \[.*:\d+:\d+\]$"):
        inline(Before)


def a_line(program: ir.Program) -> int:
    return program["a"].span.begin_line


def test_an_inline_local_ending_in_underscore_is_not_renamed_into_the_reserved_delimiter():
    # 't_' + '_inline0' would spell '__', which ConvertToSSA refuses as a base name.
    @pl.program
    class Before:
        @pl.function(type=pl.FunctionType.Inline)
        def helper(self, x: T) -> T:
            t_ = pl.add(x, x)
            return t_

        @pl.function
        def main(self, x: T) -> T:
            y = self.helper(x)
            return y

    after = inline(Before)
    names = def_names(after["main"])
    assert len(names) == 2 and re.fullmatch(r"t_inline\d+", names[0]) and names[1] == "y"
    assert_roundtrip(after)
    compiled = ir.PassManager.get_strategy(ir.OptimizationStrategy.Default).run_passes(Before)
    assert all("__inline" not in n for n in def_names(compiled["main"]))


# -- scopes and dump_vars --------------------------------------------------------------------

def test_scopes_in_the_body_are_kept_verbatim():
    @pl.program
    class Before:
        @pl.function(type=pl.FunctionType.Inline)
        def region(self, a: T) -> T:
            with pl.graph("layer"):
                with pl.at(level=pl.Level.CORE_GROUP, name_hint="k"):
                    b = pl.exp(a)
            return b

        @pl.function(type=pl.FunctionType.Orchestration)
        def main(self, x: T) -> T:
            y = self.region(x)
            return y

    @pl.program
    class Expected:
        @pl.function(type=pl.FunctionType.Orchestration)
        def main(self, x: T) -> T:
            with pl.graph("layer"):
                with pl.at(level=pl.Level.CORE_GROUP, name_hint="k"):
                    b = pl.exp(x)
            y = b
            return y

    after = inline(Before)
    ir.assert_structural_equal(after, Expected)
    assert_roundtrip(after)


def test_call_site_dump_vars_move_onto_the_spliced_scopes():
    @pl.program
    class Before:
        @pl.function(type=pl.FunctionType.Inline)
        def region(self, a: T, c: T) -> T:
            with pl.at(level=pl.Level.CORE_GROUP, dumps=[c]):
                b = pl.exp(a)
            with pl.manual_scope():
                with pl.cluster():
                    d = pl.add(b, b)
            return d

        @pl.function
        def main(self, x: T) -> T:
            y = self.region(x, x, attrs={"dump_vars": [x]})
            return y

    @pl.program
    class Expected:
        @pl.function
        def main(self, x: T) -> T:
            with pl.at(level=pl.Level.CORE_GROUP, dumps=[x]):
                b = pl.exp(x)
            with pl.manual_scope():
                with pl.cluster(dumps=[x]):
                    d = pl.add(b, b)
            y = d
            return y

    after = inline(Before)
    ir.assert_structural_equal(after, Expected)
    incore = after["main"].body.stmts[0]
    assert list(incore._attrs) == ["dump_vars"] and len(incore._attrs["dump_vars"]) == 1
    assert "dumps=[x]" in ir.python_print(after)
    assert_roundtrip(after)


# -- what is not inlined -----------------------------------------------------------------------

def test_call_nested_in_an_expression_is_refused_by_the_parser():
    with pytest.raises(ParserSyntaxError,
                       match="A call of the Inline function 'one' must be a statement of its "
                             "own"):
        @pl.program
        class Before:
            @pl.function(type=pl.FunctionType.Inline)
            def one(self, a: T) -> T:
                return a

            @pl.function
            def main(self, x: T) -> T:
                y = pl.add(self.one(x), x)
                return y


def _unspliceable(value_of) -> ir.Program:
    """Hand-built: ``main`` uses Inline ``k`` where no splice can go."""
    tensor = ir.TensorType([64], DT.FP32)
    a, x = ir.Var("a", tensor), ir.Var("x", tensor)
    callee = ir.Function("k", [a], [tensor], ir.ReturnStmt([a]), type=ir.FunctionType.Inline)
    value, result_type = value_of(x, tensor)
    ret = ir.Var("ret", result_type)
    main = ir.Function("main", [x], [tensor], ir.SeqStmts([
        ir.AssignStmt(ret, value), ir.ReturnStmt([x])]))
    return ir.Program([callee, main], "P")


@pytest.mark.parametrize("value_of, what", [
    (lambda x, t: (ir.create_op_call("tensor.add", [
        ir.Call(ir.GlobalVar("k"), [x], {}, {}, t, ir.Span("m.py", 4, 20)), x]), t), "call of"),
    (lambda x, t: (ir.Submit(ir.GlobalVar("k"), [x], [], ir.TupleType(
        [t, ir.ScalarType(DT.TASK_ID)]), ir.Span("m.py", 4, 20)),
        ir.TupleType([t, ir.ScalarType(DT.TASK_ID)])), "pl.submit of"),
], ids=["nested-call", "submit"])
def test_a_call_no_splice_can_replace_is_refused(value_of, what):
    # Dropping the Inline function would leave the call dangling (a program that does
    # not reparse: "Function 'k' not defined in program").
    with passes.PassContext([]), pytest.raises(
            ValueError, match=rf"InlineFunctions: in function 'main': the {what} Inline "
                              r"function 'k' is not a statement of its own and cannot be "
                              r"spliced; bind its value to a name first \[m.py:4:20\]"):
        inline(_unspliceable(value_of))


# -- internal errors -------------------------------------------------------------------------

def _callee(name: str, body_of) -> ir.Function:
    tensor = ir.TensorType([64], DT.FP32)
    a = ir.Var("a", tensor)
    return ir.Function(name, [a], [tensor], body_of(a), type=ir.FunctionType.Inline)


def _caller(stmt_of) -> ir.Function:
    tensor = ir.TensorType([64], DT.FP32)
    x = ir.Var("x", tensor)
    return ir.Function("main", [x], [tensor], ir.SeqStmts([stmt_of(x), ir.ReturnStmt([x])]))


def test_arity_mismatch_is_an_internal_error():
    callee = _callee("k", lambda a: ir.ReturnStmt([a]))
    call = lambda x: ir.EvalStmt(ir.Call(ir.GlobalVar("k"), [x, x], x.type))  # noqa: E731
    with passes.PassContext([]), pytest.raises(
            InternalError, match=r"passes 2 argument\(s\) for 1 parameter\(s\)"):
        inline(ir.Program([callee, _caller(call)], "P"))


def test_return_that_is_not_last_is_an_internal_error():
    def body(a):
        flag = ir.ConstBool(True)
        return ir.SeqStmts([ir.IfStmt(flag, ir.ReturnStmt([a]), None, []), ir.ReturnStmt([a])])

    callee = _callee("k", body)
    call = lambda x: ir.EvalStmt(ir.Call(ir.GlobalVar("k"), [x], x.type))  # noqa: E731
    with passes.PassContext([]), pytest.raises(
            InternalError, match="Inline function 'k' has a return that is not its last"):
        inline(ir.Program([callee, _caller(call)], "P"))


def test_using_the_value_of_a_callee_without_return_is_an_internal_error():
    callee = _callee("k", lambda a: ir.EvalStmt(a))
    y = ir.Var("y", ir.TensorType([64], DT.FP32))
    call = lambda x: ir.AssignStmt(y, ir.Call(ir.GlobalVar("k"), [x], x.type))  # noqa: E731
    with passes.PassContext([]), pytest.raises(
            InternalError, match="'main' uses the value of Inline function 'k', which returns "
                                 "nothing"):
        inline(ir.Program([callee, _caller(call)], "P"))


# -- pipeline-facing properties ----------------------------------------------------------------

def test_output_satisfies_inline_functions_eliminated_and_converts_to_ssa():
    @pl.program
    class Before:
        @pl.function(type=pl.FunctionType.Inline)
        def body(self, a: T, n: IDX) -> T:
            for i in pl.range(n):
                a = pl.add(a, a)
            if n > 2:
                a = pl.exp(a)
            return a

        @pl.function
        def main(self, x: T, n: IDX) -> T:
            y = self.body(x, n)
            z = self.body(y, n)
            return z

    after = inline(Before)
    passes.run_verifier([passes.IRProperty.InlineFunctionsEliminated])(after)
    ssa = passes.convert_to_ssa()(after)
    passes.run_verifier(passes.get_structural_properties().union_with(
        passes.IRPropertySet([passes.IRProperty.SSAForm])))(ssa)


def test_100_deep_nesting_of_call_sites_does_not_recurse_out():
    tensor = ir.TensorType([64], DT.FP32)
    a = ir.Var("a", tensor)
    b = ir.Var("b", tensor)
    callee = ir.Function("k", [a], [tensor], ir.SeqStmts([
        ir.AssignStmt(b, ir.create_op_call("tensor.exp", [a])), ir.ReturnStmt([b])]),
        type=ir.FunctionType.Inline)
    x = ir.Var("x", tensor)
    body: ir.Stmt = ir.AssignStmt(x, ir.Call(ir.GlobalVar("k"), [x], tensor))
    for level in range(100):
        body = ir.ForStmt(ir.Var(f"i{level}", ir.ScalarType(DT.INDEX)), 0, 2, 1, [], body, [])
    main = ir.Function("main", [x], [tensor], ir.SeqStmts([body, ir.ReturnStmt([x])]))
    with passes.PassContext([passes.VerificationInstrument(passes.VerificationMode.AFTER)]):
        after = inline(ir.Program([callee, main], "Deep"))
    node = after["main"].body.stmts[0]
    for _ in range(100):
        node = node.body
    assert [type(s).__name__ for s in node.stmts] == ["AssignStmt", "AssignStmt"]
    assert node.stmts[1].var is x


# -- determinism and argument types (issue 15) ---------------------------------------------

def test_the_same_program_inlined_twice_gets_the_same_names():
    text = """
import pypto.language as pl

@pl.program
class P:
    @pl.function(type=pl.FunctionType.Inline)
    def h(self, x: pl.Tensor[[16, 16], pl.FP32]) -> pl.Tensor[[16, 16], pl.FP32]:
        t = pl.add(x, x)
        return t

    @pl.function
    def main(self, x: pl.Tensor[[16, 16], pl.FP32]) -> pl.Tensor[[16, 16], pl.FP32]:
        y = self.h(x)
        return y
"""
    first = ir.python_print(inline(pl.parse(text)))
    second = ir.python_print(inline(pl.parse(text)))
    assert "t_inline0" in first
    assert first == second


LOOSE_HELPER = """
import pypto.language as pl

@pl.program
class P:
    @pl.function(type=pl.FunctionType.Inline)
    def double(self, t: pl.Tile[[16, 16], pl.FP32]) -> pl.Tile[[16, 16], pl.FP32]:
        u = pl.add(t, t)
        return u

    @pl.function(type=pl.FunctionType.InCore)
    def kern(self, x: pl.Tensor[[16, 16], pl.FP32],
             o: pl.Out[pl.Tensor[[16, 16], pl.FP32]]) -> pl.Tensor[[16, 16], pl.FP32]:
        a = pl.load(x, [0, 0], [16, 16])
        b = self.double(a)
        c = pl.mul(b, b)
        o = pl.store(c, [0, 0], o)
        return o
"""


def test_spliced_locals_take_the_type_of_the_argument():
    """A helper parameter declared without a memory space, called with a Vec tile: the
    spliced locals and the caller's result are Vec tiles, as a reparse deduces them."""
    after = inline(pl.parse(LOOSE_HELPER))
    stmts = after["kern"].body.stmts
    vec = stmts[0].var.type
    assert vec.memory_space == ir.MemorySpace.Vec
    assert [s.var.name_hint for s in stmts[1:4]] == ["u_inline0", "b", "c"]
    assert all(s.var.type == vec for s in stmts[1:4])
    assert_roundtrip(after)


def test_loose_helper_program_compiles_to_text_that_reads_back_equal():
    compiled = ir.PassManager.get_strategy(ir.OptimizationStrategy.Default).run_passes(
        pl.parse(LOOSE_HELPER))
    assert_roundtrip(compiled)


# -- the AUTO-scope rule across a splice ---------------------------------------------------

def _scoped_helper_program(caller_options: str, call: str) -> str:
    return f"""
import pypto.language as pl

@pl.program
class P:
    @pl.function(type=pl.FunctionType.Inline, auto_scope=False)
    def helper(self, x: pl.Tensor[[64], pl.FP32]) -> pl.Tensor[[64], pl.FP32]:
        with pl.scope():
            y = pl.add(x, x)
        return y

    @pl.function(type=pl.FunctionType.Orchestration{caller_options})
    def main(self, x: pl.Tensor[[64], pl.FP32], out: pl.Out[pl.Tensor[[64], pl.FP32]]
             ) -> pl.Tensor[[64], pl.FP32]:
{call}
        return out
"""


def test_a_hand_placed_auto_scope_cannot_be_spliced_into_an_automatic_scope():
    # The splice would print `with pl.scope():` in an auto-scoped body, which the
    # parser refuses: the pass refuses the call instead, at the call.
    text = _scoped_helper_program("", "        z = self.helper(x)\n"
                                      "        out = pl.assemble(out, z, [0])")
    with pytest.raises(passes.PassError) as info:
        inline(pl.parse(text))
    err = info.value
    assert (err.pass_name, err.code.code) == ("InlineFunctions", "P102")
    assert "'helper' places an AUTO 'with pl.scope()' by hand" in err.message
    assert err.span.begin_line == text.splitlines().index("        z = self.helper(x)") + 1
    assert "auto_scope=False to 'main'" in err.hint


@pytest.mark.parametrize("caller_options, call", [
    (", auto_scope=False", "        z = self.helper(x)\n        out = pl.assemble(out, z, [0])"),
    ("", "        with pl.at(level=pl.Level.CORE_GROUP):\n"
         "            z = self.helper(x)\n"
         "            out = pl.assemble(out, z, [0])"),
], ids=["caller-without-auto-scope", "inside-a-kernel-region"])
def test_a_hand_placed_auto_scope_splices_where_the_rule_allows_it(caller_options, call):
    after = inline(pl.parse(_scoped_helper_program(caller_options, call)))
    assert list(after.functions) == ["main"]
    assert_roundtrip(after)
    compiled = ir.PassManager.get_strategy(ir.OptimizationStrategy.Default) \
        .run_passes(pl.parse(_scoped_helper_program(caller_options, call)))
    assert_roundtrip(compiled)


def _memrefs(program: ir.Program) -> list:
    found: list = []

    class Collect(ir.IRVisitor):
        def visit_mem_ref(self, op):
            found.append(op)
            super().visit_mem_ref(op)

    for func in program.functions.values():
        for param in func.params:
            Collect().visit_expr(param)
        Collect().visit_stmt(func.body)
    return found


def test_inlining_renames_an_alloc_base_in_the_types_that_name_it():
    @pl.program
    class Before:
        @pl.function(type=pl.FunctionType.Inline)
        def helper(self, x: pl.Tensor[[16, 64], pl.FP32]) -> pl.Tile[[16, 64], pl.FP32, pl.Mem.Vec]:
            buf: pl.Ptr = pl.tile.alloc(pl.Mem.Vec, 4096)
            t: pl.Tile[[16, 64], pl.FP32, pl.MemRef(buf, 0, 4096), pl.Mem.Vec] = pl.tile.load(
                x, [0, 0], [16, 64])
            return t

        @pl.function(type=pl.FunctionType.AIV)
        def k(self, x: pl.Tensor[[16, 64], pl.FP32]) -> pl.Tile[[16, 64], pl.FP32, pl.Mem.Vec]:
            a = self.helper(x)
            b = self.helper(x)
            c = pl.tile.add(a, b)
            return c

    @pl.program
    class After:
        @pl.function(type=pl.FunctionType.AIV)
        def k(x: pl.Tensor[[16, 64], pl.FP32]) -> pl.Tile[[16, 64], pl.FP32, pl.Mem.Vec]:
            buf_inline0: pl.Ptr = pl.tile.alloc(pl.Mem.Vec, 4096)
            t_inline0: pl.Tile[[16, 64], pl.FP32, pl.MemRef(buf_inline0, 0, 4096), pl.Mem.Vec] = (
                pl.tile.load(x, [0, 0], [16, 64]))
            a: pl.Tile[[16, 64], pl.FP32, pl.Mem.Vec] = t_inline0
            buf_inline1: pl.Ptr = pl.tile.alloc(pl.Mem.Vec, 4096)
            t_inline1: pl.Tile[[16, 64], pl.FP32, pl.MemRef(buf_inline1, 0, 4096), pl.Mem.Vec] = (
                pl.tile.load(x, [0, 0], [16, 64]))
            b: pl.Tile[[16, 64], pl.FP32, pl.Mem.Vec] = t_inline1
            c: pl.Tile[[16, 64], pl.FP32, pl.Mem.Vec] = pl.tile.add(a, b)
            return c

    result = inline(Before)
    ir.assert_structural_equal(result, After)
    # memrefs are outside type equality: each inlined copy names its own alloc
    ir.assert_structural_equal(_memrefs(result), _memrefs(After), enable_auto_mapping=True)
    body = ir.flatten_to_stmts(result.functions["k"].body)
    assert body[1].var.type.memref.base_ is body[0].var
    assert body[4].var.type.memref.base_ is body[3].var

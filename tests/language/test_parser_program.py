"""``@pl.program`` (01-language.md §2.2): methods, calls, options read from the source,
HOST SubWorkers and external functions."""

from __future__ import annotations

import pytest

import pypto.language as pl
from pypto import ir
from pypto.language import Level, function
from pypto.language.parser.diagnostics import (ParserSyntaxError, ParserTypeError,
                                               SSAViolationError, UndefinedVariableError)

from _parser_helpers import (SPAN, expect_error, expect_text_error, find_marker, stmts, tensor,
                             _file_lines)

T4 = tensor([4])


def identity(name: str = "f", **options) -> ir.Function:
    x = ir.Var("x", T4, SPAN)
    return ir.Function(name, [x], [T4], ir.ReturnStmt([x], SPAN), SPAN, **options)


# -- @pl.program ---------------------------------------------------------------------------

def test_program_is_named_after_the_class_and_spans_the_first_decorator():
    path = __file__

    @pl.program  # @program-span
    class Model:
        @pl.function
        def f(self, x: pl.Tensor[[4], pl.FP32]) -> pl.Tensor[[4], pl.FP32]:
            return x

    assert isinstance(Model, ir.Program) and Model.name == "Model"
    line, text = find_marker(_file_lines(path), "program-span")
    assert (Model.span.filename, Model.span.begin_line, Model.span.begin_column) == \
        (path, line, text.index("@pl.program") + 1)
    ir.assert_structural_equal(Model, ir.Program([identity()], "Model", SPAN))


def test_program_with_keyword_form_and_self_optional():
    @pl.program()
    class P:
        @pl.function
        def f(x: pl.Tensor[[4], pl.FP32]) -> pl.Tensor[[4], pl.FP32]:
            return x

    ir.assert_structural_equal(P, ir.Program([identity()], "P", SPAN))


def test_forward_reference_call_is_typed_with_callee_return_type():
    @pl.program
    class P:
        @pl.function
        def main(self, x: pl.Tensor[[4], pl.FP32]) -> pl.Tensor[[4], pl.FP32]:
            y = self.helper(x)
            return y

        @pl.function
        def helper(self, x: pl.Tensor[[4], pl.FP32]) -> pl.Tensor[[4], pl.FP32]:
            return x

    assign = stmts(P.get_function("main"))[0]
    call = assign.value
    assert isinstance(call, ir.Call) and isinstance(call.op, ir.GlobalVar)
    assert call.op.name == "helper" and call.type == T4
    x = ir.Var("x", T4, SPAN)
    y = ir.Var("y", T4, SPAN)
    main = ir.Function("main", [x], [T4], ir.SeqStmts.flatten([
        ir.AssignStmt(y, ir.Call(ir.GlobalVar("helper"), [x], T4, SPAN), SPAN),
        ir.ReturnStmt([y], SPAN)]), SPAN)
    ir.assert_structural_equal(P, ir.Program([main, identity("helper")], "P", SPAN))


def test_call_substitutes_dynamic_dims_of_the_callee():
    M = pl.dynamic("M")

    @pl.program
    class P:
        @pl.function
        def helper(self, x: pl.Tensor[[M], pl.FP32]) -> pl.Tensor[[M], pl.FP32]:
            return x

        @pl.function
        def main(self, x: pl.Tensor[[8], pl.FP32]) -> pl.Tensor[[8], pl.FP32]:
            y = self.helper(x)
            return y

    assert stmts(P.get_function("main"))[0].var.type == tensor([8])


def test_call_to_method_with_wrong_argument_count():
    with expect_error(ParserTypeError, "Function 'helper' expects 1 argument(s), got 2", "arity",
                      "self.helper"):
        @pl.program
        class P:
            @pl.function
            def main(self, x: pl.Tensor[[4], pl.FP32]) -> pl.Tensor[[4], pl.FP32]:
                y = self.helper(x, x)  # @arity
                return y

            @pl.function
            def helper(self, x: pl.Tensor[[4], pl.FP32]) -> pl.Tensor[[4], pl.FP32]:
                return x


def test_call_to_unknown_method():
    with expect_error(UndefinedVariableError, "Function 'nope' not defined in program", "unknown",
                      "self.nope") as info:
        @pl.program
        class P:
            @pl.function
            def main(self, x: pl.Tensor[[4], pl.FP32]) -> pl.Tensor[[4], pl.FP32]:
                y = self.nope(x)  # @unknown
                return y
    assert "main" in info.value.hint


def test_class_without_dsl_methods():
    with expect_error(ParserSyntaxError, "contains no @pl.function decorated methods", "empty",
                      "class"):
        @pl.program
        class Empty:  # @empty
            def helper(self, x):
                return x


def test_duplicate_method_names():
    with expect_error(ParserSyntaxError, "Duplicate method 'f'", "dup", "def"):
        @pl.program
        class P:
            @pl.function
            def f(self, x: pl.Tensor[[4], pl.FP32]) -> pl.Tensor[[4], pl.FP32]:
                return x

            @pl.function
            def f(self, x: pl.Tensor[[4], pl.FP32]) -> pl.Tensor[[4], pl.FP32]:  # noqa: F811  # @dup
                return x


def test_bare_function_decorator_name_is_discovered():
    @pl.program
    class P:
        @function
        def f(self, x: pl.Tensor[[4], pl.FP32]) -> pl.Tensor[[4], pl.FP32]:
            return x

        def not_dsl(self):
            return 1

    assert list(P.functions) == ["f"]


def test_decorator_keywords_are_read_from_the_source():
    @pl.program
    class P:
        @pl.function(type=pl.FunctionType.InCore)
        def k(self, x: pl.Tensor[[4], pl.FP32]) -> pl.Tensor[[4], pl.FP32]:
            return x

        @pl.function(level=Level.POD, role=pl.Role.Orchestrator, auto_scope=False)
        def h(self, x: pl.Tensor[[4], pl.FP32]) -> pl.Tensor[[4], pl.FP32]:
            return x

    k, h = P.get_function("k"), P.get_function("h")
    assert (k.func_type, k.level, k.role) == (ir.FunctionType.InCore, ir.Level.CHIP_DIE,
                                              ir.Role.SubWorker)
    assert (h.level, h.role, h.attrs) == (ir.Level.CLUSTER_0, ir.Role.Orchestrator,
                                          {"auto_scope": False})


def test_decorator_keyword_variable_is_rejected():
    chosen = pl.Level.HOST
    with expect_error(ParserSyntaxError, "Expected pl.Level.<name>", "level-var", "chosen"):
        @pl.program
        class P:
            @pl.function(level=chosen)  # @level-var
            def f(self, x: pl.Tensor[[4], pl.FP32]) -> pl.Tensor[[4], pl.FP32]:
                return x


def test_decorator_type_variable_names_function_type():
    kind = pl.FunctionType.InCore
    with expect_error(ParserSyntaxError, "Expected pl.FunctionType.<name>", "type-var", "kind"):
        @pl.program
        class P:
            @pl.function(type=kind)  # @type-var
            def f(self, x: pl.Tensor[[4], pl.FP32]) -> pl.Tensor[[4], pl.FP32]:
                return x


def test_decorator_role_variable_names_role():
    who = pl.Role.Orchestrator
    with expect_error(ParserSyntaxError, "Expected pl.Role.<name>", "role-var", "who"):
        @pl.program
        class P:
            @pl.function(role=who)  # @role-var
            def f(self, x: pl.Tensor[[4], pl.FP32]) -> pl.Tensor[[4], pl.FP32]:
                return x


def test_decorator_auto_scope_must_be_a_literal():
    flag = False
    with expect_error(ParserSyntaxError, "auto_scope= must be True or False", "auto", "flag"):
        @pl.program
        class P:
            @pl.function(auto_scope=flag)  # @auto
            def f(self, x: pl.Tensor[[4], pl.FP32]) -> pl.Tensor[[4], pl.FP32]:
                return x


def test_unknown_level_member_lists_valid_spellings():
    err_text = "Unknown Level value: MOON"
    with pytest.raises(AttributeError):  # Python itself evaluates the decorator first ...
        @pl.program
        class P:
            @pl.function(level=pl.Level.MOON)
            def f(self, x: pl.Tensor[[4], pl.FP32]) -> pl.Tensor[[4], pl.FP32]:
                return x
    # ... so the parser's own check is seen through pl.parse, which validates first.
    err = expect_text_error("""\
        import pypto.language as pl
        @pl.program
        class P:
            @pl.function(level=pl.Level.MOON)  # @moon
            def f(self, x: pl.Tensor[[4], pl.FP32]) -> pl.Tensor[[4], pl.FP32]:
                return x
        """, ParserSyntaxError, err_text, "moon", "pl.Level.MOON")
    assert "pl.Level.CHIP_DIE" in err.hint and "pl.Level.POD" in err.hint


# -- SubWorker methods at HOST and above --------------------------------------------------

def test_host_subworker_body_is_kept_verbatim():
    @pl.program
    class P:
        @pl.function(level=pl.Level.HOST, role=pl.Role.SubWorker)
        def worker(x: pl.Tensor[[4], pl.FP32]) -> pl.Tensor[[4], pl.FP32]:
            # runs on the host
            import math
            # plain Python, never parsed as DSL
            return [math.sqrt(v) for v in x]

        @pl.function
        def main(self, x: pl.Tensor[[4], pl.FP32]) -> pl.Tensor[[4], pl.FP32]:
            y = self.worker(x)
            return y

    worker = P.get_function("worker")
    assert isinstance(worker.body, ir.InlineStmt)
    assert worker.body.language is ir.InlineLanguage.Python
    # The statements as written, without comments, as PyPTO keeps them (conformance 0422).
    assert worker.body.body == "import math\nreturn [math.sqrt(v) for v in x]"
    assert not worker.requires_runtime_binding
    assert (worker.level, worker.role) == (ir.Level.HOST, ir.Role.SubWorker)


def test_host_subworker_body_drops_trailing_comments_but_not_hashes_in_strings():
    text = '''\
import pypto.language as pl
@pl.program
class P:
    @pl.function(level=pl.Level.HOST, role=pl.Role.SubWorker)
    def worker(x: pl.Tensor[[4], pl.FP32]) -> pl.Tensor[[4], pl.FP32]:
        tag = "# kept"  # dropped
        doc = """
        # kept too
        """
        return x
'''
    worker = pl.parse(text).get_function("worker")
    assert worker.body.body == 'tag = "# kept"\ndoc = """\n# kept too\n"""\nreturn x'


@pytest.mark.parametrize("level", ["GLOBAL", "CLUSTER_2", "NODE", "POD"])
def test_ellipsis_subworker_requires_runtime_binding(level):
    chosen = getattr(pl.Level, level)
    text = f"""\
import pypto.language as pl
@pl.program
class P:
    @pl.function(level=pl.Level.{level}, role=pl.Role.SubWorker)
    def bound(x: pl.Tensor[[4], pl.FP32]) -> pl.Tensor[[4], pl.FP32]:
        ...
"""
    bound = pl.parse(text).get_function("bound")
    assert bound.requires_runtime_binding and bound.level is chosen
    assert ir.flatten_to_stmts(bound.body) == []


def test_chip_subworker_is_parsed_as_dsl():
    @pl.program
    class P:
        @pl.function(level=pl.Level.CHIP, role=pl.Role.SubWorker)
        def w(x: pl.Tensor[[4], pl.FP32]) -> pl.Tensor[[4], pl.FP32]:
            y = pl.add(x, x)
            return y

    assert isinstance(stmts(P.get_function("w"))[0], ir.AssignStmt)


def test_host_subworker_must_not_take_self():
    with expect_error(ParserSyntaxError, "must not take 'self'", "self", "self"):
        @pl.program
        class P:
            @pl.function(level=pl.Level.HOST, role=pl.Role.SubWorker)
            def worker(self, x: pl.Tensor[[4], pl.FP32]) -> pl.Tensor[[4], pl.FP32]:  # @self
                ...


# -- strict_ssa on programs -------------------------------------------------------------------

def test_program_strict_ssa_applies_to_every_method():
    with expect_error(SSAViolationError, "'y' is assigned more than once", "prog-ssa", "y ="):
        @pl.program(strict_ssa=True)
        class P:
            @pl.function
            def a(self, x: pl.Tensor[[4], pl.FP32]) -> pl.Tensor[[4], pl.FP32]:
                return x

            @pl.function
            def b(self, x: pl.Tensor[[4], pl.FP32]) -> pl.Tensor[[4], pl.FP32]:
                y = pl.add(x, x)
                y = pl.add(y, y)  # @prog-ssa
                return y


# -- external functions -----------------------------------------------------------------------

def test_external_function_joins_the_program():
    @pl.function
    def scale(x: pl.Tensor[[4], pl.FP32]) -> pl.Tensor[[4], pl.FP32]:
        y = pl.mul(x, 2.0)
        return y

    @pl.program
    class P:
        @pl.function
        def main(self, x: pl.Tensor[[4], pl.FP32]) -> pl.Tensor[[4], pl.FP32]:
            y = scale(x)
            z = scale(y)
            return z

    assert list(P.functions) == ["main", "scale"]
    assert P.get_function("scale") is scale
    call = stmts(P.get_function("main"))[0].value
    assert call.op.name == "scale" and call.type == T4


def test_external_function_call_rejects_keywords():
    @pl.function
    def scale(x: pl.Tensor[[4], pl.FP32]) -> pl.Tensor[[4], pl.FP32]:
        return x

    with expect_error(ParserSyntaxError, "positional arguments only", "ext-kw", "scale("):
        @pl.program
        class P:
            @pl.function
            def main(self, x: pl.Tensor[[4], pl.FP32]) -> pl.Tensor[[4], pl.FP32]:
                y = scale(x=x)  # @ext-kw
                return y


def test_two_externals_with_one_name_conflict():
    @pl.function
    def scale(x: pl.Tensor[[4], pl.FP32]) -> pl.Tensor[[4], pl.FP32]:
        return x
    first = scale

    @pl.function
    def scale(x: pl.Tensor[[4], pl.FP32]) -> pl.Tensor[[4], pl.FP32]:  # noqa: F811
        y = pl.add(x, x)
        return y
    second = scale

    with expect_error(ParserSyntaxError, "Conflicting external functions", "ext-conflict",
                      "second("):
        @pl.program
        class P:
            @pl.function
            def main(self, x: pl.Tensor[[4], pl.FP32]) -> pl.Tensor[[4], pl.FP32]:
                y = first(x)
                z = second(y)  # @ext-conflict
                return z


def test_external_named_like_a_method_conflicts():
    @pl.function
    def helper(x: pl.Tensor[[4], pl.FP32]) -> pl.Tensor[[4], pl.FP32]:
        return x
    outside = helper

    with expect_error(ParserSyntaxError, "Conflicting external functions", "ext-method",
                      "outside("):
        @pl.program
        class P:
            @pl.function
            def main(self, x: pl.Tensor[[4], pl.FP32]) -> pl.Tensor[[4], pl.FP32]:
                y = outside(x)  # @ext-method
                return y

            @pl.function
            def helper(self, x: pl.Tensor[[4], pl.FP32]) -> pl.Tensor[[4], pl.FP32]:
                return x


def test_class_level_constants_are_not_visible():
    with expect_error(UndefinedVariableError, "Undefined variable 'SCALE'", "class-const",
                      "SCALE"):
        @pl.program
        class P:
            SCALE = 2

            @pl.function
            def main(self, n: pl.Scalar[pl.INDEX]) -> pl.Scalar[pl.INDEX]:
                m = n * SCALE  # @class-const
                return m


def test_deprecated_attrs_inside_a_program_are_read_from_the_source():
    with pytest.warns(DeprecationWarning, match="deprecated"):
        @pl.program
        class P:
            @pl.function(attrs={"slot_num": 4})
            def f(self, x: pl.Tensor[[4], pl.FP32]) -> pl.Tensor[[4], pl.FP32]:
                return x

    assert P.get_function("f").attrs == {"slot_num": 4}


def test_strict_ssa_keyword_on_one_method():
    with expect_error(SSAViolationError, "'y' is assigned more than once", "method-ssa", "y ="):
        @pl.program
        class P:
            @pl.function
            def lax(self, x: pl.Tensor[[4], pl.FP32]) -> pl.Tensor[[4], pl.FP32]:
                y = pl.add(x, x)
                y = pl.add(y, y)
                return y

            @pl.function(strict_ssa=True)
            def strict(self, x: pl.Tensor[[4], pl.FP32]) -> pl.Tensor[[4], pl.FP32]:
                y = pl.add(x, x)
                y = pl.add(y, y)  # @method-ssa
                return y

"""``@pl.function`` (01-language.md §2.1): forms, options, strict_ssa, target checks."""

from __future__ import annotations

import warnings

import pytest

import pypto.language as pl
from pypto import ir
from pypto.language.parser.diagnostics import (ParserSyntaxError, SSAViolationError,
                                               UnsupportedFeatureError)

from _parser_helpers import (SPAN, expect_error, find_marker, printed, stmts, tensor,
                             _file_lines)

T4 = tensor([4])


def identity(name: str = "f", **options) -> ir.Function:
    x = ir.Var("x", T4, SPAN)
    return ir.Function(name, [x], [T4], ir.ReturnStmt([x], SPAN), SPAN, **options)


# -- @pl.function ------------------------------------------------------------------------

def test_bare_decorator_parses_at_decoration_time():
    @pl.function
    def f(x: pl.Tensor[[4], pl.FP32]) -> pl.Tensor[[4], pl.FP32]:
        return x

    assert isinstance(f, ir.Function)
    assert f.name == "f"
    ir.assert_structural_equal(f, identity())


def test_called_decorator_without_options_equals_bare_form():
    @pl.function()
    def f(x: pl.Tensor[[4], pl.FP32]) -> pl.Tensor[[4], pl.FP32]:
        return x

    ir.assert_structural_equal(f, identity())
    assert f.func_type is ir.FunctionType.Opaque and f.level is None and f.role is None


def test_function_type_derives_level_and_role():
    @pl.function(type=pl.FunctionType.Orchestration)
    def f(x: pl.Tensor[[4], pl.FP32]) -> pl.Tensor[[4], pl.FP32]:
        return x

    assert (f.func_type, f.level, f.role) == (ir.FunctionType.Orchestration, ir.Level.CHIP,
                                              ir.Role.Orchestrator)
    ir.assert_structural_equal(f, identity(type=ir.FunctionType.Orchestration))


@pytest.mark.parametrize("func_type, level, role", [
    (pl.FunctionType.InCore, ir.Level.CHIP_DIE, ir.Role.SubWorker),
    (pl.FunctionType.AIC, ir.Level.AIC, ir.Role.SubWorker),
    (pl.FunctionType.AIV, ir.Level.AIV, ir.Role.SubWorker),
    (pl.FunctionType.Group, ir.Level.CORE_GROUP, ir.Role.SubWorker),
    (pl.FunctionType.Graph, ir.Level.CHIP, ir.Role.Orchestrator),
    (pl.FunctionType.Spmd, None, None),
    (pl.FunctionType.Inline, None, None),
])
def test_every_function_type(func_type, level, role):
    @pl.function(type=func_type)
    def f(x: pl.Tensor[[4], pl.FP32]) -> pl.Tensor[[4], pl.FP32]:
        return x

    assert (f.func_type, f.level, f.role) == (func_type, level, role)


def test_explicit_level_and_role_on_opaque_function():
    @pl.function(level=pl.Level.NODE, role=pl.Role.Orchestrator)
    def f(x: pl.Tensor[[4], pl.FP32]) -> pl.Tensor[[4], pl.FP32]:
        return x

    assert f.level is ir.Level.HOST and f.role is ir.Role.Orchestrator
    ir.assert_structural_equal(f, identity(level=ir.Level.HOST, role=ir.Role.Orchestrator))


def test_level_role_conflict_is_wrapped_as_parser_syntax_error():
    with expect_error(ParserSyntaxError, "implies level=CHIP_DIE", "conflict", "def"):
        @pl.function(type=pl.FunctionType.InCore, level=pl.Level.HOST)
        def f(x: pl.Tensor[[4], pl.FP32]) -> pl.Tensor[[4], pl.FP32]:  # @conflict
            return x


def test_role_conflict_names_the_role():
    with expect_error(ParserSyntaxError, "implies role=Orchestrator", "role-conflict", "def"):
        @pl.function(type=pl.FunctionType.Orchestration, role=pl.Role.SubWorker)
        def f(x: pl.Tensor[[4], pl.FP32]) -> pl.Tensor[[4], pl.FP32]:  # @role-conflict
            return x


def test_auto_scope_false_is_stored_and_true_is_not():
    @pl.function(auto_scope=False)
    def off(x: pl.Tensor[[4], pl.FP32]) -> pl.Tensor[[4], pl.FP32]:
        return x

    @pl.function(auto_scope=True)
    def on(x: pl.Tensor[[4], pl.FP32]) -> pl.Tensor[[4], pl.FP32]:
        return x

    assert off.attrs == {"auto_scope": False}
    assert on.attrs == {}
    assert printed(off).splitlines()[0] == "@pl.function(auto_scope=False)"


def test_deprecated_attrs_warn_and_merge_with_func_attr():
    with pytest.warns(DeprecationWarning, match="attrs=.*deprecated"):
        @pl.function(attrs={"slot_num": 2})
        def f(x: pl.Tensor[[4], pl.FP32]) -> pl.Tensor[[4], pl.FP32]:
            pl.func_attr({"split": pl.SplitMode.UP_DOWN})
            return x

    assert f.attrs == {"slot_num": 2, "split": ir.SplitMode.UP_DOWN}
    assert f.split is ir.SplitMode.UP_DOWN


def test_no_warning_without_attrs():
    with warnings.catch_warnings():
        warnings.simplefilter("error")

        @pl.function
        def f(x: pl.Tensor[[4], pl.FP32]) -> pl.Tensor[[4], pl.FP32]:
            return x
    assert f.attrs == {}


def test_strict_ssa_rejects_rebinding_with_previous_span():
    path = __file__
    with expect_error(SSAViolationError, "'y' is assigned more than once", "second", "y =") as info:
        @pl.function(strict_ssa=True)
        def f(x: pl.Tensor[[4], pl.FP32]) -> pl.Tensor[[4], pl.FP32]:
            y = pl.add(x, x)  # @first
            y = pl.add(y, x)  # @second
            return y
    first_line, text = find_marker(_file_lines(path), "first")
    previous = info.value.previous_span
    assert (previous["line"], previous["column"]) == (first_line, text.index("y =") + 1)


def test_strict_ssa_rejects_rebinding_a_parameter():
    with expect_error(SSAViolationError, "'x' is assigned more than once", "param", "x ="):
        @pl.function(strict_ssa=True)
        def f(x: pl.Tensor[[4], pl.FP32]) -> pl.Tensor[[4], pl.FP32]:
            x = pl.add(x, x)  # @param
            return x


def test_strict_ssa_rejects_slice_store():
    with expect_error(SSAViolationError, "not allowed under strict_ssa", "slice-store", "a["):
        @pl.function(strict_ssa=True)
        def f(a: pl.Tensor[[4, 4], pl.FP32], b: pl.Tensor[[2, 4], pl.FP32]) -> pl.Tensor[[4, 4], pl.FP32]:
            a[0:2, :] = b  # @slice-store
            return a


def test_strict_ssa_rejects_element_store():
    with expect_error(SSAViolationError, "not allowed under strict_ssa", "elem-store", "a["):
        @pl.function(strict_ssa=True)
        def f(a: pl.Tensor[[4, 4], pl.FP32], v: pl.Scalar[pl.FP32]) -> pl.Tensor[[4, 4], pl.FP32]:
            a[1, 2] = v  # @elem-store
            return a


def test_without_strict_ssa_rebinding_reuses_the_var():
    @pl.function
    def f(x: pl.Tensor[[4], pl.FP32]) -> pl.Tensor[[4], pl.FP32]:
        y = pl.add(x, x)
        y = pl.add(y, x)
        return y

    first, second, ret = stmts(f)
    assert first.var is second.var and ret.value[0] is first.var


def test_external_source_is_out_of_scope():
    with expect_error(UnsupportedFeatureError, "external_source", "fn-ext-src",
                      "external_source"):
        @pl.function(external_source="kernel.cpp")  # @fn-ext-src
        def f(x: pl.Tensor[[4], pl.FP32]) -> pl.Tensor[[4], pl.FP32]:
            return x


def test_external_source_in_program_points_at_the_keyword():
    with expect_error(UnsupportedFeatureError, "external_source", "ext-src", "external_source"):
        @pl.program
        class P:
            @pl.function(external_source="kernel.cpp")  # @ext-src
            def f(self, x: pl.Tensor[[4], pl.FP32]) -> pl.Tensor[[4], pl.FP32]:
                return x


def test_unknown_decorator_keyword_is_a_type_error():
    with pytest.raises(TypeError, match="unexpected keyword argument 'colour'"):
        pl.function(colour="red")


def test_decorator_inside_class_returns_the_python_function():
    class Plain:
        @pl.function
        def f(self, x: pl.Tensor[[4], pl.FP32]) -> pl.Tensor[[4], pl.FP32]:
            return x

    assert callable(Plain.f) and not isinstance(Plain.f, ir.Function)


def test_positional_argument_to_the_decorator():
    with pytest.raises(TypeError, match="keyword arguments only"):
        pl.function(3)


@pytest.mark.parametrize("apply, message", [
    (lambda: pl.program(identity()), "pl.program decorates a class, got Function"),
    (lambda: pl.function()(type("C", (), {})), "pl.function decorates a def, got type"),
    (lambda: pl.inline(identity()), "pl.inline decorates a def, got Function"),
])
def test_decorators_reject_the_wrong_kind_of_target(apply, message):
    with pytest.raises(TypeError, match=message):
        apply()


def test_deprecated_attrs_warn_once_at_the_users_line_in_a_program():
    import warnings

    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")

        @pl.program
        class P:
            @pl.function(attrs={"slot_num": 2})
            def main(self, x: pl.Tensor[[4], pl.FP32]) -> pl.Tensor[[4], pl.FP32]:
                return x

    found = [w for w in caught if issubclass(w.category, DeprecationWarning)]
    assert len(found) == 1, [str(w.message) for w in found]
    assert found[0].filename == __file__
    assert "pl.func_attr" in str(found[0].message)
    assert P.get_function("main").attrs["slot_num"] == 2


def test_deprecated_attrs_in_dsl_text_warn_at_the_text_line():
    import warnings

    text = ("import pypto.language as pl\n\n@pl.program\nclass P:\n"
            "    @pl.function(attrs={'slot_num': 2})\n"
            "    def main(self, x: pl.Tensor[[4], pl.FP32]) -> pl.Tensor[[4], pl.FP32]:\n"
            "        return x\n")
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        pl.parse(text)
    found = [w for w in caught if issubclass(w.category, DeprecationWarning)]
    assert [(w.lineno, "attrs=" in str(w.message)) for w in found] == [(5, True)]

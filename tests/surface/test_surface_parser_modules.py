"""``pypto.language.parser``'s public modules (PyPTO's paths) and what they do."""

from __future__ import annotations

import ast
import textwrap

import pytest

import pypto.language as pl
from pypto import ir
from pypto.language.parser import (ast_parser, comment_extractor, diagnostics, enum_utils,
                                   expr_evaluator, scope_manager, source_lookup, span_tracker,
                                   type_resolver)
from pypto.language.parser.diagnostics import error_codes, exceptions, renderer

N = 8


def test_error_codes_are_the_clis_codes():
    E = error_codes.ErrorCode
    assert [c.value for c in error_codes.ErrorCategory] == ["E0", "E1", "E2", "E3"]
    assert len(E) == 22 and E.SSA_VIOLATION.value == "E201"
    assert error_codes.get_error_code(exceptions.ParserTypeError) is E.INVALID_TYPE_ANNOTATION
    assert error_codes.get_error_code(exceptions.DSLSyntaxError) is E.UNSUPPORTED_STATEMENT
    assert error_codes.get_error_code(exceptions.ParserError) is None
    assert error_codes.get_error_code(ValueError) is None
    from pypto.language.parser.findings import PARSER_CODES, parser_error_code
    assert PARSER_CODES[exceptions.UndefinedVariableError] == ("E200", "UNDEFINED_VARIABLE")
    err = exceptions.SSAViolationError("x rebound")
    assert parser_error_code(err) == "E201"


def test_diagnostics_package_reexports_its_modules():
    assert diagnostics.ParserError is exceptions.ParserError
    assert diagnostics.ErrorRenderer is renderer.ErrorRenderer
    assert diagnostics.BUG_CLASS_EXCEPTIONS == (__import__("pypto").InternalError, AssertionError)
    err = exceptions.ParserTypeError("bad", {"filename": "k.py", "line": 2, "column": 5},
                                     hint="fix it", source_lines=["a = 1", "b = a + x"])
    text = renderer.ErrorRenderer(use_color=False).render(error=err)
    assert "k.py:2:5" in text and "b = a + x" in text and "fix it" in text


def test_comment_extractor_finds_full_line_comments():
    source = "x = 1  # trailing\n    # first\n#second\ny = 2\n"
    assert comment_extractor.extract_line_comments(source) == {2: "first", 3: "second"}


def test_span_tracker_maps_ast_positions_to_file_spans():
    lines = ["def f(x):", "    y = 'é' + x", "    return y"]
    tracker = span_tracker.SpanTracker("k.py", lines, line_offset=10, col_offset=4)
    tree = ast.parse("\n".join(lines))
    assign = tree.body[0].body[0]
    span = tracker.get_span(assign.value.right)  # the x after a two-byte character
    assert (span.filename, span.begin_line, span.begin_column) == ("k.py", 12, 4 + 15)
    whole = tracker.get_multiline_span(tree.body[0].body[0], tree.body[0].body[1])
    assert (whole.begin_line, whole.end_line) == (12, 13)
    assert span_tracker.ast_column_to_span_column("y = 'é' + x", 11) == 11


def test_enum_utils_reads_enum_spellings():
    node = ast.parse("pl.Level.HOST", mode="eval").body
    assert enum_utils.extract_enum_value(node, enum_utils.LEVEL_MAP, "Level", True) \
        is pl.Level.HOST
    assert enum_utils.LEVEL_MAP["L2CACHE"] is pl.Level.CHIP_DIE  # PyPTO's aliases
    assert set(enum_utils.FUNCTION_TYPE_MAP) == set(pl.FunctionType.__members__)
    bare = ast.parse("HOST", mode="eval").body
    assert enum_utils.extract_enum_value(bare, enum_utils.LEVEL_MAP, "Level", False) \
        is pl.Level.HOST
    with pytest.raises(exceptions.ParserSyntaxError, match="Expected pl.Level.<name>"):
        enum_utils.extract_enum_value(bare, enum_utils.LEVEL_MAP, "Level", True)
    with pytest.raises(exceptions.ParserSyntaxError, match="Unknown Level value: MOON"):
        enum_utils.extract_enum_value(ast.parse("pl.Level.MOON", mode="eval").body,
                                      enum_utils.LEVEL_MAP, "Level", True)


def _expr(text: str) -> ast.expr:
    return ast.parse(text, mode="eval").body


def test_expr_evaluator_evaluates_against_the_closure_and_makes_ir():
    M = pl.dynamic("M")
    ev = expr_evaluator.ExprEvaluator({"N": 8, "M": M})
    assert ev.eval_expr(_expr("N * 2 + 1")) == 17
    assert ev.try_eval_expr(_expr("undefined_name")) == (False, None)
    with pytest.raises(exceptions.UndefinedVariableError):
        ev.eval_expr(_expr("undefined_name"))
    shape = ev.python_value_to_ir([N, M])
    assert isinstance(shape, ir.MakeTuple) and shape.elements[1] is ev.get_or_create_dynvar(M)
    assert ev.try_eval_as_ir(_expr("N")).value == 8 and ev.try_eval_as_ir(_expr("'s'")) is None


def test_scope_manager_tracks_scopes_ssa_and_yields():
    sm = scope_manager.ScopeManager(strict_ssa=True)
    sm.enter_scope("function")
    sm.define_var("x", 1, span={"filename": "k.py", "line": 3, "column": 1})
    sm.enter_scope("for")
    assert sm.current_scope_type() == "for" and sm.in_scope_type("function")
    with pytest.raises(scope_manager.SSAViolationError) as info:
        sm.define_var("x", 2, span={"filename": "k.py", "line": 5, "column": 1})
    assert info.value.previous_span["line"] == 3 and info.value.span["line"] == 5
    sm.define_var("y", 3)
    sm.mark_yielded("y")
    assert sm.get_yielded_vars() == ["y"]
    sm.exit_scope(leak_vars=True)
    assert sm.lookup_var("y") == 3 and sm.is_defined("x") and not sm.is_defined("z")
    relaxed = scope_manager.ScopeManager()
    relaxed.define_var("x", 1)
    relaxed.define_var("x", 2)
    assert relaxed.lookup_var("x") == 2


def test_type_resolver_reads_annotations_like_the_parser():
    M = pl.dynamic("M")
    ev = expr_evaluator.ExprEvaluator({"pl": pl, "M": M})
    resolver = type_resolver.TypeResolver(ev)
    t = resolver.resolve_type(_expr("pl.Tensor[[M, 64], pl.FP32]"))
    assert isinstance(t, ir.TensorType) and t.shape[0] is ev.get_or_create_dynvar(M)
    param, direction = resolver.resolve_param_type(_expr("pl.InOut[pl.Tensor[[4], pl.FP16]]"))
    assert param == ir.TensorType([4], pl.FP16) and direction is ir.ParamDirection.InOut
    assert resolver.resolve_dtype(_expr("pl.BF16")) is pl.BF16
    assert resolver.resolve_layout(_expr("pl.NZ")) is pl.NZ
    with pytest.raises(exceptions.ParserTypeError, match="does not match"):
        resolver.validate_annotation_consistency(ir.TensorType([4], pl.FP16),
                                                 ir.TensorType([8], pl.FP16), "x", None)
    with pytest.raises(exceptions.ParserTypeError):
        resolver.resolve_type(_expr("pl.Tensor[[4]]"))


def test_ast_parser_parses_a_def_like_pl_parse():
    text = textwrap.dedent("""\
        def add(x: pl.Tensor[[N], pl.FP32], y: pl.Tensor[[N], pl.FP32]) -> pl.Tensor[[N], pl.FP32]:
            z = pl.add(x, y)
            return z
        """)
    parser = ast_parser.ASTParser("k.py", text.split("\n"), closure_vars={"pl": pl, "N": N})
    parsed = parser.parse_function(ast.parse(text).body[0])
    expected = pl.parse("import pypto.language as pl\n\n@pl.function\n"
                        + text.replace("[N]", "[8]"))
    ir.assert_structural_equal(parsed, expected, enable_auto_mapping=True)
    assert parsed.span.filename == "k.py"


class _Located:
    value = 1


def test_source_lookup_finds_a_class_definition():
    lines, first = source_lookup.get_class_source_lines(_Located)
    assert lines[0].startswith("class _Located:") and lines[1].strip() == "value = 1"
    with open(__file__, encoding="utf-8") as handle:
        assert handle.read().split("\n")[first - 1].startswith("class _Located:")


def test_parser_package_shows_pyptos_names():
    import pypto.language.parser as parser
    from pypto.language.parser import decorator
    assert parser.parse is pl.parse and parser.loads is pl.loads and parser.program is pl.program
    assert parser.InlineFunction is pl.InlineFunction is decorator.InlineFunction
    assert parser.Tensor is pl.Tensor and parser.range is pl.range
    assert parser.ParserError is exceptions.ParserError
    assert {"ast_parser", "type_resolver", "diagnostics", "parse"} <= set(dir(parser))
    assert decorator.function is pl.function and decorator.AUTO_SCOPE_ATTR == "auto_scope"

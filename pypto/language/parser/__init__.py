"""The DSL parser: Python AST -> IR (one module per construct family; see docs/design.md).

PyPTO's public names of this package -- the decorators, the text parser, the annotation
classes and its public modules (``ast_parser``, ``decorator``, ``diagnostics``, ...) --
are loaded on first access: the parser's own modules import this package first, and
the decorators import the parser.
"""

from __future__ import annotations

from ..._lazy import install_lazy_attributes as _install_lazy_attributes

__all__ = ["InlineFunction", "Scalar", "Tensor", "Tile", "function", "inline", "loads",
           "loads_program", "parse", "parse_program", "program", "range", "yield_"]

_NAMES = {
    "InlineFunction": "pypto.language.decorators", "function": "pypto.language.decorators",
    "inline": "pypto.language.decorators", "program": "pypto.language.decorators",
    "Scalar": "pypto.language.typing", "Tensor": "pypto.language.typing",
    "Tile": "pypto.language.typing", "range": "pypto.language.dsl",
    "yield_": "pypto.language.dsl", "loads": "pypto.language.parser.text_parser",
    "loads_program": "pypto.language.parser.text_parser",
    "parse": "pypto.language.parser.text_parser",
    "parse_program": "pypto.language.parser.text_parser",
    "ErrorRenderer": "pypto.language.parser.diagnostics",
    "ParserError": "pypto.language.parser.diagnostics",
}
_MODULES = ("ast_parser", "comment_extractor", "decorator", "diagnostics", "enum_utils",
            "expr_evaluator", "scope_manager", "source_lookup", "span_tracker", "text_parser",
            "type_resolver")
_install_lazy_attributes(__name__, {
    **{name: (home, name) for name, home in _NAMES.items()},
    **{name: (f"{__name__}.{name}", None) for name in _MODULES}})

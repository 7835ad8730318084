"""Walking vocabulary used by the outliner (shared with the verifiers via ``ir.walk``)."""

from __future__ import annotations

from ...ir.walk import (CONST_TYPES, attr_exprs, def_sites as stmt_def_vars, expr_children,
                        iter_var_uses as expr_vars, stmt_exprs as stmt_own_exprs)

__all__ = ["attr_exprs", "constants_only", "expr_children", "expr_vars", "stmt_def_vars",
           "stmt_own_exprs"]


def constants_only(items: tuple) -> bool:
    """Is every item a constant (an offset or shape tuple: no Var to read or rename)?"""
    for item in items:
        if type(item) not in CONST_TYPES:
            return False
    return True

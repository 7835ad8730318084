"""The op entries are the single source: every registered op declares a type rule and an
executor meaning (or a declared refusal), and the generated wrapper modules cover the
registry with real signatures that follow the entries."""

from __future__ import annotations

import inspect

import pytest

import pypto.ir.op as ir_op
import pypto.language as pl
import pypto.language.distributed as pld
from pypto.ir.ops import DEVICE_ONLY, OpDef, Semantics, get_op, list_ops
from pypto.ir.ops.signature import REQUIRED, print_layout, wrapper_params
from pypto.ir.ops.wrappers import wrapper_name

NAMESPACES = ("tensor", "tile", "system", "array", "prefetch")
LANGUAGE = {ns: getattr(pl, ns) for ns in NAMESPACES}
BUILDERS = {ns: getattr(ir_op, ns) for ns in NAMESPACES}
# The distributed ops: ``pld.tensor`` ... and ``ir.op.distributed.tensor_ops`` ...
LANGUAGE.update({f"pld.{ns}": getattr(pld, ns) for ns in ("system", "tensor", "tile")})
BUILDERS.update({f"pld.{ns}": getattr(ir_op.distributed, f"{ns}_ops")
                 for ns in ("system", "tensor", "tile")})


def test_every_op_declares_a_type_rule_and_an_executor_meaning():
    for name in list_ops():
        op = get_op(name)
        assert callable(op.deduce), name
        assert isinstance(op.semantics, Semantics), f"{name} has no executor meaning"
        assert op.semantics == DEVICE_ONLY or op.semantics.kernel != "device_only", name


# PyPTO's test.* ops have no wrappers and no DSL spelling (ir/ops/testing_ops.py).
WRAPPED_OPS = [name for name in list_ops() if not name.startswith("test.")]


@pytest.mark.parametrize("name", WRAPPED_OPS)
def test_wrapper_modules_cover_the_registry(name):
    op = get_op(name)
    short = wrapper_name(op.short_name)
    module, builders = LANGUAGE[op.namespace], BUILDERS[op.namespace]
    assert short in module.PARSER_ENTRIES, f"the parser cannot read back {name}"
    if op.pl is not None:
        assert short in module.__all__ and callable(getattr(module, short)), name
    if op.ir is not None:
        assert short in builders.__all__ and callable(getattr(builders, short)), name
    for alias in op.aliases:
        assert getattr(module, alias) is getattr(module, short)


def _expected_parameters(op: OpDef, flavour: str) -> list[tuple[str, object, bool]]:
    params = wrapper_params(op, flavour)
    out = [(p.name, None if p.default is REQUIRED else p.default, p.keyword_only)
           for p in params]
    if flavour == "pl" and not any(p.target == "span" for p in params):
        out.append(("span", None, True))  # the pl wrappers' own keyword-only span
    return out


def _actual_parameters(fn) -> list[tuple[str, object, bool]]:
    out = []
    for p in inspect.signature(fn).parameters.values():
        default = None if p.default is inspect.Parameter.empty else p.default
        out.append((p.name, default, p.kind is inspect.Parameter.KEYWORD_ONLY))
    return out


@pytest.mark.parametrize("name", WRAPPED_OPS)
def test_generated_signatures_follow_the_entry(name):
    op = get_op(name)
    short = wrapper_name(op.short_name)
    for flavour, module in (("pl", LANGUAGE[op.namespace]), ("ir", BUILDERS[op.namespace])):
        fn = getattr(module, short, None)
        if wrapper_params(op, flavour) is None or fn is None \
                or not fn.__code__.co_filename.endswith(" wrappers>"):
            continue  # no such wrapper, or a hand-written router
        assert _actual_parameters(fn) == _expected_parameters(op, flavour), (name, flavour)


def test_signatures_are_pyptos():
    sig = str(inspect.signature(pl.tile.load))
    assert sig.startswith("(tensor, offsets, shapes, valid_shape=None, target_memory=")
    assert str(inspect.signature(ir_op.tensor.div)) == \
        "(lhs, rhs, span=None, *, high_precision=False)"
    assert str(inspect.signature(ir_op.tensor.matmul_acc)) == \
        "(acc, lhs, rhs, a_trans=False, b_trans=False, span=None, *, init_cond=None)"
    assert str(inspect.signature(pl.tensor.full)) == "(shape, dtype, value, *, span=None)"
    assert str(inspect.signature(ir_op.system.task_invalid)) == "(*, span=None)"
    assert str(inspect.signature(ir_op.tensor.assemble)) == \
        "(target, source, offset, span=None, *, atomic=0)"


def test_module_aliases_are_pyptos():
    import pypto.language.op as op_pkg
    assert pl.tensor is op_pkg.tensor is op_pkg.tensor_ops
    assert pl.tile is op_pkg.tile_ops and pl.system is op_pkg.system_ops
    assert pl.array is op_pkg.array_ops and pl.prefetch is op_pkg.prefetch_ops
    assert pl.adir is pl.arg_direction
    assert pl.adir.input is pl.ArgDirection.Input
    assert pl.adir.DIRECTION_TO_NAME[pl.adir.output_existing] == "output_existing"
    assert ir_op.tensor is ir_op.tensor_ops and ir_op.tile is ir_op.tile_ops


def test_print_layout_follows_the_wrapper():
    acc = get_op("tensor.matmul_acc")
    args = ("acc", "lhs", "rhs", "cond")
    # init_cond comes after the attributes in PyPTO's wrapper: printed by keyword
    assert print_layout(acc, args, {"a_trans": True, "b_trans": False}) == \
        (["acc", "lhs", "rhs"], [("a_trans", True), ("init_cond", "cond")])
    full = get_op("tensor.full")
    assert print_layout(full, ("shape", "value"), {"dtype": "FP32"}) == \
        (["shape"], [("dtype", "FP32"), ("value", "value")])
    row_sum = get_op("tensor.row_sum")  # hidden attributes are never printed
    assert print_layout(row_sum, ("x",), {"keep_dim": True, "axis": -1}) == (["x"], [])

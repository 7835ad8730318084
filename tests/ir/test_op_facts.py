"""Every registered op against PyPTO's facts (``data/pypto_op_facts.json``, read off the
reference release): the same operands and attributes, and a printed call that PyPTO's
own wrapper accepts -- no keyword PyPTO lacks, operands where its parameters expect
them, every parameter it requires supplied (issue 13.2)."""

from __future__ import annotations

import inspect
import json
import pathlib

import pytest

import pypto.language as pl
from pypto import ir

from pypto.ir.ops import get_op, list_ops
from pypto.ir.ops.signature import print_layout, router_params, wrapper_params
from pypto.ir.ops.wrappers import wrapper_name

FACTS = json.loads((pathlib.Path(__file__).parent / "data" / "pypto_op_facts.json").read_text())
WRAPPERS, OPS = FACTS["pl_wrappers"], FACTS["ops"]
# PyPTO's test.* ops have no wrappers and no DSL spelling (ir/ops/testing_ops.py).
CHECKED = [name for name in list_ops() if not name.startswith("test.")]

# The reference's operand lists of these ops run on into the registrations that follow
# them in the same source file (``tile.transpose`` lists ``tile.transpose_view``'s
# ``input`` after its own).  Their own operands are the first n (docs/guide/differences.md).
MERGED = {"pld.system.notify": 4, "system.set_ffts": 1, "tile.alloc": 2, "tile.extract": 4,
          "tile.transpose": 4, "tile.transpose_view": 1}
# ...and the registrations they ran on into: the same names, in file order.
RUN_ON = {"pld.system.notify": ["pld.system.wait", "pld.system.defer_wait"],
          "tile.transpose": ["tile.transpose_view"],
          "system.set_ffts": ["system.sync_set", "system.sync_wait", "system.tfree_to_aic",
                              "system.tfree_to_aiv", "system.aic_initialize_pipe",
                              "system.aiv_initialize_pipe"]}

# Ops PyPTO has no pl wrapper of their own for, and that pypto prints in their own name:
# no PyPTO wrapper builds them (task_is_valid, tget_scale_addr), or the router's layout
# depends on the operand count (tile.mrgsort_format2: the last operand is the scratch
# tile).  The others print through the router that builds them (OpDef.router:
# pl.tensor.gather(x, mask_pattern=...), the unified pl.aic_gather(x)).
ROUTED_ONLY = {"system.task_is_valid", "tile.mrgsort_format2", "tile.tget_scale_addr"}
# Attributes only PyPTO's ir.op builder sets; printed as a keyword its pl wrapper lacks.
IR_ONLY_ATTRS = {"tile.aic_gather": {"split"}, "tile.aiv_shard": {"split", "lane_stride"}}


def _wrapper_key(name: str) -> str:
    namespace, short = name.rsplit(".", 1)
    router = get_op(name).router
    if router is not None and router[0].startswith("pl."):  # a unified op
        return router[0]
    short = router[0] if router is not None else wrapper_name(short)
    return f"{'' if namespace.startswith('pld.') else 'pl.'}{namespace}.{short}"


def _signature(params: list) -> inspect.Signature:
    kinds = {"pos": inspect.Parameter.POSITIONAL_OR_KEYWORD,
             "kw": inspect.Parameter.KEYWORD_ONLY, "*args": inspect.Parameter.VAR_POSITIONAL,
             "**kwargs": inspect.Parameter.VAR_KEYWORD}
    return inspect.Signature([
        inspect.Parameter(name, kinds[kind], default=None if default else
                          inspect.Parameter.empty) for name, kind, default in params])


def test_the_facts_cover_the_registry():
    assert sorted(set(CHECKED) - set(OPS)) == []
    missing = sorted(name for name in CHECKED if _wrapper_key(name) not in WRAPPERS)
    assert missing == sorted(ROUTED_ONLY)


@pytest.mark.parametrize("name", CHECKED)
def test_operands_and_attributes_are_pyptos(name):
    op = get_op(name)
    arguments, attrs = OPS[name]
    ours = [p.name for p in op.params]
    if name in MERGED:
        own = MERGED[name]
        assert ours[:own] == arguments[:own]
        assert all(p.optional for p in op.params[own:])  # (ir.op.tile.alloc's addr, alloc_id)
        following = [n for entry in RUN_ON.get(name, [])
                     for n in OPS[entry][0][:MERGED.get(entry)]]
        if following:
            assert arguments[own:] == following
    else:
        assert ours == arguments
    assert sorted(k.name for k in op.keywords) == sorted(attrs)


class _Value:
    """A stand-in operand or attribute value: never equal to a default."""

    def __init__(self, label: str) -> None:
        self.label = label


def _printed_calls(op):
    """The (positional, keywords) layouts the printer gives calls of ``op``: every
    operand given, then each trailing optional operand left out in turn; every visible
    attribute set to a non-default value, then each at its default (a required one
    set).  An attribute whose wrapper parameter also names an operand
    (``sync_set(event_id)``: a constant or a runtime id) is set only without it."""
    given = tuple(_Value(p.name) for p in op.params)
    layout = wrapper_params(op, "pl") or router_params(op) or ()
    operand_names = {p.name for p in layout if p.target == "operand"}
    type_values = type("Result", (), {t.name: _Value(t.name) for t in op.type_params})()
    attrs = {name: _Value(name) for name in op.call_attrs}
    for count in range(len(op.params), op.min_args - 1, -1):
        for defaults in (False, True):
            kwargs = {k.name: _Value(k.name) if k.required or not defaults
                      or k.name in operand_names else k.default
                      for k in op.keywords if not k.hidden
                      and (k.name not in operand_names or count < op.max_args)}
            kwargs = {key: value for key, value in kwargs.items() if value is not None}
            yield print_layout(op, given[:count], kwargs, type_values, attrs)


@pytest.mark.parametrize("name", [n for n in CHECKED if n not in ROUTED_ONLY])
def test_printed_calls_bind_to_pyptos_wrapper(name):
    op = get_op(name)
    signature = _signature(WRAPPERS[_wrapper_key(name)])
    allowed = set(signature.parameters) | IR_ONLY_ATTRS.get(name, set())
    any_keyword = any(p.kind is p.VAR_KEYWORD for p in signature.parameters.values())
    for positional, keywords in _printed_calls(op):
        names = [key for key, _ in keywords]
        assert any_keyword or set(names) <= allowed, \
            f"{name} prints keywords PyPTO lacks: {sorted(set(names) - allowed)}"
        usable = {k: v for k, v in keywords if k not in IR_ONLY_ATTRS.get(name, ())}
        signature.bind(*positional, **usable)  # TypeError: PyPTO's wrapper refuses it


def test_the_printed_layout_is_the_pl_wrapper_where_pypto_has_one():
    # pypto's own pl wrappers print exactly PyPTO's parameter list (span aside)
    for name in CHECKED:
        params = wrapper_params(get_op(name), "pl")
        key = _wrapper_key(name)
        if params is None or key not in WRAPPERS or any(k.startswith("*") for _, k, _ in
                                                         WRAPPERS[key]):
            continue
        ours = [(p.name, "kw" if p.keyword_only else "pos") for p in params
                if p.target != "span"]
        theirs = [(n, k) for n, k, _ in WRAPPERS[key] if n != "span"]
        if name in ("tensor.gather", "tensor.scatter"):  # routers: the op's own parameters
            assert [n for n, _ in ours] == [n for n, _ in theirs][:len(ours)]
            continue
        assert ours == theirs, name


@pytest.mark.parametrize("name", sorted(n for n in CHECKED if get_op(n).router is not None))
def test_ops_built_by_a_router_print_through_it_and_read_back(name):
    op = get_op(name)
    shaped = ir.TensorType if op.namespace == "tensor" else ir.TileType
    params = [ir.Var(p.name, shaped([4, 32], ir.DataType.FP32)) for p in op.params
              if not p.optional and p.kind.name != "Scalar"]
    operands = iter(params)
    args = [64 if p.kind.name == "Scalar" else next(operands) for p in op.params
            if not p.optional]
    kwargs = {k.name: (2 if k.value.label == "int" else ir.DataType.FP32) for k in op.keywords
              if k.required}
    call = ir.create_op_call(name, args, kwargs)
    result = ir.Var("r", call.type)
    function = ir.Function("f", params, [call.type],
                           ir.SeqStmts([ir.AssignStmt(result, call), ir.ReturnStmt([result])]))
    text = ir.python_print(function)
    router = op.router[0]
    assert f"= {router if router.startswith('pl.') else f'pl.{op.namespace}.{router}'}(" in text
    back = pl.parse(text)
    ir.assert_structural_equal(function, back)
    assert back.body.stmts[0].value.op is op

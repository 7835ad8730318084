"""``pickle``, ``copy.copy`` and ``copy.deepcopy`` of IR (``ir/pickling.py``), on the
serialize corpus, which reaches every concrete class pypto.ir defines."""

from __future__ import annotations

import copy
import pickle

import pytest

from pypto import ir
from pypto.ir.pickling import rebuild
from tests.surface.test_serialize import Rich, _reached, corpus

INDEX = ir.DataType.INDEX


@pytest.mark.parametrize("node", corpus(), ids=lambda n: type(n).__name__)
def test_pickle_round_trip_is_structurally_equal_and_prints_the_same(node):
    back = pickle.loads(pickle.dumps(node))
    assert type(back) is type(node)
    ir.assert_structural_equal(node, back, enable_auto_mapping=True)  # free Vars are new
    if not isinstance(node, ir.CommDomainScopeStmt):  # the printer has no spelling for it
        assert ir.python_print(back) == ir.python_print(node)
    assert ir.serialize(back) == ir.serialize(node)  # every slot came back


@pytest.mark.parametrize("protocol", range(pickle.HIGHEST_PROTOCOL + 1))
def test_every_protocol_keeps_sharing_and_makes_new_variables(protocol):
    x = ir.Var("x", ir.ScalarType(INDEX))
    expr = ir.Add(x, ir.Mul(x, x, INDEX), INDEX)
    back = pickle.loads(pickle.dumps(expr, protocol))
    assert back.left is back.right.left is back.right.right
    assert back.left is not x and back.left.unique_id != x.unique_id
    assert back.left.name_hint == "x"


def test_singletons_and_registry_ops_come_back_as_themselves():
    items = [ir.DataType.FP32, ir.UnknownType.get(), ir.PtrType.get(),
             ir.distributed_types.CommCtxType.get(), ir.get_op("tile.load")]
    assert all(a is b for a, b in zip(pickle.loads(pickle.dumps(items)), items))
    ops = []
    _reached(pickle.loads(pickle.dumps(Rich)), set(), set(), ops)
    assert ops and all(op is ir.get_op(op.name) for op in ops)


def test_a_rebuilt_type_hashes_and_compares_like_the_original():
    t = ir.TensorType([16, ir.Var("n", ir.ScalarType(INDEX))], ir.DataType.FP32)
    hash(t)  # caches the hash in the original; the copy computes its own
    back = pickle.loads(pickle.dumps(t))
    assert back == ir.TensorType([16, back.shape[1]], ir.DataType.FP32)
    assert hash(back) == hash(ir.TensorType([16, back.shape[1]], ir.DataType.FP32))


def test_copy_and_deepcopy():
    x = ir.Var("x", ir.ScalarType(INDEX))
    stmt = ir.AssignStmt(x, ir.ConstInt(1, INDEX))
    shallow = copy.copy(stmt)
    assert shallow is not stmt and shallow.var is x
    deep = copy.deepcopy(stmt)
    assert deep.var is not x
    ir.assert_structural_equal(deep, stmt, enable_auto_mapping=True)
    with pytest.raises(AttributeError, match="immutable"):
        deep.var = x  # still immutable


def test_rebuild_makes_only_ir_classes():
    with pytest.raises(TypeError, match="cannot rebuild a 'dict': not an IR class"):
        rebuild(dict, ())

"""``ir.serialize`` / ``ir.deserialize``: a real round trip within pypto, on every IR
node kind (the corpus below must reach every concrete class pypto.ir defines)."""

from __future__ import annotations

import pytest

import pypto.language as pl
from pypto import ir, passes
from pypto.ir.serialize import _classes, _slots
from tests.distributed.programs import AllReduce, Ring

M = pl.dynamic("M")


@pl.program
class Rich:
    @pl.function(type=pl.FunctionType.InCore)
    def kernel(self, a: pl.Tensor[[16, 16], pl.FP32], out: pl.Out[pl.Tensor[[16, 16], pl.FP32]]
               ) -> pl.Tensor[[16, 16], pl.FP32]:
        t = pl.load(a, [0, 0], [16, 16])
        u = pl.tile.adds(t, 1.0)
        out = pl.store(u, [0, 0], out)
        return out

    @pl.function
    def main(self, a: pl.Tensor[[16, 16], pl.FP32], n: pl.Scalar[pl.INDEX],
             out: pl.Out[pl.Tensor[[16, 16], pl.FP32]]) -> pl.Tensor[[16, 16], pl.FP32]:
        acc = 0
        for i in pl.range(n):
            if i % 2 == 0 and not (i > 7):
                acc = acc + (i << 1) ^ 3
            else:
                acc = -acc // 2
        k = 0
        while k < acc:
            if k > 100:
                break
            if k == 50:
                continue
            k = k + 1
        with pl.at(level=pl.Level.CORE_GROUP):
            out = self.kernel(a, out)
        for j in pl.parallel(4):
            with pl.spmd(2):
                b = pl.tile.get_block_idx()
                t = pl.load(a, [0, b * 8], [8, 8])
                pl.store(pl.exp(t), [0, 0], out)
        return out


@pl.program
class Views:
    @pl.function(type=pl.FunctionType.InCore)
    def f(self, x: pl.Tensor[[M, 16], pl.FP16, pl.TensorView(stride=[16, 1])],
          t: pl.Tile[[16, 16], pl.FP32, pl.Mem.Vec,
                     pl.TileView(valid_shape=[8, 16], pad=pl.PadValue.zero)]):
        pl.tile.adds(t, 2.0)
        return


def _pipeline_outputs(program):
    out = [program]
    with passes.PassContext([], verification_level=passes.VerificationLevel.NONE):
        for p in (passes.convert_to_ssa(), passes.outline_hierarchy_scopes(),
                  passes.outline_incore_scopes(), passes.outline_cluster_scopes()):
            program = p(program)
            out.append(program)
    return out


def _built_nodes():
    """Kinds the DSL programs above do not reach: every scalar operator, the scopes the
    outliners remove, and nodes only passes or builders make."""
    idx, flt, boolean = ir.DataType.INDEX, ir.DataType.FP32, ir.DataType.BOOL
    i, f, b = (ir.Var(n, ir.ScalarType(t)) for n, t in (("i", idx), ("f", flt), ("b", boolean)))
    exprs = [cls(b, b, boolean) if cls in (ir.And, ir.Or, ir.Xor) else
             cls(f, f, flt) if cls in (ir.FloatDiv, ir.Pow) else
             cls(i, i, boolean) if cls in (ir.Eq, ir.Ne, ir.Lt, ir.Le, ir.Gt, ir.Ge) else
             cls(i, i, idx) for cls in ir.BinaryExpr.__subclasses__()]
    exprs += [ir.Not(b, boolean), ir.Neg(i, idx), ir.Abs(i, idx), ir.BitNot(i, idx),
              ir.Cast(i, flt), ir.ConstBool(True), ir.ConstFloat(0.5, flt)]
    pair = ir.MakeTuple([i, f])
    exprs.append(ir.TupleGetItemExpr(pair, 1))
    body = ir.SeqStmts([ir.EvalStmt(e) for e in exprs])
    tile = ir.TileType([16, 16], flt, ir.MemRef(ir.Var("mem_vec_0", ir.PtrType.get()), 0, 1024),
                       memory_space=ir.Mem.Vec)
    submit = ir.Submit(ir.GlobalVar("k"), [i], [], ir.UnknownType.get(), core_num=2)
    return [body,
            ir.GraphScopeStmt("layer", body=body),
            ir.CommDomainScopeStmt([0, 1], [0], "d", body=body),
            ir.ClusterScopeStmt(body=body),
            ir.SplitAivScopeStmt(ir.SplitMode.UP_DOWN, 2, "aiv", body),
            ir.HierarchyScopeStmt(ir.Level.HOST, ir.Role.Orchestrator, body=body),
            ir.RuntimeScopeStmt(manual=True, body=body),
            ir.InlineStmt("print(1)"),
            ir.EvalStmt(submit),
            ir.Var("w", ir.distributed_types.WindowBufferType.get()),
            ir.distributed_types.WindowBuffer("win", 64),
            ir.Var("t", tile),
            ir.Call(ir.Op("custom.op"), [i]),
            ir.TupleType([ir.distributed_types.CommCtxType.get(),
                          ir.distributed_types.WindowBufferType.get()]),
            ir.TupleType([ir.ArrayType(ir.DataType.INT32, 8), ir.PtrType.get(),
                          ir.AsyncEventType.get(), ir.AsyncSessionType.get(),
                          ir.PrefetchAsyncContextType.get()])]


def corpus():
    items = []
    for program in (Rich, Views, AllReduce, Ring):
        items += _pipeline_outputs(program)
    return items + _built_nodes()


def _reached(node, seen, classes, ops=None):
    """Collect the classes of everything reachable from ``node`` (and registered ops)."""
    if id(node) in seen:
        return
    seen.add(id(node))
    classes.add(f"{type(node).__module__}.{type(node).__qualname__}")
    if ops is not None and isinstance(node, ir.ops.OpDef):
        ops.append(node)
    for slot in _slots(type(node)):
        try:
            value = object.__getattribute__(node, slot)
        except AttributeError:
            continue
        items = value if isinstance(value, (list, tuple)) else \
            list(value.values()) + list(value) if isinstance(value, dict) else [value]
        for item in items:
            if isinstance(item, (ir.IRNode, ir.Type, ir.MemRef, ir.TensorView, ir.TileView,
                                 ir.Op)):
                _reached(item, seen, classes, ops)


@pytest.mark.parametrize("node", corpus(), ids=lambda n: type(n).__name__)
def test_round_trip_is_structurally_equal_and_prints_the_same(node):
    data = ir.serialize(node)
    assert isinstance(data, bytes) and data.startswith(b"pypto-ir 1\n")
    back = ir.deserialize(data)
    assert type(back) is type(node)
    ir.assert_structural_equal(node, back, enable_auto_mapping=True)  # free Vars are new
    if not isinstance(node, ir.CommDomainScopeStmt):  # the printer has no spelling for it
        assert ir.python_print(back) == ir.python_print(node)
    assert ir.serialize(back) == data  # nothing is lost or added on the way


def test_the_corpus_reaches_every_concrete_node_kind():
    assert _missing() == []


def test_sharing_survives_variables_stay_one_object_and_ops_are_the_registry_entries():
    x = ir.Var("x", ir.ScalarType(ir.DataType.INDEX))
    expr = ir.Add(x, ir.Mul(x, x, ir.DataType.INDEX), ir.DataType.INDEX)
    back = ir.deserialize(ir.serialize(expr))
    assert back.left is back.right.left is back.right.right
    assert back.left is not x and back.left.unique_id != x.unique_id
    again = ir.deserialize(ir.serialize(Rich))
    ops = []
    _reached(again, set(), set(), ops)
    assert {op.name for op in ops} >= {"tile.load", "tile.adds", "tile.store"}
    assert all(op is ir.get_op(op.name) for op in ops)


def test_file_round_trip(tmp_path):
    path = tmp_path / "rich.pir"
    ir.serialize_to_file(Rich, str(path))
    ir.assert_structural_equal(ir.deserialize_from_file(str(path)), Rich)


@pytest.mark.parametrize("data, message", [
    (b"not ir", "missing the 'pypto-ir 1' header"),
    (b"pypto-ir 1\n{", "corrupt data"),
    (b'pypto-ir 1\n{"id": 0, "class": "os.system", "slots": {}}', "unknown IR class 'os.system'"),
    (b'pypto-ir 1\n{"ref": 3}', "reference to unknown node 3"),
    (b'pypto-ir 1\n{"dtype": "FP99"}', "unknown data type 'FP99'"),
])
def test_bad_data_is_a_value_error(data, message):
    with pytest.raises(ValueError, match=message):
        ir.deserialize(data)


def test_serialize_rejects_what_is_not_ir():
    with pytest.raises(TypeError, match="serialize expects an IR node, got int"):
        ir.serialize(3)


def _missing():
    abstract = {"IRNode", "Expr", "Stmt", "Type", "ShapedType", "_Value", "BinaryExpr",
                "UnaryExpr", "ScopeStmt", "_UnitType"}
    wanted = {name for name in _classes() if name.rsplit(".", 1)[1] not in abstract}
    found: set[str] = set()
    seen: set[int] = set()
    for node in corpus():
        _reached(node, seen, found)
    return sorted(wanted - found)

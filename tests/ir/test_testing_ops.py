"""PyPTO's ``test.*`` ops: the registry's error paths, reached through
``ir.create_op_call`` (they have no wrappers and no DSL spelling)."""

from __future__ import annotations

import numpy as np
import pytest

import pypto
from pypto import ir
from pypto.errors import InternalError
from pypto.runtime import ExecutionError

DT = ir.DataType
X = ir.Var("x", ir.TensorType([4], DT.FP32))
N = ir.Var("n", ir.ScalarType(DT.INDEX))


def test_attributes_are_canonical_with_defaults():
    call = ir.create_op_call("test.op", [X, N], {"int_attr": 3})
    assert call.kwargs == {"bool_attr": False, "string_attr": "", "int_attr": 3}
    assert call.type is X.type and call.args == (X, N)
    call = ir.create_op_call("test.op", [N, X], {"bool_attr": True, "string_attr": "s"})
    assert call.kwargs == {"bool_attr": True, "string_attr": "s", "int_attr": 0}
    with pytest.raises(TypeError, match="test.op: keyword 'int_attr' expects int, got str"):
        ir.create_op_call("test.op", [X, N], {"int_attr": "3"})
    with pytest.raises(TypeError, match="test.op: unexpected keyword argument 'float_attr'"):
        ir.create_op_call("test.op", [X, N], {"float_attr": 1.0})
    with pytest.raises(TypeError, match="test.op takes 2 positional argument"):
        ir.create_op_call("test.op", [X])


def test_a_failing_type_rule_is_a_type_error_naming_the_op():
    with pytest.raises(TypeError, match="^test.deduce_raises_type: this op's type rule always "
                                        "fails with a TypeError$"):
        ir.create_op_call("test.deduce_raises_type", [X])


def test_an_internal_error_of_a_type_rule_is_never_wrapped():
    with pytest.raises(InternalError) as info:
        ir.create_op_call("test.deduce_raises_internal", [X])
    assert not isinstance(info.value, (TypeError, ValueError))
    assert str(info.value).startswith("test.deduce_raises_internal: this op's type rule")


def _function(op_name: str) -> ir.Function:
    y = ir.Var("y", X.type)
    call = ir.create_op_call(op_name, [X] if op_name.endswith("no_conv") else [X, X])
    body = ir.SeqStmts([ir.AssignStmt(y, call), ir.ReturnStmt([y])])
    return ir.Function("f", [X], [X.type], body)


def test_executor_meanings():
    data = np.arange(4, dtype=np.float32)
    np.testing.assert_array_equal(pypto.run(_function("test.tensor_op_no_conv"), data), data)
    with pytest.raises(ExecutionError, match="test.op is a registry test op: it has no meaning"):
        pypto.run(_function("test.op"), data)

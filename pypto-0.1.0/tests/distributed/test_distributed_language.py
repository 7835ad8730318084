"""pld types and ops parse, type-check, print and reparse; signatures are PyPTO's."""

from __future__ import annotations

import inspect

import pytest

import pypto.language as pl
import pypto.language.distributed as pld
from pypto import ir
from pypto.language.parser.diagnostics import InvalidOperationError, ParserTypeError

from .programs import AllReduce, Ring, TileExchange


@pytest.mark.parametrize("program", [AllReduce, Ring, TileExchange], ids=lambda p: p.name)
def test_printed_programs_reparse_equal(program):
    text = program.as_python()
    assert "import pypto.language.distributed as pld" in text
    again = pl.parse(text)
    ir.assert_structural_equal(program, again)
    assert again.as_python() == text


def test_types_and_calls_print_as_pld():
    text = Ring.as_python()
    assert "inbox: pld.DistributedTensor[[16], pl.FP32]" in text
    assert "ctx: pld.CommCtx = pld.system.get_comm_ctx(inbox)" in text
    assert "data: pld.WindowBuffer = pld.tensor.alloc_window_buffer(64, name='inbox')" in text
    assert "pld.system.notify(signal, right, [0], 1, op=pld.NotifyOp.AtomicAdd)" in text
    assert "self.step(inbox, signal, x, out, device=r)" in text


def test_ir_types():
    step = Ring.get_function("step")
    assert isinstance(step.params[0].type, ir.DistributedTensorType)
    assert step.params[0].type == ir.DistributedTensorType([16], ir.DataType.FP32)
    assert ir.DistributedTensorType([16], ir.DataType.FP32) != ir.TensorType([16], ir.DataType.FP32)
    assert ir.CommCtxType.get() is ir.CommCtxType() and ir.WindowBufferType.get() is ir.WindowBufferType()
    buf = ir.WindowBuffer("buf", 64)
    typed = ir.DistributedTensorType([4], ir.DataType.FP32, buf)
    assert typed.window_buffer is buf and buf.type is ir.WindowBufferType.get()
    assert (buf.base, buf.size.value, buf.load_from_host, buf.store_to_host) == ("buf", 64, False,
                                                                                False)


def test_wrapper_signatures_are_pyptos():
    assert str(inspect.signature(pld.system.notify)) == \
        "(target, peer, offsets, value, *, op, span=None)"
    assert str(inspect.signature(pld.tensor.put)).startswith(
        "(dst, peer, src, dst_offsets=None, src_offsets=None, shape=None, *, atomic=")
    assert str(inspect.signature(ir.op.distributed.reduce_scatter)) == \
        "(target, signal, op, *, span=None)"
    assert str(inspect.signature(pld.alloc_window_buffer)) == \
        "(size, *, dtype=None, name='', span=None)"
    assert pld.ReduceOp.Prod == 3 and pld.WaitCmp.Ge == 1 and pld.NotifyOp.Set == 1


def test_window_of_a_non_buffer_is_an_error_with_its_line():
    with pytest.raises(InvalidOperationError, match="'buf' must be a window buffer") as info:
        @pl.program
        class Bad:
            @pl.function
            def main(self, x: pl.Tensor[[16], pl.FP32]):
                w = pld.window(x, [16], dtype=pl.FP32)  # noqa: F841
    assert info.value.span["begin_line"] == inspect.currentframe().f_lineno - 1


def test_device_must_be_an_integer_scalar():
    with pytest.raises(ParserTypeError, match="device= must be an integer scalar") as info:
        @pl.program
        class Bad:
            @pl.function(type=pl.FunctionType.Orchestration)
            def k(self, x: pl.Tensor[[16], pl.FP32]):
                pass

            @pl.function
            def main(self, x: pl.Tensor[[16], pl.FP32]):
                self.k(x, device=x)
    assert info.value.span["begin_line"] == inspect.currentframe().f_lineno - 1


def test_remote_ops_need_a_distributed_tensor():
    with pytest.raises(InvalidOperationError, match="'target' must be a pld.DistributedTensor"):
        @pl.program
        class Bad:
            @pl.function(type=pl.FunctionType.InCore)
            def k(self, x: pl.Tensor[[16], pl.FP32]):
                t = pld.remote_load(x, 0, [0], [16])  # noqa: F841

"""The plain annotations read straight off the tree (``annotations._plain_annotation``)
give exactly what the general reading gives: the same IR, byte for byte (spans
included), and the same errors for the spellings just outside the fast path."""

from __future__ import annotations

import pytest

import pypto.language as pl
from pypto import ir
from pypto.language.parser import annotations

FUNCTION = """\
import pypto.language as pl
import pypto.language as dsl

@pl.function
def f(x: {ann}, y: {param}) -> {ann}:
    z: {ann} = x
    return z
"""

FAST = ["pl.Tensor[[16, 64], pl.FP32]", "pl.Tile[[16, 64], pl.BF16]", "pl.Scalar[pl.INDEX]",
        "dsl.Tensor[[1], dsl.INT8]", "pl.Tensor[[0, 7, 9], pl.INT64]", "pl.Tensor[[], pl.FP32]",
        "pl.Tile[[16, 64], pl.FP32, pl.Mem.Vec]", "dsl.Tile[[8], dsl.FP16, dsl.Mem.Mat]",
        "pl.Tile[[16, 16], pl.FP32, pl.Mem.Acc]"]
GENERAL = ["pl.Tensor[(16, 64), pl.FP32]", "pl.Tile[[16, 64], pl.FP32, pl.TileView()]",
           "pl.Tensor[[16, 64], pl.FP32, pl.NZ]", "pl.Scalar[pl.FP32]",
           "pl.Tensor[[16, 8 * 8], pl.FP32]", "pl.Tile[[16, 64], pl.FP32, pl.MemorySpace.Vec]",
           "pl.Tile[[16, 64], pl.FP32, pl.Mem.Vec, pl.TileView()]"]
REFUSED = ["pl.Tensor[[True, 4], pl.FP32]", "pl.Tensor[[2 ** 64], pl.FP32]",
           "pl.Tensor[[18446744073709551616], pl.FP32]", "pl.Tensor[[16], pl.FP99]",
           "pl.Tensor[[16, 64]]", "pl.Scalar[pl.FP32, pl.FP32]",
           "pl.Tile[[16, 64], pl.FP32, pl.Mem.Nowhere]", "pl.Tile[[16, 64], pl.FP32, pl.Mem.__class__]",
           "pl.Tile[[16, 64], pl.FP32, other.Mem.Vec]", "pl.Tensor[[16, 64], pl.FP32, pl.Mem.Vec]",
           "pl.Tile[[16, 64], pl.FP32, pl.Mem.name]"]


def _read(text: str, fast: bool, monkeypatch) -> bytes | tuple[str, str]:
    with monkeypatch.context() as patch:
        if not fast:
            patch.setattr(annotations, "_plain_annotation", lambda node, closure: None)
        try:
            return ir.serialize(pl.parse(text))
        except Exception as err:  # noqa: BLE001 - compared, class and message
            return type(err).__name__, str(err)


def _function(ann: str, in_out: bool = False) -> str:
    return FUNCTION.format(ann=ann, param=f"pl.InOut[{ann}]" if in_out else ann)


@pytest.mark.parametrize("in_out", [False, True])
@pytest.mark.parametrize("ann", FAST + GENERAL + REFUSED)
def test_both_readings_agree(ann, in_out, monkeypatch):
    text = _function(ann, in_out)
    assert _read(text, True, monkeypatch) == _read(text, False, monkeypatch)


@pytest.mark.parametrize("ann", FAST)
def test_the_plain_spellings_take_the_fast_path(ann, monkeypatch):
    taken: list[bool] = []
    real = annotations._plain_annotation
    monkeypatch.setattr(annotations, "_plain_annotation",
                        lambda node, closure: taken.append(real(node, closure) is not None)
                        or real(node, closure))
    assert isinstance(_read(_function(ann), True, monkeypatch), bytes)
    assert any(taken)


@pytest.mark.parametrize("ann", REFUSED)
def test_the_spellings_outside_it_still_fail(ann, monkeypatch):
    assert not isinstance(_read(_function(ann), True, monkeypatch), bytes)


def test_a_literal_dim_past_64_bits_is_refused_at_the_dim():
    # (was accepted: a literal dim skipped the range check other dims get)
    from pypto.language.parser.diagnostics import ParserTypeError
    text = _function("pl.Tensor[[16, 18446744073709551616], pl.FP32]")
    with pytest.raises(ParserTypeError) as caught:
        pl.parse(text)
    assert "The shape dimension '18446744073709551616' does not fit a 64-bit index" \
        in str(caught.value)
    span = caught.value.span
    assert (span["begin_line"], span["begin_column"]) == \
        (5, text.splitlines()[4].index("1844") + 1)

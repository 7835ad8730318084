"""InlineFunctions holds a spliced body to the parser's nesting rules (P103): a region
in an Inline function is refused at a call site where the same text written there
would be refused (``pypto.ir.region_nesting``, the one rule set both read).  Found by
the random-program property run: an Inline helper with a ``pl.graph`` called inside
``pl.at(level=pl.Level.GLOBAL)`` compiled to a program whose text did not read back."""

from __future__ import annotations

import pytest

import pypto.language as pl
from pypto import ir, passes
from pypto.language.parser.diagnostics import ParserError

_PROGRAM = '''\
import pypto.language as pl


@pl.program
class P:
    @pl.function(type=pl.FunctionType.InCore)
    def kern(self, x: pl.Tensor[[64, 16], pl.FP32], acc: pl.InOut[pl.Tensor[[16, 16], pl.FP32]]) -> pl.Tensor[[16, 16], pl.FP32]:
        t = pl.load(x, [0, 0], [16, 16])
        a = pl.load(acc, [0, 0], [16, 16])
        acc = pl.store(pl.add(t, a), [0, 0], acc)
        return acc

    @pl.function(type=pl.FunctionType.Inline)
    def helper(self, x: pl.Tensor[[64, 16], pl.FP32], acc: pl.InOut[pl.Tensor[[16, 16], pl.FP32]]) -> pl.Tensor[[16, 16], pl.FP32]:
        with INNER:
            BODY
        return acc

    @pl.function
    def main(self, x: pl.Tensor[[64, 16], pl.FP32], acc: pl.InOut[pl.Tensor[[16, 16], pl.FP32]]) -> pl.Tensor[[16, 16], pl.FP32]:
        with OUTER:
            acc = self.helper(x, acc)
        return acc
'''
_CALL = "            acc = self.helper(x, acc)\n"
_KERNEL_CALL = "acc = self.kern(x, acc)"
_TILE_CODE = "t = pl.load(x, [0, 0], [16, 16])\n            acc = pl.store(t, [0, 0], acc)"
_GRAPH = 'pl.graph("g")'
_INCORE = "pl.at(level=pl.Level.CORE_GROUP)"

# (region in the helper, its body, region around the call)
PAIRS = {
    "graph in at GLOBAL": (_GRAPH, _KERNEL_CALL, "pl.at(level=pl.Level.GLOBAL)"),
    "graph in at HOST": (_GRAPH, _KERNEL_CALL, "pl.at(level=pl.Level.HOST)"),
    "graph in AIV at": (_GRAPH, _KERNEL_CALL, "pl.at(level=pl.Level.AIV)"),
    "graph in cluster": (_GRAPH, _KERNEL_CALL, "pl.cluster()"),
    "graph in spmd": (_GRAPH, _KERNEL_CALL, "pl.spmd(2)"),
    "graph in incore": (_GRAPH, _KERNEL_CALL, _INCORE),
    "graph in graph": (_GRAPH, _KERNEL_CALL, 'pl.graph("h")'),
    "incore in incore": (_INCORE, _TILE_CODE, _INCORE),
    "spmd in spmd": ("pl.spmd(2)", _KERNEL_CALL, "pl.spmd(3)"),
    "cluster in spmd": ("pl.cluster()", _KERNEL_CALL, "pl.spmd(3)"),
    "cluster in incore": ("pl.cluster()", _KERNEL_CALL, _INCORE),
    # allowed both ways
    "cluster in cluster": ("pl.cluster()", _KERNEL_CALL, "pl.cluster()"),
    "spmd in cluster": ("pl.spmd(2)", _KERNEL_CALL, "pl.cluster()"),
    "incore in cluster": (_INCORE, _TILE_CODE, "pl.cluster()"),
    "incore in at GLOBAL": (_INCORE, _TILE_CODE, "pl.at(level=pl.Level.GLOBAL)"),
    "cluster in graph": ("pl.cluster()", _KERNEL_CALL, 'pl.graph("h")'),
    "manual scope in incore": ("pl.manual_scope()", _KERNEL_CALL, _INCORE),
}


def _texts(name: str) -> tuple[str, str]:
    """The program calling the helper, and the same with the helper's region written
    at the call site."""
    inner, body, outer = PAIRS[name]
    called = _PROGRAM.replace("INNER", inner).replace("BODY", body).replace("OUTER", outer)
    written = called.replace(_CALL, f"            with {inner}:\n                "
                             + body.replace("\n            ", "\n                ") + "\n")
    return called, written


def _inline(text: str) -> ir.Program:
    return passes.inline_functions()(pl.parse(text))


@pytest.mark.parametrize("name", sorted(PAIRS))
def test_a_splice_is_refused_exactly_where_the_text_written_there_is(name):
    called, written = _texts(name)
    try:
        pl.parse(written)
        parser_refuses = None
    except ParserError as err:
        parser_refuses = err
    if parser_refuses is None:
        _inline(called)  # no refusal
        return
    with pytest.raises(passes.PassError) as info:
        _inline(called)
    err = info.value
    assert (err.pass_name, err.code.code) == ("InlineFunctions", "P103")
    # the helper's region named, the call site located
    inner = PAIRS[name][0]
    assert f"its {inner.split('(')[0]}(" in err.message
    assert err.span.begin_line == called.splitlines().index(_CALL.rstrip("\n")) + 1


def test_the_refusal_names_the_helper_the_region_and_its_line():
    called, _ = _texts("graph in at GLOBAL")
    with pytest.raises(passes.PassError) as info:
        _inline(called)
    err = info.value
    graph_line = called.splitlines().index('        with pl.graph("g"):') + 1
    assert err.message == (
        "in function 'main': the Inline function 'helper' cannot be spliced here: its "
        'pl.graph("g") cannot be nested inside `pl.at`: a graph inside any pl.at region, '
        "pl.at(level=pl.Level.GLOBAL) included, is out of scope (graph x distributed) "
        f"(line {graph_line})")
    assert "outside the region" in err.hint


def test_a_graph_two_helpers_deep_is_found_too():
    # helper -> inner helper holding the graph; the call of helper sits in a pl.at
    called, _ = _texts("graph in at GLOBAL")
    called = called.replace("""        with pl.graph("g"):
            acc = self.kern(x, acc)
        return acc
""", """        acc = self.deeper(x, acc)
        return acc

    @pl.function(type=pl.FunctionType.Inline)
    def deeper(self, x: pl.Tensor[[64, 16], pl.FP32], acc: pl.InOut[pl.Tensor[[16, 16], pl.FP32]]) -> pl.Tensor[[16, 16], pl.FP32]:
        for i in pl.range(2):
            with pl.graph("g"):
                acc = self.kern(x, acc)
        return acc
""")
    with pytest.raises(passes.PassError, match=r"'helper' cannot be spliced here: its "
                                               r'pl.graph\("g"\) cannot be nested inside'):
        _inline(called)


def test_the_pipeline_refuses_it_before_any_outlining():
    called, _ = _texts("graph in spmd")
    with pytest.raises(passes.PassError) as info:
        ir.PassManager.get_strategy(ir.OptimizationStrategy.Default).run_passes(
            pl.parse(called))
    assert info.value.pass_name == "InlineFunctions"

"""Hand-built IR: the outliners refuse a jump that would leave the scope they outline,
and a kernel scope holding another.

The parser refuses these at the user's line (tests/language/test_parser_region_jumps.py);
IR built by hand reaches the pass, which must not move a ``break`` to the top of the new
function or a ``return`` into the kernel.
"""

from __future__ import annotations

import pytest

from pypto import ir, passes

DT = ir.DataType
T = ir.TensorType([64], DT.FP32)
INDEX = ir.ScalarType(DT.INDEX)
SPAN = ir.Span("hand.py", 7, 3)

SCOPES = [
    (lambda body: ir.InCoreScopeStmt(body=body), passes.outline_incore_scopes,
     "OutlineIncoreScopes", "main_incore_0"),
    (lambda body: ir.HierarchyScopeStmt(ir.Level.HOST, body=body),
     passes.outline_hierarchy_scopes, "OutlineHierarchyScopes", "main_host_0"),
    (lambda body: ir.ClusterScopeStmt(body=body), passes.outline_cluster_scopes,
     "OutlineClusterScopes", "main_cluster_0"),
    (lambda body: ir.GraphScopeStmt("layer", body=body), passes.outline_graph_scopes,
     "OutlineGraphScopes", "layer"),
]


def _program(make_scope, jump: ir.Stmt, inner_loop: bool = False) -> ir.Program:
    x, n, i, j = ir.Var("x", T), ir.Var("n", INDEX), ir.Var("i", INDEX), ir.Var("j", INDEX)
    y = ir.Var("y", T)
    region_body: ir.Stmt = ir.SeqStmts([
        ir.AssignStmt(y, ir.create_op_call("tensor.add", [x, x])), jump])
    if inner_loop:
        region_body = ir.ForStmt(j, 0, n, 1, [], region_body, [])
    loop = ir.ForStmt(i, 0, n, 1, [], make_scope(region_body), [])
    body = ir.SeqStmts([loop, ir.ReturnStmt([x])])
    return ir.Program([ir.Function("main", [x, n], [T], body)], "P")


@pytest.mark.parametrize("make_scope, make_pass, pass_name, outlined", SCOPES)
@pytest.mark.parametrize("jump, word", [(lambda: ir.BreakStmt(SPAN), "break"),
                                        (lambda: ir.ContinueStmt(SPAN), "continue")])
def test_break_continue_of_an_outer_loop_is_refused(make_scope, make_pass, pass_name, outlined,
                                                    jump, word):
    with pytest.raises(ValueError) as info:
        make_pass()(_program(make_scope, jump()))
    message = str(info.value)
    assert message.startswith(f"{pass_name}: in function 'main': '{word}' inside the ")
    assert f"outlined as '{outlined}' would leave a loop that is not in it" in message
    assert "hand.py:7:3" in message


@pytest.mark.parametrize("make_scope, make_pass, pass_name, outlined", SCOPES)
def test_return_inside_a_scope_is_refused(make_scope, make_pass, pass_name, outlined):
    x = ir.Var("x", T)
    with pytest.raises(ValueError, match=f"'return' inside the .* outlined as '{outlined}' "
                                         f"would return from '{outlined}', not from 'main'"):
        make_pass()(_program(make_scope, ir.ReturnStmt([x], SPAN)))


@pytest.mark.parametrize("make_scope, make_pass, pass_name, outlined", SCOPES)
def test_a_loop_of_its_own_inside_the_scope_may_break(make_scope, make_pass, pass_name,
                                                      outlined):
    result = make_pass()(_program(make_scope, ir.BreakStmt(SPAN), inner_loop=True))
    inner = result.get_function(outlined)
    assert inner is not None and "break" in ir.python_print(inner)


def test_an_incore_scope_holding_another_is_refused():
    x, y = ir.Var("x", T), ir.Var("y", T)
    inner = ir.InCoreScopeStmt(body=ir.AssignStmt(y, ir.create_op_call("tensor.add", [x, x])))
    outer = ir.InCoreScopeStmt(body=inner, span=SPAN)
    program = ir.Program([ir.Function("main", [x], [T],
                                      ir.SeqStmts([outer, ir.ReturnStmt([y])]))], "P")
    # The harness's pre-verification (NoNestedInCore) would refuse it first; the pass
    # must refuse it on its own, without instruments.
    with passes.PassContext([]), pytest.raises(
            ValueError, match=r"OutlineIncoreScopes: in function 'main': the "
                                         r"InCoreScopeStmt outlined as 'main_incore_0' holds "
                                         r"another one; a kernel cannot launch kernels "
                                         r"\[hand.py:7:3\]"):
        passes.outline_incore_scopes()(program)

"""``with`` scopes: one handler per construct (``pl.at``, ``pl.cluster``, ``pl.spmd``,
``pl.graph``, ``pl.scope`` / ``pl.manual_scope``) plus the ``for i in pl.spmd(n)`` form.

Names defined inside a scope stay visible after it.  The handlers enforce the
nesting rules that only the source can show well (a ``pl.graph`` inside a
``pl.at``, a graph inside a graph, ...).
"""

from __future__ import annotations

import ast
import warnings
from typing import TYPE_CHECKING, Any, Callable, cast

from ...ir import expr as E
from ...ir import scope as Sc
from ...ir import stmt as S
from ...ir import types as T
from ...ir.dtype import DataType
from ...ir.enums import (AUTO_SCOPED_FUNCTION_TYPES, FunctionType, Level, Role, ScopeMode,
                         SplitMode, level_to_linqu_level)
from ...ir.node import Expr
from ...ir.region_nesting import (GRAPH_FORBIDDEN_FUNCS, KERNEL_LEVEL, Refusal, Region,
                                  at_refusal, function_region, graph_refusal,
                                  launch_refusal, start_note)
from ...ir.span import Span
from ...ir.scalar_types import scalar_type
from .annotations import attr_chain
from .context import RegionFrame
from .control_flow import require_bool
from .diagnostics import ParserSyntaxError, ParserTypeError, UnsupportedFeatureError
from ..optimizations import SPLIT_SLOT_NUM_DEPRECATION
from .enum_args import read_bool, read_enum, read_identifier

if TYPE_CHECKING:
    from .function_parser import FunctionParser

__all__ = ["STMT_HANDLERS", "SCOPE_HANDLERS", "spmd_for", "split_aiv_for"]



class _Args:
    """Positional/keyword arguments of a scope call, checked against a signature."""

    def __init__(self, p: "FunctionParser", call: ast.Call, construct: str,
                 positional: tuple[str, ...], keywords: tuple[str, ...]) -> None:
        self.values: dict[str, ast.expr] = {}
        self.nodes: dict[str, ast.AST] = {}
        if len(call.args) > len(positional):
            raise ParserSyntaxError(
                f"pl.{construct}() takes at most {len(positional)} positional argument(s), got "
                f"{len(call.args)}", p.span(call))
        for name, value in zip(positional, call.args):
            self.values[name] = value
        for kw in call.keywords:
            if kw.arg is None:
                raise ParserSyntaxError(f"**kwargs is not supported in pl.{construct}()",
                                        p.span(kw))
            if kw.arg not in positional and kw.arg not in keywords:
                raise ParserSyntaxError(f"Unknown keyword argument '{kw.arg}' in "
                                        f"pl.{construct}()", p.span(kw))
            if kw.arg in self.values:
                raise ParserSyntaxError(f"pl.{construct}() got multiple values for argument "
                                        f"'{kw.arg}'", p.span(kw))
            self.values[kw.arg] = kw.value

    def get(self, name: str) -> ast.expr | None:
        return self.values.get(name)


# -- shared option parsing ------------------------------------------------------------------

def _var_list(p: "FunctionParser", node: ast.expr, what: str) -> list[E.Var]:
    if not isinstance(node, (ast.List, ast.Tuple)):
        raise ParserSyntaxError(f"{what}= must be a list of variables", p.span(node))
    out = []
    for item in node.elts:
        value = p.parse_expr(item)
        if not isinstance(value, E.Var):
            raise ParserSyntaxError(f"{what}= entries must be variables, got "
                                    f"'{ast.unparse(item)}'", p.span(item))
        out.append(value)
    return out


def _optimizations(p: "FunctionParser", node: ast.expr) -> tuple[SplitMode, int | None]:
    """``optimizations=[pl.split(pl.SplitMode.X), pl.cross_core_slot(slot_num=N)]``."""
    if not isinstance(node, (ast.List, ast.Tuple)):
        raise ParserSyntaxError("optimizations= must be a list", p.span(node))
    split, slot_num = SplitMode.NONE, None
    for item in node.elts:
        call = item if isinstance(item, ast.Call) else None
        chain = attr_chain(call.func) if call is not None else None
        kws = {kw.arg: kw.value for kw in call.keywords} if call is not None and chain else {}
        if (call is not None and chain == ["pl", "split"] and len(call.args) == 1
                and set(kws) <= {"slot_num"}):
            split = read_enum(call.args[0], SplitMode, p.span)
            if kws:  # PyPTO's deprecated spelling of pl.cross_core_slot(slot_num=N)
                span = p.span(item)  # the warning points at the user's line
                warnings.warn_explicit(SPLIT_SLOT_NUM_DEPRECATION, DeprecationWarning,
                                       span.filename or "<string>", max(span.begin_line, 1))
                slot_num = _slot_num(p, item, kws,
                                     "pl.split(mode, slot_num=N) takes a positive int N")
        elif call is not None and chain == ["pl", "cross_core_slot"] and not call.args:
            slot_num = _slot_num(p, item, kws,
                                 "pl.cross_core_slot() takes slot_num=<positive int>")
        else:
            raise ParserSyntaxError(
                f"Unsupported optimization '{ast.unparse(item)}'", p.span(item),
                hint="Use pl.split(pl.SplitMode.UP_DOWN) or pl.cross_core_slot(slot_num=N)")
    return split, slot_num


def _slot_num(p: "FunctionParser", item: ast.expr, kws: dict, message: str) -> int:
    value = kws.get("slot_num")
    if set(kws) == {"slot_num"} and isinstance(value, ast.Constant) \
            and type(value.value) is int and value.value > 0:
        return value.value
    raise ParserSyntaxError(message, p.span(item))


def _dispatch_attrs(p: "FunctionParser", args: _Args, construct: str) -> dict[str, Any]:
    """deps / no_dep_args / dumps / allow_early_resolve / predicate, canonical order."""
    attrs: dict[str, Any] = {}
    for key, attr in (("deps", "manual_dep_edges"), ("no_dep_args", "arg_direction_overrides_vars"),
                      ("dumps", "dump_vars")):
        value = args.get(key)
        if value is not None:
            attrs[attr] = _var_list(p, value, key)
    return attrs


def _finish_attrs(p: "FunctionParser", args: _Args, attrs: dict[str, Any],
                  task_id: E.Var | None, slot_num: int | None = None) -> dict[str, Any]:
    if task_id is not None:
        attrs["task_id_var"] = task_id
    node = args.get("allow_early_resolve")
    if node is not None and read_bool(node, "allow_early_resolve=", p.span):
        attrs["allow_early_resolve"] = True
    node = args.get("predicate")
    if node is not None:
        predicate = p.parse_expr(node)
        require_bool(p, predicate, node, "predicate")
        attrs["predicate"] = predicate
    if slot_num is not None:
        attrs["slot_num"] = slot_num
    return attrs


def _name_hint(p: "FunctionParser", args: _Args) -> str:
    node = args.get("name_hint")
    return "" if node is None else read_identifier(node, "name_hint", p.span)


def _task_id(p: "FunctionParser", item: ast.withitem) -> E.Var | None:
    """``... as tid``: a TASK_ID Var in the enclosing scope, with its placeholder."""
    target = item.optional_vars
    if target is None:
        return None
    if not isinstance(target, ast.Name):
        raise ParserSyntaxError("`as` needs a plain name", p.span(target))
    from .statements import assign_name
    from ...ir.ops import create_op_call
    placeholder = create_op_call("system.task_invalid", [], span=p.span(target))
    return assign_name(p, target.id, placeholder, target)


def _body(p: "FunctionParser", node: ast.With, frame: RegionFrame) -> S.Stmt:
    p.regions.append(frame)
    try:
        return p.parse_block(node.body, node.lineno)
    finally:
        p.regions.pop()


# -- nesting of levels ------------------------------------------------------------------------

_KERNEL_LEVEL = KERNEL_LEVEL  # a pl.at at this level or below is one kernel


def _function_frame(p: "FunctionParser") -> Region | None:
    return function_region(p.options.func_type)


def _raise_refusal(p: "FunctionParser", refusal: Refusal | None, node: ast.AST) -> None:
    if refusal is not None:
        raise ParserSyntaxError(refusal.message, p.span(node), hint=refusal.hint,
                                note=refusal.note)


def _check_at_nesting(p: "FunctionParser", level: Level, node: ast.With) -> None:
    """The level rule of ``pl.at`` (``region_nesting.at_refusal``)."""
    _raise_refusal(p, at_refusal(level, (*p.enclosing_regions(), _function_frame(p))), node)


def _check_launch_nesting(p: "FunctionParser", construct: str, node: ast.AST) -> None:
    """pl.cluster / pl.spmd launch kernels: not from inside a kernel."""
    _raise_refusal(p, launch_refusal(construct, (*p.enclosing_regions(), _function_frame(p))),
                   node)


_starts = start_note


# -- pl.at ------------------------------------------------------------------------------------

_AT_KEYWORDS = ("name_hint", "optimizations", "deps", "no_dep_args", "dumps",
                "allow_early_resolve", "predicate")


def _at(p: "FunctionParser", node: ast.With, call: ast.Call, item: ast.withitem) -> None:
    args = _Args(p, call, "at", ("level", "role"), _AT_KEYWORDS)
    level_node = args.get("level")
    if level_node is None:
        raise ParserSyntaxError("pl.at() requires a level argument", p.span(call),
                                hint="e.g. with pl.at(level=pl.Level.CORE_GROUP):")
    level = read_enum(level_node, Level, p.span)
    role_node = args.get("role")
    role = None if role_node is None else read_enum(role_node, Role, p.span)
    optimizations = args.get("optimizations")
    if optimizations is not None and level is not Level.CORE_GROUP:
        raise ParserSyntaxError("optimizations= is only supported with "
                                "level=pl.Level.CORE_GROUP", p.span(optimizations))
    if role_node is not None and role is not None and level is Level.CORE_GROUP:
        raise ParserSyntaxError("role= is not supported with level=pl.Level.CORE_GROUP",
                                p.span(role_node))
    if role is Role.SubWorker and level_to_linqu_level(level) >= 3:
        raise ParserSyntaxError(
            "Inline 'with pl.at(level>=HOST, role=pl.Role.SubWorker)' is not supported",
            p.span(call),
            hint=f"Declare a self-contained @pl.function(level=pl.Level.{level.name}, "
                 "role=pl.Role.SubWorker) without 'self' in the @pl.program instead")
    name_hint = _name_hint(p, args)
    split, slot_num = (_optimizations(p, optimizations) if optimizations is not None
                       else (SplitMode.NONE, None))
    attrs = _dispatch_attrs(p, args, "at")
    task_id = _task_id(p, item)
    attrs = _finish_attrs(p, args, attrs, task_id, slot_num)
    span = p.span(node)
    # A region at CHIP or above is orchestration, not one device task (a pl.graph still
    # may not sit inside it: graph x distributed is out of scope, 03 §16).
    device_task = level_to_linqu_level(level) < level_to_linqu_level(Level.CHIP)
    _check_at_nesting(p, level, node)
    frame = RegionFrame("at", f"pl.at(level=pl.Level.{level.name})", span, device_task,
                        inner_limit=level.value - 1 if device_task else None,
                        kernel=level.value <= _KERNEL_LEVEL)
    body = _body(p, node, frame)
    attrs = _with_no_dep(attrs, frame.no_dep)
    if level is Level.CORE_GROUP:
        p.emit(Sc.InCoreScopeStmt(split, name_hint, body=body, span=span, attrs=attrs))
    else:
        p.emit(Sc.HierarchyScopeStmt(level, role, name_hint, body=body, span=span, attrs=attrs))


def _with_no_dep(attrs: dict[str, Any], marked: list[E.Var]) -> dict[str, Any]:
    """``attrs`` with the tensors the body marked ``pl.no_dep(t)`` added to its
    ``no_dep_args`` (once each, after the listed ones), in canonical key order."""
    if not marked:
        return attrs
    listed = list(attrs.get("arg_direction_overrides_vars", ()))
    for var in marked:
        if not any(var is seen for seen in listed):
            listed.append(var)
    merged = {**attrs, "arg_direction_overrides_vars": listed}
    return {**{k: merged[k] for k in Sc.SCOPE_ATTR_KEYS if k in merged},
            **{k: v for k, v in merged.items() if k not in Sc.SCOPE_ATTR_KEYS}}


def mark_no_dep(p: "FunctionParser", node: ast.Call, construct: str) -> Expr:
    """``pl.no_dep(t)`` in a ``pl.at`` body: ``t`` itself, and ``t`` joins the region's
    ``no_dep_args`` (its accesses add no dependency edge to the outlined task)."""
    if len(node.args) != 1 or node.keywords:
        raise ParserSyntaxError(f"{construct}() takes exactly one tensor argument", p.span(node))
    value = p.parse_expr(node.args[0])
    if not (isinstance(value, E.Var) and isinstance(value.type, T.TensorType)):
        raise ParserTypeError(f"{construct}() expects a tensor variable, got "
                              f"'{ast.unparse(node.args[0])}'", p.span(node.args[0]))
    frame = next((f for f in reversed(p.regions) if f.construct == "at"), None)
    if frame is None:
        raise ParserSyntaxError(f"{construct}(t) is only meaningful inside a "
                                "'with pl.at(...)' region", p.span(node),
                                hint="It adds t to the region's no_dep_args")
    frame.no_dep.append(value)
    return value


# -- pl.cluster -------------------------------------------------------------------------------

def _cluster(p: "FunctionParser", node: ast.With, call: ast.Call, item: ast.withitem) -> None:
    _no_as(p, item)
    args = _Args(p, call, "cluster", (), ("name_hint", "dumps"))
    _check_launch_nesting(p, "cluster", node)
    name_hint = _name_hint(p, args)
    attrs = _dispatch_attrs(p, args, "cluster")
    span = p.span(node)
    body = _body(p, node, RegionFrame("cluster", "pl.cluster()", span,
                                      inner_limit=_KERNEL_LEVEL))
    p.emit(Sc.ClusterScopeStmt(name_hint, body=body, span=span, attrs=attrs))


# -- pl.spmd ----------------------------------------------------------------------------------

_SPMD_KEYWORDS = ("sync_start", "name_hint", "optimizations", "deps", "allow_early_resolve",
                  "predicate", "dumps")


def _spmd_options(p: "FunctionParser", call: ast.Call) -> tuple[_Args, Expr, bool, str]:
    args = _Args(p, call, "spmd", ("core_num",), _SPMD_KEYWORDS)
    _check_launch_nesting(p, "spmd", call)
    core_node = args.get("core_num")
    if core_node is None:
        raise ParserSyntaxError("pl.spmd() requires core_num (the number of blocks)",
                                p.span(call))
    core_num = p.parse_expr(core_node)
    if not (isinstance(core_num.type, T.ScalarType) and core_num.type.dtype.is_int()):
        raise ParserSyntaxError("pl.spmd() core_num must be an integer expression",
                                p.span(core_node))
    if isinstance(core_num, E.ConstInt) and core_num.value <= 0:
        raise ParserSyntaxError(f"pl.spmd() core_num must be positive, got {core_num.value}",
                                p.span(core_node))
    sync_node = args.get("sync_start")
    sync_start = False if sync_node is None else read_bool(sync_node, "sync_start=", p.span)
    if any(region.construct == "cluster" for region in p.regions):
        for key in ("deps", "allow_early_resolve", "predicate"):
            given = args.get(key)
            if given is not None:
                raise ParserSyntaxError(f"pl.spmd() inside pl.cluster() does not take {key}=; "
                                        "the cluster is dispatched as one task", p.span(given))
    return args, core_num, sync_start, _name_hint(p, args)


def _is_self_call_stmt(stmt: ast.stmt) -> bool:
    value = stmt.value if isinstance(stmt, (ast.Expr, ast.Assign, ast.AnnAssign)) else None
    return (isinstance(value, ast.Call) and isinstance(value.func, ast.Attribute)
            and isinstance(value.func.value, ast.Name) and value.func.value.id == "self")


def _is_dispatch_body(body: list[ast.stmt]) -> bool:
    """One kernel dispatch, alone or followed by the projections of its tuple result
    (``r = self.k(...)`` then ``a = r[0]``, ...: how a tuple-returning dispatch prints
    once ConvertToSSA has unpacked it)."""
    if not body or not _is_self_call_stmt(body[0]):
        return False
    if len(body) == 1:
        return True
    first = body[0]
    targets = first.targets if isinstance(first, ast.Assign) else \
        [first.target] if isinstance(first, ast.AnnAssign) else []
    if len(targets) != 1 or not isinstance(targets[0], ast.Name):
        return False
    result = targets[0].id
    for stmt in body[1:]:
        value = stmt.value if isinstance(stmt, (ast.Assign, ast.AnnAssign)) else None
        if not (isinstance(value, ast.Subscript) and isinstance(value.value, ast.Name)
                and value.value.id == result and isinstance(value.slice, ast.Constant)
                and type(value.slice.value) is int):
            return False
    return True


def _reads_block_index(body: list[ast.stmt]) -> bool:
    for stmt in body:
        for sub in ast.walk(stmt):
            if isinstance(sub, ast.Call):
                chain = attr_chain(sub.func)
                if chain in (["pl", "get_block_idx"], ["pl", "tile", "get_block_idx"]):
                    return True
    return False


def _explicit_carrier(body: list[ast.stmt]) -> ast.With | None:
    """The spmd body's single ``with pl.at(level=pl.Level.CORE_GROUP ...)``, if that is all."""
    if len(body) != 1 or not isinstance(body[0], ast.With) or len(body[0].items) != 1:
        return None
    call = body[0].items[0].context_expr
    if isinstance(call, ast.Call) and attr_chain(call.func) == ["pl", "at"]:
        return body[0]
    return None


def _spmd(p: "FunctionParser", node: ast.With, call: ast.Call, item: ast.withitem) -> None:
    args, core_num, sync_start, name_hint = _spmd_options(p, call)
    attrs = _dispatch_attrs(p, args, "spmd")
    task_id = _task_id(p, item)
    attrs = _finish_attrs(p, args, attrs, task_id)
    span = p.span(node)
    frame = RegionFrame("spmd", "pl.spmd()", span, inner_limit=_KERNEL_LEVEL)
    dispatches = [s for s in node.body if _is_self_call_stmt(s)]
    optimizations = args.get("optimizations")
    carrier = _explicit_carrier(node.body)
    if len(dispatches) > 1:
        raise ParserSyntaxError(f"pl.spmd() block launches {len(dispatches)} kernels; a "
                                "pl.spmd() region dispatches exactly one", span,
                                hint="Use one pl.spmd() per kernel")
    if len(dispatches) == 1 and _is_dispatch_body(node.body):
        if optimizations is not None:
            raise ParserSyntaxError("optimizations= belongs on the InCore scope; a pl.spmd() "
                                    "that dispatches a kernel takes none", p.span(optimizations))
        body = _body(p, node, frame)
    elif carrier is not None:
        carrier_call = cast(ast.Call, carrier.items[0].context_expr)  # (_explicit_carrier)
        has_own = any(kw.arg == "optimizations" for kw in carrier_call.keywords)
        if optimizations is not None:
            if has_own:
                raise ParserSyntaxError("optimizations= specified twice (on pl.spmd() and on "
                                        "its pl.at InCore scope)", p.span(optimizations))
            raise ParserSyntaxError("optimizations= belongs on the InCore scope: move it to the "
                                    "inner pl.at(level=pl.Level.CORE_GROUP, ...)",
                                    p.span(optimizations))
        body = _body(p, node, frame)
    else:
        if not _reads_block_index(node.body):
            raise ParserSyntaxError(
                "pl.spmd() body neither reads the per-block index nor dispatches a kernel", span,
                hint="Read pl.tile.get_block_idx() in the body, use `for i in pl.spmd(n):`, or "
                     "dispatch one kernel with self.kernel(...)")
        split, slot_num = (_optimizations(p, optimizations) if optimizations is not None
                           else (SplitMode.NONE, None))
        frame.inner_limit, frame.kernel = _KERNEL_LEVEL - 1, True  # the body is one kernel
        inner = _body(p, node, frame)
        incore_attrs = {"slot_num": slot_num} if slot_num is not None else {}
        body = Sc.InCoreScopeStmt(split, name_hint, body=inner, span=span, attrs=incore_attrs)
        name_hint = f"{name_hint}_spmd" if name_hint else ""
    p.emit(Sc.SpmdScopeStmt(core_num, sync_start, name_hint, body=body, span=span, attrs=attrs))


def _index_loop_body(p: "FunctionParser", node: ast.For, frame: RegionFrame, index_op: str,
                     bind_underscore: bool = True) -> S.Stmt:
    """The body of ``for i in pl.spmd(n)`` / ``pl.split_aiv(n, ...)``: ``i = <index_op>()``
    first (not for ``_`` unless ``bind_underscore``), then the loop body, inside ``frame``."""
    from ...ir.ops import create_op_call
    from .statements import assign_name
    stmts: list[S.Stmt] = []
    p.blocks.append(stmts)
    p.regions.append(frame)
    try:
        target = cast(ast.Name, node.target)  # both callers checked it is a single name
        if bind_underscore or target.id != "_":
            index = create_op_call(index_op, [], span=p.span(target))
            assign_name(p, target.id, index, target)
        stmts.append(p.parse_block(node.body, node.lineno))
    finally:
        p.regions.pop()
        p.blocks.pop()
    return S.SeqStmts.flatten(stmts, frame.span)


def spmd_for(p: "FunctionParser", node: ast.For, call: ast.Call) -> None:
    """``for i in pl.spmd(n):`` -> Spmd(InCore(i = pl.tile.get_block_idx(); body))."""
    if node.orelse:
        raise UnsupportedFeatureError("for ... else is not supported", p.span(node))
    if not isinstance(node.target, ast.Name):
        raise ParserSyntaxError("`for <name> in pl.spmd(n):` needs a single name",
                                p.span(node.target))
    args, core_num, sync_start, name_hint = _spmd_options(p, call)
    attrs = _finish_attrs(p, args, _dispatch_attrs(p, args, "spmd"), None)
    optimizations = args.get("optimizations")
    split, slot_num = (_optimizations(p, optimizations) if optimizations is not None
                       else (SplitMode.NONE, None))
    span = p.span(node)
    body = _index_loop_body(p, node, RegionFrame("spmd", "pl.spmd()", span, kernel=True,
                                                 inner_limit=_KERNEL_LEVEL - 1),
                            "tile.get_block_idx")
    incore_attrs = {"slot_num": slot_num} if slot_num is not None else {}
    inner = Sc.InCoreScopeStmt(split, name_hint, body=body, span=span, attrs=incore_attrs)
    outer_name = f"{name_hint}_spmd" if name_hint else ""
    p.emit(Sc.SpmdScopeStmt(core_num, sync_start, outer_name, body=inner, span=span, attrs=attrs))


# -- pl.split_aiv -----------------------------------------------------------------------------

_AIV_SPLITTING_FUNCS = (FunctionType.InCore, FunctionType.AIV)


def _split_aiv_count(p: "FunctionParser", node: ast.expr | None, call: ast.Call) -> int:
    from .expressions import fold_constants
    if node is None:
        raise ParserSyntaxError("pl.split_aiv() requires n, the number of vector cores",
                                p.span(call), hint="e.g. for aiv_id in pl.split_aiv(2, "
                                                   "mode=pl.SplitMode.UP_DOWN):")
    folded, value = fold_constants(p, node)
    if not folded or type(value) is not int:
        raise ParserSyntaxError(f"pl.split_aiv() n must be an integer constant, got "
                                f"'{ast.unparse(node)}'", p.span(node),
                                hint="The split is fixed when the kernel is compiled")
    if value <= 0:
        raise ParserSyntaxError(f"pl.split_aiv() n must be positive, got {value}", p.span(node))
    return value


def _check_split_aiv_placement(p: "FunctionParser", node: ast.For) -> None:
    """A split over the vector cores of one core group happens inside a kernel."""
    for region in p.enclosing_regions():
        if region.construct == "split_aiv":
            raise ParserSyntaxError(
                f"pl.split_aiv() cannot be nested inside {region.name}: the vector cores are "
                "already split", p.span(node), note=_starts(region))
        if region.kernel:
            return
    if p.options.func_type in _AIV_SPLITTING_FUNCS:
        return
    raise ParserSyntaxError(
        "pl.split_aiv() must be inside a kernel: a pl.at(level=pl.Level.CORE_GROUP) region, "
        "a pl.spmd() body or an InCore/AIV function", p.span(node),
        hint="It splits one kernel's vector work over the vector cores of its core group")


def split_aiv_for(p: "FunctionParser", node: ast.For, call: ast.Call) -> None:
    """``for aiv_id in pl.split_aiv(n, mode=...):`` ->
    SplitAiv(mode, n; aiv_id = pl.tile.get_subblock_idx(); body).  ``for _ in ...``
    binds no name."""
    if node.orelse:
        raise UnsupportedFeatureError("for ... else is not supported", p.span(node))
    if not isinstance(node.target, ast.Name):
        raise ParserSyntaxError("`for <name> in pl.split_aiv(n, mode=...):` needs a single name",
                                p.span(node.target))
    args = _Args(p, call, "split_aiv", ("n",), ("mode", "name_hint"))
    count = _split_aiv_count(p, args.get("n"), call)
    mode_node = args.get("mode")
    if mode_node is None:
        raise ParserSyntaxError("pl.split_aiv() requires mode=pl.SplitMode.UP_DOWN or "
                                "pl.SplitMode.LEFT_RIGHT", p.span(call))
    mode = read_enum(mode_node, SplitMode, p.span)
    if mode is SplitMode.NONE:
        raise ParserSyntaxError("pl.split_aiv() mode must be pl.SplitMode.UP_DOWN or "
                                "pl.SplitMode.LEFT_RIGHT, not pl.SplitMode.NONE",
                                p.span(mode_node), hint="Without a split there is nothing to "
                                                        "share: drop the loop")
    name_hint = _name_hint(p, args)
    _check_split_aiv_placement(p, node)
    span = p.span(node)
    body = _index_loop_body(p, node, RegionFrame("split_aiv", "pl.split_aiv()", span,
                                                 inner_limit=_KERNEL_LEVEL - 1, kernel=True),
                            "tile.get_subblock_idx", bind_underscore=False)
    p.emit(Sc.SplitAivScopeStmt(mode, count, name_hint, body=body, span=span))


# -- pl.graph ---------------------------------------------------------------------------------

def _graph(p: "FunctionParser", node: ast.With, call: ast.Call, item: ast.withitem) -> None:
    """``with pl.graph("name"):`` -- the name becomes the Graph function's name and key."""
    span = p.span(call)
    _no_as(p, item)
    if len(call.args) != 1:
        raise ParserSyntaxError(
            f"pl.graph() takes exactly one positional argument (the region name), got "
            f"{len(call.args)}", span, hint='e.g. with pl.graph("decoder_layer"):')
    name_node = call.args[0]
    if not (isinstance(name_node, ast.Constant) and isinstance(name_node.value, str)):
        raise ParserSyntaxError(
            "pl.graph() name must be a string literal", p.span(name_node),
            hint="The name is the graph's identity at run time, so it is written literally")
    if not name_node.value:
        raise ParserSyntaxError("pl.graph() name must not be empty", p.span(name_node),
                                hint="The name becomes the outlined Graph function's name")
    name = read_identifier(name_node, "pl.graph() name", p.span)
    dumps = None
    for kw in call.keywords:
        if kw.arg != "dumps":
            raise ParserSyntaxError(f"Unknown keyword argument '{kw.arg}' in pl.graph()",
                                    p.span(kw))
        dumps = _var_list(p, kw.value, "dumps")
    _raise_refusal(p, graph_refusal(name, p.enclosing_regions()), node)
    func_type = p.options.func_type
    if func_type in GRAPH_FORBIDDEN_FUNCS:
        raise ParserSyntaxError(
            f"pl.graph(\"{name}\") is not valid inside a {func_type.name} function",
            p.span(node), hint="Graph regions belong in Opaque, Orchestration, Graph or Inline "
                               "function bodies")
    attrs = {"dump_vars": dumps} if dumps is not None else {}
    body = _body(p, node, RegionFrame("graph", f'pl.graph("{name}")', p.span(node)))
    p.emit(Sc.GraphScopeStmt(name, body=body, span=p.span(node), attrs=attrs))


# -- pl.scope / pl.manual_scope ----------------------------------------------------------------

def _runtime_scope(manual_default: bool) -> Callable:
    construct = "manual_scope" if manual_default else "scope"

    def handler(p: "FunctionParser", node: ast.With, call: ast.Call, item: ast.withitem) -> None:
        _no_as(p, item)
        positional = () if manual_default else ("mode",)
        args = _Args(p, call, construct, positional, ("name_hint",))
        manual = manual_default
        mode = args.get("mode")
        if mode is not None:
            manual = read_enum(mode, ScopeMode, p.span) is ScopeMode.MANUAL
        if not manual:
            _check_auto_scope_allowed(p, node)
        name_hint = _name_hint(p, args)
        span = p.span(node)
        p.regions.append(RegionFrame("scope", f"pl.{construct}()", span))
        try:
            body = p.parse_block(node.body, node.lineno)
        finally:
            p.regions.pop()
        p.emit(Sc.RuntimeScopeStmt(manual, name_hint, body=body, span=span))
    return handler


def _check_auto_scope_allowed(p: "FunctionParser", node: ast.With) -> None:
    """PyPTO: an orchestration body is already one automatic scope, so an AUTO scope placed
    by hand needs the function's own one switched off (``auto_scope=False``)."""
    if any(region.kernel for region in p.regions):
        return  # kernel code, not the orchestration body that auto-scoping wraps
    if p.options.func_type in AUTO_SCOPED_FUNCTION_TYPES and p.options.attrs.get("auto_scope", True):
        raise ParserSyntaxError(
            "a hand-placed AUTO 'with pl.scope()' requires @pl.function(auto_scope=False)",
            p.span(node), hint="Add auto_scope=False to the decorator (@pl.jit(auto_scope=False) "
                               "in a jit function), or use pl.manual_scope()")


def _no_as(p: "FunctionParser", item: ast.withitem) -> None:
    if item.optional_vars is not None:
        raise ParserSyntaxError("`as ...:` is not supported here (only pl.at and pl.spmd "
                                "bind a task id)", p.span(item.optional_vars))


SCOPE_HANDLERS: dict[str, Callable] = {
    "at": _at,
    "cluster": _cluster,
    "spmd": _spmd,
    "graph": _graph,
    "scope": _runtime_scope(False),
    "manual_scope": _runtime_scope(True),
}


def _with(p: "FunctionParser", node: ast.With) -> None:
    if len(node.items) != 1:
        raise ParserSyntaxError("Only single context manager supported per with statement",
                                p.span(node))
    item = node.items[0]
    call = item.context_expr
    chain = attr_chain(call.func) if isinstance(call, ast.Call) else attr_chain(call)
    handler = None
    if chain is not None and len(chain) == 2 and chain[0] == "pl":
        handler = SCOPE_HANDLERS.get(chain[1])
    if handler is None or chain is None:
        raise UnsupportedFeatureError(
            f"Unsupported context manager in with statement: '{ast.unparse(call)}'",
            p.span(call), hint="Use pl.at(...), pl.cluster(), pl.spmd(n), pl.graph(\"name\"), "
                               "pl.scope() or pl.manual_scope()")
    if not isinstance(call, ast.Call):
        raise ParserSyntaxError(f"pl.{chain[1]} must be called: with pl.{chain[1]}(...):",
                                p.span(call))
    handler(p, node, call, item)


STMT_HANDLERS = {ast.With: _with}

_ = (DataType, scalar_type, ParserTypeError)

"""Every pass declared once, as data (03-passes.md §1, §6.2).

A ``PassSpec`` names a pass three ways (``ConvertToSSA`` / ``convert-to-ssa`` /
``convert_to_ssa``), gives its kind and properties, and points at its
implementation as a lazy ``"module:function"`` path:

* a program pass module exposes ``transform(program: ir.Program) -> ir.Program``;
* a function pass module exposes ``transform(func: ir.Function) -> ir.Function``
  (``Pass`` maps it over the functions).

The module is imported only when the pass first runs, so a pass whose module
does not exist yet fails then, with a clear error, and nothing else does.
``passes.<factory_name>()`` is generated from these declarations.
"""

from __future__ import annotations

import difflib
import importlib
import inspect
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Callable

from ..errors import InternalError
from .pass_base import Pass, PassKind
from .properties import IRProperty as P

if TYPE_CHECKING:  # (build_pipeline imports it when called)
    from .pipeline import PassPipeline

__all__ = ["PassSpec", "PASS_SPECS", "get_pass_spec", "list_passes", "create_pass",
           "build_pipeline", "make_factory", "default_pipeline_specs"]


@dataclass(frozen=True)
class PassSpec:
    name: str
    cli_name: str
    factory_name: str
    kind: PassKind
    required: tuple[P, ...]
    produced: tuple[P, ...]
    invalidated: tuple[P, ...]
    impl: str
    summary: str
    parameters: tuple[str, ...] = ()
    in_default_pipeline: bool = True
    self_verified: tuple[P, ...] = ()  # produced properties the pass checks itself

    def create(self, *args: Any, **kwargs: Any) -> Pass:
        """A ``Pass`` for this declaration; ``args``/``kwargs`` bind ``parameters``."""
        options = _bind_options(self, args, kwargs)
        return Pass(self.name, _LazyTransform(self, options), required=self.required,
                    produced=self.produced, invalidated=self.invalidated, kind=self.kind,
                    self_verified=self.self_verified)


def _bind_options(spec: PassSpec, args: tuple, kwargs: dict) -> dict[str, Any]:
    if len(args) > len(spec.parameters):
        raise TypeError(f"{spec.factory_name}() takes {len(spec.parameters)} argument(s) "
                        f"but {len(args)} were given")
    options = dict(zip(spec.parameters, args))
    for key, value in kwargs.items():
        if key not in spec.parameters:
            raise TypeError(f"{spec.factory_name}() got an unexpected keyword argument '{key}'")
        if key in options:
            raise TypeError(f"{spec.factory_name}() got multiple values for argument '{key}'")
        options[key] = value
    return options


class _LazyTransform:
    """Imports ``spec.impl`` at the first call, then forwards to it."""

    __slots__ = ("_spec", "_options", "_fn")

    def __init__(self, spec: PassSpec, options: dict[str, Any]) -> None:
        self._spec = spec
        self._options = options
        self._fn: Callable[..., Any] | None = None

    def __call__(self, node: Any) -> Any:
        fn = self._fn
        if fn is None:
            fn = self._fn = _load(self._spec)
        return fn(node, **self._options)


def _load(spec: PassSpec) -> Callable[..., Any]:
    module_name, _, attr = spec.impl.partition(":")
    try:
        module = importlib.import_module(module_name)
    except ModuleNotFoundError as exc:
        missing = exc.name or ""
        if module_name == missing or module_name.startswith(missing + "."):
            raise NotImplementedError(
                f"Pass '{spec.name}' is not available: its implementation module "
                f"'{module_name}' does not exist") from exc
        raise
    fn = getattr(module, attr, None)
    if not callable(fn):
        raise InternalError(f"Pass '{spec.name}': module '{module_name}' has no callable "
                            f"'{attr}' (declared implementation '{spec.impl}')")
    return fn


def _spec(name: str, cli: str, factory: str, kind: PassKind, impl: str, summary: str, *,
          required: tuple = (), produced: tuple = (), invalidated: tuple = (),
          parameters: tuple = (), in_default_pipeline: bool = True,
          self_verified: tuple = ()) -> PassSpec:
    return PassSpec(name, cli, factory, kind, required, produced, invalidated, impl, summary,
                    parameters, in_default_pipeline, self_verified)


_PROGRAM, _FUNCTION = PassKind.PROGRAM, PassKind.FUNCTION

# The default pipeline, in order (§6.2), then the stand-alone verifier pass.
PASS_SPECS: tuple[PassSpec, ...] = (
    _spec("InlineFunctions", "inline-functions", "inline_functions", _PROGRAM,
          "pypto.passes.transforms.inline_functions:transform",
          "Splice every FunctionType.Inline function into its call sites and drop it.",
          produced=(P.InlineFunctionsEliminated,)),
    _spec("ConvertToSSA", "convert-to-ssa", "convert_to_ssa", _FUNCTION,
          "pypto.passes.transforms.convert_to_ssa:transform",
          "Give every definition its own Var (iter_args / return vars / phis).",
          produced=(P.SSAForm,), invalidated=(P.NormalizedStmtStructure,)),
    _spec("NormalizeStmtStructure", "normalize-stmt-structure", "normalize_stmt_structure",
          _FUNCTION, "pypto.passes.transforms.normalize_stmt_structure:transform",
          "Flatten nested SeqStmts and unwrap single-child ones.",
          produced=(P.NormalizedStmtStructure,)),
    _spec("FlattenCallExpr", "flatten-call-expr", "flatten_call_expr", _FUNCTION,
          "pypto.passes.transforms.flatten_call_expr:transform",
          "Hoist nested calls into temporaries (three-address form).",
          required=(P.SSAForm, P.NormalizedStmtStructure),
          produced=(P.SSAForm, P.NoNestedCalls, P.NormalizedStmtStructure)),
    _spec("OutlineHierarchyScopes", "outline-hierarchy-scopes", "outline_hierarchy_scopes",
          _PROGRAM, "pypto.passes.outline.hierarchy:transform",
          "Outline pl.at(level, role) regions into level/role-tagged Opaque functions.",
          required=(P.SSAForm,),
          produced=(P.SSAForm, P.HierarchyOutlined, P.OrchestrationReferencesResolved)),
    _spec("OutlineGraphScopes", "outline-graph-scopes", "outline_graph_scopes", _PROGRAM,
          "pypto.passes.outline.graph:transform",
          "Outline pl.graph regions into FunctionType.Graph functions.",
          required=(P.SSAForm, P.InlineFunctionsEliminated),
          produced=(P.SSAForm, P.GraphOutlined)),
    _spec("OutlineIncoreScopes", "outline-incore-scopes", "outline_incore_scopes", _PROGRAM,
          "pypto.passes.outline.incore:transform",
          "Outline InCore regions into InCore kernels; promote Opaque parents.",
          required=(P.SSAForm,),
          produced=(P.SSAForm, P.SplitIncoreOrch, P.AivSplitValid)),
    _spec("OutlineClusterScopes", "outline-cluster-scopes", "outline_cluster_scopes", _PROGRAM,
          "pypto.passes.outline.cluster:transform",
          "Outline pl.cluster regions into Group functions and pl.spmd into Spmd functions.",
          required=(P.SSAForm,), produced=(P.SSAForm, P.ClusterOutlined)),
    _spec("LegalizeGraphBoundary", "legalize-graph-boundary", "legalize_graph_boundary",
          _PROGRAM, "pypto.passes.transforms.legalize_graph_boundary:transform",
          "Hoist region-derived scalars to Graph call sites and check the boundary contract.",
          required=(P.SplitIncoreOrch, P.GraphOutlined),
          produced=(P.GraphBoundaryLegalized,), self_verified=(P.GraphBoundaryLegalized,)),
    # Front-end passes outside the default pipeline (PyPTO's factories; docs/guide/passes.md).
    _spec("Simplify", "simplify", "simplify", _FUNCTION,
          "pypto.passes.transforms.simplify:transform",
          "Fold and normalise scalar expressions (constants, x + 0, x * 1, linear forms).",
          in_default_pipeline=False),
    _spec("UnrollLoops", "unroll-loops", "unroll_loops", _FUNCTION,
          "pypto.passes.transforms.unroll_loops:transform",
          "Expand pl.unroll loops with constant bounds into one body copy per iteration.",
          produced=(P.UnrollResolved,), invalidated=(P.NormalizedStmtStructure,),
          in_default_pipeline=False),
    _spec("DeriveCallDirections", "derive-call-directions", "derive_call_directions",
          _PROGRAM, "pypto.passes.transforms.derive_call_directions:transform",
          "Record each call's per-argument directions from the callee's parameters.",
          produced=(P.CallDirectionsResolved,), in_default_pipeline=False),
    _spec("NormalizeReturnOrder", "normalize-return-order", "normalize_return_order",
          _PROGRAM, "pypto.passes.transforms.normalize_return_order:transform",
          "Return a called function's written parameters in parameter order; callers follow.",
          produced=(P.ReturnParamsExplicit,), in_default_pipeline=False),
    _spec("CanonicalizeIOOrder", "canonicalize-io-order", "canonicalize_io_order",
          _PROGRAM, "pypto.passes.transforms.canonicalize_io_order:transform",
          "Order each called kernel's parameters In, InOut, Out; rewrite its calls.",
          in_default_pipeline=False),
    _spec("ClassifyIterArgCarry", "classify-iter-arg-carry", "classify_iter_arg_carry",
          _FUNCTION, "pypto.passes.transforms.classify_iter_arg_carry:transform",
          "Record per for-loop iter_arg whether the body reads it (carry) or not (escape).",
          required=(P.SSAForm,), produced=(P.IterArgCarryClassified,),
          in_default_pipeline=False),
    _spec("IRVerifier", "run-verifier", "run_verifier", _PROGRAM,
          "pypto.passes.verifier_registry:verify_program",
          "Verify a property set (default: get_default_verify_properties()); change nothing.",
          parameters=("properties",), in_default_pipeline=False),
)

_BY_SPELLING: dict[str, PassSpec] = {}
for _s in PASS_SPECS:
    for _key in (_s.name, _s.cli_name, _s.factory_name):
        if _BY_SPELLING.setdefault(_key, _s) is not _s:
            raise InternalError(f"pass spelling '{_key}' is declared twice")
del _s, _key


def _valid_spellings() -> str:
    return ", ".join(f"{s.cli_name} ({s.name}, {s.factory_name})" for s in PASS_SPECS)


def get_pass_spec(name: str) -> PassSpec:
    """The declaration for a pass name, CLI spelling or factory name."""
    if not isinstance(name, str):
        raise TypeError(f"get_pass_spec expects a str, got {type(name).__name__}")
    spec = _BY_SPELLING.get(name.strip())
    if spec is None:
        close = difflib.get_close_matches(name.strip(), list(_BY_SPELLING), n=1)
        guess = f" (did you mean '{close[0]}'?)" if close else ""
        raise ValueError(f"Unknown pass '{name}'{guess}; valid passes: {_valid_spellings()}")
    return spec


def list_passes() -> list[PassSpec]:
    """All declarations: the default pipeline in order, then the stand-alone passes and the
    verifier pass."""
    return list(PASS_SPECS)


def default_pipeline_specs() -> list[PassSpec]:
    return [s for s in PASS_SPECS if s.in_default_pipeline]


def create_pass(name: str, *args: Any, **kwargs: Any) -> Pass:
    return get_pass_spec(name).create(*args, **kwargs)


def build_pipeline(text: str) -> "PassPipeline":
    """``"convert-to-ssa,outline-graph-scopes"`` -> a ``PassPipeline`` (for the CLI)."""
    from .pipeline import PassPipeline
    if not isinstance(text, str):
        raise TypeError(f"build_pipeline expects a comma-separated str, got {type(text).__name__}")
    names = [part.strip() for part in text.split(",")]
    return PassPipeline(get_pass_spec(n).create() for n in names if n)


def make_factory(spec: PassSpec) -> Callable[..., Pass]:
    """``passes.<spec.factory_name>``: builds a fresh ``Pass`` on every call."""
    def factory(*args: Any, **kwargs: Any) -> Pass:
        return spec.create(*args, **kwargs)
    factory.__name__ = factory.__qualname__ = spec.factory_name
    factory.__doc__ = (f"Create the ``{spec.name}`` {spec.kind.value} pass. {spec.summary}"
                       + (f"\n\nParameters: {', '.join(spec.parameters)}."
                          if spec.parameters else ""))
    factory.__module__ = "pypto.passes"
    factory.__signature__ = inspect.Signature(  # type: ignore[attr-defined]  # read by inspect
        [inspect.Parameter(name, inspect.Parameter.POSITIONAL_OR_KEYWORD, default=None)
         for name in spec.parameters], return_annotation=Pass)
    return factory

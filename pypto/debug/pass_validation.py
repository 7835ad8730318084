"""Run every per-pass dump of a program and compare its outputs (``pypto.debug``)."""

from __future__ import annotations

import os
from typing import Any, Mapping

from ..ir.function import Function, Program
from ..language.parser.text_parser import parse
from ..passes.compile import _copy, _entry, _output_mismatch
from ..passes.names import source_name
from ..runtime.executor import Executor

__all__ = ["validate_pass_ir_codegen_results"]


def validate_pass_ir_codegen_results(ir_dir: str, tensors: Mapping[str, Any],
                                     expected: Mapping[str, Any], *, rtol: float = 0.05,
                                     atol: float = 0.05) -> None:
    """For each program dump in ``ir_dir`` (the ``passes_dump`` directory, in pass
    order): run its entry on the CPU executor with copies of ``tensors`` (by parameter
    name, as the user wrote it) and compare the parameters named in ``expected`` (the
    ``Out``/``InOut`` ones) with the expected values within ``rtol``/``atol``.

    ``AssertionError`` naming the first dump whose result differs (the pass that
    changed the meaning); ``FileNotFoundError`` for a directory without dumps;
    ``ValueError`` for a tensor or expected name the entry has no parameter for."""
    if not os.path.isdir(ir_dir):
        raise FileNotFoundError(f"validate_pass_ir_codegen_results: {ir_dir!r} is not a "
                                "directory")
    dumps = sorted(name for name in os.listdir(ir_dir) if name.endswith(".py"))
    if not dumps:
        raise FileNotFoundError(f"validate_pass_ir_codegen_results: no pass dumps (*.py) in "
                                f"{ir_dir!r}")
    for dump in dumps:
        path = os.path.join(ir_dir, dump)
        with open(path, encoding="utf-8") as handle:
            parsed = parse(handle.read(), filename=path)
        program = parsed if isinstance(parsed, Program) else \
            Program([parsed], parsed.name, parsed.span)
        entry = _entry_of(program, dump)
        names = [source_name(param.name_hint) for param in entry.params]
        _check_names(dump, names, tensors, expected)
        args = [_copy(tensors[name]) for name in names]
        Executor(program).run(*args, entry=entry.name)
        for name, want in expected.items():
            mismatch = _output_mismatch(args[names.index(name)], want, rtol, atol)
            if mismatch is not None:
                raise AssertionError(f"{dump}: output {name!r} {mismatch}")


def _entry_of(program: Program, dump: str) -> Function:
    entry = _entry(program)
    if entry is None:
        raise ValueError(f"{dump}: program '{program.name}' has no single entry function "
                         "(name one 'main')")
    return entry


def _check_names(dump: str, names: list[str], tensors: Mapping[str, Any],
                 expected: Mapping[str, Any]) -> None:
    missing = [name for name in names if name not in tensors]
    if missing:
        raise ValueError(f"{dump}: no tensor given for parameter(s) {', '.join(missing)} "
                         f"(the entry takes {', '.join(names)})")
    unknown = [name for name in list(tensors) + list(expected) if name not in names]
    if unknown:
        raise ValueError(f"{dump}: the entry has no parameter {unknown[0]!r} (it takes "
                         f"{', '.join(names)})")

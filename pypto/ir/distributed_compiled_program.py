"""``pypto.ir.distributed_compiled_program``: a distributed program ready to run on a
set of devices (PyPTO's names).

``DistributedConfig(device_ids=[0, 1, 2, 3])`` names the devices; one rank runs on
each, so the world size is ``len(device_ids)``.  pypto generates no device code:
``DistributedCompiledProgram(program, output_dir, distributed_config=cfg)`` keeps the
program, and ``prepare()`` / ``pypto.runtime.distributed_runner.execute_distributed``
run it on the CPU executor, the ranks simulated in one process.
"""

from __future__ import annotations

import importlib
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any  # noqa: F401 - PyPTO shows TYPE_CHECKING

from .enums import ParamDirection, Role, level_to_linqu_level
from .function import Program

__all__ = ["DistributedConfig", "DistributedCompiledProgram", "level_to_linqu_level"]

# The file ``ir.compile`` saves the compiled program in (``ir.serialize``'s format).
PROGRAM_FILE = "program.pir"


@dataclass
class DistributedConfig:
    """The devices of a distributed run (one rank each) and PyPTO's runtime options,
    which the CPU executor does not need (``num_sub_workers``, ``runtime``,
    ``aicpu_thread_num`` are kept, not used)."""

    device_ids: list = field(default_factory=lambda: [0])
    num_sub_workers: int = 0
    runtime: str = "tensormap_and_ringbuffer"
    aicpu_thread_num: int = 0

    @property
    def world_size(self) -> int:
        return len(self.device_ids)


class DistributedCompiledProgram:
    """A program and the devices it runs on."""

    def __init__(self, program: Program, output_dir: Any = None, *, backend_type: Any = None,
                 platform: str | None = None, distributed_config: DistributedConfig | None = None,
                 _param_infos: Any = None, _output_indices: Any = None,
                 _return_types: Any = None) -> None:
        if not isinstance(program, Program):
            raise TypeError(f"DistributedCompiledProgram expects an ir.Program, got "
                            f"{type(program).__name__}")
        config = distributed_config if distributed_config is not None else DistributedConfig()
        if not isinstance(config, DistributedConfig):
            raise TypeError(f"distributed_config must be a DistributedConfig, got "
                            f"{type(config).__name__}")
        if not config.device_ids:
            raise ValueError("distributed_config.device_ids names no device")
        self._program = program
        self._output_dir = output_dir
        self._platform = platform
        self.backend_type = backend_type
        self.distributed_config = config

    @property
    def program(self) -> Program:
        return self._program

    @property
    def output_dir(self) -> Any:
        return self._output_dir

    @property
    def platform(self) -> str | None:
        return self._platform

    @classmethod
    def from_dir(cls, output_dir: str, *, platform: str | None = None, backend_type: Any = None,
                 distributed_config: DistributedConfig | None = None
                 ) -> "DistributedCompiledProgram":
        """The program ``ir.compile(..., distributed_config=...)`` saved in ``output_dir``
        (its ``program.pir``), for the devices of ``distributed_config``."""
        import os
        from .serialize import deserialize_from_file
        path = os.path.join(output_dir, PROGRAM_FILE)
        if not os.path.exists(path):
            raise FileNotFoundError(f"DistributedCompiledProgram.from_dir: no {PROGRAM_FILE} in "
                                    f"{output_dir}")
        return cls(deserialize_from_file(path), output_dir, backend_type=backend_type,
                   platform=platform, distributed_config=distributed_config)

    def prepare(self, config: Any = None, *, extra_compiled: Any = (), persistent: bool = False,
                reset_persistent_windows: Any = None, callbacks: Any = None,
                sub_worker_overrides: Any = None, startup_timeout_s: Any = None) -> Any:
        """A ``DistributedRunHandle`` that runs the program (``handle.run(*args)``)."""
        runner = importlib.import_module("pypto.runtime.distributed_runner")
        return runner.DistributedRunHandle(self, config)

    def __call__(self, *args: Any, config: Any = None) -> Any:
        return self.prepare(config).run(*args)


_ = (ParamDirection, Role)

"""``pypto.runtime.log_config``: the runtime's report level, on the ``pypto.runtime``
logger."""

from __future__ import annotations

import logging

import pytest

np = pytest.importorskip("numpy")

import pypto.language as pl  # noqa: E402
from pypto import runtime  # noqa: E402
from pypto.runtime import RunConfig, log_config  # noqa: E402

T = pl.Tensor[[4, 8], pl.FP32]


@pl.program
class Twice:
    @pl.function(type=pl.FunctionType.Orchestration)
    def main(self, x: T, y: pl.Out[T]) -> T:
        with pl.at(level=pl.Level.CORE_GROUP):
            y = pl.store(pl.add(pl.load(x, [0, 0], [4, 8]), pl.load(x, [0, 0], [4, 8])),
                         [0, 0], y)
        return y


@pytest.fixture
def restore_levels():
    loggers = [logging.getLogger(log_config.LOGGER_NAME), logging.getLogger("pypto")]
    saved = [(lg, lg.level, list(lg.handlers)) for lg in loggers]
    yield
    for lg, level, handlers in saved:
        lg.setLevel(level)
        lg.handlers[:] = handlers


def test_configure_log_filters_what_run_reports(restore_levels, caplog):
    x, y = np.ones((4, 8), np.float32), np.zeros((4, 8), np.float32)
    runtime.configure_log("warn")
    assert runtime.log_level() == "warning"
    with caplog.at_level(logging.NOTSET, logger="pypto.runtime.other"):
        runtime.run(Twice, x, y, config=RunConfig(platform="a5"))
    assert not [r for r in caplog.records if r.name == log_config.LOGGER_NAME]
    runtime.configure_log("info")
    runtime.run(Twice, x, y, config=RunConfig(platform="a5"))
    messages = [r.getMessage() for r in caplog.records if r.name == log_config.LOGGER_NAME]
    assert messages == ["running Twice on pypto's CPU executor (platform 'a5' is not used)"]
    assert np.array_equal(y, 2 * x)


def test_configure_log_levels_and_sync(restore_levels):
    log_config.configure_log("debug", sync_pypto=True)
    assert log_config.current_level() == "debug"
    assert logging.getLogger("pypto").level == logging.DEBUG
    log_config.configure_log("none")
    assert log_config.current_level() == "none"
    with pytest.raises(ValueError, match="unknown level 'loud'"):
        log_config.configure_log("loud")
    with pytest.raises(TypeError, match="level must be"):
        log_config.configure_log(2.5)


def test_optional_reexports_show_only_what_resolves():
    from pypto._lazy import optional_reexports
    from pypto.ir import DataType
    namespace = {"__name__": "fake", "own": 1}
    getattr_, dir_ = optional_reexports(namespace, {"DataType": "pypto.ir",
                                                    "NoSuchName": "pypto.ir",
                                                    "Gone": "pypto.no_such_module"})
    assert getattr_("DataType") is DataType
    assert dir_() == ["DataType", "__name__", "own"]
    for name in ("NoSuchName", "Gone", "other"):
        with pytest.raises(AttributeError, match=f"module 'fake' has no attribute '{name}'"):
            getattr_(name)

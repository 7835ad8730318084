"""PyPTO's top-level names: DT_* constants, LogLevel and the logging functions, the
check functions, the compiled-core facade's error classes."""

from __future__ import annotations

import subprocess
import sys

import pytest

import pypto
from pypto import ir


@pytest.fixture
def log_level():
    saved = pypto.get_log_level()
    yield
    pypto.set_log_level(saved)


def test_dt_constants_are_the_data_types():
    assert pypto.DT_FP32 is ir.DataType.FP32
    assert pypto.DT_BF16 is ir.DataType.BF16 and pypto.DT_INDEX is ir.DataType.INDEX
    assert {name for name in pypto.__all__ if name.startswith("DT_")} == {
        f"DT_{n}" for n in ("BF16", "BOOL", "FP16", "FP32", "FP4", "FP8E4M3FN", "FP8E5M2",
                            "FP8E8M0", "HF4", "HF8", "INDEX", "INT16", "INT32", "INT4", "INT64",
                            "INT8", "UINT16", "UINT32", "UINT4", "UINT64", "UINT8")}


def test_log_level_members_and_values():
    assert {m.name: m.value for m in pypto.LogLevel} == {
        "DEBUG": 0, "INFO": 1, "WARN": 2, "ERROR": 3, "FATAL": 4, "EVENT": 5, "NONE": 6}


def test_the_level_filters_messages_to_stderr(capsys, log_level):
    pypto.set_log_level(pypto.LogLevel.WARN)
    assert pypto.get_log_level() is pypto.LogLevel.WARN
    pypto.log_info("hidden")
    pypto.log_debug("hidden too")
    pypto.log_warn("shown")
    pypto.log_error("also shown")
    captured = capsys.readouterr()
    assert captured.out == ""
    assert captured.err == "[pypto WARN] shown\n[pypto ERROR] also shown\n"
    pypto.set_log_level(pypto.LogLevel.DEBUG)
    pypto.log_debug("now")
    pypto.log_event("event")
    assert capsys.readouterr().err == "[pypto DEBUG] now\n[pypto EVENT] event\n"
    pypto.set_log_level(pypto.LogLevel.NONE)
    pypto.log_fatal("silenced")
    assert capsys.readouterr().err == ""


def test_set_log_level_rejects_what_is_not_a_level(log_level):
    with pytest.raises(TypeError, match="expected a pypto.LogLevel, got str"):
        pypto.set_log_level("INFO")
    with pytest.raises(ValueError, match="9 is not a LogLevel value"):
        pypto.set_log_level(9)
    pypto.set_log_level(1)
    assert pypto.get_log_level() is pypto.LogLevel.INFO


def test_the_environment_sets_the_starting_level():
    code = "import pypto; print(pypto.get_log_level().name)"
    for value, expected in (("debug", "DEBUG"), ("3", "ERROR"), ("", "WARN"), ("nonsense", "WARN")):
        out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                             env={"PYPTO_LOG_LEVEL": value}, check=True).stdout
        assert out.strip() == expected, value


def test_check_raises_the_cores_value_error():
    pypto.check(True, "fine")
    with pytest.raises(pypto.pypto_core.ValueError, match="^bad input$") as info:
        pypto.check(0, "bad input")
    assert isinstance(info.value, ValueError)


def test_internal_checks_raise_internal_error():
    pypto.internal_check(1, "fine")
    with pytest.raises(pypto.InternalError, match="^broken$"):
        pypto.internal_check(False, "broken")
    with pytest.raises(pypto.InternalError, match=r"^broken \(at f.py:3:4\)$"):
        pypto.internal_check_span(False, "broken", ir.Span("f.py", 3, 4))
    assert issubclass(pypto.InternalError, RuntimeError)


def test_core_facade_names():
    core = pypto.pypto_core
    assert core.LogLevel is pypto.LogLevel and core.WARN is pypto.LogLevel.WARN
    assert core.DataType is ir.DataType and core.Error is pypto.Error
    assert core.ir is ir and core.passes is pypto.passes
    assert core.backend is pypto.backend and core.arith is pypto.arith
    for name, builtin in (("ValueError", ValueError), ("TypeError", TypeError),
                          ("IndexError", IndexError), ("RuntimeError", RuntimeError),
                          ("NotImplementedError", NotImplementedError),
                          ("AssertionError", AssertionError)):
        cls = getattr(core, name)
        assert cls is not builtin and issubclass(cls, builtin) and cls.__name__ == name
    for name in ("check", "internal_check", "log_info", "set_log_level", "get_log_level"):
        assert getattr(core, name) is getattr(pypto, name)


def test_runtime_is_exported_and_submodules_load_lazily():
    assert "runtime" in pypto.__all__
    out = subprocess.run(
        [sys.executable, "-c", "import sys, pypto; print('pypto.ir' in sys.modules); "
         "pypto.backend; pypto.DT_FP32; print('pypto.backend' in sys.modules)"],
        capture_output=True, text=True, check=True).stdout
    assert out.split() == ["False", "True"]

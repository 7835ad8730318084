"""``pypto.backend``: PyPTO's target enum, the backend choice and chip descriptions."""

from __future__ import annotations

import threading

import pytest

import pypto.backend as backend
from pypto import ir
from pypto.pypto_core import backend as core_backend


@pytest.fixture(autouse=True)
def fresh_backend():
    backend.reset_for_testing()
    yield
    backend.reset_for_testing()


def test_backend_type_members_and_values():
    assert {m.name: m.value for m in backend.BackendType} == {"Ascend910B": 0, "Ascend950": 1}
    assert core_backend is backend


def test_the_choice_is_recorded_and_cannot_silently_change():
    assert not backend.is_backend_configured()
    assert backend.get_backend_type() is backend.BackendType.Ascend910B  # the default
    backend.set_backend_type(backend.BackendType.Ascend950)
    assert backend.is_backend_configured()
    assert backend.get_backend_type() is backend.BackendType.Ascend950
    backend.set_backend_type(backend.BackendType.Ascend950)  # the same again is fine
    with pytest.raises(ValueError, match="already Ascend950; it cannot change to Ascend910B"):
        backend.set_backend_type(backend.BackendType.Ascend910B)
    backend.reset_for_testing()
    backend.set_backend_type(backend.BackendType.Ascend910B)
    assert backend.get_backend_type() is backend.BackendType.Ascend910B


def test_set_backend_type_rejects_strings():
    with pytest.raises(TypeError, match="expected a pypto.backend.BackendType, got str"):
        backend.set_backend_type("Ascend910B")


def test_concurrent_setters_agree_on_one_choice():
    errors, barrier = [], threading.Barrier(8)

    def choose(kind):
        barrier.wait()
        try:
            backend.set_backend_type(kind)
        except ValueError as exc:
            errors.append(exc)
    kinds = [backend.BackendType.Ascend910B, backend.BackendType.Ascend950] * 4
    threads = [threading.Thread(target=choose, args=(k,)) for k in kinds]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    chosen = backend.get_backend_type()
    assert len(errors) == sum(1 for k in kinds if k is not chosen) == 4


def test_910b_description():
    b = backend.get_backend_instance(backend.BackendType.Ascend910B)
    assert b is backend.Backend910B.instance() and b.get_type_name() == "910B"
    assert b.get_mem_size(ir.Mem.Vec) == 192 * 1024 and b.get_mem_size(ir.Mem.Acc) == 128 * 1024
    assert b.get_mem_size(ir.Mem.LeftScale) == 0
    assert b.get_core_count(ir.CoreType.CUBE) == 24 and b.get_core_count(ir.CoreType.VECTOR) == 48
    assert b.soc.total_core_count() == 72 and b.soc.total_cluster_count() == 24
    assert b.find_mem_path(ir.Mem.DDR, ir.Mem.Left) == [ir.Mem.DDR, ir.Mem.Mat, ir.Mem.Left]
    # the 910B moves a matmul result to the vector core through global memory ...
    assert b.find_mem_path(ir.Mem.Acc, ir.Mem.Vec) == [ir.Mem.Acc, ir.Mem.DDR, ir.Mem.Vec]
    assert b.find_mem_path(ir.Mem.Vec, ir.Mem.Left) == [ir.Mem.Vec, ir.Mem.DDR, ir.Mem.Mat,
                                                        ir.Mem.Left]
    assert b.find_mem_path(ir.Mem.Left, ir.Mem.Mat) == []
    b950 = backend.Backend950.instance()
    # ... the 950 directly
    assert b950.find_mem_path(ir.Mem.Acc, ir.Mem.Vec) == [ir.Mem.Acc, ir.Mem.Vec]


def test_hardware_values_compare_by_content_and_export_round_trips(tmp_path):
    vec = backend.Mem(ir.Mem.Vec, 1024, 32)
    core = backend.Core(ir.CoreType.VECTOR, [vec])
    assert backend.Core(ir.CoreType.VECTOR, [backend.Mem(ir.Mem.Vec, 1024, 32)]) == core
    cluster = backend.Cluster(core, 2)
    assert cluster == backend.Cluster({core: 2}) and cluster.total_core_count() == 2
    soc = backend.SoC(backend.Die(cluster, 3), 2)
    assert (soc.total_die_count(), soc.total_cluster_count(), soc.total_core_count()) == (2, 6, 12)
    path = tmp_path / "chip.json"
    original = backend.get_backend_instance(backend.BackendType.Ascend950)
    original.export_to_file(str(path))
    loaded = backend.Backend.import_from_file(str(path))
    assert loaded.soc == original.soc and loaded.get_type_name() == "950"
    assert loaded.find_mem_path(ir.Mem.DDR, ir.Mem.RightScale) == \
        original.find_mem_path(ir.Mem.DDR, ir.Mem.RightScale)
    with pytest.raises(AttributeError, match="immutable"):
        vec.mem_size = 1
    with pytest.raises(ValueError, match="a count must be a non-negative int"):
        backend.Cluster(core, -1)

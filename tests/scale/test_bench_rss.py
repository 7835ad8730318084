"""The scale benchmark's peak-RSS reading belongs to the measuring child alone.

Linux keeps ``ru_maxrss`` across ``execve``: a child started from a big parent reported
the parent's size (4.3 GB for a 300 MB run, after the benchmark had held 80k
statements).  ``bench_scale.peak_rss_kb`` reads the kernel's per-address-space mark.
"""

from __future__ import annotations

import os
import resource
import subprocess
import sys

import pytest

BENCHMARKS = os.path.join(os.path.dirname(__file__), "..", "..", "benchmarks")
PROBE = ("import sys; sys.path.insert(0, sys.argv[1]); import bench_scale; "
         "print(bench_scale.peak_rss_kb())")


@pytest.mark.skipif(not sys.platform.startswith("linux"),
                    reason="ru_maxrss survives execve on Linux; elsewhere it is all there is")
def test_a_child_of_a_big_parent_reports_its_own_peak() -> None:
    ballast = bytearray(b"\x01") * (400 * 1024 * 1024)  # written, so resident
    parent_kb = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    child_kb = int(subprocess.run([sys.executable, "-c", PROBE, BENCHMARKS],
                                  capture_output=True, text=True, check=True).stdout)
    del ballast
    assert parent_kb > 400 * 1024
    assert child_kb < 300 * 1024, (child_kb, parent_kb)

"""The open-file limit is raised to the hard limit, and the connection cap fits inside what it leaves."""

from __future__ import annotations

import resource
import subprocess
import sys

from components.runtime import settings
from components.web import capacity
from tests.helpers import ROOT


def test_the_open_file_limit_is_raised_to_the_hard_limit_in_a_fresh_process():
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    low = min(1024, hard)
    code = (
        "import resource; from components.web import capacity; "
        f"resource.setrlimit(resource.RLIMIT_NOFILE, ({low}, {hard})); "
        "print(capacity.raise_open_files(), resource.getrlimit(resource.RLIMIT_NOFILE)[0])"
    )
    out = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, check=True)
    reported, in_force = map(int, out.stdout.split())
    wanted = (
        settings.OPEN_FILES_CEILING.value
        if hard == resource.RLIM_INFINITY
        else min(hard, settings.OPEN_FILES_CEILING.value)
    )
    assert reported == in_force == max(low, wanted)


def test_the_connection_cap_leaves_the_reserve_free():
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    try:
        resource.setrlimit(resource.RLIMIT_NOFILE, (1024, hard))
        assert capacity.connection_cap(8192) == 1024 - settings.FD_RESERVE.value
        assert capacity.connection_cap(100) == 100
    finally:
        resource.setrlimit(resource.RLIMIT_NOFILE, (soft, hard))

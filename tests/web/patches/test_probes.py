"""Optional libraries remembered as missing; Gradio's own probing wherever the patch no longer fits."""

from __future__ import annotations

import sys

import pytest
from gradio import utils
from gradio.components import plot

from components.web.patches import probes
from components.web.patches.guard import apply_patch
from tests.web.patches.conftest import fresh

ABSENT = "surely_not_installed_module"


@pytest.fixture
def absent(monkeypatch):
    monkeypatch.setattr(probes, "PROBED", (ABSENT,))
    yield monkeypatch
    sys.modules.pop(ABSENT, None)


def test_it_fits_this_gradio():
    probes.PATCH.check()


def test_a_missing_optional_library_fails_to_import_at_once(absent):
    assert apply_patch(fresh(probes.PATCH))
    assert sys.modules[ABSENT] is None
    with pytest.raises(ImportError):
        import surely_not_installed_module  # noqa: F401


def test_an_installed_library_is_left_alone(absent):
    absent.setattr(probes, "PROBED", ("json",))
    assert apply_patch(fresh(probes.PATCH))
    import json

    assert json.dumps([1]) == "[1]"


def test_a_gradio_that_no_longer_probes_so_is_left_alone(absent, stands_down):
    absent.setattr(plot.Plot, "get_config", lambda self: {})
    assert stands_down(probes.PATCH).endswith("Plot.get_config no longer probes bokeh catching ImportError")
    assert ABSENT not in sys.modules


def test_without_gradios_matplotlib_switch_it_stands_down(absent, stands_down):
    absent.delattr(utils, "MatplotlibBackendMananger")
    assert stands_down(probes.PATCH).endswith("gradio.utils.MatplotlibBackendMananger.__enter__ is missing")
    assert ABSENT not in sys.modules

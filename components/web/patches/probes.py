"""Optional libraries Gradio probes for on every request are remembered as missing.

`gr.Plot`'s config asks for bokeh, and each call switches matplotlib's backend, both by trying to import
the library and catching `ImportError`. When a library is not installed, every try searches all of
`sys.path` again. A `None` in `sys.modules` makes `import name` fail at once with the same `ImportError`.
"""

from __future__ import annotations

import importlib.util
import sys

from gradio import utils
from gradio.components import plot

from components.web.patches.guard import Patch, PatchMismatch, need, source_of

PROBED = ("bokeh", "matplotlib")


def check() -> None:
    need(plot, "Plot.get_config")
    need(utils, "MatplotlibBackendMananger.__enter__")
    probing = {
        "Plot.get_config": (plot.Plot.get_config, "bokeh"),
        "MatplotlibBackendMananger.__enter__": (utils.MatplotlibBackendMananger.__enter__, "matplotlib"),
    }
    for where, (fn, name) in probing.items():
        source = source_of(fn)
        if f"import {name}" not in source or "except ImportError" not in source:
            raise PatchMismatch(f"{where} no longer probes {name} catching ImportError")


def apply() -> list[str]:
    missing = [n for n in PROBED if n not in sys.modules and importlib.util.find_spec(n) is None]
    for name in missing:
        sys.modules[name] = None  # remembered as missing: `import name` now fails at once
    return missing


PATCH = Patch("probes", check, apply)

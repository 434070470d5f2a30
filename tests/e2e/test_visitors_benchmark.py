"""The visitor benchmark's spread mode picks distinct links, and its profile reads py-spy's samples; the
crowd itself runs in `python benchmarks/run_all.py --quick`, whose speed is never judged."""

from __future__ import annotations

import sys

from data.make_sample import write_synthetic
from tests.helpers import ROOT

sys.path.insert(0, str(ROOT / "benchmarks"))
import visitors  # noqa: E402


def test_spread_mode_opens_distinct_models_of_the_generated_data(tmp_path):
    write_synthetic(tmp_path, 1000, stacks=5)
    models = visitors.spread_models(tmp_path, 40)
    assert len(models) == len(set(models)) == 40
    assert all("/" in model for model in models)


def test_a_profile_counts_busy_samples_only_and_names_the_apps_own_functions():
    collapsed = "\n".join(
        [
            "<module> (app.py:137);serve (server.py:338);EpollSelector.select (selectors.py:468) 60",
            "<module> (app.py:137);ModelsPage.on_load (components/web/gradio/pages/models.py:190);render (x.py:3) 30",
            "<module> (app.py:137);ModelsPage.on_load (components/web/gradio/pages/models.py:191);encode (json.py:9) 10",
        ]
    )
    table = visitors.profile_table(collapsed)
    assert "40 busy samples" in table
    assert "| `render (x.py)` | 75.0% |" in table
    assert (
        "| `ModelsPage.on_load (components/web/gradio/pages/models.py)` | 100.0% |" in table
    )  # both lines, one function
    assert "EpollSelector" not in table
    assert visitors.profile_table("") == "profile: no busy samples"

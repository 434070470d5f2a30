"""Replicas tell themselves apart (`X-Replica`) and agree on the page: Gradio's app id comes from the release."""

from __future__ import annotations

import subprocess
import sys

from components.web import replicas
from components.web.gradio import mount
from tests.helpers import ROOT


def test_a_replica_is_named_by_its_setting_or_its_host_and_process(monkeypatch):
    monkeypatch.setenv("REPLICA", "pod-7")
    assert replicas.name() == "pod-7"
    monkeypatch.delenv("REPLICA")
    import os
    import socket

    assert replicas.name() == f"{socket.gethostname()}-{os.getpid()}"


def test_two_processes_of_one_release_have_one_app_id_and_a_change_makes_another(tmp_path):
    code = "from components.web.gradio import mount; print(mount.app_id())"
    started = [subprocess.Popen([sys.executable, "-c", code], cwd=ROOT, stdout=subprocess.PIPE, text=True)
               for _ in range(2)]  # fmt: skip  # at once, as two replicas start
    ids = {process.communicate(timeout=120)[0] for process in started}
    assert [process.returncode for process in started] == [0, 0]
    assert len(ids) == 1 and int(ids.pop()) == mount.app_id()
    (tmp_path / "app.py").write_text("print('one')")
    first = replicas.app_id.__wrapped__("6.31.0", tmp_path)
    (tmp_path / "app.py").write_text("print('two')")
    assert replicas.app_id.__wrapped__("6.31.0", tmp_path) != first
    assert replicas.app_id.__wrapped__("6.32.0", tmp_path) != replicas.app_id.__wrapped__("6.31.0", tmp_path)


def test_the_sticky_script_sets_a_random_cookie_only_when_there_is_none():
    script = replicas.STICKY_SCRIPT
    assert script.startswith("<script>") and script.endswith("</script>")
    assert f"{replicas.COOKIE}=" in script and "getRandomValues" in script and "path=/" in script

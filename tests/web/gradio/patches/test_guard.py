"""The guard every patch to Gradio goes through: a patch whose target is missing, or written for another
Gradio, stands down with one log line and changes nothing."""

from __future__ import annotations

import logging
import types

from components.web.gradio.errors import PatchMismatch
from components.web.gradio.patches.guard import Patch, apply_all, apply_patch, need, need_parameters


def make(target, calls):
    def check():
        need(target, "method")
        need_parameters(target.method, "x")

    def apply():
        calls.append("applied")
        target.method = lambda x: "patched"

    return Patch("demo", check, apply)


def test_a_patch_applies_once_where_its_target_is_there():
    target, calls = types.SimpleNamespace(method=lambda x: "original"), []
    patch = make(target, calls)
    assert apply_patch(patch) and apply_patch(patch)
    assert target.method(1) == "patched" and calls == ["applied"]


def test_a_missing_target_stands_down_with_one_line_naming_the_patch(caplog):
    target, calls = types.SimpleNamespace(other=1), []
    with caplog.at_level(logging.WARNING):
        assert apply_patch(make(target, calls)) is False
    assert calls == [] and not hasattr(target, "method")
    assert [r.getMessage() for r in caplog.records] == ["patch demo stands down: SimpleNamespace.method is missing"]


def test_a_changed_signature_stands_down(caplog):
    target, calls = types.SimpleNamespace(method=lambda y: "original"), []
    with caplog.at_level(logging.WARNING):
        assert apply_patch(make(target, calls)) is False
    assert target.method(1) == "original" and calls == []
    assert "no longer takes x" in caplog.text


def test_another_gradio_version_stands_down_before_any_check(caplog):
    checked = []
    patch = Patch("demo", lambda: checked.append(1), lambda: None, gradio=">=6.31,<6.32")
    with caplog.at_level(logging.WARNING):
        assert apply_all([patch], version="7.0.0") == {"demo": False}
    assert checked == []
    assert "written for gradio >=6.31,<6.32, this is 7.0.0" in caplog.text


def test_a_check_that_raises_anything_stands_down():
    def check():
        raise PatchMismatch("changed")

    assert apply_patch(Patch("demo", check, lambda: 1 / 0)) is False


def test_a_patch_asked_again_for_the_same_reason_says_so_once(caplog):
    target, calls = types.SimpleNamespace(other=1), []
    patch = make(target, calls)
    with caplog.at_level(logging.WARNING):
        assert apply_patch(patch) is False and apply_patch(patch) is False
        assert apply_patch(patch, version="7.0") is False  # another reason: a line of its own
    assert [r.getMessage() for r in caplog.records] == [
        "patch demo stands down: SimpleNamespace.method is missing",
        "patch demo stands down: written for gradio >=6.31,<6.32, this is 7.0",
    ]

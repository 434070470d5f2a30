"""ETags and 304s: one way to make a tag and one way to read `If-None-Match`, used by every route that sends one."""

from __future__ import annotations

import ast

import pytest

from components.web import etags
from tests.helpers import ROOT

TAG = '"0123456789abcdef"'


@pytest.mark.parametrize(
    ("asked", "held"),
    [
        (TAG, True),
        (f"W/{TAG}", True),  # weak comparison: the weakness mark is ignored
        (f'"other", {TAG}', True),
        (f'"other",W/{TAG}', True),
        (f' "other" , , {TAG} ', True),  # empty list elements are allowed
        ('"a,b", ' + TAG, True),  # a comma inside a tag does not split it
        ("*", True),
        ('"other", *', True),
        (TAG.encode(), True),
        ('"0123456789abcdef0"', False),
        ('"0123456789abcde"', False),
        ('"a,' + TAG[1:], False),  # the tag inside another tag is not named
        (f"{TAG}junk", False),  # a list that does not parse names nothing (a substring match took it)
        (TAG[1:-1], False),  # unquoted
        (f'"other", {TAG[:-1]}', False),  # unterminated
        ("", False),
        (None, False),
    ],
)
def test_if_none_match_is_read_as_a_list_compared_weakly(asked, held):
    assert etags.matches(asked, TAG) is held


def test_a_weak_tag_of_ours_is_named_by_its_strong_form():
    assert etags.matches(TAG, f"W/{TAG}") and etags.matches(TAG.encode(), TAG.encode())


def test_the_tag_is_quoted_and_changes_with_the_body():
    one, two = etags.tag_of(b"one"), etags.tag_of(b"two")
    assert one != two and one == etags.tag_of(b"one")
    assert one.startswith('"') and one.endswith('"') and len(one) == 34


def test_an_asgi_request_is_read_by_its_header():
    scope = {"headers": [(b"accept", b"*/*"), (b"if-none-match", f'W/"x", {TAG}'.encode())]}
    assert etags.scope_matches(scope, TAG) and not etags.scope_matches({"headers": []}, TAG)


def constants(path) -> set[object]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    return {node.value for node in ast.walk(tree) if isinstance(node, ast.Constant)}


def test_every_module_that_answers_304_to_an_etag_uses_this_one():
    """A module that names an ETag header and answers 304 reads If-None-Match through `etags`, and none but
    `etags.py` compares tags itself (strips a `W/`) or hashes a body into one."""
    code = sorted((ROOT / "components").rglob("*.py"))
    users = []
    for path in code:
        if path.name == "etags.py":
            continue
        found = constants(path)
        source = path.read_text(encoding="utf-8")
        assert not ({"W/", b"W/"} & found), f"{path} compares ETags itself"
        if ({"ETag", b"etag"} & found) and 304 in found:
            users.append(path.relative_to(ROOT).as_posix())
            assert "etags" in source, f"{path} answers 304 without components.web.etags"
    # the app's own routes answer through `etags.response`; the two that answer at the ASGI level send their own 304
    assert sorted(users) == ["components/web/gradio/assets.py", "components/web/middleware/first_html.py"]
    routes = [p.relative_to(ROOT).as_posix() for p in code if "etags.response(" in p.read_text(encoding="utf-8")]
    assert routes == [
        "components/web/routes/api_v1.py",
        "components/web/routes/card.py",
        "components/web/routes/scripts.py",
    ]

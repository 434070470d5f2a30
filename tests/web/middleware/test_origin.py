"""`HostRewriteMiddleware`: each request handed on with the app's own origin and none of the forwarding headers."""

from __future__ import annotations

import pytest

from components.web.middleware import origin
from tests.helpers import run_async

SERVER = ("127.0.0.1", 7860)


def handed_on(headers, *, server=SERVER, scheme="http", client=("203.0.113.5", 1)):
    """(status sent, the scope the app below was given)."""
    seen, sent = [], []

    async def app(scope, receive, send):
        seen.append(scope)

    async def send(message):
        sent.append(message)

    scope = {"type": "http", "scheme": scheme, "server": server, "client": client, "headers": list(headers)}
    run_async(origin.HostRewriteMiddleware(app)(scope, None, send))
    status = sent[0]["status"] if sent else None
    return status, (seen[0] if seen else None)


@pytest.fixture(autouse=True)
def nothing_configured(monkeypatch):
    monkeypatch.delenv("SPACE_HOST", raising=False)
    monkeypatch.delenv("PUBLIC_URL", raising=False)
    origin._parsed.cache_clear()


def test_forwarding_headers_are_dropped_and_the_client_is_the_settled_one():
    sent = [(b"host", b"127.0.0.1:7860"), (b"x-forwarded-for", b"6.6.6.6"), (b"user-agent", b"ua")]
    sent += [(name, b"evil.example") for name in origin.FORWARDING]
    _, scope = handed_on(sent)
    assert dict(scope["headers"]) == {
        b"host": b"127.0.0.1:7860",
        b"user-agent": b"ua",
        b"x-forwarded-for": b"203.0.113.5",
    }


def test_without_a_public_address_a_well_formed_host_is_kept_and_any_other_refused():
    assert dict(handed_on([(b"host", b"example.org")])[1]["headers"])[b"host"] == b"example.org"
    assert handed_on([(b"host", b"evil.example/<x>")]) == (400, None)
    assert handed_on([]) == (400, None)


@pytest.mark.parametrize(("env", "public"), [
    ({"SPACE_HOST": "owner-space.hf.space"}, ("https", "owner-space.hf.space")),
    ({"PUBLIC_URL": "https://support.example.org/"}, ("https", "support.example.org")),
    ({"PUBLIC_URL": "http://support.example.org:8080"}, ("http", "support.example.org:8080")),
])  # fmt: skip
def test_a_public_address_replaces_any_host_but_the_connections_own(monkeypatch, env, public):
    for name, value in env.items():
        monkeypatch.setenv(name, value)
    assert origin.configured() == public
    _, scope = handed_on([(b"host", b"evil.example")])
    assert (scope["scheme"], dict(scope["headers"])[b"host"].decode()) == public
    _, scope = handed_on([(b"host", public[1].encode())])
    assert (scope["scheme"], dict(scope["headers"])[b"host"].decode()) == public
    for own in (b"127.0.0.1:7860", b"localhost:7860"):  # a visitor on the machine itself
        _, scope = handed_on([(b"host", own)])
        assert (scope["scheme"], dict(scope["headers"])[b"host"]) == ("http", own)
    _, scope = handed_on([(b"host", b"127.0.0.1:9999")])  # not the port the connection reached
    assert dict(scope["headers"])[b"host"].decode() == public[1]


def test_a_public_url_that_is_not_an_origin_is_not_used(monkeypatch, caplog):
    monkeypatch.setenv("PUBLIC_URL", "https://example.org/path?x=1")
    assert origin.configured() is None and "PUBLIC_URL" in caplog.text

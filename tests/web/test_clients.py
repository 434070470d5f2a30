"""Who is asking: the trusted proxies uvicorn is given, and the one client address every limit reads."""

from __future__ import annotations

import logging

from uvicorn.middleware.proxy_headers import ProxyHeadersMiddleware

from components.web import clients
from tests.helpers import ROOT, run_async


def test_loopback_is_trusted_off_a_space_and_the_private_ranges_too_on_one():
    assert clients.forwarded_allow_ips({}) == "127.0.0.1,::1"
    on_space = clients.forwarded_allow_ips({"SYSTEM": "spaces"})
    assert on_space.split(",") == ["10.0.0.0/8", "172.16.0.0/12", "192.168.0.0/16", "127.0.0.1", "::1"]
    assert clients.trusted("10.1.2.3", on_space) and clients.trusted("172.31.0.1", on_space)
    assert not clients.trusted("172.32.0.1", on_space) and not clients.trusted("127.0.0.2", on_space)
    assert clients.forwarded_allow_ips({"SYSTEM": "spaces", "FORWARDED_ALLOW_IPS": "10.9.0.1"}) == "10.9.0.1"


def test_everyone_is_never_trusted(caplog):
    with caplog.at_level(logging.WARNING):
        assert clients.forwarded_allow_ips({"FORWARDED_ALLOW_IPS": "*"}) == "127.0.0.1,::1"
        assert clients.forwarded_allow_ips({"FORWARDED_ALLOW_IPS": "10.0.0.1, *"}) == "10.0.0.1"
    assert "'*' is ignored" in caplog.text


def seen_by_the_app(peer: str, forwarded_for: str, trusted: str) -> str:
    """The client address the app reads after uvicorn's proxy-headers middleware, given these trusted proxies."""
    seen = []

    async def app(scope, receive, send):
        seen.append(clients.client_address(scope))

    scope = {"type": "http", "client": (peer, 1), "headers": [(b"x-forwarded-for", forwarded_for.encode())]}
    run_async(ProxyHeadersMiddleware(app, trusted_hosts=trusted)(scope, None, None))
    return seen[0]


def test_the_client_is_the_rightmost_hop_no_trusted_proxy_wrote():
    on_space = clients.forwarded_allow_ips({"SYSTEM": "spaces"})
    # a client writing its own first hop: the proxy appended the real address after it
    assert seen_by_the_app("10.0.0.5", "6.6.6.6, 203.0.113.9", on_space) == "203.0.113.9"
    assert seen_by_the_app("10.0.0.5", "6.6.6.6, 203.0.113.9, 10.0.0.7", on_space) == "203.0.113.9"
    # an untrusted peer: its own address, whatever it wrote
    assert seen_by_the_app("127.0.0.2", "6.6.6.6", on_space) == "127.0.0.2"
    assert clients.client_address({}) == "unknown"


def test_on_a_space_is_one_reading_used_everywhere():
    """`SYSTEM=spaces` (every Space sets it) is the one reading: the server's launch settings use the same
    function as the trusted proxies, and no other module reads the variable (through `runtime/environment.py`)."""
    from components.web import server

    assert (
        clients.on_space({"SYSTEM": "spaces"})
        and not clients.on_space({})
        and not clients.on_space({"SPACE_ID": "a/b"})
    )
    assert not hasattr(server, "on_space")  # the mount reads clients.on_space itself
    readers = [
        path.relative_to(ROOT).as_posix()
        for path in sorted((ROOT / "components").rglob("*.py"))
        if "environment.SYSTEM" in path.read_text(encoding="utf-8") or '== "spaces"' in path.read_text(encoding="utf-8")
    ]
    assert readers == ["components/web/clients.py"]

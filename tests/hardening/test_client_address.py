"""Who is asking, on a Space (issue 45): the client is the rightmost `X-Forwarded-For` hop no trusted proxy
wrote, so a client writing a different first hop with each request is still one client.

On a Space the app took the first hop, which the client writes itself: one real address sent 200 lookups
that counted 200 on `/api/v1/wanted`, had 150 made-up cards drawn against an allowance of 10, and held 300
event streams against a cap of 64. The peer here is 127.0.0.2, which the app does not trust (loopback's
127.0.0.1 is the trusted proxy), so every hop it writes is its own.
"""

from __future__ import annotations

import socket

import httpx

from components.runtime import settings
from components.web.routes import card

UNTRUSTED = "127.0.0.2"


def forged(i: int) -> dict[str, str]:
    """A made-up first hop (198.18.0.0/15, for benchmarks), a new one with each request."""
    return {"X-Forwarded-For": f"198.18.{i // 250}.{i % 250 + 1}"}


def client_from(url: str, address: str = UNTRUSTED) -> httpx.Client:
    return httpx.Client(base_url=url, timeout=30, transport=httpx.HTTPTransport(local_address=address))


def counted(wanted: dict) -> dict[str, int]:
    """Each asked-for model's askers: counted, or held as not checked (offline the Hub cannot confirm a made-up id)."""
    return {m["model_id"]: m["lookups"] for m in [*wanted["models"], *wanted["not_checked"]]}


def test_lookups_with_a_new_forged_hop_each_count_once(space_app):
    with client_from(space_app.url) as client:
        for i in range(200):
            assert (
                client.get("/api/v1/lookup", params={"model": "forged/asker-7B"}, headers=forged(i)).status_code == 200
            )
        ranked = counted(client.get("/api/v1/wanted").json())
    assert ranked["forged/asker-7B"] == 1


def test_made_up_cards_with_a_new_forged_hop_each_stay_within_one_allowance(space_app):
    with client_from(space_app.url) as client:
        answers = [client.get("/card.png", params={"model": f"made-up/card-{i}"}, headers=forged(i)) for i in range(60)]
    drawn = [a for a in answers if a.headers["cache-control"] == card.CACHE_CONTROL]
    assert all(a.status_code == 200 for a in answers)
    assert len(drawn) <= settings.CARD_DRAWS_BURST.value + 2, len(drawn)  # and a few earned back while it asked


def heartbeat(url: str, i: int, source: str) -> tuple[socket.socket, bytes]:
    """A heartbeat stream opened from `source` with the forged first hop `i`: its socket and its status line."""
    port = int(url.rsplit(":", 1)[1])
    sock = socket.create_connection(("127.0.0.1", port), timeout=30, source_address=(source, 0))
    hop = forged(i)["X-Forwarded-For"]
    sock.sendall(
        f"GET /gradio_api/heartbeat/s{i} HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Forwarded-For: {hop}\r\n\r\n".encode()
    )
    head = b""
    while b"\r\n" not in head:
        part = sock.recv(4096)
        if not part:
            break
        head += part
    return sock, head.split(b"\r\n")[0]


def test_event_streams_with_a_new_forged_hop_each_are_capped_as_one_client(space_app):
    held: list[socket.socket] = []
    statuses: list[bytes] = []
    try:
        for i in range(settings.STREAMS_PER_CLIENT.value + 6):
            sock, status = heartbeat(space_app.url, i, UNTRUSTED)
            held.append(sock)
            statuses.append(status)
        assert statuses.count(b"HTTP/1.1 200 OK") <= settings.STREAMS_PER_CLIENT.value
        assert any(b" 429 " in status for status in statuses), statuses[-3:]
        # another visitor behind the Space's proxy (trusted loopback, its real address last) is still served
        with client_from(space_app.url, "127.0.0.1") as proxy:
            other = proxy.get("/api/v1/stacks", headers={"X-Forwarded-For": "198.51.100.9, 203.0.113.50"})
        assert other.status_code == 200
    finally:
        for sock in held:
            sock.close()


def test_behind_the_trusted_proxy_the_client_is_the_hop_it_appended(space_app):
    """The Space's proxy (loopback here) appends the real address after whatever the client wrote."""
    with client_from(space_app.url, "127.0.0.1") as proxy:
        for i in range(30):
            headers = {"X-Forwarded-For": f"{forged(i)['X-Forwarded-For']}, 203.0.113.77, 10.0.0.3"}
            assert (
                proxy.get("/api/v1/lookup", params={"model": "forged/behind-proxy-7B"}, headers=headers).status_code
                == 200
            )
        ranked = counted(proxy.get("/api/v1/wanted").json())
    assert ranked["forged/behind-proxy-7B"] == 1

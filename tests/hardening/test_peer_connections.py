"""One peer cannot take the whole connection cap (issue 45).

8,300 idle sockets from one peer filled the cap of 8,192, and uvicorn answered 503 to every other client for
as long as the peer kept reconnecting. Here the app's open-file limit is lowered before it starts, so its cap
is small on any version of the app (the open-file clamp, `capacity.connection_cap`); one untrusted peer then
opens more idle sockets than the whole cap. Another client must still be served, and the trusted proxy
(loopback) is not held to the per-peer share.
"""

from __future__ import annotations

import socket
import time

import httpx
import pytest

from components.runtime import settings
from tests.helpers import ROOT, SAMPLE_ARGS, Server

OPEN_FILES = settings.FD_RESERVE.value + 200  # the app's connection cap becomes 200
CAP = OPEN_FILES - settings.FD_RESERVE.value
PEER_CAP = 20
FLOOD = CAP + 20
LAUNCHER = """import resource, runpy, sys
resource.setrlimit(resource.RLIMIT_NOFILE, ({n}, {n}))
sys.argv[0] = {app!r}
sys.path.insert(0, {root!r})
runpy.run_path({app!r}, run_name="__main__")
"""


@pytest.fixture(scope="module")
def capped(tmp_path_factory):
    launcher = tmp_path_factory.mktemp("capped") / "launch.py"
    launcher.write_text(LAUNCHER.format(n=OPEN_FILES, app=str(ROOT / "app.py"), root=str(ROOT)))
    server = Server(*SAMPLE_ARGS, env={"MAX_PEER_CONNECTIONS": str(PEER_CAP)}, script=launcher).wait()
    yield server
    server.stop()


def idle_sockets(url: str, source: str, count: int) -> list[socket.socket]:
    port = int(url.rsplit(":", 1)[1])
    return [socket.create_connection(("127.0.0.1", port), timeout=10, source_address=(source, 0)) for _ in range(count)]


def served(url: str, source: str) -> int:
    with httpx.Client(base_url=url, timeout=10, transport=httpx.HTTPTransport(local_address=source)) as client:
        return client.get("/api/v1/stacks").status_code


def answer_to(sock: socket.socket, wait: float = 2) -> bytes:
    """What the server sends a socket that has sent nothing within `wait` s (b"" when it closed it without a word)."""
    sock.settimeout(wait)
    try:
        return sock.recv(4096)
    except TimeoutError:
        return b"(nothing yet)"
    except OSError:
        return b""


def test_one_peers_idle_sockets_leave_room_for_everyone_else(capped):
    flood = idle_sockets(capped.url, "127.0.0.2", FLOOD)
    try:
        assert served(capped.url, "127.0.0.3") == 200  # another client is served
        answers: dict[int, bytes] = {}  # the server accepts what the kernel queued as it gets to it: wait for it
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline and len(answers) < FLOOD - PEER_CAP - 1:
            for i, sock in enumerate(flood[PEER_CAP:]):
                if i not in answers and (got := answer_to(sock, 0.1)) != b"(nothing yet)":
                    answers[i] = got
        refused = [got for got in answers.values() if got.startswith(b"HTTP/1.1 503")]
        assert len(refused) >= FLOOD - PEER_CAP - 1, len(refused)
        assert answer_to(flood[0]) == b"(nothing yet)"  # the peer's first ones stay open, within its share
    finally:
        for sock in flood:
            sock.close()


def test_the_trusted_proxy_is_not_held_to_a_peers_share(capped):
    proxied = idle_sockets(capped.url, "127.0.0.1", PEER_CAP + 10)
    try:
        assert served(capped.url, "127.0.0.1") == 200
        assert all(answer_to(sock) == b"(nothing yet)" for sock in proxied[-5:])
    finally:
        for sock in proxied:
            sock.close()

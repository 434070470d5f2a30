"""`EventStreamLimitMiddleware`: a stream ends after its lifetime, and each client holds a bounded number."""

from __future__ import annotations

import asyncio

from components.web.middleware import streams
from tests.helpers import run_async


def scope(path="/gradio_api/queue/data", client="10.0.0.1", headers=()):
    return {"type": "http", "method": "GET", "path": path, "client": (client, 1), "headers": list(headers)}


def test_which_requests_stream():
    assert streams.streams(scope()) and streams.streams(scope("/gradio_api/call/search/123"))
    assert streams.streams(scope("/gradio_api/heartbeat/abc"))
    assert not streams.streams(scope("/gradio_api/call/search")) and not streams.streams(scope("/"))


async def forever(scope, receive, send):
    """A heartbeat that stops only when told its client left."""
    await send({"type": "http.response.start", "status": 200, "headers": [(b"content-type", b"text/event-stream")]})
    while True:
        await send({"type": "http.response.body", "body": b"data: ALIVE\n\n", "more_body": True})
        try:
            if (await asyncio.wait_for(receive(), 0.05))["type"] == "http.disconnect":
                return
        except TimeoutError:
            pass


def test_a_stream_ends_after_its_lifetime_and_a_client_holds_at_most_its_share():
    app = streams.EventStreamLimitMiddleware(forever, per_client=2, lifetime=0.3)
    client_left = asyncio.Event()

    async def receive():
        await client_left.wait()
        return {"type": "http.disconnect"}

    async def scenario():
        sent: list[list[dict]] = [[], [], []]

        def sender(i):
            async def send(message):
                sent[i].append(message)

            return send

        first = asyncio.ensure_future(app(scope(), receive, sender(0)))
        second = asyncio.ensure_future(app(scope(), receive, sender(1)))
        await asyncio.sleep(0.1)
        await app(scope(), receive, sender(2))  # a third from the same client
        await asyncio.wait_for(asyncio.gather(first, second), 10)
        return sent, dict(app.open)

    sent, still_open = run_async(scenario())
    assert sent[2][0]["status"] == 429
    for stream in sent[:2]:
        assert stream[0]["status"] == 200
        assert stream[-1] == {"type": "http.response.body", "body": b"", "more_body": False}
    assert still_open == {}


def test_the_pages_heartbeat_is_counted_but_never_ended():
    """Gradio takes an ended heartbeat for a closed tab (unload events run, pending events closed)."""
    app = streams.EventStreamLimitMiddleware(forever, per_client=1, lifetime=0.1)
    client_left = asyncio.Event()

    async def receive():
        await client_left.wait()
        return {"type": "http.disconnect"}

    async def scenario():
        sent: list[dict] = []

        async def send(message):
            sent.append(message)

        heartbeat = asyncio.ensure_future(app(scope("/gradio_api/heartbeat/abc"), receive, send))
        began = asyncio.get_running_loop().time()
        while asyncio.get_running_loop().time() - began < 5 * app.lifetime:  # the stream beats on past its lifetime
            await asyncio.sleep(0.05)
            assert not heartbeat.done()
        beats = sum(1 for m in sent if m.get("body") == b"data: ALIVE\n\n")
        refused: list[dict] = []

        async def send_refused(message):
            refused.append(message)

        await app(scope("/gradio_api/heartbeat/def"), receive, send_refused)
        still_open = not heartbeat.done() and dict(app.open)
        client_left.set()
        await asyncio.wait_for(heartbeat, 5)
        return sent, refused, still_open, dict(app.open), beats

    sent, refused, still_open, after, beats = run_async(scenario())
    assert beats >= 5 and still_open == {"10.0.0.1": 1} and refused[0]["status"] == 429
    assert sent[0]["status"] == 200 and {"type": "http.response.body", "body": b"", "more_body": False} not in sent
    assert after == {}

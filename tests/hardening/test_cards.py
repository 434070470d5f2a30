"""Preview cards on the running app, as on a Space: one address asking for the cards of 150 made-up links
costs the app little CPU (past its allowance it gets the app's card, never a new drawing), while another
visitor's shared link still gets its own card."""

from __future__ import annotations

import os

import httpx
import pytest

from components.runtime import settings
from components.web.routes import card as card_route

MADE_UP = 150
CPU_BOUND = 3.0  # seconds of the app's CPU for all of them (each new card is ~80 ms; a DoS bound, not a goal)


@pytest.fixture(scope="module")
def on_space(space_app):
    """The shared Space-like app: its cards are drawn for addresses no other test uses."""
    return space_app


def cpu_seconds(pid: int) -> float:
    """User and system CPU time of the process so far (Linux /proc)."""
    fields = open(f"/proc/{pid}/stat").read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def card(client: httpx.Client, address: str, **params: str) -> httpx.Response:
    answer = client.get("/card.png", params=params, headers={"X-Forwarded-For": f"{address}, 10.0.0.1"})
    assert answer.status_code == 200 and answer.headers["content-type"] == "image/png"
    return answer


def test_made_up_links_from_one_address_cost_little_and_a_shared_link_keeps_its_card(on_space):
    with httpx.Client(base_url=on_space.url, timeout=30) as client:
        card(client, "198.51.100.1", page="about")  # Pillow loaded, so only the cards are counted
        before = cpu_seconds(on_space.proc.pid)
        answers = [card(client, "203.0.113.7", model=f"made-up/model-{i}") for i in range(MADE_UP)]
        spent = cpu_seconds(on_space.proc.pid) - before
        drawn = [a for a in answers if a.headers["cache-control"] == card_route.CACHE_CONTROL]
        assert len(drawn) <= settings.CARD_DRAWS_BURST.value + 2  # and a few earned back while it asked
        assert {a.content for a in answers if a not in drawn} == {answers[-1].content}  # the app's card
        assert spent < CPU_BOUND, f"{MADE_UP} made-up cards cost the app {spent:.2f} s of CPU"
        shared = card(client, "198.51.100.2", model="Qwen/Qwen3-8B")  # another visitor: the link's own card
        assert shared.headers["cache-control"] == card_route.CACHE_CONTROL
        assert shared.content != answers[-1].content
        again = card(client, "203.0.113.7", model="Qwen/Qwen3-8B")  # kept: the flooding address gets it too
        assert again.content == shared.content and again.headers["cache-control"] == card_route.CACHE_CONTROL
    print(f"{MADE_UP} made-up cards from one address: {spent:.2f} s of the app's CPU, {len(drawn)} drawn")

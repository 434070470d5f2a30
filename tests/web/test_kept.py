"""`Kept`: an answer worked out once per key and data moment, by one thread, for at most `ttl` seconds."""

from __future__ import annotations

import threading
import time

from components.web.kept import Kept


def test_threads_asking_at_once_work_the_answer_out_once_and_new_data_works_it_out_again():
    kept = Kept(size=2, ttl=60)
    made: list[str] = []
    gate = threading.Event()

    def make(key: str):
        def work():
            made.append(key)
            gate.wait(5)  # the other threads ask while it is being worked out
            return {"answer": key}

        return work

    moment = (object(),)
    answers: list[dict] = []
    threads = [threading.Thread(target=lambda: answers.append(kept.get(moment, "a", make("a")))) for _ in range(16)]
    for thread in threads:
        thread.start()
    time.sleep(0.2)
    gate.set()
    for thread in threads:
        thread.join(5)
    assert made == ["a"] and answers == [{"answer": "a"}] * 16
    kept.get(moment, "b", make("b"))
    kept.get(moment, "c", make("c"))  # past the bound: "a" goes
    kept.get(moment, "a", make("a"))
    assert made == ["a", "b", "c", "a"]
    kept.get((object(),), "a", make("a"))  # new data
    assert made[-1] == "a" and len(made) == 5


def test_an_answer_older_than_its_ttl_is_worked_out_again():
    kept = Kept(size=4, ttl=0.05)
    moment = (object(),)
    calls: list[int] = []
    kept.get(moment, "k", lambda: calls.append(1))
    kept.get(moment, "k", lambda: calls.append(1))
    assert len(calls) == 1
    time.sleep(0.1)
    kept.get(moment, "k", lambda: calls.append(1))
    assert len(calls) == 2

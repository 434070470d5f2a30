"""The web layer's errors, and the one table that says how every error the app answers becomes an answer.

`ANSWERS` maps each exception type to its HTTP status and to whether the Gradio half raises it as Gradio's error
(`gradio/errors.py` reads the same table; this half imports no Gradio). Every place that turns an error into an
answer reads it: `/api/v1` (`routes/api_v1.py`), the badge (`routes/badge_feed.py`), the one-line 500
(`middleware/server_errors.py`), and on the Gradio side the named endpoints (`gradio/endpoints.py`) and their
plain HTTP calls (`gradio/direct_calls.py`). The words are the exception's own message, written for the caller
(the data side's errors say what was asked and what is known), except where the table gives them.

The other errors never become an answer: `SourceError` and its kinds (a source that cannot be read: the page and
the probes report it, `components/sources/errors.py`), `Declined` and the two below (a computation refusing
for its own caller, who answers in its own way), `ConfigError` (the Models page shows it; the endpoint raises
it as an `ArgumentRefused`) and the patches' `PatchMismatch` (a patch stands down).
"""

from __future__ import annotations

from dataclasses import dataclass

from components.domain.errors import UnknownStack
from components.queries.errors import ArgumentRefused, MalformedId
from components.sources.errors import Declined


class RequestRefused(Exception):
    """A request a route refuses before any endpoint runs (a query string too long, a parameter it does not
    take, a body over its limit): `status` and the message the caller reads."""

    def __init__(self, status: int, message: str):
        super().__init__(message)
        self.status = status


class NotAPage(Declined):
    """What the app answered was not a page to keep; it went out to its request as it came. Each request
    waiting for the same page then asks the app itself (`Declined`; `middleware/first_html.py`)."""


class PastAllowance(Declined):
    """An address asked for a new card past its allowance (`routes/card.py` `Cards.draws`)."""


@dataclass(frozen=True)
class Answer:
    """How an error is answered: its HTTP `status`, whether the Gradio half raises it as Gradio's error in the
    same words (`gradio`), and the words when they are not the exception's own message (`words`)."""

    status: int
    gradio: bool = False
    words: str | None = None


# Each error the app answers, and how. A type not listed is looked up by its bases (`answer_of`): an exception no
# one expected is `Exception`'s, a 500 whose words say nothing of it (the log line names it).
ANSWERS: dict[type[Exception], Answer] = {
    RequestRefused: Answer(400),  # its own status, 400, 413 or 414 (`RequestRefused.status`)
    ArgumentRefused: Answer(400, gradio=True),  # a value a named endpoint does not take
    UnknownStack: Answer(404, gradio=True),  # a stack not in the data
    MalformedId: Answer(400),  # /badge: a model that cannot be a Hub id
    Exception: Answer(500, words="internal error"),
}

# What a route answers as a refusal (below 500), and what the Gradio half raises as Gradio's error.
REFUSED = tuple(kind for kind, answer in ANSWERS.items() if answer.status < 500)
GRADIO_REFUSED = tuple(kind for kind, answer in ANSWERS.items() if answer.gradio)


def answer_of(error: BaseException) -> tuple[int, str]:
    """The HTTP status and words `error` is answered with (`ANSWERS`, by the first of its classes listed)."""
    answer = next((ANSWERS[kind] for kind in type(error).__mro__ if kind in ANSWERS), ANSWERS[Exception])
    status = error.status if isinstance(error, RequestRefused) else answer.status
    return status, str(error) if answer.words is None else answer.words


# An exception no one expected: its status and words (`middleware/server_errors.py`).
INTERNAL = answer_of(Exception())

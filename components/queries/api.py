"""The endpoints' answers: plain JSON for programs, one `Api` method per named endpoint.

Both halves of the web layer serve these methods: the named endpoints (gradio_client, MCP:
`web/gradio/endpoints.py`) and `GET /api/v1` (`web/routes/api_v1.py`). A method refuses with the data side's
own errors, never a framework's: `ArgumentRefused` (a value it does not take: 400 on /api/v1) and
`UnknownStack` (a stack not in the data: 404); each half maps them, with the same words.

Each method reads what the sources serve once (`Sources.now()`), so one answer never mixes two loads.
The docstrings are the endpoints' descriptions in the API page and the MCP schema, and the return
annotations (`queries/answers.py`) give their field types there. Each docstring's "Returns:" part is
generated (`documented`) from the return annotation's field descriptions, with the values of thresholds
read from the code that owns them. Annotations are evaluated (no `from __future__ import annotations`):
Gradio reads them as types, not strings.
"""

import inspect
import logging
import re
import typing
from collections.abc import Callable
from typing import TypeVar

from components.queries import (
    answers,
    architectures,
    arguments,
    config_check,
    details,
    expectation,
    failures,
    views,
)
from components.queries import compare as comparison
from components.queries import grid as support_grid
from components.queries import wanted as wanted_models
from components.queries.answers import (
    ArchitectureAnswer,
    CompareAnswer,
    ConfigCheckAnswer,
    FailuresAnswer,
    GridAnswer,
    LookupAnswer,
    RowAnswer,
    StackAnswer,
    WantedAnswer,
)
from components.queries.argument_types import answers_as, check_arguments
from components.queries.errors import ArgumentRefused, ConfigError
from components.runtime import settings
from components.sources import wanted_store
from components.sources.app_sources import Sources

log = logging.getLogger(__name__)

F = TypeVar("F", bound=Callable)

UNKNOWN_STACK_IS_AN_ERROR = "a stack not in the data is an error naming the known stacks"
# The arguments several endpoints take, described once: a docstring names one as `{name}` (each stays one
# line, as Gradio reads them); `documented` puts the text in.
ARGS = {
    "query": 'part of a model name; words in any order, case and punctuation ignored ("qwen3 0.6b"); a Hub model address (https://huggingface.co/ORG/NAME) is its id.',
    # the views' own words (`views.REGISTRY`): a view added there is described here
    "view": "; ".join(f'"{v.id}" ({v.lists})' for v in views.REGISTRY) + "; any other is an error.",
    "task": 'a Hub task (pipeline tag) such as "text-generation", "image-text-to-text" or "text-to-image"; '
    + "; ".join(f"in {ids}, {rule}" for ids, rule in views.grouped(lambda v: v.task_rule))
    + ". A task the view does not offer is an error naming the tasks it offers (they come from the data).",
    "neuronx_cc": 'compiler version ("2.28.7631.0" matches "2.28.7631.0+82129205"); "" means the newest compiler that has the library version asked for',
    "library_version": 'a library version ("4.57.1": the library whose version matches, Transformers first) or LIBRARY==VERSION ("diffusers==0.36.0"); "" means the first stack on that compiler.',
    "unknown_stack": UNKNOWN_STACK_IS_AN_ERROR,
    "search_stack": 'with library_version also "", no stack is named and the search covers every library: '
    + "; ".join(f"in {ids}, {about}" for ids, about in views.grouped(lambda v: v.unnamed_about)),
    "own_stack": 'with library_version also "", the model\'s own stack: the newest stack of the library it last ran with (a model that never ran: the newest Transformers stack)',
}

# what /search and /search_by_size (GET /api/v1/search) answer
SEARCH_RETURNS = (
    "a list of rows, one per model, each naming the stack it is on (neuronx_cc, library, library_version), in the view's order; ranked views ("
    + ", ".join(v.id for v in views.REGISTRY if v.ranking)
    + ") carry rank; counts are integers",
    UNKNOWN_STACK_IS_AN_ERROR,
)


def documented(*notes: str) -> Callable[[F], F]:
    """Complete an endpoint's docstring: each `{name}` of ARGS replaced by its text, then its "Returns:"
    lines: `notes` (one line each), then one line per field of its return annotation (`answers.returns`)."""

    def complete(fn: F) -> F:
        fields = answers.returns(typing.get_type_hints(fn)["return"])
        lines = "\n".join(f"    {line}" for line in (*notes, *fields))
        described = re.sub(r"\{(\w+)\}", lambda m: ARGS.get(m.group(1), m.group(0)), inspect.cleandoc(fn.__doc__ or ""))
        fn.__doc__ = f"{described}\n\nReturns:\n{lines}"
        return fn

    return complete


class Description(typing.NamedTuple):
    """What an endpoint's docstring says: its summary, each argument's line, and its "Returns:" lines."""

    summary: str
    arguments: dict[str, str]
    returns: list[str]


SECTIONS = ("Args:", "Parameters:", "Arguments:")


def described(fn: Callable) -> Description:
    """Read back an endpoint's docstring as `documented` writes it, as Gradio reads it for the API page and MCP:
    the lines before "Args:" joined as the summary; each "name: text" line after it, for an argument of `fn`;
    each non-empty line after "Returns:"."""
    lines = [line.strip() for line in inspect.cleandoc(fn.__doc__ or "").splitlines()]
    known = {name: "" for name in inspect.signature(fn).parameters}
    ends = [i for i, line in enumerate(lines) if line.startswith((*SECTIONS, "Returns:"))]
    summary = " ".join(line for line in lines[: ends[0] if ends else len(lines)] if line)
    args_at = next((i for i, line in enumerate(lines) if line.startswith(SECTIONS)), len(lines))
    returns_at = next((i for i, line in enumerate(lines) if line.startswith("Returns:")), len(lines))
    for line in lines[args_at + 1 : returns_at]:
        name, colon, text = line.partition(":")
        name = name.split(" ")[0].strip()
        if colon and name in known:
            known[name] = text.strip()
    return Description(summary, known, [line for line in lines[returns_at + 1 :] if line])


def _expectation_rules() -> str:
    e = expectation
    return (
        f'expectation.basis, the first rule that applies: "size" (its weights do not fit on the most cores: '
        f'likely fails), "base model" (its nearest base model with a run failed: likely fails; passed, same '
        f'architecture, parameter count within {e.SIZE_RATIO:g}x: likely runs), "architecture" (at least '
        f"{e.MIN_TESTED} of its models run on the stack: {e.RUNS_SHARE:.0%} or more passed, likely runs; "
        f'{e.FAILS_SHARE:.0%} or fewer, likely fails), else "none" (unknown)'
    )


# The named endpoints, each served under its method's name (`/search` is `Api.search`); `search_by_size`
# is GET /api/v1/search's, not a named endpoint.
NAMED = ("stacks", "search", "lookup", "compare", "architectures", "failures", "check_config", "wanted", "grid")


# Gradio reads each line of an Args or Returns entry as its own item, so every description below
# stays on one line, however long: wrapped, it reaches the API page and MCP clients garbled.
@check_arguments  # a string argument sent as a number, list, object or null is a clear error
class Api:
    """The endpoints' answers over `sources`; `wanted`: the counts /lookup adds to (default: the process's)."""

    def __init__(self, sources: Sources, wanted: wanted_models.Wanted | None = None):
        self.sources = sources
        self.asked = wanted if wanted is not None else wanted_store.shared()  # counts for /wanted

    @documented("a list of stacks, newest first")
    def stacks(self) -> list[StackAnswer]:
        """List the tested software stacks, newest first."""
        return [s.as_dict() for s in self.sources.now().snapshot.stacks]

    @documented(*SEARCH_RETURNS)
    def search(
        self,
        query: str = "",
        view: str = views.DEFAULT,
        task: str = "",
        neuronx_cc: str = "",
        library_version: str = "",
    ) -> list[RowAnswer]:
        """Find models and their result on the stack named, or on each library's newest stack (does each run unmodified on AWS Trainium?).

        Args:
            query: {query}
            view: {view}
            task: {task}
            neuronx_cc: {neuronx_cc}; {search_stack}.
            library_version: {library_version}
        """
        return self.search_by_size(query, view, task, neuronx_cc, library_version)

    @answers_as("search")
    @documented(*SEARCH_RETURNS)
    def search_by_size(
        self,
        query: str = "",
        view: str = views.DEFAULT,
        task: str = "",
        neuronx_cc: str = "",
        library_version: str = "",
        size: str = "",
    ) -> list[RowAnswer]:
        """Find models and their result on the stack named, or on each library's newest stack, within a size range: what GET /api/v1/search answers (the named /search keeps its five arguments, so that no caller over plain HTTP breaks).

        Args:
            query: {query}
            view: {view}
            task: {task}
            neuronx_cc: {neuronx_cc}; {search_stack}.
            library_version: {library_version}
            size: a parameter-count range in billions, MIN-MAX with either end open ("1-10": 1 B up to 10 B; "100-": 100 B and over); "" means any size, and only then are models of unknown size listed.
        """
        now = self.sources.now()
        view = arguments.view(view)
        task = arguments.view_task(now.snapshot, now.rankings, now.records, view, task)
        q = views.normalise(query, view, task, neuronx_cc, library_version, size)
        return views.select(now.snapshot, now.rankings, q, now.records).records()

    @documented(
        'one object whose keys depend on the case: a tested row carries every dataset column; a model with no row on the stack (or a stack not in the data) gives result "not tested"',
        _expectation_rules(),
        f"report_url is at most {settings.REPORT_URL.value // 1024} KB",
    )
    def lookup(
        self, model_id: str, neuronx_cc: str = "", library_version: str = "", asker: str | None = None
    ) -> LookupAnswer:
        """Everything about one model on one stack: the result, how to reproduce it, and its history.

        Args:
            model_id: the Hub id, e.g. "Qwen/Qwen3-0.6B" (case-insensitive), or the model's Hub address (https://huggingface.co/Qwen/Qwen3-0.6B); text that cannot be a Hub model id, a Space's or dataset's address among it, is an error.
            neuronx_cc: {neuronx_cc}; {own_stack}.
            library_version: {library_version}
        """
        model_id = arguments.model_id(model_id, self.sources.now().snapshot)
        records = self.sources.records
        record = records.lookup(model_id, wait=settings.LOOKUP_WAIT.value)
        unknown = None if record else records.why_unknown(str(model_id or ""))
        now = self.sources.now()  # after the wait: the records it may have brought
        if asker is not None:  # an untested model asked for counts towards /wanted (queries/wanted.py)
            wanted_models.note_lookup(self.asked, now.snapshot, str(model_id), asker, now.records)
        return details.lookup(now.snapshot, model_id, neuronx_cc, library_version, now.records, unknown)

    @answers_as("lookup")
    @documented(
        'one object whose keys depend on the case, as /lookup answers; a model with no row on the stack gives result "not tested"',
        UNKNOWN_STACK_IS_AN_ERROR,
    )
    def lookup_on_stack(
        self, model_id: str, neuronx_cc: str = "", library_version: str = "", asker: str | None = None
    ) -> LookupAnswer:
        """Everything about one model on one stack, as /lookup answers, except that a stack not in the data is an error (GET /api/v1/lookup answers it 404; the named /lookup keeps its "not tested" answer).

        Args:
            model_id: the Hub id, e.g. "Qwen/Qwen3-0.6B" (case-insensitive), or the model's Hub address (https://huggingface.co/Qwen/Qwen3-0.6B); text that cannot be a Hub model id, a Space's or dataset's address among it, is an error.
            neuronx_cc: {neuronx_cc}; {own_stack}; {unknown_stack}.
            library_version: {library_version}
        """
        model_id = arguments.model_id(model_id, self.sources.now().snapshot)
        self.sources.now().snapshot.resolve_stack(neuronx_cc, library_version)
        return self.lookup(model_id, neuronx_cc, library_version, asker)

    @documented(
        f"at most {settings.WANTED_TOP.value} models; a model tested on the newest stack since it was asked for leaves the list"
    )
    def wanted(self) -> WantedAnswer:
        """The models with no row on the newest stack that people look up most (on the page, /lookup or GET /api/v1/lookup), each address counted once a model a day; nothing about who asked is kept."""
        return wanted_models.current(self.asked, self.sources)

    @documented(
        "a list of architectures, most tested first; models whose Hub record is unknown are left out",
        UNKNOWN_STACK_IS_AN_ERROR,
    )
    def architectures(
        self, neuronx_cc: str = "", library_version: str = "", task: str = ""
    ) -> list[ArchitectureAnswer]:
        """How each model architecture fares on one stack: how many models of it were tested and passed.

        Args:
            neuronx_cc: {neuronx_cc}; {unknown_stack}.
            library_version: {library_version}
            task: a Hub task (pipeline tag) such as "text-generation"; "" means all tasks; a task not in the data is an error naming the tasks.
        """
        now = self.sources.now()
        stack = now.snapshot.resolve_stack(neuronx_cc, library_version)
        offered = ["", *views.task_choices(now.snapshot, now.rankings, now.records)]
        task_text = arguments.task(task, offered, "the data")
        return architectures.architectures(now.snapshot, now.records, stack, task_text)

    @documented(
        "stacks oldest first; rows most models first; each model counts once per stack, by its newest run there; models whose architecture is unknown are left out and counted"
    )
    def grid(self, library: str = "", task: str = "") -> GridAnswer:
        """Every architecture of one library across all its stacks: one cell per stack, and since when each works or has regressed.

        Args:
            library: a library in the data such as "transformers" (the default, for ""), "diffusers" or "sentence-transformers"; any other is an error naming the libraries.
            task: a Hub task (pipeline tag) such as "text-generation"; only models of that task are counted; "" means all tasks; a task not in the data is an error naming the tasks.
        """
        now = self.sources.now()
        library_name = support_grid.library_asked(now.snapshot, library)
        offered = ["", *views.task_choices(now.snapshot, now.rankings, now.records)]
        task_text = arguments.task(task, offered, "the data")
        return support_grid.grid(now.snapshot, now.records, library_name, task_text)

    @documented(
        f"changed means: {comparison.DEFAULT_THRESHOLDS.describe()}; each entry has model_id and each side's fields with the suffix _a or _b",
        "a stack compared with itself gives empty lists",
        UNKNOWN_STACK_IS_AN_ERROR,
    )
    def compare(
        self, neuronx_cc_a: str = "", library_version_a: str = "", neuronx_cc_b: str = "", library_version_b: str = ""
    ) -> CompareAnswer:
        """Compare two stacks (for an SDK upgrade): which models regressed, were fixed, were added or removed, or changed notably.

        Args:
            neuronx_cc_a: compiler version of stack A, the older one as a rule; "" (with library_version_a "") means the stack just before the newest.
            library_version_a: library version of stack A, plain ("4.57.1") or LIBRARY==VERSION; "" means the first stack on that compiler.
            neuronx_cc_b: compiler version of stack B; "" (with library_version_b "") means the newest stack.
            library_version_b: library version of stack B, plain ("4.57.1") or LIBRARY==VERSION; "" means the first stack on that compiler.
        """
        snapshot = self.sources.now().snapshot
        stack_a, stack_b = comparison.resolve_pair(
            snapshot, neuronx_cc_a, library_version_a, neuronx_cc_b, library_version_b
        )
        return comparison.compare(snapshot, stack_a, stack_b)

    @documented("every FAIL on the stack is in exactly one cause", UNKNOWN_STACK_IS_AN_ERROR)
    def failures(self, neuronx_cc: str = "", library_version: str = "") -> FailuresAnswer:
        """Why models fail on one stack: every FAIL grouped by cause, the causes that block the most models first.

        Args:
            neuronx_cc: {neuronx_cc}; {unknown_stack}.
            library_version: {library_version}
        """
        snapshot = self.sources.now().snapshot
        stack = snapshot.resolve_stack(neuronx_cc, library_version)
        return failures.failures(snapshot, stack)

    @documented(
        "num_parameters is an ESTIMATE from the config (embeddings, attention with grouped key/value heads, MLP, mixture-of-experts experts, text/vision sub-configs); expectation follows the same rules as /lookup's",
        "text that is not a JSON object, nests too deep or is over 1 MB is a clear error; nothing of it is stored",
        UNKNOWN_STACK_IS_AN_ERROR,
    )
    def check_config(self, config_json: str, neuronx_cc: str = "", library_version: str = "") -> ConfigCheckAnswer:
        """What to expect on one stack from a model that is not on the Hub, from the text of its config.json.

        Args:
            config_json: the text of a config.json (a JSON object, at most 1 MB); nothing of it is stored.
            neuronx_cc: {neuronx_cc}; {unknown_stack}.
            library_version: {library_version}
        """
        now = self.sources.now()
        stack = now.snapshot.resolve_stack(neuronx_cc, library_version)
        try:
            answer = config_check.check_config(now.snapshot, stack, config_json, now.records)
        except ConfigError as error:
            raise ArgumentRefused(f"config_json: {error}") from None
        log.info("check_config: %s, %s", answer["architecture"] or "no architecture", answer["expectation"]["verdict"])
        return answer

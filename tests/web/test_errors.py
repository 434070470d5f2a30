"""The one table of answers (`components/web/errors.py`): each error's status and words, the types each half
catches read from it, and every exception type the app declares living in its layer's `errors.py`."""

from __future__ import annotations

import ast
from pathlib import Path

from components.domain.errors import UnknownStack
from components.queries.errors import ArgumentRefused, ConfigError, MalformedId
from components.sources.errors import Declined, SourceError
from components.web import errors
from components.web.errors import NotAPage, RequestRefused, answer_of

ROOT = Path(__file__).resolve().parents[2]


def test_each_refusal_is_answered_with_its_status_in_its_own_words():
    assert answer_of(ArgumentRefused("parameter 'view' is 'x'")) == (400, "parameter 'view' is 'x'")
    unknown = UnknownStack("9.9", "0.0", "neuronx-cc 9.9", ["2.21 with optimum-neuron==0.4.1"])
    assert answer_of(unknown) == (404, str(unknown)) and "Known stacks: 2.21 with optimum-neuron==0.4.1" in str(unknown)
    assert answer_of(MalformedId("model must be a Hub model id")) == (400, "model must be a Hub model id")
    assert answer_of(RequestRefused(414, "query string over 2048 bytes")) == (414, "query string over 2048 bytes")


def test_an_error_no_one_expected_is_a_500_that_says_nothing_of_it():
    assert answer_of(KeyError("/home/me/secret")) == (500, "internal error") == errors.INTERNAL
    assert answer_of(SourceError("dataset not found")) == (500, "internal error")
    # a subclass is answered as the first of its classes the table lists
    assert answer_of(type("Narrower", (ArgumentRefused,), {})("no")) == (400, "no")


def test_what_each_half_catches_is_read_from_the_table():
    assert set(errors.GRADIO_REFUSED) == {ArgumentRefused, UnknownStack}
    assert set(errors.REFUSED) == {RequestRefused, ArgumentRefused, UnknownStack, MalformedId}
    assert Exception not in errors.REFUSED and ConfigError not in errors.REFUSED
    assert issubclass(NotAPage, Declined)


def test_every_exception_type_is_declared_in_its_layers_errors_module():
    bases = {"Exception", "ValueError", "RuntimeError", "TimeoutError"}
    declared = {}
    for path in sorted((ROOT / "components").rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.ClassDef):
                declared[node.name] = (path, [ast.unparse(b) for b in node.bases])
    exceptions = set(bases)
    changed = True
    while changed:  # the classes that extend an exception, through any chain of the app's own
        found = {name for name, (_, names) in declared.items() if any(n.split(".")[-1] in exceptions for n in names)}
        changed, exceptions = not found <= exceptions, exceptions | found
    outside = sorted(
        str(declared[name][0].relative_to(ROOT)) + f" {name}"
        for name in exceptions - bases
        if declared[name][0].name != "errors.py"
    )
    assert outside == []

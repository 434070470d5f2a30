"""Stacks: the small reference value that names one (`StackRef`: its wording, its link parameters both
ways, its parse), the stack with its counts (`Stack`), and how a stack asked for by a person or a program
is found.

A stack is (neuronx_cc, library, library_version). `resolve()` is the one place that turns what
was asked for into a stack, and `resolve_or_default()` the one fallback for a person's choice; every
endpoint, the pages' pickers, deep links, compare and charts go through them. `resolve()` never
answers an unknown stack with another one: a CI job gating an upgrade must not read a PASS from a
stack it did not ask about.
"""

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, fields
from functools import cached_property
from typing import Annotated
from urllib.parse import parse_qsl, urlencode

from typing_extensions import TypedDict

from components.domain.errors import UnknownStack
from components.domain.versions import short_version
from components.runtime import settings

# Transformers was the first library the harness ran; a plain library version means it first.
FIRST_LIBRARY = "transformers"
# A library as a person reads it, by pip's spelling (which answers, links, CSV values and file names keep).
LIBRARY_NAMES = {
    "transformers": "Transformers",
    "diffusers": "Diffusers",
    "sentence-transformers": "Sentence Transformers",
}


# A stack's fields as the answers describe them; `queries/answers.py` uses these and every other answer type.
# (This module's annotations are evaluated, as `answers.py`'s are: Gradio and pydantic read them as types.)
NeuronxCc = Annotated[str, "the neuronx-cc compiler version, e.g. 2.28.7631.0+82129205"]
Library = Annotated[str, "the modeling library, e.g. transformers or diffusers"]
LibraryVersion = Annotated[str, "the library's version, e.g. 4.57.1"]


class StackRefAnswer(TypedDict):
    """A stack named in an answer (`stacks.StackRef.as_dict`)."""

    neuronx_cc: NeuronxCc
    library: Library
    library_version: LibraryVersion


class StackAnswer(TypedDict):
    """A stack as the endpoints answer it (`Stack.as_dict`)."""

    neuronx_cc: NeuronxCc
    library: Library
    library_version: LibraryVersion
    models: Annotated[int, "how many models were run on the stack"]
    passed: Annotated[int, "how many of them passed"]


@dataclass(frozen=True)
class StackRef:
    """A stack named: (neuronx_cc, library, library_version), hashable, with its wording and its link
    parameters. Read from a link (`from_params`, `parse`) it names what was asked for: an empty library
    is "the first library", an empty version "its newest" (`spec` is then what `resolve` takes)."""

    neuronx_cc: str
    library: str
    library_version: str

    @property
    def ref(self) -> "StackRef":
        """The reference alone: itself (a `Stack` gives its own without its counts)."""
        return self

    @property
    def compiler(self) -> str:
        """The compiler's public version, where the compiler is named already: `2.28.7631.0`."""
        return short_version(self.neuronx_cc)

    @property
    def library_label(self) -> str:
        """The library and its version, where the compiler is shown beside them: `Transformers 4.57.1`."""
        return f"{library_name(self.library)} {self.library_version}"

    @property
    def label(self) -> str:
        """The short form, for pickers, headings and figures: `neuronx-cc 2.28.7631.0 · Transformers 4.57.1`
        (the compiler's public version)."""
        return f"neuronx-cc {self.compiler} · {self.library_label}"

    @property
    def long_label(self) -> str:
        """The long form, exact, for text read away from the app (reports, requests, scripts, hovers):
        `neuronx-cc 2.28.7631.0+82129205 with Transformers 4.57.1`."""
        return f"neuronx-cc {self.neuronx_cc} with {self.library_label}"

    @property
    def plain_label(self) -> str:
        """The long form in the words of a code comment: `neuronx-cc 2.28.7631.0+82129205 / Transformers 4.57.1`."""
        return f"neuronx-cc {self.neuronx_cc} / {self.library_label}"

    @property
    def spec(self) -> str:
        """The `library_version` value that names exactly this stack's library: `4.57.1` for Transformers,
        `diffusers==0.36.0` for any other library."""
        return library_spec(self.library, self.library_version)

    def params(self, explicit: bool = False) -> list[tuple[str, str]]:
        """The page's deep-link parameters: `neuronx_cc=…&transformers=…` for Transformers, else
        `library=…&library_version=…`; `explicit` always names the library. Empty values are left out."""
        pairs = [("neuronx_cc", self.neuronx_cc)]
        library, version = split_spec(self.spec)
        if explicit:
            pairs += [("library", self.library), ("library_version", self.library_version)]
        elif library:
            pairs += [("library", library), ("library_version", version)]
        else:
            pairs.append(("transformers", version))
        return [(k, v) for k, v in pairs if v or explicit]

    @property
    def picker_value(self) -> str:
        """The value of this stack in a picker of whole stacks: `neuronx_cc=…&library=…&library_version=…`."""
        return urlencode(self.params(explicit=True))

    def as_dict(self) -> StackRefAnswer:
        """{neuronx_cc, library, library_version}: the stack named in an answer."""
        return {"neuronx_cc": self.neuronx_cc, "library": self.library, "library_version": self.library_version}

    @classmethod
    def from_params(cls, params: Mapping[str, object] | None) -> "StackRef":
        """The stack a link's parameters ask for (as `params` writes them, either way): `transformers=V` names a
        Transformers version, `library=L` a library with its version in `library_version=V` (none: its newest).
        A missing or non-text value reads as empty, a huge one is cut to `STACK_PARAM` characters."""

        def get(name: str) -> str:
            value = params.get(name) if params else None
            return value[: settings.STACK_PARAM.value].strip() if isinstance(value, str) else ""

        library, version = get("library"), get("library_version") or get("transformers")
        if library and "==" in library:  # a whole spec in `library`
            library, version = split_spec(library)
        if not library and version:
            library, version = split_spec(version)
        return cls(get("neuronx_cc"), library, version)

    @classmethod
    def parse(cls, value: str | None) -> "StackRef":
        """A picker value or a query string (`neuronx_cc=…&library=…&library_version=…`) back to a reference."""
        return cls.from_params(dict(parse_qsl(value or "")))

    @classmethod
    def of(cls, answer: Mapping[str, object]) -> "StackRef":
        """The stack an answer (or a history entry) names in its `neuronx_cc`, `library`, `library_version`."""
        return cls(*(str(answer.get(k) or "") for k in STACK_KEY))

    @classmethod
    def asked(cls, neuronx_cc: str | None, spec: str | None) -> "StackRef":
        """What `resolve` takes (a compiler and a `library_version` spec) as a reference."""
        return cls(str(neuronx_cc or "").strip(), *split_spec(spec))

    def __str__(self) -> str:
        return self.label


# The columns that hold a stack, in the order of `StackRef`'s fields.
STACK_KEY: tuple[str, ...] = tuple(f.name for f in fields(StackRef))


@dataclass(frozen=True)
class Stack(StackRef):
    """One neuronx-cc × library × library version, with its counts."""

    models: int
    passed: int

    @cached_property
    def ref(self) -> "StackRef":
        """The reference alone, made once: snapshots look their rows up by it."""
        return StackRef(self.neuronx_cc, self.library, self.library_version)

    def as_dict(self) -> StackAnswer:
        """The stack and its counts as plain JSON values, the shape the endpoints declare."""
        return {
            "neuronx_cc": self.neuronx_cc,
            "library": self.library,
            "library_version": self.library_version,
            "models": self.models,
            "passed": self.passed,
        }


def unknown_stack(neuronx_cc: str, library_version: str, known: Sequence[Stack]) -> UnknownStack:
    """The error for a stack asked for that is not in the data, naming the known stacks."""
    return UnknownStack(
        neuronx_cc[: settings.STACK_ASKED.value],
        library_version[: settings.STACK_ASKED.value],
        asked_label(neuronx_cc, library_version),
        [f"{s.neuronx_cc} with {s.library}=={s.library_version}" for s in known],
    )


def library_order(library: str) -> tuple[int, str]:
    """Sort key of a library: Transformers first, then the others by name."""
    return (0 if normalise_library(library) == FIRST_LIBRARY else 1, normalise_library(library))


def library_name(library: str | None) -> str:
    """A library as a person reads it (`LIBRARY_NAMES`): `Transformers`, `Diffusers`, `Sentence Transformers`; no
    library (the older files' rows) is Transformers, and a library not named there reads as the data spells it.
    The one source of a library's name in every text; machine values keep pip's spelling."""
    text = str(library or "").strip()
    return LIBRARY_NAMES.get(normalise_library(text or FIRST_LIBRARY), text)


def normalise_library(name: str) -> str:
    """`Sentence_Transformers` → `sentence-transformers`: pip's spelling, for matching."""
    return str(name or "").strip().lower().replace("_", "-")


def library_spec(library: str | None, version: str | None) -> str:
    """The `library_version` value for a library and its version: `4.57.1` for Transformers (or no
    library), `diffusers==0.36.0` for another, `diffusers==` (its newest) without a version; a library
    that already holds `==` is a whole spec."""
    library, version = str(library or "").strip(), str(version or "").strip()
    if not library or "==" in library:
        return library or version
    if normalise_library(library) == FIRST_LIBRARY and version:
        return version
    return f"{library}=={version}"


def split_spec(spec: str | None) -> tuple[str, str]:
    """A `library_version` value as (library, version): `("diffusers", "0.36.0")`, `("", "4.57.1")` for
    a plain version (the inverse of `library_spec`)."""
    library, sep, version = str(spec or "").strip().partition("==")
    return (library.strip(), version.strip()) if sep else ("", library.strip())


# What a picker of whole stacks is labelled with, beside its own name: its choices leave the compiler's name out.
PICKER_PARTS = "neuronx-cc · library"


def picker_choices(stacks: Sequence[Stack]) -> list[tuple[str, str]]:
    """Every stack as a picker's (label, value), in the order given, the first marked newest: `2.28.7631.0 ·
    Transformers 5.0.0 (newest)`. The compiler's name is in the picker's label (`PICKER_PARTS`): with it a
    choice ran past the box on a phone and two stacks read the same there."""
    return [
        (f"{s.compiler} · {s.library_label}" + (" (newest)" if i == 0 else ""), s.picker_value)
        for i, s in enumerate(stacks)
    ]


def asked_label(neuronx_cc: str, library_version: str) -> str:
    """What was asked for, in words: `neuronx-cc 2.99.0 with library version 9.9` (each value cut to
    80 characters: an answer never echoes a huge value back)."""
    neuronx_cc, library_version = (
        neuronx_cc[: settings.STACK_ASKED.value],
        library_version[: settings.STACK_ASKED.value],
    )
    cc = f"neuronx-cc {neuronx_cc}" if neuronx_cc else "the newest neuronx-cc"
    return f"{cc} with library version {library_version}" if library_version else cc


def names_stack(neuronx_cc: object, library_version: object) -> bool:
    """Whether a call or a link names a stack; naming none, a one-model answer speaks for the model's own
    stack (`Snapshot.model_stack`)."""
    return bool(str(neuronx_cc or "").strip() or str(library_version or "").strip())


def _same_version(have: str, asked: str) -> bool:
    # people type the public part of a version: 2.28.7631.0 for 2.28.7631.0+82129205
    return have == asked or ("+" not in asked and short_version(have) == asked)


def _library_matches(stack: Stack, spec: str) -> bool:
    library, sep, version = spec.partition("==")
    if not sep:
        return _same_version(stack.library_version, spec)
    if normalise_library(stack.library) != normalise_library(library):
        return False
    # `LIBRARY==` with no version: the library's first (newest) stack
    return not version.strip() or _same_version(stack.library_version, version.strip())


def resolve(stacks: Sequence[Stack], neuronx_cc: str | None = "", library_version: str | None = "") -> Stack | None:
    """The stack asked for, from `stacks` (newest first, Transformers first on each compiler).

    `neuronx_cc` "" means the newest compiler that has the library version asked for; `library_version`
    is "" (the first stack on that compiler), a version (the library whose version matches, Transformers
    first), `LIBRARY==VERSION` or `LIBRARY==` (that library's newest version); a version without its `+local` tag matches one that has it.
    Returns None only when nothing is asked and there is no data; raises UnknownStack otherwise.
    """
    cc = str(neuronx_cc or "").strip()
    spec = str(library_version or "").strip()
    if not stacks and not cc and not spec:
        return None
    candidates = [s for s in stacks if _same_version(s.neuronx_cc, cc)] if cc else list(stacks)
    if spec:
        candidates = [s for s in candidates if _library_matches(s, spec)]
    if not candidates:
        raise unknown_stack(cc, spec, stacks)
    return candidates[0]


def resolve_or_default(
    stacks: Sequence[Stack], neuronx_cc: str | None = "", library_version: str | None = ""
) -> Stack | None:
    """For a person (who may follow an old link, or keep a choice a refresh dropped): the stack asked for;
    for an unknown one the newest version of the library asked for on that compiler, else the compiler's
    first stack, else the newest stack. None only when there is no data."""
    library = split_spec(library_version)[0]
    for spec in dict.fromkeys((str(library_version or ""), f"{library}==" if library else "", "")):
        try:
            return resolve(stacks, neuronx_cc, spec)
        except UnknownStack:
            continue
    return stacks[0] if stacks else None


def resolve_picker(stacks: Sequence[Stack], value: str | None, default: Stack | None = None) -> Stack | None:
    """The stack a picker value names (`resolve_or_default`), or `default` when the value is empty."""
    if not value:
        return default if default is not None else (stacks[0] if stacks else None)
    asked = StackRef.parse(value)
    return resolve_or_default(stacks, asked.neuronx_cc, asked.spec)

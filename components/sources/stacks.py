"""Stacks: what one is, how a stack asked for by a person or a program is found, and its label.

A stack is (neuronx_cc, library, library_version). `resolve()` is the one place that turns what
was asked for into a stack; every endpoint, the page, deep links, compare and charts go through it.
It never answers an unknown stack with another one: a CI job gating an upgrade must not read a
PASS from a stack it did not ask about.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from components.sources.versions import short_version

# Transformers was the first library the harness ran; a plain library version means it first.
FIRST_LIBRARY = "transformers"
ASKED_MAX = 80


@dataclass(frozen=True)
class Stack:
    """One neuronx-cc × library × library version, with its counts."""

    neuronx_cc: str
    library: str
    library_version: str
    models: int
    passed: int

    @property
    def key(self) -> tuple[str, str, str]:
        return (self.neuronx_cc, self.library, self.library_version)

    def as_dict(self) -> dict:
        return {
            "neuronx_cc": self.neuronx_cc,
            "library": self.library,
            "library_version": self.library_version,
            "models": self.models,
            "passed": self.passed,
        }


class UnknownStack(ValueError):
    """A stack was asked for that is not in the data; the message names the known stacks."""

    def __init__(self, neuronx_cc: str, library_version: str, known: Sequence[Stack]):
        self.neuronx_cc = neuronx_cc[:ASKED_MAX]
        self.library_version = library_version[:ASKED_MAX]
        self.asked = asked_label(neuronx_cc, library_version)
        names = "; ".join(f"{s.neuronx_cc} with {s.library}=={s.library_version}" for s in known)
        names = names or "none (no data is loaded)"
        super().__init__(f"No tested stack matches {self.asked}. Known stacks: {names}.")


def library_order(library: str) -> tuple[int, str]:
    """Sort key of a library: Transformers first, then the others by name."""
    return (0 if normalise_library(library) == FIRST_LIBRARY else 1, normalise_library(library))


def normalise_library(name: str) -> str:
    """`Sentence_Transformers` → `sentence-transformers`: pip's spelling, for matching."""
    return str(name or "").strip().lower().replace("_", "-")


def stack_label(stack: Stack) -> str:
    """`neuronx-cc 2.28.7631.0 · transformers 4.57.1`: how a stack is named to people."""
    return f"neuronx-cc {short_version(stack.neuronx_cc)} · {stack.library} {stack.library_version}"


def library_spec(stack: Stack) -> str:
    """The `library_version` value that names exactly this stack's library: `4.57.1` for Transformers,
    `diffusers==0.36.0` for any other library."""
    if normalise_library(stack.library) == FIRST_LIBRARY:
        return stack.library_version
    return f"{stack.library}=={stack.library_version}"


def asked_label(neuronx_cc: str, library_version: str) -> str:
    """What was asked for, in words: `neuronx-cc 2.99.0 with library version 9.9` (each value cut to
    80 characters: an answer never echoes a huge value back)."""
    neuronx_cc, library_version = neuronx_cc[:ASKED_MAX], library_version[:ASKED_MAX]
    cc = f"neuronx-cc {neuronx_cc}" if neuronx_cc else "the newest neuronx-cc"
    return f"{cc} with library version {library_version}" if library_version else cc


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
        raise UnknownStack(cc, spec, stacks)
    return candidates[0]


def resolve_or_default(
    stacks: Sequence[Stack], neuronx_cc: str | None = "", library_version: str | None = ""
) -> Stack | None:
    """For the page (a person, who may follow an old link): the stack asked for; for an unknown one the
    first stack on the compiler asked for, or else the newest stack. None only when there is no data."""
    try:
        return resolve(stacks, neuronx_cc, library_version)
    except UnknownStack:
        try:
            return resolve(stacks, neuronx_cc, "")
        except UnknownStack:
            return stacks[0] if stacks else None

"""The filters of the Models tab as one value: what the person asked for, and the query it makes."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from components.domain.stacks import library_spec
from components.queries import views


@dataclass(frozen=True)
class Filters:
    """What the person asked for, as the filters hold it: the library and its version are two pickers."""

    text: str = ""
    view: str = views.DEFAULT
    task: str = ""
    neuronx_cc: str = ""
    library: str = ""
    version: str = ""
    size: str = ""

    @classmethod
    def of(cls, values: dict[str, Any]) -> Filters:
        """The filters among an event's inputs (by name; a missing one is empty)."""

        def get(name: str) -> str:
            return values.get(name) or ""

        return cls(get("search"), get("view"), get("task"), get("cc"), get("library"), get("version"), get("size"))

    @property
    def all_libraries(self) -> bool:
        """ "All libraries" picked (the library picker's default, `library=` absent from a link) with no compiler:
        no stack named, the search covers each library's newest stack."""
        return not self.library and not self.neuronx_cc

    @property
    def library_version(self) -> str:
        """The stack's library as the endpoints take it: `4.57.1`, or `diffusers==0.36.0`."""
        return library_spec(self.library, self.version)

    def query(self) -> views.Query:
        cc, spec = ("", "") if self.all_libraries else (self.neuronx_cc, self.library_version)
        return views.normalise(self.text, self.view, self.task, cc, spec, self.size)

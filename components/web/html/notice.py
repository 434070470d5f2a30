"""The notice under the page's title: where the data comes from, how fresh it is, and what was skipped."""

from __future__ import annotations

from markupsafe import Markup

from components.domain.stacks import StackRef
from components.queries import freshness
from components.runtime import settings
from components.sources.app_sources import Moment, Sources
from components.sources.snapshot import Provenance, Skipped
from components.web.html.follow import feed_link
from components.web.html.markup import join

# The page of the app's endpoints is off the nav bar (each entry is a line more on a phone), so every page's
# top links to it, beside the feed: programs are the other way in.
API_LINK = Markup('<a id="api-link" href="endpoints">API endpoints</a>')


def title(name: str) -> Markup:
    """The title above the notice, and what the app answers in one line; on every live page and a model link's
    painted one."""
    return Markup(
        '<div class="title"><h1>{}</h1><p class="tagline">Does this Hugging Face model run unmodified on AWS Trainium '
        "with TorchNeuron (<code>torch-neuronx</code>)? And how do I run it myself? {} · {}</p></div>"
    ).format(name, feed_link(), API_LINK)


def provenance_line(p: Provenance) -> str:
    """One sentence for the header: what is shown and how fresh it is."""
    newest = p.newest_tested_at.strftime("%Y-%m-%d") if p.newest_tested_at else "unknown date"
    what = {
        "hub": f"Live dataset {p.source}",
        "local": f"Local dataset '{p.source}'",
        "sample": "Made-up data bundled with the app, not real results",
    }.get(p.kind, p.source)
    line = f"{what}: {p.rows_read:,} rows from {p.files_read} file(s), newest run {newest}"
    # live data can outlive a failed refresh: say when it was read, and how long ago
    age = freshness.age_text(freshness.data_age(p))
    if p.kind == "hub":
        line += f", read from the Hub {p.loaded_at:%Y-%m-%d %H:%M} UTC ({age} ago)."
    else:
        line += "." if p.is_sample else f", read {age} ago."
    if p.fallback_reason:
        line += f" Shown because {p.fallback_reason}."
    return line


def page_header(sources: Sources, moment: Moment) -> Markup:
    """The notice of every page, from what `moment` serves and the dataset's `source_status()`."""
    status = sources.datasets.source_status()
    return header(moment.snapshot.provenance, moment.snapshot.skipped, moment.rankings.label(), status.last_error)


def header(
    provenance: Provenance, skipped: tuple[Skipped, ...], rankings_label: str, refresh_error: str | None = None
) -> Markup:
    """The notice under the title: where the data comes from, how fresh, and what was skipped.
    `refresh_error` is why the latest refresh failed, if it did (the data shown is then older)."""
    kind = "sample" if provenance.is_sample else provenance.kind
    parts: list[str] = [Markup('<div class="provenance provenance-{}" id="provenance">').format(kind)]
    if provenance.is_sample:
        parts.append(Markup('<strong class="sample-flag">Sample data</strong> '))
    parts.append(provenance_line(provenance))
    stale = freshness.stale_warning(provenance)
    if stale:
        parts.append(Markup('<br><strong class="stale">{}</strong>').format(stale))
    if refresh_error and not provenance.is_sample:  # the sample already says why it is shown
        parts.append(
            Markup(
                '<br><span class="refresh-failed">The latest refresh failed ({}); '
                "this is the data read before it.</span>"
            ).format(refresh_error)
        )
    parts.append(Markup('<br><span class="rankings-line">Rankings: {}</span>').format(rankings_label))
    if skipped:
        most = settings.SKIPPED_FILES_SHOWN.value
        items = join(Markup("<li><code>{}</code>: {}</li>").format(s.file, s.reason) for s in skipped[:most])
        extra = Markup("<li>… and {} more</li>").format(len(skipped) - most) if len(skipped) > most else ""
        parts.append(
            Markup(
                '<details class="skipped"><summary>{} problem(s) while reading the data '
                "(the good rows are all shown)</summary><ul>{}{}</ul></details>"
            ).format(len(skipped), items, extra)
        )
    parts.append(Markup("</div>"))
    return join(parts)


def unknown_stack(asked: str, shown: StackRef | None) -> Markup:
    """The notice beside a link's answer when the link asked for a stack the data lacks: `asked` is
    `UnknownStack`'s words (the stack asked for and the known ones), `shown` the stack answered for instead."""
    instead = Markup(" Shown instead: {}.").format(shown.label) if shown is not None else Markup("")
    return Markup('<p class="unknown-stack" id="unknown-stack" role="status"><strong>{}</strong>{}</p>').format(
        asked, instead
    )

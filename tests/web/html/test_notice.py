"""The notice under the title: sample data says so, and skipped files are listed, escaped."""

from components.web.html import notice


def test_header_labels_sample_data_and_lists_what_was_skipped(world):
    import dataclasses

    from components.sources.snapshot import Skipped

    snap, _ = world
    sample = dataclasses.replace(
        snap.provenance, kind="sample", source="bundled sample data", fallback_reason="offline"
    )
    html = notice.header(sample, (Skipped("bad<1>.parquet", "unreadable"),), "Bundled snapshot as of 2026-11-30")
    assert "Sample data" in html and "not real results" in html and "offline" in html
    assert "bad&lt;1&gt;.parquet" in html and "1 problem(s)" in html

"""A result's label: escaped whatever the dataset says."""

from components.web.html import markup


def test_unknown_results_show_as_recorded_and_escaped():
    assert markup.badge("other", "<b>MAYBE</b>") == '<span class="badge badge-other">&lt;b&gt;MAYBE&lt;/b&gt;</span>'
    assert "not tested" in markup.badge("not tested", "not tested")

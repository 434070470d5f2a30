"""A result's label: escaped whatever the dataset says."""

from components.web.html import markup


def test_unknown_results_show_as_recorded_and_escaped():
    assert markup.badge("other", "<b>MAYBE</b>") == '<span class="badge badge-other">&lt;b&gt;MAYBE&lt;/b&gt;</span>'
    assert "not tested" in markup.badge("not tested", "not tested")


def test_a_model_cell_sent_back_by_the_browser_names_its_model_and_nothing_else_does():
    for model_id in ("Qwen/Qwen3-0.6B", "gpt2", "org/name.with-dots_and-dashes"):
        assert markup.model_in_cell(str(markup.model_link(model_id)) + "<br><small>task</small>") == model_id
    assert markup.model_in_cell(str(markup.model_link("evil/<img src=x>"))) == "evil/<img src=x>"  # as sent
    assert markup.model_in_cell('<a href="https://evil.example/a/b" class="model-link">a/b</a>') == ""
    assert markup.model_in_cell("<script>alert(1)</script>") == "" and markup.model_in_cell("") == ""
    long_id = "long/" + "A" * 5000 + "<script>x</script>"
    assert markup.model_in_cell(str(markup.model_link(long_id))) == long_id  # an id in the data, however long
    assert markup.model_in_cell("x" * 1_000_000 + str(markup.model_link("a/b"))) == ""  # read only so far
    assert markup.model_in_cell(markup.MODEL_HREF * 30_000) == ""  # one pass, whatever is sent

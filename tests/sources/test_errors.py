"""The one error scrubber: tokens, the home folder and local paths never reach a message."""

from __future__ import annotations

import os

from components.sources.errors import describe_error, scrub


def test_tokens_are_hidden_whatever_their_form():
    text = scrub("Authorization: Bearer abc.DEF-123 and hf_AbCdEf1234567890 and bearer xyz")
    assert "abc.DEF-123" not in text and "hf_AbCdEf" not in text and "xyz" not in text
    assert text.count("***") == 3


def test_the_home_folder_becomes_a_tilde_and_other_absolute_paths_their_last_part():
    home = os.path.expanduser("~")
    text = scrub(f"cannot open {home}/data/x.parquet nor /srv/private/other.parquet")
    assert text == "cannot open ~/data/x.parquet nor other.parquet"


def test_urls_are_kept_they_say_what_was_unreachable():
    assert "https://huggingface.co/api/models?limit=100" in scrub("GET https://huggingface.co/api/models?limit=100")


def test_an_error_is_one_line_with_its_type_and_bounded():
    message = describe_error(OSError("first line\nsecond line with hf_AbCdEf1234567890"))
    assert message == "OSError: first line"
    assert describe_error(ValueError()) == "ValueError"
    assert len(describe_error(ValueError("x" * 1000))) < 220

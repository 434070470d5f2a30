"""The page's look: the theme Gradio draws with and the app's stylesheet as Gradio inlines it."""

from __future__ import annotations

import re
from pathlib import Path

import gradio as gr

# The Soft theme's web fonts (Montserrat regular and bold, IBM Plex Mono: ~200 KB, four requests)
# arrive while the page mounts and compete with its scripts; the system's own fonts cost nothing.
SANS = ("ui-sans-serif", "system-ui", "-apple-system", "Segoe UI", "Roboto", "Helvetica Neue", "Arial", "sans-serif")
MONO = ("ui-monospace", "SFMono-Regular", "Menlo", "Consolas", "Liberation Mono", "monospace")


def minified_css(path: Path) -> str:
    """The stylesheet without comments and spare whitespace: Gradio inlines it into every page."""
    text = re.sub(r"/\*.*?\*/", "", path.read_text(encoding="utf-8"), flags=re.S)
    return re.sub(r"\s*([{};,>])\s*", r"\1", re.sub(r"\s+", " ", text)).strip()


def theme() -> gr.themes.Base:
    """The page's theme: Gradio's Soft colours with system font stacks (no web fonts to fetch), and text
    colours that keep a 4.5:1 contrast (WCAG AA) in light and dark: Soft's subdued text, labels and
    links are a shade too light for it (2.4:1 to 4.3:1, measured with axe-core)."""
    return gr.themes.Soft(font=list(SANS), font_mono=list(MONO)).set(
        body_text_color_subdued="*neutral_600",
        body_text_color_subdued_dark="*neutral_400",
        block_label_text_color="*primary_800",
        block_label_text_color_dark="*primary_100",
        block_title_text_color="*primary_800",
        block_title_text_color_dark="*primary_100",
        link_text_color="*primary_700",
        link_text_color_dark="*primary_300",
        link_text_color_visited="*primary_800",
        link_text_color_visited_dark="*primary_200",
        link_text_color_hover="*primary_800",
        link_text_color_hover_dark="*primary_200",
        checkbox_label_background_fill_selected="*primary_700",
        checkbox_label_background_fill_selected_dark="*primary_700",
    )

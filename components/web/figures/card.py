"""A link's preview card: a 1200×630 PNG (the size Open Graph and Twitter show large) drawn with Pillow.

A model's card names the model, its verdict on the stack, the stack, cores and wall time; another page's
card names the page and what it shows. The sample-data label is drawn when the data is the sample.
Text is drawn as text (never markup) and cut to fit: a hostile or 5,000-character model id stays a line.
"""

from __future__ import annotations

import io
import textwrap

from PIL import Image, ImageDraw, ImageFont

from components.domain.results import EXCLUDED, FAIL, NOT_TESTED, PASS
from components.queries.preview import APP_NAME, SAMPLE_LABEL, Preview
from components.runtime import settings

WIDTH, HEIGHT = 1200, 630
MARGIN = 64
BACKGROUND, TEXT, SUBDUED = (17, 24, 39), (243, 244, 246), (156, 163, 175)
# the verdict's pill: the colours of the page's badges, on a dark card
VERDICT_COLOURS = {PASS: (22, 163, 74), FAIL: (220, 38, 38), EXCLUDED: (202, 138, 4), NOT_TESTED: (75, 85, 99)}
OTHER_COLOUR = (75, 85, 99)
SAMPLE_COLOUR = (124, 58, 237)


def _font(size: int) -> ImageFont.FreeTypeFont | ImageFont.ImageFont:
    return ImageFont.load_default(size=size)  # Pillow's own font: no system font needed


def _fit(draw: ImageDraw.ImageDraw, text: str, font, width: int) -> str:
    """`text` cut with an ellipsis to `width` pixels."""
    if draw.textlength(text, font=font) <= width:
        return text
    while text and draw.textlength(text + "…", font=font) > width:
        text = text[: max(len(text) - max(len(text) // 8, 1), 0)]
    return text + "…"


def _lines(draw: ImageDraw.ImageDraw, text: str, font, width: int, most: int) -> list[str]:
    """`text` wrapped into at most `most` lines of `width` pixels (the last cut to fit)."""
    chars = max(int(width / max(draw.textlength("M", font=font) * 0.62, 1)), 8)
    wrapped = textwrap.wrap(text[: settings.CARD_TEXT.value], chars, break_long_words=True) or [""]
    lines = wrapped[:most]
    if len(wrapped) > most:
        lines[-1] += " …"
    return [_fit(draw, line, font, width) for line in lines]


def draw(card: Preview) -> bytes:
    """The PNG of `card`."""
    image = Image.new("RGB", (WIDTH, HEIGHT), BACKGROUND)
    pen = ImageDraw.Draw(image)
    inner = WIDTH - 2 * MARGIN
    pen.text((MARGIN, MARGIN), APP_NAME, font=_font(34), fill=SUBDUED)
    pen.text((MARGIN, MARGIN + 44), "Does it run unmodified on AWS Trainium?", font=_font(26), fill=SUBDUED)
    y: float = MARGIN + 120
    title_font = _font(60)
    heading = card.model or card.title.split(" · ")[0]
    for line in _lines(pen, heading, title_font, inner, 2):
        pen.text((MARGIN, y), line, font=title_font, fill=TEXT)
        y += 74
    y += 18
    if card.model:
        verdict_font = _font(44)
        verdict = _fit(pen, card.verdict, verdict_font, inner - 40)
        box = pen.textbbox((MARGIN + 24, y + 10), verdict, font=verdict_font)
        colour = VERDICT_COLOURS.get(card.kind, OTHER_COLOUR)
        pen.rounded_rectangle((MARGIN, y, box[2] + 24, box[3] + 14), radius=30, fill=colour)
        pen.text((MARGIN + 24, y + 10), verdict, font=verdict_font, fill=(255, 255, 255))
        y = box[3] + 40
        facts = _font(32)
        pen.text((MARGIN, y), _fit(pen, card.stack, facts, inner), font=facts, fill=TEXT)
        y += 46
        if card.kind != NOT_TESTED and card.figures:
            pen.text((MARGIN, y), card.figures, font=facts, fill=TEXT)
            y += 46
        if card.detail:
            pen.text((MARGIN, y), _fit(pen, card.detail, _font(26), inner), font=_font(26), fill=SUBDUED)
    else:
        for line in _lines(pen, card.description, _font(32), inner, 5):
            pen.text((MARGIN, y), line, font=_font(32), fill=TEXT)
            y += 44
    if card.sample:
        label_font = _font(28)
        width = pen.textlength(SAMPLE_LABEL, font=label_font)
        top = HEIGHT - MARGIN - 44
        pen.rounded_rectangle((MARGIN, top, MARGIN + width + 40, top + 46), radius=23, fill=SAMPLE_COLOUR)
        pen.text((MARGIN + 20, top + 7), SAMPLE_LABEL, font=label_font, fill=(255, 255, 255))
    out = io.BytesIO()
    image.save(out, format="PNG", optimize=True)
    return out.getvalue()

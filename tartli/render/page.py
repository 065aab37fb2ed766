"""An HTML page showing the whole pack at hand size, the back and one card in each state."""

from __future__ import annotations

from xml.sax.saxutils import escape

from tartli import names
from tartli.cards import RANKS, SUITS, Card, Language
from tartli.render.cards import back_svg, card_svg

_TITLES = {
    "en": ("The William Tell pack", "Back and states"),
    "hu": ("A Tell-kártya", "Hátlap és állapotok"),
    "de": ("Das Tell-Blatt", "Rückseite und Zustände"),
}
_STATE_CAPTIONS = {
    "en": ("back", "selected", "playable", "not playable", "in a meld", "trump"),
    "hu": ("hátlap", "kiválasztva", "kijátszható", "nem játszható", "bemondásban", "adu"),
    "de": ("Rückseite", "ausgewählt", "spielbar", "nicht spielbar", "in Meldung", "Trumpf"),
}

_CSS = """
body{margin:0;padding:10px 14px;background:#e9e4d8;font-family:'DejaVu Sans',Verdana,sans-serif;color:#222}
h1{font-size:17px;margin:0 0 6px}h2{font-size:14px;margin:8px 0 4px}
table{border-collapse:collapse}td,th{padding:2px 4px;text-align:center;vertical-align:bottom}
th{font-size:11px;font-weight:normal;color:#555}th.suit{text-align:right;vertical-align:middle;width:58px}
.states{display:flex;gap:10px;align-items:flex-end}.states figure{margin:0;text-align:center}
figcaption{font-size:11px;color:#555}svg{display:block}
"""


def sheet_html(language: Language | None = None, *, width: float = 90) -> str:
    """An HTML page with every face, the back and one card in each state (no language: the page's)."""
    language = names.resolve(language)
    title, states_title = _TITLES[language]
    head = "".join(f"<th>{escape(r.name_in(language))}</th>" for r in RANKS)
    rows = []
    for suit in SUITS:
        cells = "".join(f"<td>{card_svg(Card(rank, suit), language=language, width=width)}</td>" for rank in RANKS)
        rows.append(f'<tr><th class="suit">{escape(suit.name_in(language))}</th>{cells}</tr>')
    example = Card.parse("OH")
    samples = [
        back_svg(width=width, language=language),
        card_svg(example, language=language, width=width, selected=True),
        card_svg(Card.parse("9L"), language=language, width=width, playable=True),
        card_svg(Card.parse("KB"), language=language, width=width, playable=False),
        card_svg(Card.parse("UA"), language=language, width=width, highlighted=True),
        card_svg(example, language=language, width=width, trump=True),
    ]
    figures = "".join(
        f"<figure>{svg}<figcaption>{escape(cap)}</figcaption></figure>"
        for svg, cap in zip(samples, _STATE_CAPTIONS[language], strict=True)
    )
    return (
        f'<!DOCTYPE html><html lang="{language}"><head><meta charset="utf-8"><title>{escape(title)}</title>'
        f"<style>{_CSS}</style></head><body><h1>{escape(title)}</h1>"
        f"<table><tr><th></th>{head}</tr>{''.join(rows)}</table>"
        f'<h2>{escape(states_title)}</h2><div class="states">{figures}</div></body></html>\n'
    )

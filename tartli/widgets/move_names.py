"""The moves as the table offers them and names them to a learner: the declarations worth offering
first (:func:`main_declarations`), a declaration's label (:func:`declaration_label`) and a move as advice
(:func:`move_words`). The table, the review's Try again and the hint all use these (so they live apart
from the table: the review panel reads them without importing the table)."""

from __future__ import annotations

from collections.abc import Sequence

from tartli import names
from tartli.game import PlayerView
from tartli.i18n import _
from tartli.melds import Meld, MeldKind
from tartli.moves import Bela, Declare, GoOut, Move, Pass, Play, Swap
from tartli.names import Language, Named


def main_declarations(declares: Sequence[Declare]) -> list[Declare]:
    """The declarations worth offering first, best first: one entry per real choice (a set, a
    sequence, both, béla), each with its longest sequence.

    A declaration is left out when another one declares the same set and béla with sequences that
    hold its sequences and more cards: a six-card run is one entry, not ten. (Its shorter parts are
    a real choice only for the K7 ladder, a terc now and a kvart later: the table offers them with
    "Shorter sequences too".) Best: the most points, then the most cards.
    """

    def parts(move: Declare) -> tuple[tuple[Meld, ...], tuple[Meld, ...]]:
        others = tuple(m for m in move.melds if m.kind is not MeldKind.SEQUENCE)
        return others, tuple(m for m in move.melds if m.kind is MeldKind.SEQUENCE)

    def value(move: Declare) -> int:
        return sum(m.value for m in move.melds)

    def cards(move: Declare) -> int:
        return sum(m.length or 0 for m in move.melds)

    def covers(big: Declare, small: Declare) -> bool:
        (b_other, b_seqs), (s_other, s_seqs) = parts(big), parts(small)
        return (
            big != small
            and b_other == s_other
            and all(any(b.mask & s.mask == s.mask for b in b_seqs) for s in s_seqs)
            and cards(big) > cards(small)
        )

    kept = [d for d in declares if not any(covers(other, d) for other in declares)]
    return sorted(kept, key=lambda d: (-value(d), -cards(d), str(d)))


def declaration_label(move: Declare, language: Language | None = None) -> Named:
    """ "Heart-Over-Kvart (50) + Under-vannak (100)": a declaration as a learner reads it (with the forms
    of its names, for a sentence: ``{melds.acc}``)."""
    titles = [(m.title(names.resolve(language)), m.value) for m in move.melds]
    forms = {
        form: " + ".join(f"{title.forms.get(form, str(title))} ({value})" for title, value in titles)
        for form in titles[0][0].forms
    }
    return Named(" + ".join(f"{title} ({value})" for title, value in titles), forms)


def move_words(move: Move, view: PlayerView, language: Language | None = None) -> str:
    """ "lead the Ten of Hearts", "declare Heart-Over-Terc (20)": a move as advice to the player making it."""
    lang = names.resolve(language)
    if isinstance(move, Play):
        if view.lead is None:
            return _("lead the {card_acc}").format(card=move.card.name(lang))
        return _("play the {card_acc}").format(card=move.card.name(lang))
    if isinstance(move, Declare):
        return _("declare {melds_acc}").format(melds=declaration_label(move, lang))
    if isinstance(move, Pass):
        return _("pass (declare nothing this trick)")
    if isinstance(move, Bela):
        return _("declare béla (40)")
    if isinstance(move, Swap):
        if view.indicator is not None:
            return _("swap the trump Seven for the {card_sub}").format(card=view.indicator.name(lang))
        return _("swap the trump Seven")
    if isinstance(move, GoOut):
        return _("go out (claim 501)")
    return str(move)  # pragma: no cover - every kind of move is named above


__all__ = ["declaration_label", "main_declarations", "move_words"]

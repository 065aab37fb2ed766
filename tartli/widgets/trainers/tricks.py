"""Cards and tricks: name the card (C1), which card wins a trick (T1, C3, C4), count the card points (C5)."""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from typing import Any

import ipywidgets as w

from tartli import names, trainer_questions
from tartli.cards import CARDS, PLAIN_ORDER, SUITS, TRUMP_ORDER, Card, Rank, Suit
from tartli.game import trick_points, trick_winner
from tartli.i18n import N_, _
from tartli.names import upper_first
from tartli.render.cards import card_svg
from tartli.render.table import hand_svg
from tartli.widgets.trainers.base import (
    Exercise,
    as_card,
)
from tartli.widgets.trainers.canvas import (
    GOLD,
    Canvas,
    _attr,
    _size,
)


# ---------------------------------------------------------------------------- 1. which card wins
class WhichCardWins(Exercise):
    """A trick of two cards and a trump suit: click the card that wins it (T1, C3, C4)."""

    id = "which-card-wins"
    title = N_("Which card wins the trick?")
    instruction = N_("Click the card that wins this trick.")

    lead: Card
    second: Card
    trump: Suit
    trick_number: int

    def _generate(self) -> object:
        question = trainer_questions.deal_trick(self.rng)
        self.lead, self.second, self.trump = question.lead, question.second, question.trump
        self.trick_number = question.trick_number
        return (self.lead, self.second, self.trump)

    def set_trick(self, lead: Card | str, second: Card | str, trump: Suit, trick_number: int = 1) -> None:
        """Pose a chosen trick (for a lesson that scripts its example)."""
        self.lead, self.second, self.trump, self.trick_number = as_card(lead), as_card(second), trump, trick_number
        self._restart()

    @property
    def winning_card(self) -> Card:
        """The engine's verdict (T1)."""
        return self.second if trick_winner(self.lead, self.second, self.trump) else self.lead

    def _picture(self) -> str:
        lang = self.language
        canvas = Canvas(
            _("A trick: {lead} led, {second} second").format(
                lead=self.card_name(self.lead), second=self.card_name(self.second)
            )
        )
        canvas.text(self._trump_line(self.trump), weight="bold", fill=GOLD)
        if "phases" not in self.taught:  # the two phases come in lesson 04
            phase = _("Trick {number}")
        elif self.trick_number <= 7:
            phase = _("Trick {number}, phase 1: any card may be played (T2)")
        else:
            phase = _("Trick {number}, phase 2 (T4)")
        canvas.text(phase.format(number=self.trick_number), size=13)
        y = canvas.y + 26
        canvas.label(16, y - 6, _("led first"))
        canvas.label(146, y - 6, _("played second"))
        chosen = self.winning_card if self.solved else None
        for i, card in enumerate((self.lead, self.second)):
            svg = card_svg(
                card,
                language=lang,
                width=110,
                trump=card.suit is self.trump,
                selected=card is chosen,  # the winner, once found (not the meld mark)
            )
            canvas.place(svg, 16 + i * 130, y, pick=card.text)
        canvas.y = y + 110 * 1.6 + 4
        return canvas.svg()

    def _on_pick(self, pick: str) -> None:
        self.answer(pick)

    def answer(self, card: Card | str) -> bool:
        """The learner says ``card`` wins the trick."""
        card = as_card(card)
        if card not in (self.lead, self.second):
            self._say(
                _("Click one of the two cards of the trick, not the {card_sub}.").format(card=self.card_name(card)),
                "info",
            )
            return False
        right = card is self.winning_card
        why = self.explain()
        if right:
            return self._judge(True, _("Right: {why}").format(why=why))
        return self._judge(
            False,
            _("Not quite: the {card_the} does not win. {why}").format(card=self.card_name(card), why=upper_first(why)),
        )

    def explain(self) -> str:
        """Why the winner wins, in words, citing C3/C4 and T1 (the verdict is ``trick_winner``'s)."""
        question = trainer_questions.TrickQuestion(self.lead, self.second, self.trump, self.trick_number)
        return trainer_questions.explain_trick(question, self.language)


# ---------------------------------------------------------------------------- 2. count the points
class CountPoints(Exercise):
    """A few won tricks: type their card points (C3, C4, C5)."""

    id = "count-points"
    title = N_("Count the card points")
    instruction = N_("A player won these tricks. Type how many card points they are worth, then press Check.")

    tricks: list[tuple[int, Card, Card]]
    trump: Suit
    include_last: bool

    def _make_controls(self) -> list[Any]:
        self.points_box = w.IntText(value=0, description=_("Points:"), layout=w.Layout(width="180px"))
        self.check_button = self._button(_("Check"), self._check, _("Check your count"))
        return [self.points_box, self.check_button]

    def _generate(self) -> object:
        question = trainer_questions.deal_points(self.rng)
        self.trump, self.tricks, self.include_last = question.trump, list(question.tricks), question.include_last
        self.points_box.value = 0
        return (self.trump, tuple(self.tricks), self.include_last)

    @property
    def _question(self) -> trainer_questions.PointsQuestion:
        return trainer_questions.PointsQuestion(tuple(self.tricks), self.trump, self.include_last)

    @property
    def cards(self) -> list[Card]:
        return self._question.cards

    @property
    def expected(self) -> int:
        """The engine's count: ``trick_points`` of the cards, plus 10 for the last trick (C5)."""
        return self._question.expected

    def _picture(self) -> str:
        lang = self.language
        canvas = Canvas(_("Tricks won: {cards}").format(cards=", ".join(self.card_name(c) for c in self.cards)))
        canvas.text(self._trump_line(self.trump), weight="bold", fill=GOLD)
        if self.include_last:
            canvas.text(
                _("Including the last trick (trick {number})").format(number=self.tricks[-1][0]), size=13, fill=GOLD
            )
        else:
            canvas.text(_("The last trick is not among them"), size=13)
        x, y = 16.0, canvas.y + 22
        tallest = 0.0
        for number, lead, second in self.tricks:
            pair = hand_svg([lead, second], language=lang, trump=self.trump, card_width=70)
            if canvas.fit is not None and x > 16 and x + _size(pair)[0] > canvas.fit - 16:  # a phone: next line
                x, y, tallest = 16.0, y + tallest + 22, 0.0
            label = _("Trick {number} (last)") if number == 16 else _("Trick {number}")
            canvas.label(x + 12, y, label.format(number=number))
            width, height = canvas.place(pair, x, y)
            x += width + 8
            tallest = max(tallest, height)
        canvas.y = y + tallest + 4
        return canvas.svg()

    def _check(self) -> None:
        self.answer(int(self.points_box.value))

    def answer(self, value: int) -> bool:
        """The learner says the tricks hold ``value`` card points."""
        self.points_box.value = value
        if value == self.expected:
            return self._judge(True, _("Right: {why}").format(why=self.explain()))
        if self.mistakes == 0:
            if self.include_last:
                hint = _(
                    "Not quite: {value} is not it. Count each card: trumps {trumps} (C3); other suits {plain} (C4); "
                    "and the last trick brings 10 more (C5)."
                )
            else:
                hint = _(
                    "Not quite: {value} is not it. Count each card: trumps {trumps} (C3); other suits {plain} (C4)."
                )
            return self._judge(
                False,
                hint.format(
                    value=value, trumps=self._table(TRUMP_ORDER, self.trump), plain=self._table(PLAIN_ORDER, None)
                ),
                shows_answer=False,
            )
        return self._judge(
            False, _("Not quite: {value} is not it. {why}").format(value=value, why=upper_first(self.explain()))
        )

    def _table(self, order: Sequence[Rank], trump: Suit | None) -> str:
        suit = trump if trump is not None else next(s for s in SUITS if s is not self.trump)
        lang = self.language
        return ", ".join(
            f"{names.RANK_LETTERS[lang][r.index]} {trick_points([Card(r, suit)], self.trump)}"
            for r in order
            if trick_points([Card(r, suit)], self.trump)
        )

    def explain(self) -> str:
        """The sum card by card (the numbers are ``trick_points`` of each card)."""
        return trainer_questions.explain_points(self._question, self.language)


# ---------------------------------------------------------------------------- 8. name the card
_LOOKS_LIKE: dict[Rank, tuple[Rank, ...]] = {
    Rank.ACE: (Rank.KING, Rank.TEN),
    Rank.KING: (Rank.OVER, Rank.UNDER),
    Rank.OVER: (Rank.UNDER,),
    Rank.UNDER: (Rank.OVER,),
    Rank.TEN: (Rank.NINE, Rank.ACE),
    Rank.NINE: (Rank.TEN, Rank.EIGHT),
    Rank.EIGHT: (Rank.NINE, Rank.SEVEN),
    Rank.SEVEN: (Rank.EIGHT,),
}
"""For each rank, the ranks a beginner takes it for (above all the Over for the Under and back)."""

_RANK_LOOKS = trainer_questions.RANK_LOOKS
"""How each rank is recognised in the picture (the worksheets' words too)."""
_SUIT_LOOKS = trainer_questions.SUIT_LOOKS
"""What the pips of each suit look like."""

_TITLE = re.compile(r"<title>[^<]*</title>")
_ARIA = re.compile(r"aria-label=([\"']).*?\1")


class NameTheCard(Exercise):
    """One card's picture and four names: choose the card's name (C1).

    The wrong names are ones a beginner picks: the same suit with a look-alike
    rank (the Under for the Over, the Nine for the Ten), the same rank in
    another suit. The verdict compares ``Card.name`` in the learner's language.
    """

    id = "name-the-card"
    title = N_("Name the card")
    instruction = N_("What is this card called? Choose its name.")

    card: Card
    options: list[Card]
    tried: set[Card]

    def _make_controls(self) -> list[Any]:
        self.option_buttons = [self._button("?", self._chooser(i)) for i in range(4)]
        return list(self.option_buttons)

    def _chooser(self, i: int) -> Callable[[], object]:
        return lambda: self.answer(self.options[i])

    def _generate(self) -> object:
        self._pose(self.rng.choice(CARDS))
        return self.card

    def set_card(self, card: Card | str) -> None:
        """Pose a chosen card (the wrong names are still drawn from the seed)."""
        self._pose(as_card(card))
        self._restart()

    def _pose(self, card: Card) -> None:
        rng = self.rng
        look_alike = Card(rng.choice(_LOOKS_LIKE[card.rank]), card.suit)
        other_suit = Card(card.rank, rng.choice([s for s in SUITS if s is not card.suit]))
        # a third wrong name sharing either the suit or the rank (never both)
        pool = [
            c for c in CARDS if (c.suit is card.suit) != (c.rank is card.rank) and c not in (look_alike, other_suit)
        ]
        options = [card, look_alike, other_suit, rng.choice(pool)]
        rng.shuffle(options)
        self.card, self.options, self.tried = card, options, set()

    @property
    def option_names(self) -> list[str]:
        """The four names offered, in the order of the buttons."""
        return [self.card_name(c) for c in self.options]

    def _update_controls(self) -> None:
        for button, card in zip(self.option_buttons, self.options, strict=True):
            button.description = button.tooltip = self.card_name(card)
            button.disabled = self.solved or card in self.tried
            right = self.solved and card is self.card
            button.button_style = "success" if right else "warning" if card in self.tried else ""

    def _picture(self) -> str:
        lang = self.language
        svg = card_svg(self.card, language=lang, width=130, bare=True)  # as a real pack shows it
        if not self.solved:  # the picture's own label would give the name away
            label = _attr(_("the card to name"))
            svg = _ARIA.sub(lambda _m: f'aria-label="{label}"', _TITLE.sub("", svg, count=1), count=1)
        canvas = Canvas(
            _("The card: {card}").format(card=self.card_name(self.card)) if self.solved else _("A card to name")
        )
        canvas.text(_("Which card is this?"), weight="bold", fill=GOLD)
        canvas.row([(svg, None)])
        if self.solved:
            canvas.text(f"{self.card_name(self.card)} ({self.card.text})", weight="bold", fill=GOLD)
        return canvas.svg()

    def answer(self, choice: Card | str) -> bool:
        """The learner names the card: one of the offered cards, or its name (``"Over of Hearts"``)."""
        if isinstance(choice, Card):
            chosen: Card | None = choice
        else:
            chosen = next((c for c in self.options if self.card_name(c) == choice), None)
        if chosen is None or chosen not in self.options:
            self._say(_("Choose one of the four names under the picture."), "info")
            return False
        if self.solved:
            return self._judge(chosen is self.card, "")
        self.tried.add(chosen)
        said = self.card_name(chosen)
        if said == self.card_name(self.card):  # judged by the names, in the learner's language
            return self._judge(True, _("Right: {why}").format(why=self.explain()))
        if self.mistakes == 0:
            return self._judge(
                False,
                _("Not quite: this is not the {card_the}. {hint}").format(card=said, hint=self.hint(chosen)),
                shows_answer=False,
            )
        return self._judge(
            False, _("Not quite: this is not the {card_the}. It is {why}").format(card=said, why=self.explain())
        )

    def hint(self, wrong: Card) -> str:
        """What tells ``wrong`` apart from the card shown, without naming the card (C1)."""
        lang = self.language
        if wrong.rank is not self.card.rank:
            if {wrong.rank, self.card.rank} == {Rank.OVER, Rank.UNDER}:
                over, under = Rank.OVER.name_in(lang), Rank.UNDER.name_in(lang)
                return _(
                    "Look where the suit pip stands: on the {over_the} it stands high, in the top left corner; "
                    "on the {under_the} lower down the left side. Try again (C1)."
                ).format(over=over, under=under)
            look = _(_RANK_LOOKS[wrong.rank]).format(r=wrong.rank.name_in(lang))
            return _("Look at the figure or the numeral: {look}. Try again (C1).").format(look=look)
        return _("Look at the pips: the pips of {suit} are {pips}, and these are not. Try again (C1).").format(
            suit=self.suit_name(wrong.suit), pips=_(_SUIT_LOOKS[wrong.suit])
        )

    def explain(self) -> str:
        """How the card shown is recognised, with its notation (C1)."""
        return trainer_questions.explain_card(self.card, self.language)

"""Phase 2: what the second player may play (T4)."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

from tartli import trainer_questions
from tartli.cards import Card
from tartli.errors import IllegalMoveError, TartliError
from tartli.game import HandState
from tartli.i18n import N_, _, joined, ngettext, the
from tartli.moves import PLAYS
from tartli.names import Named, upper_first
from tartli.render.cards import card_svg
from tartli.render.table import hand_svg
from tartli.widgets.trainers.base import (
    Exercise,
    _Selecting,
    as_card,
)
from tartli.widgets.trainers.canvas import (
    GOLD,
    Canvas,
)


# ---------------------------------------------------------------------------- 6. what may you play
class WhatMayYouPlay(_Selecting, Exercise):
    """Phase 2, second to play: click every card you may play, then Check (T4)."""

    _not_there = N_("The {card_The} is not in your hand.")
    id = "what-may-you-play"
    title = N_("What may you play?")
    instruction = N_("Phase 2: you play second. Click every card you may play (click again to drop it), then Check.")

    state: HandState
    selection: list[Card]

    def _make_controls(self) -> list[Any]:
        self.check_button = self._button(_("Check"), self.check, _("Check your choice"))
        return [self.check_button]

    def _generate(self) -> object:
        self.state = trainer_questions.deal_play(self.rng)
        self.selection = []
        return tuple(self.state.moves)

    def set_state(self, state: HandState) -> None:
        """Pose this position: phase 2, with a card led and the second player to play (T4)."""
        if state.is_over or state.trick_number < 8 or state.lead is None:
            raise TartliError(_("T4: this trainer needs a phase-2 position (trick 8 or later) with a card led"))
        self.state, self.selection = state, []
        self._key = tuple(state.moves)
        self._restart()

    @staticmethod
    def _playable(state: HandState) -> set[Card]:
        return trainer_questions.playable(state)

    @property
    def player(self) -> int:
        assert self.state.to_move is not None
        return self.state.to_move

    @property
    def hand(self) -> list[Card]:
        return self.state.hand(self.player)

    @property
    def correct(self) -> set[Card]:
        """The cards ``legal_moves()`` lists as plays."""
        return self._playable(self.state)

    def _picture(self) -> str:
        lang, state = self.language, self.state
        lead = state.lead
        assert lead is not None
        canvas = Canvas(
            _("Trick {number}: {card} led; your hand").format(number=state.trick_number, card=self.card_name(lead))
        )
        canvas.text(
            _("Trump: {suit} · trick {number}, phase 2").format(
                suit=self.suit_name(state.trump), number=state.trick_number
            ),
            weight="bold",
            fill=GOLD,
        )
        canvas.text(_("Your opponent led the {card_acc}:").format(card=self.card_name(lead)), size=13)
        canvas.row([(card_svg(lead, language=lang, width=80, trump=lead.suit is state.trump), None)])
        canvas.text(_("Your hand:"), size=13)
        hand = hand_svg(
            self.hand,
            language=lang,
            trump=state.trump,
            selected=self.selection,
            playable=self.correct if self.solved else None,
            card_width=canvas.card_width(len(self.hand), 84),
            pickable=True,
        )
        canvas.row([(hand, None)])
        return canvas.svg()

    def answer(self, cards: Iterable[Card | str]) -> bool:
        """Select exactly ``cards`` and check."""
        self.selection = [as_card(c) for c in cards]
        return self.check()

    def check(self) -> bool:
        chosen, correct = set(self.selection), self.correct
        if not chosen:
            self._say(_("Click the cards you may play first."), "info")
            return False
        if chosen == correct:
            return self._judge(True, _("Right: {why}").format(why=self.explain()))
        refused: dict[str, list[Card]] = {}
        for card in sorted(chosen - correct):
            try:
                self.state.copy().push(PLAYS[self.player][card.index])
            except IllegalMoveError as err:  # the engine's own explanation, with its rule ID
                refused.setdefault(str(err), []).append(card)
        parts = [
            upper_first(
                ngettext(
                    "{cards} may not be played: {reason}.", "{cards} may not be played: {reason}.", len(cards)
                ).format(cards=self._names(cards), reason=reason)
            )
            for reason, cards in refused.items()
        ]
        missing = sorted(correct - chosen)
        if missing:
            parts.append(
                ngettext(
                    "You may also play {cards_acc} (T4).", "You may also play {cards_acc} (T4).", len(missing)
                ).format(cards=self._names(missing))
            )
        if self.mistakes >= 1:
            parts.append(upper_first(self.explain()))
        return self._judge(False, _("Not quite. {details}").format(details=" ".join(parts)))

    def _names(self, cards: Sequence[Card]) -> Named:
        """ "the Ace of Hearts, the Ten of Hearts and the Seven of Bells" (a list inside a sentence,
        with the forms a translation asks for, ``{cards.acc}``)."""
        return joined([the(self.card_name(c)) for c in cards], _("{cards} and {last}"), "cards", "last")

    def explain(self) -> str:
        """The situation of T4, told from the engine's set of playable cards."""
        return trainer_questions.explain_play(self.state, self.language)

"""The trick-and-draw quiz of lesson 04, on phase 1: who draws first and how many cards are left after a
trick (T3), who takes the indicator after trick 7 (T3), may the second player play a given card (T2).

No verdict is decided here: the positions are dealt and played by the engine with random legal moves, and
every verdict is read from the resulting :class:`~tartli.game.HandState` (``to_move``, ``legal_moves``,
``talon``, ``indicator``, ``events``); a refused card's reason is the engine's own message, with its rule ID.

Headless use (tests, lessons)::

    quiz = DrawQuiz(seed=3, kinds=("may-play",))
    quiz.answer(quiz.truth)        # or press one of the answer buttons
    quiz.solved, quiz.stars        # (True, 3)
"""

from __future__ import annotations

from tartli import trainer_questions
from tartli.cards import Card
from tartli.errors import IllegalMoveError, TartliError
from tartli.game import PHASE1_TRICKS
from tartli.i18n import N_, _
from tartli.moves import Play
from tartli.render.cards import card_svg
from tartli.render.table import hand_svg
from tartli.trainer_questions import play_randomly, random_hand
from tartli.widgets.quizzes.base import Answer, Quiz
from tartli.widgets.trainers.canvas import Canvas

__all__ = ["DrawQuiz"]

_by = trainer_questions.by_player
_start_of_trick = trainer_questions.start_of_trick


class DrawQuiz(Quiz):
    """Questions on phase 1: who draws first (T3), how many cards are left (T3), who takes the indicator
    after trick 7 (T3), may the second player play this card (T2)."""

    id = "draw-quiz"
    title = N_("Trick and draw: a quick quiz")
    instruction = N_("Answer the question about the position shown.")

    KINDS = ("draws-first", "talon", "indicator", "may-play")
    PLAYER_KINDS = ("draws-first", "indicator")

    card: Card
    number: int
    """The trick the question is about."""

    def _pose(self) -> None:
        rng = self.rng
        state = random_hand(rng)
        if self.kind == "may-play":
            self.number = rng.randint(1, PHASE1_TRICKS)
            play_randomly(state, rng, lambda s: s.trick_number == self.number and s.lead is not None)
            self.state = state
            self.card = self._tempting_card()
            assert state.lead is not None
            p = state.to_move
            assert p is not None
            self.question = _by(
                p,
                _("You play second to this trick. May you play the {card_acc}?"),
                _("The computer plays second to this trick. May the computer play the {card_acc}?"),
            ).format(card=self.card_name(self.card))
            self.choices = [(_("Yes, that card is allowed"), True), (_("No, it is not allowed"), False)]
            return
        self.number = PHASE1_TRICKS if self.kind == "indicator" else rng.randint(1, PHASE1_TRICKS)
        play_randomly(state, rng, _start_of_trick(self.number + 1))
        self.state = state
        if self.kind == "draws-first":
            self.question = _("Trick {number} is over. Who draws from the talon first?").format(number=self.number)
            self.choices = self._player_choices()
        elif self.kind == "talon":
            self.question = _(
                "Trick {number} is over and both players have drawn. How many cards are left in the talon, "
                "the indicator included?"
            ).format(number=self.number)
            self.choices = self._count_choices(int(self.truth))
        else:
            self.question = _("Trick 7 is over. Who takes the indicator?")
            self.choices = self._player_choices()

    def _tempting_card(self) -> Card:
        """A card of the second player's hand, preferably one that neither follows suit nor trumps."""
        state = self.state
        lead = state.lead
        assert lead is not None and state.to_move is not None
        hand = state.hand(state.to_move)
        off = [c for c in hand if c.suit is not lead.suit and c.suit is not state.trump]
        return self.rng.choice(off if off and self.rng.random() < 0.7 else hand)

    # -- the verdicts, read from the engine's events, talon and legal moves
    def _draws(self) -> list[tuple[int, str, tuple[Card, ...]]]:
        """The draws after trick ``number``: (player, say, cards) in the order made."""
        return [
            (e.player, e.say, e.cards)
            for e in self.state.events
            if e.kind == "draw" and e.trick == self.number and e.player is not None
        ]

    @property
    def winner(self) -> int:
        """Who won trick ``number`` (T1, the engine's record of the trick)."""
        return self.state.tricks[self.number - 1][3]

    @property
    def truth(self) -> Answer:
        state = self.state
        if self.kind == "may-play":
            assert state.to_move is not None
            return Play(state.to_move, self.card) in state.legal_moves(state.to_move)  # T2
        if self.kind == "talon":
            return len(state.talon) + (state.indicator is not None)  # T3
        draws = self._draws()
        if self.kind == "draws-first":
            return draws[0][0]  # T3: the first draw after the trick
        return next(p for p, say, _ in draws if say == "indicator")  # T3: who took the indicator

    def explain(self) -> str:
        if self.kind == "may-play":
            return self._explain_play()
        winner = self.winner
        _leader, lead, second, _winner = self.state.tricks[self.number - 1]
        won = lead if self.state.tricks[self.number - 1][0] == winner else second
        if self.kind == "draws-first":
            if self.number == PHASE1_TRICKS:
                text = _by(
                    winner,
                    _(
                        "the {card_the} won trick {number} (T1), so you took it. The winner draws first, "
                        "then the computer takes the indicator (T3)."
                    ),
                    _(
                        "the {card_the} won trick {number} (T1), so the computer took it. The winner draws first, "
                        "then you take the indicator (T3)."
                    ),
                )
            else:
                text = _by(
                    winner,
                    _(
                        "the {card_the} won trick {number} (T1), so you took it. The winner draws first, "
                        "then the computer draws the next card (T3)."
                    ),
                    _(
                        "the {card_the} won trick {number} (T1), so the computer took it. The winner draws first, "
                        "then you draw the next card (T3)."
                    ),
                )
            return text.format(card=self.card_name(won), number=self.number)
        if self.kind == "indicator":
            taken = next(cards for _player, say, cards in self._draws() if say == "indicator")[0]
            if self._swapped():
                text = _by(
                    winner,
                    _(
                        "the {card_the} won trick {number} (T1), so you took it and drew the last face-down card; "
                        "the loser, the computer, takes the indicator, the {indicator_acc} (the trump Seven that "
                        "replaced the first trump indicator) (T3). The talon is empty: phase 2 begins."
                    ),
                    _(
                        "the {card_the} won trick {number} (T1), so the computer took it and drew the last face-down "
                        "card; the loser, you, take the indicator, the {indicator_acc} (the trump Seven that replaced "
                        "the first trump indicator) (T3). The talon is empty: phase 2 begins."
                    ),
                )
            else:
                text = _by(
                    winner,
                    _(
                        "the {card_the} won trick {number} (T1), so you took it and drew the last face-down card; "
                        "the loser, the computer, takes the indicator, the {indicator_acc} (T3). "
                        "The talon is empty: phase 2 begins."
                    ),
                    _(
                        "the {card_the} won trick {number} (T1), so the computer took it and drew the last face-down "
                        "card; the loser, you, take the indicator, the {indicator_acc} (T3). "
                        "The talon is empty: phase 2 begins."
                    ),
                )
            return text.format(card=self.card_name(won), number=self.number, indicator=self.card_name(taken))
        count = int(self.truth)
        if self.number == PHASE1_TRICKS:
            return _(
                "after trick 7 the winner drew the last face-down card and the loser took the indicator: "
                "the talon is empty and phase 2 begins (T3)."
            )
        return _(
            "the talon starts with 14 cards, the indicator included (D1), and after each trick both "
            "players draw one (T3): 14 − 2 × {number} = {count}."
        ).format(number=self.number, count=count)

    def _swapped(self) -> bool:
        return any(e.kind == "swap" for e in self.state.events)

    def _explain_play(self) -> str:
        state = self.state
        p = state.to_move
        assert p is not None
        if self.truth:
            return _(
                "in tricks 1-7 (phase 1) the second player may play any card: there is no duty to follow "
                "suit, to trump or to win the trick (T2). The {card_The} is fine here."
            ).format(card=self.card_name(self.card))
        try:  # the engine's own reason, with its rule ID
            state.copy().push(Play(p, self.card))
        except IllegalMoveError as err:
            return _("no: {reason}.").format(reason=err)
        raise TartliError("the engine refused and accepted the same card")  # pragma: no cover

    # -- the picture
    def _picture(self) -> str:
        state = self.state
        canvas = Canvas(self.question)
        if self.kind == "may-play":
            self._header(canvas)
            p = state.to_move
            lead = state.lead
            assert lead is not None and p is not None
            canvas.text(
                _by(state.leader, _("You have led the {card_acc}:"), _("The computer has led the {card_acc}:")).format(
                    card=self.card_name(lead)
                ),
                size=14,
            )
            canvas.row([(card_svg(lead, language=self.language, width=84, trump=lead.suit is state.trump), None)])
            canvas.text(
                _by(
                    p,
                    _("Your hand (the card in question is marked):"),
                    _("The computer's hand (the card in question is marked):"),
                ),
                size=14,
            )
            hand = hand_svg(
                state.hand(p),
                language=self.language,
                trump=state.trump,
                highlighted=[self.card],
                card_width=canvas.card_width(len(state.hand(p)), 72),
            )
            canvas.hand(hand)
            return canvas.svg()
        self._header(canvas, _("trick {number} has just been played, phase 1").format(number=self.number))
        if self.kind == "talon":
            canvas.text(_("Trick {number}. The draws are done.").format(number=self.number), size=14)
        else:
            canvas.text(_("Trick {number}. Nobody has drawn yet.").format(number=self.number), size=14)
        self._trick_row(canvas, self.number)
        if self.kind == "indicator":
            taken = next(cards for _player, say, cards in self._draws() if say == "indicator")[0]
            if self._swapped():
                caption = _("The card under the talon (the trump Seven, swapped in):")
            else:
                caption = _("The card under the talon:")
            self._indicator_row(canvas, taken, caption)
        return canvas.svg()

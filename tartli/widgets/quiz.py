"""Quizzes for the lessons on the deal and on phase 1: questions about a position, judged by the engine.

:class:`DealQuiz` asks who leads a trick (D3), whether a player may swap the
trump 7 now (T5), how many cards the talon holds (D1) and who deals a hand
(D2). :class:`DrawQuiz` asks, just after a trick of phase 1, who draws first
and how many cards are left (T3), who takes the indicator after trick 7 (T3),
and whether the second player may play a given card (T2).

No quiz keeps a rule of its own: the positions are dealt and played by the
engine with random legal moves, and every verdict is read from the resulting
:class:`~tartli.game.HandState` (``to_move``, ``legal_moves``, ``talon``,
``indicator``, ``events``) or :class:`~tartli.match.Match` (the next dealer).
The deal quiz's positions, verdicts and reasons are :mod:`tartli.trainer_questions`'
(:class:`~tartli.trainer_questions.DealQuestion`), which the worksheets print too.

Headless use (tests, lessons)::

    quiz = DealQuiz(seed=3, kinds=("swap",))
    quiz.answer(quiz.truth)        # or press one of the answer buttons
    quiz.solved, quiz.stars        # (True, 3)
"""

from __future__ import annotations

import html
from collections.abc import Callable, Iterable
from typing import Any, ClassVar

from tartli import names, trainer_questions
from tartli.cards import Card
from tartli.errors import IllegalMoveError, TartliError
from tartli.game import PHASE1_TRICKS, HandState
from tartli.i18n import N_, _, ngettext
from tartli.match import Match
from tartli.moves import Play
from tartli.names import agree, upper_first
from tartli.render.cards import card_svg
from tartli.render.table import hand_svg
from tartli.trainer_questions import play_randomly, random_hand
from tartli.widgets.trainers.base import Exercise
from tartli.widgets.trainers.canvas import GOLD, Canvas

__all__ = ["PLAYERS", "QUIZZES", "DealQuiz", "DrawQuiz", "does", "players", "who", "whose"]

Answer = int | bool
_TALON_AT_START = trainer_questions.TALON_AT_START

# The players in words and the positions are tartli.trainer_questions' (the worksheets ask the same questions).
PLAYERS = trainer_questions.PLAYERS
players = trainer_questions.players
who = trainer_questions.who


def does(p: int, third: str, second: str, *, start: bool = True) -> str:
    """Player ``p`` with an English verb that agrees: "You hold", "The computer holds" (English only).

    >>> does(0, "holds", "hold"), does(1, "has", "have", start=False)
    ('You hold', 'the computer has')
    """
    name = PLAYERS[p]
    return f"{name if start else name[:1].lower() + name[1:]} {agree(name, third, second)}"


def whose(p: int, *, start: bool = True) -> str:
    """Player ``p``'s: "Your", "The computer's" (``start=False``: "your", "the computer's"; English only)."""
    name = "Your" if p == 0 else f"{PLAYERS[p]}'s"
    return name if start else name[:1].lower() + name[1:]


_by = trainer_questions.by_player
_start_of_trick = trainer_questions.start_of_trick
_trump_seven = trainer_questions.trump_seven


class Quiz(Exercise):
    """An exercise asking one of several kinds of question, each with its own answer buttons."""

    KINDS: ClassVar[tuple[str, ...]] = ()
    PLAYER_KINDS: ClassVar[tuple[str, ...]] = ()
    """The kinds answered with a player."""

    kind: str
    state: HandState
    question: str
    choices: list[tuple[str, Answer]]

    def __init__(self, seed: int | None = None, *, kinds: Iterable[str] | None = None, **kw: Any) -> None:
        chosen = tuple(kinds) if kinds is not None else self.KINDS
        unknown = [k for k in chosen if k not in self.KINDS]
        if not chosen or unknown:
            raise ValueError(f"choose question kinds among {', '.join(self.KINDS)}, not {unknown or 'none'}")
        self.kinds = chosen
        self.question = ""
        self.choices = []
        super().__init__(seed, **kw)

    # -- the cycle
    def _generate(self) -> object:
        self.kind = self.rng.choice(self.kinds)
        self._pose()
        return (self.kind, self.state.deal, tuple(self.state.moves), self.question)

    def _pose(self) -> None:
        """Set ``state``, ``question`` and ``choices`` for ``self.kind`` from ``self.rng``."""
        raise NotImplementedError

    def _question_of(self, key: object) -> object:
        """The question as the learner reads it ("Who deals hand 4 of this match?"), whatever the deal."""
        assert isinstance(key, tuple)
        return key[0], key[-1]

    def _restart(self) -> None:
        self.instruction_html.value = (
            f"<div style='font-size:1.05em'><b>{html.escape(self.question, quote=False)}</b></div>"
        )
        self.controls.children = [self._button(label, self._answering(value)) for label, value in self.choices]
        super()._restart()

    def _answering(self, value: Answer) -> Callable[[], bool]:
        return lambda: self.answer(value)

    # -- judging
    @property
    def truth(self) -> Answer:
        """The engine's answer to the current question."""
        raise NotImplementedError

    def explain(self) -> str:
        """Why the answer is what it is, citing the rule."""
        raise NotImplementedError

    def answer(self, value: Answer) -> bool:
        """The learner's answer: a player (0 or 1), yes/no (True/False) or a number of cards."""
        truth = self.truth
        if isinstance(truth, bool) != isinstance(value, bool):
            raise ValueError(f"this question is answered with {'yes/no' if isinstance(truth, bool) else 'a number'}")
        right = value == truth
        why = upper_first(self.explain())
        if right:
            return self._judge(True, _("Right. {why}").format(why=why))
        return self._judge(
            False, _("Not quite: the answer is {answer}. {why}").format(answer=self.answer_text(truth), why=why)
        )

    def answer_text(self, value: Answer) -> str:
        """An answer in words: "yes", "no", "you", "the computer", "12"."""
        if isinstance(value, bool):
            return _("yes") if value else _("no")
        return who(value, start=False) if self.kind in self.PLAYER_KINDS else str(value)

    # -- words and pictures
    def _player_choices(self) -> list[tuple[str, Answer]]:
        return [(who(0), 0), (who(1), 1)]

    def _count_choices(self, truth: int) -> list[tuple[str, Answer]]:
        """The right number of cards among three wrong ones near it (always 0-14)."""
        wrong = [n for n in range(_TALON_AT_START + 1) if 0 < abs(n - truth) <= 4]
        picked = sorted([truth, *self.rng.sample(wrong, 3)])
        return [(str(n), n) for n in picked]

    def _header(self, canvas: Canvas, when: str | None = None) -> None:
        """Trumps, the dealer, and the moment (by default the trick under way and its phase)."""
        state = self.state
        if when is None:
            phase = names.term("phase 1" if state.trick_number <= PHASE1_TRICKS else "phase 2", self.language)
            when = _("trick {number}, {phase}").format(number=state.trick_number, phase=phase)
        canvas.text(
            _("Trump: {suit} · dealer: {dealer} · {when}").format(
                suit=self.suit_name(state.trump), dealer=who(state.dealer, start=False), when=when
            ),
            weight="bold",
            fill=GOLD,
        )

    def _trick_row(self, canvas: Canvas, number: int, width: float = 92) -> None:
        """The two cards of completed trick ``number``, each labelled with who played it."""
        leader, lead, second, _winner = self.state.tricks[number - 1]
        y = canvas.y + 24
        for i, (p, card) in enumerate(((leader, lead), (1 - leader, second))):
            x = 16 + i * (width + 40)
            if i == 0:
                label = _by(p, _("You led"), _("The computer led"))
            else:
                label = _by(p, _("You played second"), _("The computer played second"))
            canvas.label(x, y - 6, label)
            canvas.place(card_svg(card, language=self.language, width=width, trump=card.suit is self.state.trump), x, y)
        canvas.y = y + width * 1.6 + 4

    def _indicator_row(self, canvas: Canvas, indicator: Card | None, caption: str) -> None:
        canvas.text(caption, size=13)
        if indicator is not None:
            canvas.row([(card_svg(indicator, language=self.language, width=64, trump=True), None)])


# ---------------------------------------------------------------------------- the deal (D1, D2, D3, T5)
class DealQuiz(Quiz):
    """Questions on the deal: who leads (D3), may this player swap the trump 7 (T5), how big is the
    talon (D1), who deals this hand (D2)."""

    id = "deal-quiz"
    title = N_("The deal: a quick quiz")
    instruction = N_("Answer the question about the position shown.")

    KINDS = trainer_questions.DEAL_KINDS
    PLAYER_KINDS = ("leader", "dealer")

    match: Match | None
    holder: int

    def __init__(self, seed: int | None = None, **kw: Any) -> None:
        self.match = None
        self.holder = 0
        super().__init__(seed, **kw)

    # -- positions (dealt by tartli.trainer_questions)
    def _pose(self) -> None:
        question = trainer_questions.deal_deal_question(self.rng, self.kind)
        self.state, self.match, self.holder = question.state, question.match, question.holder
        self.question = trainer_questions.ask_deal(question, self.language)
        if self.kind == "swap":
            self.choices = [(_("Yes, the swap is allowed now"), True), (_("No, not now"), False)]
        elif self.kind == "talon":
            self.choices = self._count_choices(int(self.truth))
        else:
            self.choices = self._player_choices()

    @property
    def dealt(self) -> trainer_questions.DealQuestion:
        """The question asked, as :mod:`tartli.trainer_questions` judges it."""
        return trainer_questions.DealQuestion(self.kind, self.state, self.match, self.holder)

    # -- the verdicts
    @property
    def truth(self) -> Answer:
        return self.dealt.truth

    def explain(self) -> str:
        return trainer_questions.explain_deal(self.dealt, self.language)

    # -- the picture
    def _picture(self) -> str:
        state = self.state
        canvas = Canvas(self.question)
        if self.kind == "dealer":
            assert self.match is not None
            first = self.match.results[0].dealer if self.match.results else state.dealer
            canvas.text(
                _by(
                    first,
                    _("You dealt the first hand of this match."),
                    _("The computer dealt the first hand of this match."),
                ),
                weight="bold",
                fill=GOLD,
            )
            played = len(self.match.results)
            canvas.text(
                ngettext(
                    "{count} hand has been played so far.", "{count} hands have been played so far.", played
                ).format(count=played),
                size=14,
            )
            canvas.text(_("Now hand {number} is about to be dealt.").format(number=played + 1), size=14)
            return canvas.svg()
        self._header(canvas)
        if self.kind == "leader":
            if state.trick_number == 1:
                canvas.text(_("The cards are dealt; nothing has been played yet."), size=14)
            else:
                canvas.text(_("Trick {number} has just been played:").format(number=state.trick_number - 1), size=14)
                self._trick_row(canvas, state.trick_number - 1)
        elif self.kind == "talon":
            done = state.trick_number - 1
            canvas.text(
                ngettext(
                    "{count} trick has been played; trick {number} is about to begin.",
                    "{count} tricks have been played; trick {number} is about to begin.",
                    done,
                ).format(count=done, number=state.trick_number),
                size=14,
            )
            self._indicator_row(
                canvas,
                state.indicator,
                _("The indicator:") if state.indicator is not None else _("The indicator has been taken."),
            )
        else:
            self._swap_picture(canvas)
        return canvas.svg()

    def _swap_picture(self, canvas: Canvas) -> None:
        state, p, leader = self.state, self.holder, self.state.leader
        canvas.text(_by(leader, _("You lead this trick."), _("The computer leads this trick.")), size=14)
        if state.declared[leader]:
            said = ", ".join(m.announcement_in(self.language) for m in state.declared[leader] or ())
            canvas.text(
                _by(leader, _("You have declared: {melds}."), _("The computer has declared: {melds}.")).format(
                    melds=said
                ),
                size=14,
            )
        if state.lead is not None:
            canvas.text(
                _by(leader, _("You have led the {card_acc}:"), _("The computer has led the {card_acc}:")).format(
                    card=self.card_name(state.lead)
                ),
                size=14,
            )
            lead = card_svg(state.lead, language=self.language, width=64, trump=state.lead.suit is state.trump)
            canvas.row([(lead, None)])
        elif not state.declared[leader]:
            canvas.text(_("Nothing has happened in this trick yet."), size=14)
        if state.indicator is not None:
            self._indicator_row(canvas, state.indicator, _("The indicator, under the talon:"))
        else:
            canvas.text(_("The indicator has been taken: the talon is empty."), size=14)
        canvas.text(_by(p, _("Your hand:"), _("The computer's hand:")), size=14)
        hand = hand_svg(
            state.hand(p),
            language=self.language,
            trump=state.trump,
            highlighted=[_trump_seven(state)],
            card_width=canvas.card_width(len(state.hand(p)), 72),
        )
        canvas.hand(hand)


# ---------------------------------------------------------------------------- phase 1 (T2, T3)
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


QUIZZES: dict[str, type[Quiz]] = {cls.id: cls for cls in (DealQuiz, DrawQuiz)}
"""The quizzes by id."""

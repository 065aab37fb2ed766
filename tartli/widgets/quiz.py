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

Headless use (tests, lessons)::

    quiz = DealQuiz(seed=3, kinds=("swap",))
    quiz.answer(quiz.truth)        # or press one of the answer buttons
    quiz.solved, quiz.stars        # (True, 3)
"""

from __future__ import annotations

import html
import random
from collections.abc import Callable, Iterable
from typing import Any, ClassVar

from tartli import names
from tartli.cards import Card, Rank
from tartli.errors import IllegalMoveError, TartliError
from tartli.game import PHASE1_TRICKS, HandState
from tartli.i18n import N_, _, ngettext
from tartli.match import Match
from tartli.moves import Declare, GoOut, Play, Swap
from tartli.names import agree, upper_first
from tartli.render.cards import card_svg
from tartli.render.table import hand_svg
from tartli.widgets.trainers.base import Exercise, _play_randomly, _random_hand
from tartli.widgets.trainers.canvas import _GOLD, _Canvas

__all__ = ["PLAYERS", "QUIZZES", "DealQuiz", "DrawQuiz", "does", "players", "who", "whose"]

Answer = int | bool
_TALON_AT_START = 14
"""The talon as dealt, the indicator included (D1); only used to word the explanations."""


PLAYERS: tuple[str, str] = (N_("You"), N_("The computer"))
"""The two players as the learner reads them: the learner is player 0, as at the course's tables.

In English; :func:`players` (or ``tr(PLAYERS[p])`` in a notebook) gives them in the page's language."""


def players() -> tuple[str, str]:
    """The two players in the page's language: ("You", "The computer"), ("Te", "A gép") ..."""
    return _(PLAYERS[0]), _(PLAYERS[1])


def who(p: int, *, start: bool = True) -> str:
    """Player ``p`` in words, in the page's language: "You", "The computer" (``start=False``: "you",
    "the computer"). A name to stand alone (an answer, a label): a sentence about a player is one
    message per player, since "you" and "the computer" do not conjugate alike.

    >>> who(1), who(0, start=False)
    ('The computer', 'you')
    """
    name = players()[p]
    return name if start else name[:1].lower() + name[1:]


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


def _by(p: int, you: str, computer: str) -> str:
    """The message about player ``p``: ``you`` for the learner (player 0), ``computer`` for the other."""
    return you if p == 0 else computer


def _start_of_trick(number: int) -> Callable[[HandState], bool]:
    """Stop as soon as trick ``number`` may begin (nothing done in it yet)."""

    def stop(state: HandState) -> bool:
        return state.trick_number == number

    return stop


def _play_out(state: HandState, rng: random.Random) -> None:
    """Random legal moves, never a claim, to the end of the hand."""
    _play_randomly(state, rng, lambda s: False)


def _trump_seven(state: HandState) -> Card:
    return Card(Rank.SEVEN, state.trump)


def _holder(state: HandState, card: Card) -> int | None:
    return next((p for p in (0, 1) if card in state.hand(p)), None)


class _Quiz(Exercise):
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

    def _header(self, canvas: _Canvas, when: str | None = None) -> None:
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
            fill=_GOLD,
        )

    def _trick_row(self, canvas: _Canvas, number: int, width: float = 92) -> None:
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

    def _indicator_row(self, canvas: _Canvas, indicator: Card | None, caption: str) -> None:
        canvas.text(caption, size=13)
        if indicator is not None:
            canvas.row([(card_svg(indicator, language=self.language, width=64, trump=True), None)])


# ---------------------------------------------------------------------------- the deal (D1, D2, D3, T5)
class DealQuiz(_Quiz):
    """Questions on the deal: who leads (D3), may this player swap the trump 7 (T5), how big is the
    talon (D1), who deals this hand (D2)."""

    id = "deal-quiz"
    title = N_("The deal: a quick quiz")
    instruction = N_("Answer the question about the position shown.")

    KINDS = ("leader", "swap", "talon", "dealer")
    PLAYER_KINDS = ("leader", "dealer")

    match: Match | None
    holder: int

    def __init__(self, seed: int | None = None, **kw: Any) -> None:
        self.match = None
        self.holder = 0
        super().__init__(seed, **kw)

    # -- positions
    def _pose(self) -> None:
        self.match = None
        {"leader": self._pose_leader, "swap": self._pose_swap, "talon": self._pose_talon, "dealer": self._pose_dealer}[
            self.kind
        ]()

    def _hand_at_trick(self, number: int) -> HandState:
        state = _random_hand(self.rng)
        _play_randomly(state, self.rng, _start_of_trick(number))
        return state

    def _pose_leader(self) -> None:
        number = 1 if self.rng.random() < 0.35 else self.rng.randint(2, 9)
        self.state = self._hand_at_trick(number)
        self.question = _("Who leads trick {number}?").format(number=self.state.trick_number)
        self.choices = self._player_choices()

    def _pose_talon(self) -> None:
        self.state = self._hand_at_trick(self.rng.randint(1, 8))
        self.question = _("How many cards are in the talon now, the face-up indicator included?")
        self.choices = self._count_choices(int(self.truth))

    def _pose_dealer(self) -> None:
        rng = self.rng
        for _try in range(20):
            match = Match(seed=rng.randrange(10**9), first_dealer=rng.randint(0, 1))
            for _hand in range(rng.randint(1, 4)):
                _play_out(match.state, rng)
                match.next_hand()
            if not match.is_over:
                break
        self.match, self.state = match, match.state
        self.question = _("Who deals hand {number} of this match?").format(number=len(match.results) + 1)
        self.choices = self._player_choices()

    def _pose_swap(self) -> None:
        rng = self.rng
        case = rng.choice(("yes", "yes", "yes", "second", "led", "declared", "phase 2"))
        found: HandState | None = None
        for _try in range(200):
            state = _random_hand(rng)
            found = self._find_swap_case(state, case)
            if found is not None:
                break
        if found is None:  # very unlikely: fall back on any position where someone holds the trump 7
            found = _random_hand(rng)
            _play_randomly(found, rng, lambda s: _holder(s, _trump_seven(s)) is not None)
        self.state = found
        holder = _holder(found, _trump_seven(found))
        self.holder = holder if holder is not None else found.leader
        self.question = _by(
            self.holder,
            _("You hold the {card}, the trump Seven. May you swap it for the indicator now?"),
            _("The computer holds the {card}, the trump Seven. May the computer swap it for the indicator now?"),
        ).format(card=self.card_name(_trump_seven(found)))
        self.choices = [(_("Yes, the swap is allowed now"), True), (_("No, not now"), False)]

    def _find_swap_case(self, state: HandState, case: str) -> HandState | None:
        """Play random legal moves until the position of ``case`` comes up (None if the hand ends first)."""
        rng = self.rng
        for _try in range(200):
            if state.is_over:
                return None
            seven = _trump_seven(state)
            holder = _holder(state, seven)
            fresh = state.lead is None and state.declared[state.leader] is None
            leading = holder is not None and holder == state.leader
            phase1 = state.trick_number <= PHASE1_TRICKS
            if case == "yes" and leading and fresh and phase1:
                return state
            if case == "second" and holder is not None and not leading and phase1 and state.indicator is not None:
                return state
            if case == "led" and leading and state.lead is not None and phase1:
                return state
            if case == "declared" and leading and phase1 and state.lead is None:
                if state.declared[state.leader] is not None:
                    return state
                declarations = [m for m in state.legal_moves() if isinstance(m, Declare)]
                if declarations and fresh:
                    state.push(rng.choice(declarations))
                    continue
            if case == "phase 2" and leading and fresh and not phase1:
                return state
            moves = [m for m in state.legal_moves() if not isinstance(m, (GoOut, Swap))]
            if not moves:
                return None
            state.push(rng.choice(moves))
        return None

    # -- the verdicts
    @property
    def truth(self) -> Answer:
        state = self.state
        if self.kind == "leader":
            assert state.to_move is not None
            return state.to_move  # D3: the player to move at the start of a trick leads it
        if self.kind == "swap":
            return Swap(self.holder) in state.legal_moves(self.holder)  # T5
        if self.kind == "talon":
            return len(state.talon) + (state.indicator is not None)  # D1, T3
        return state.dealer  # D2: Match deals each hand

    def explain(self) -> str:
        return {
            "leader": self._explain_leader,
            "swap": self._explain_swap,
            "talon": self._explain_talon,
            "dealer": self._explain_dealer,
        }[self.kind]()

    def _explain_leader(self) -> str:
        state, leader = self.state, int(self.truth)
        if state.trick_number == 1:
            return _by(
                leader,
                _("The computer dealt, so the non-dealer, you, lead the first trick (D3)."),
                _("You dealt, so the non-dealer, the computer, leads the first trick (D3)."),
            )
        number = state.trick_number - 1
        _leader, lead, second, winner = state.tricks[-1]
        won = lead if winner == state.tricks[-1][0] else second
        return _by(
            winner,
            _(
                "the {card} won trick {number} (T1), so you took it and lead trick {next}: "
                "each trick's winner leads the next (D3)."
            ),
            _(
                "the {card} won trick {number} (T1), so the computer took it and leads trick {next}: "
                "each trick's winner leads the next (D3)."
            ),
        ).format(card=self.card_name(won), number=number, next=state.trick_number)

    def _explain_swap(self) -> str:
        state, p, may = self.state, self.holder, bool(self.truth)
        if may:
            return _by(
                p,
                _(
                    "You are about to lead trick {number} and have not declared or played yet, so you may "
                    "exchange the trump Seven for the trump indicator. The swap is optional: you may also keep "
                    "the Seven (T5)."
                ),
                _(
                    "The computer is about to lead trick {number} and has not declared or played yet, so the "
                    "computer may exchange the trump Seven for the trump indicator. The swap is optional: it may "
                    "also keep the Seven (T5)."
                ),
            ).format(number=state.trick_number)
        if state.indicator is None:
            return _(
                "the indicator is no longer on the table: the loser of trick 7 took it. "
                "The swap is only possible before tricks 1-7 (T5)."
            )
        if p != state.leader:
            return _by(
                state.leader,
                _("only the player about to lead may swap, and you lead this trick (T5)."),
                _("only the player about to lead may swap, and the computer leads this trick (T5)."),
            )
        if state.lead is not None:
            return _by(
                p,
                _("You have led already; the swap must come before the lead (T5)."),
                _("The computer has led already; the swap must come before the lead (T5)."),
            )
        if state.declared[p] is not None:
            return _by(
                p,
                _("You have declared already; the swap comes before declaring (T5, K1)."),
                _("The computer has declared already; the swap comes before declaring (T5, K1)."),
            )
        return _("the swap is open only to the player about to lead, before they declare or lead, in tricks 1-7 (T5).")

    def _explain_talon(self) -> str:
        state, count = self.state, int(self.truth)
        done = state.trick_number - 1
        start = _("The talon starts with 14 cards: 13 face down and the indicator under them (D1).")
        if done == 0:
            then = _("No trick has been played yet.")
        elif state.indicator is None:
            then = _(
                "After each of tricks 1-7 both players drew one card (T3); after trick 7 the "
                "loser took the indicator, so the talon is empty and phase 2 has begun."
            )
        else:
            then = ngettext(
                "After each trick both players draw one card, two a trick (T3): "
                "{done} trick played, 14 − 2 × {done} = {count}.",
                "After each trick both players draw one card, two a trick (T3): "
                "{done} tricks played, 14 − 2 × {done} = {count}.",
                done,
            ).format(done=done, count=count)
        return f"{start} {then}"

    def _explain_dealer(self) -> str:
        assert self.match is not None
        dealers = [r.dealer for r in self.match.results]
        listed = ", ".join(
            _by(d, _("you dealt hand {number}"), _("the computer dealt hand {number}")).format(number=i)
            for i, d in enumerate(dealers, start=1)
        )
        return _by(
            self.state.dealer,
            _("the deal alternates from hand to hand (D2): {dealt}, so you deal hand {number}."),
            _("the deal alternates from hand to hand (D2): {dealt}, so the computer deals hand {number}."),
        ).format(dealt=listed, number=len(dealers) + 1)

    # -- the picture
    def _picture(self) -> str:
        state = self.state
        canvas = _Canvas(self.question)
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
                fill=_GOLD,
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

    def _swap_picture(self, canvas: _Canvas) -> None:
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
                _by(leader, _("You have led the {card}:"), _("The computer has led the {card}:")).format(
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
class DrawQuiz(_Quiz):
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
        state = _random_hand(rng)
        if self.kind == "may-play":
            self.number = rng.randint(1, PHASE1_TRICKS)
            _play_randomly(state, rng, lambda s: s.trick_number == self.number and s.lead is not None)
            self.state = state
            self.card = self._tempting_card()
            assert state.lead is not None
            p = state.to_move
            assert p is not None
            self.question = _by(
                p,
                _("You play second to this trick. May you play the {card}?"),
                _("The computer plays second to this trick. May the computer play the {card}?"),
            ).format(card=self.card_name(self.card))
            self.choices = [(_("Yes, that card is allowed"), True), (_("No, it is not allowed"), False)]
            return
        self.number = PHASE1_TRICKS if self.kind == "indicator" else rng.randint(1, PHASE1_TRICKS)
        _play_randomly(state, rng, _start_of_trick(self.number + 1))
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
                        "the {card} won trick {number} (T1), so you took it. The winner draws first, "
                        "then the computer takes the indicator (T3)."
                    ),
                    _(
                        "the {card} won trick {number} (T1), so the computer took it. The winner draws first, "
                        "then you take the indicator (T3)."
                    ),
                )
            else:
                text = _by(
                    winner,
                    _(
                        "the {card} won trick {number} (T1), so you took it. The winner draws first, "
                        "then the computer draws the next card (T3)."
                    ),
                    _(
                        "the {card} won trick {number} (T1), so the computer took it. The winner draws first, "
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
                        "the {card} won trick {number} (T1), so you took it and drew the last face-down card; "
                        "the loser, the computer, takes the indicator, the {indicator} (the trump Seven that "
                        "replaced the first trump indicator) (T3). The talon is empty: phase 2 begins."
                    ),
                    _(
                        "the {card} won trick {number} (T1), so the computer took it and drew the last face-down "
                        "card; the loser, you, take the indicator, the {indicator} (the trump Seven that replaced "
                        "the first trump indicator) (T3). The talon is empty: phase 2 begins."
                    ),
                )
            else:
                text = _by(
                    winner,
                    _(
                        "the {card} won trick {number} (T1), so you took it and drew the last face-down card; "
                        "the loser, the computer, takes the indicator, the {indicator} (T3). "
                        "The talon is empty: phase 2 begins."
                    ),
                    _(
                        "the {card} won trick {number} (T1), so the computer took it and drew the last face-down "
                        "card; the loser, you, take the indicator, the {indicator} (T3). "
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
                "suit, to trump or to win the trick (T2). The {card} is fine here."
            ).format(card=self.card_name(self.card))
        try:  # the engine's own reason, with its rule ID
            state.copy().push(Play(p, self.card))
        except IllegalMoveError as err:
            return _("no: {reason}.").format(reason=err)
        raise TartliError("the engine refused and accepted the same card")  # pragma: no cover

    # -- the picture
    def _picture(self) -> str:
        state = self.state
        canvas = _Canvas(self.question)
        if self.kind == "may-play":
            self._header(canvas)
            p = state.to_move
            lead = state.lead
            assert lead is not None and p is not None
            canvas.text(
                _by(state.leader, _("You have led the {card}:"), _("The computer has led the {card}:")).format(
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


QUIZZES: dict[str, type[_Quiz]] = {cls.id: cls for cls in (DealQuiz, DrawQuiz)}
"""The quizzes by id."""

"""Exercises on phase 2 and whole hands: the best card of an endgame, and a hand won at a level.

* :class:`Endgame` poses a phase-2 position (tricks 8-16, the talon gone, both
  hands known) with the learner to play; the learner clicks a card and the exact
  solver (:func:`tartli.bots.solve`) judges it: right if no card does better.
* :class:`MatchChallenge` watches a :class:`~tartli.widgets.table.TableController`
  and gives stars for a hand won against the computer: 1 at Easy, 2 at Medium,
  3 at Hard (the easiest level the computer had during the hand counts).

Headless use::

    ex = Endgame(seed=3)
    ex.answer(ex.best[0])           # or ex.board.pick("XH")
    ex.solved, ex.stars             # (True, 3)
"""

from __future__ import annotations

import html
from collections.abc import Callable, Collection
from typing import Any, ClassVar

import ipywidgets as w

from tartli import names
from tartli.bots import Solution, solve
from tartli.cards import TOTAL_CARD_POINTS, Card
from tartli.errors import IllegalMoveError, TartliError
from tartli.game import PHASE1_TRICKS, HandState
from tartli.i18n import N_, _, ngettext
from tartli.moves import GoOut, Play
from tartli.names import upper_first
from tartli.render.cards import card_svg
from tartli.render.table import hand_svg
from tartli.trainer_questions import play_randomly, random_hand
from tartli.widgets.table import TableController, level_name, names_or
from tartli.widgets.trainers.base import Exercise, as_card
from tartli.widgets.trainers.canvas import GOLD, Canvas
from tartli.widgets.trainers.progress import Progress, stars_text

__all__ = ["LEVEL_STARS", "Endgame", "HandPlayed", "MatchChallenge"]


def _only_plays(state: HandState) -> bool:
    """The player to move has nothing to do but play a card (no declaration step pending)."""
    moves = [m for m in state.legal_moves() if not isinstance(m, GoOut)]
    return bool(moves) and all(isinstance(m, Play) for m in moves)


# ---------------------------------------------------------------------------- the endgame
class Endgame(Exercise):
    """A phase-2 position: click the best card; the exact solver judges (T4, C5, S2)."""

    id = "endgame"
    title = N_("Endgame: find the best card")
    instruction = N_(
        "Phase 2: the talon is gone and you can know every card your opponent holds. "
        "Click the card that gives you the most card points with best play on both sides."
    )

    state: HandState
    solution: Solution

    def _generate(self) -> object:
        rng = self.rng
        for _attempt in range(20):
            state = random_hand(rng)
            target = rng.randint(PHASE1_TRICKS + 1, 13)
            second = rng.random() < 0.5  # lead to the trick, or answer a card led

            def stop(s: HandState, target: int = target, second: bool = second) -> bool:
                return s.trick_number >= target and (s.lead is not None) == second and _only_plays(s)

            play_randomly(state, rng, stop)
            if state.is_over or not stop(state):
                continue
            solution = solve(state, all_values=True)
            if len(set(solution.move_values.values())) > 1:
                break  # a position where the choice matters
        self.state, self.solution = state, solution
        return tuple(state.moves)

    def set_state(self, state: HandState) -> None:
        """Pose a chosen phase-2 position (the player to move must have only cards to play)."""
        if state.is_over or state.trick_number <= PHASE1_TRICKS or not _only_plays(state):
            raise TartliError("T4: this exercise needs a phase-2 position (trick 8 or later) with a card to play")
        self.state, self.solution = state, solve(state, all_values=True)
        self._key = tuple(state.moves)
        self._restart()

    # -- the solver's verdict
    @property
    def player(self) -> int:
        return self.solution.player

    @property
    def best(self) -> list[Card]:
        """The cards the solver finds best."""
        return [m.card for m in self.solution.best_moves]

    @property
    def values(self) -> dict[Card, int]:
        """Each legal card's exact value (final card-point difference, the player's minus the opponent's)."""
        return {m.card: v for m, v in self.solution.move_values.items()}

    def points_with(self, card: Card | str) -> int:
        """The card points the player ends with after ``card`` and best play on both sides."""
        return (TOTAL_CARD_POINTS + self.values[as_card(card)]) // 2

    # -- the page
    def _picture(self) -> str:
        lang, state = self.language, self.state
        me = self.player
        trump = state.trump
        canvas = Canvas(_("Trick {number}: your move in phase 2").format(number=state.trick_number))
        canvas.text(
            _("{trump}: {suit} · trick {number} of 16 ({phase})").format(
                trump=names.term("trump", lang).capitalize(),
                suit=self.suit_name(trump),
                number=state.trick_number,
                phase=names.term("phase 2", lang),
            ),
            weight="bold",
            fill=GOLD,
        )
        phase2 = state.trick_winners[PHASE1_TRICKS:]
        won = sum(1 for p in phase2 if p == me)
        canvas.text(
            _(
                "Card points so far: you {mine}, your opponent {theirs}. "
                "Tricks of phase 2 so far: you {won}, your opponent {lost}."
            ).format(mine=state.card_points[me], theirs=state.card_points[1 - me], won=won, lost=len(phase2) - won),
            size=13,
        )
        canvas.text(_("Your opponent's hand (every other card has been seen, so these are known):"), size=13)
        canvas.row(
            [
                (
                    hand_svg(
                        state.hand(1 - me),
                        language=lang,
                        trump=trump,
                        card_width=canvas.card_width(len(state.hand(1 - me)), 56),
                    ),
                    None,
                )
            ]
        )
        if state.lead is not None:
            canvas.text(_("Your opponent led the {card_acc}:").format(card=self.card_name(state.lead)), size=13)
            canvas.row([(card_svg(state.lead, language=lang, width=70, trump=state.lead.suit is trump), None)])
        else:
            canvas.text(_("You lead to this trick."), size=13)
        canvas.text(_("Your hand: click a card to play it."), size=13)
        hand = hand_svg(
            state.hand(me),
            language=lang,
            trump=trump,
            playable=self.values.keys(),
            highlighted=self.best if self.solved else (),
            card_width=canvas.card_width(len(state.hand(me)), 80),
            pickable=True,
        )
        canvas.row([(hand, None)])
        return canvas.svg()

    def _on_pick(self, pick: str) -> None:
        self.answer(pick)

    def answer(self, card: Card | str) -> bool:
        """Play ``card`` (as a click would): right if the solver finds no better card."""
        card = as_card(card)
        if card not in self.state.hand(self.player):
            self._say(_("Click one of your own cards, not the {card_the}.").format(card=self.card_name(card)), "info")
            return False
        if card not in self.values:
            try:
                self.state.copy().push(Play(self.player, card))
            except IllegalMoveError as err:  # the engine's reason, with its rule ID
                self._say(
                    _("The {card_The} may not be played here: {reason}.").format(card=self.card_name(card), reason=err),
                    "info",
                )
            return False
        best_points = self.solution.card_points
        mine = self.points_with(card)
        if self.values[card] == self.solution.value:
            others = [c for c in self.best if c is not card]
            if others:
                right = _("Right: the {card_the} is a best card (so is {others}).").format(
                    card=self.card_name(card), others=self._names(others)
                )
            else:
                right = _("Right: the {card_the} is a best card.").format(card=self.card_name(card))
            return self._judge(True, f"{right} {upper_first(self.explain())}")
        lost = best_points - mine
        wrong = ngettext(
            "Not the best: the {card_the} costs you {lost} card point: with best play from here "
            "you end with {mine} instead of {best_points}. The best: {best}.",
            "Not the best: the {card_the} costs you {lost} card points: with best play from here "
            "you end with {mine} instead of {best_points}. The best: {best}.",
            lost,
        ).format(card=self.card_name(card), lost=lost, mine=mine, best_points=best_points, best=self._names(self.best))
        return self._judge(False, f"{wrong} {upper_first(self.explain())}")

    def _names(self, cards: list[Card]) -> str:
        return names_or(cards, self.language)

    def explain(self) -> str:
        """The rules behind the verdict: what T4 allowed, the last trick's 10 (C5), stichmatsch (S2)."""
        state, lead = self.state, self.state.lead
        legal = set(self.values)
        hand = state.hand(self.player)
        if lead is None:
            t4 = _("You lead, so any card may be led; T4 binds only the second player.")
        elif legal == {c for c in hand if c.suit is lead.suit}:
            t4 = _("You must follow suit ({suit}), but need not play higher (T4).").format(
                suit=self.suit_name(lead.suit)
            )
        elif legal == {c for c in hand if c.suit is state.trump}:
            t4 = _("You cannot follow suit, so you must trump; any trump will do (T4).")
        else:
            t4 = _("You hold neither the suit led nor a trump, so any card may be played (T4).")
        best = self.solution.card_points
        parts = [
            t4,
            _("With best play you end the hand with {points} card points, the last trick's 10 included (C5).").format(
                points=best
            ),
        ]
        if self.solution.stichmatsch:
            parts.append(_("Best play takes every trick of phase 2: a stichmatsch, all 161 card points (S2)."))
        elif best == 0:
            parts.append(_("Your opponent can take every trick of phase 2: a stichmatsch leaves you nothing (S2)."))
        else:
            parts.append(_("A stichmatsch (S2) is not within reach for either side with best play."))
        return " ".join(parts)


# ---------------------------------------------------------------------------- a hand won at a level
LEVEL_STARS = {"easy": 1, "medium": 2, "hard": 3}
"""Stars for a hand won against the computer at each level."""


class MatchChallenge(Exercise):
    """Win a hand against the table's computer: 1 star at Easy, 2 at Medium, 3 at Hard (S1, S3, S4)."""

    id = "match-challenge"
    title = N_("Challenge: win a hand")
    instruction = N_(
        "Win a hand against the computer at the table above: 1 star at Easy, 2 at Medium, 3 at Hard. "
        "If you change the level during a hand, the easiest level you played against counts."
    )

    def __init__(
        self,
        table: TableController,
        seed: int | None = None,
        *,
        language: str | None = None,
        progress: Progress | None = None,
        storage_key: str | None = None,
        progress_id: str | None = None,
        taught: Collection[str] | None = None,
    ) -> None:
        self.table = table
        self._hand: HandState | None = None
        self._judged = False
        self._earned = 0
        self.outcome: str = ""
        super().__init__(
            seed, language=language, progress=progress, storage_key=storage_key, progress_id=progress_id, taught=taught
        )
        self.new_button.layout = w.Layout(display="none")  # the table's own "Next hand" moves on
        table.on_refresh(self._guard(self._watch))
        self._watch()

    stars_for: ClassVar[dict[str, int]] = LEVEL_STARS

    @property
    def stars(self) -> int:
        return self._earned if self.solved else 0

    def _record_solved(self) -> str:
        """A won hand is the challenge's whole stage: its stars are the level's (see ``stars_for``)."""
        self.progress.record_result(self.progress_id, self.stars)
        return ""

    def _score_line(self) -> str:
        best = self.progress.best(self.progress_id)
        label = html.escape(_("{n} of 3 stars kept").format(n=best), quote=True)
        stars = html.escape(_("stars"))
        return f"<span class='tartli-best' aria-label='{label}'>{stars} {stars_text(best)}</span>"

    def _generate(self) -> object:
        self._hand = self.table.state
        self._judged = False
        self._earned = 0
        self.outcome = ""
        return object()  # every hand is a new question

    def _watch(self) -> None:
        """Called after each redraw of the table: a new hand starts a new question, a finished one is judged."""
        if self.table.state is not self._hand:
            self.new_position()
        elif self.table.state.is_over and not self._judged:
            self._judged = True
            self.judge()
        else:
            self.render()

    def hand_points(self, player: int) -> int:
        """What ``player`` scored in this hand: melds and card points (S1), from the engine's totals."""
        state = self.table.state
        return state.totals[player] - state.scores_in[player]

    def judge(self) -> bool:
        """The hand is over: did the learner win it, and at which level? (Buli first, then hand points.)"""
        state, me = self.table.state, self.table.human
        level = self.table.hand_level
        mine, theirs = self.hand_points(me), self.hand_points(1 - me)
        if any(state.buli):
            won = state.buli[me] > 0
            how = self._buli_words(won, state.out, me)
        else:
            won = mine > theirs
            how = _("this hand you scored {mine}, the computer {theirs} (card points and melds, S1)").format(
                mine=mine, theirs=theirs
            )
        if level is None:
            self._say(_("The hand is over: {how}. This table has no level, so no stars.").format(how=how), "info")
            self.outcome = "no level"
            return won
        name = level_name(level)
        if won:
            self._earned = self.stars_for[level]
            self.outcome = "won"
            more = _("Try a harder level for more stars.") if level != "hard" else _("The best there is!")
            return self._judge(
                True,
                _("You won the hand at {level} level: {how}. {stars} {more}").format(
                    level=name, how=how, stars=stars_text(self._earned), more=more
                ),
            )
        self.outcome = "lost"
        if mine == theirs and not any(state.buli):
            lost = _("Not this time: a draw ({how}). Press “Next hand” at the table and try again.")
        else:
            lost = _("Not this time: the computer won ({how}). Press “Next hand” at the table and try again.")
        return self._judge(False, lost.format(how=how), shows_answer=False)

    def hand_played(self) -> HandPlayed:
        """This challenge as a lesson step's task that a learner who loses can do too (see :class:`HandPlayed`)."""
        return HandPlayed(self)

    @staticmethod
    def _buli_words(won: bool, out: tuple[int, bool] | None, me: int) -> str:
        """Who won the buli (S4), and after whose claim of 501 (S3), as one clause."""
        if out is None:
            return _("you won the buli (S4)") if won else _("the computer won the buli (S4)")
        claimer, right = out
        texts = {
            (True, True, True): _("you won the buli (S4) after your right claim of 501 (S3)"),
            (True, True, False): _("you won the buli (S4) after your wrong claim of 501 (S3)"),
            (True, False, True): _("you won the buli (S4) after the computer's right claim of 501 (S3)"),
            (True, False, False): _("you won the buli (S4) after the computer's wrong claim of 501 (S3)"),
            (False, True, True): _("the computer won the buli (S4) after your right claim of 501 (S3)"),
            (False, True, False): _("the computer won the buli (S4) after your wrong claim of 501 (S3)"),
            (False, False, True): _("the computer won the buli (S4) after the computer's right claim of 501 (S3)"),
            (False, False, False): _("the computer won the buli (S4) after the computer's wrong claim of 501 (S3)"),
        }
        return texts[(won, claimer == me, right)]

    def _picture(self) -> str:
        table, state = self.table, self.table.state
        me = table.human
        level = table.hand_level or (table.level if table._own_opponent else None)
        canvas = Canvas(_("The challenge: win a hand against the computer"), min_width=480)
        if level is None:
            canvas.text(_("This table plays an opponent without a level: no stars here."), weight="bold", fill=GOLD)
        else:
            canvas.text(
                _("Level: {level} · a won hand earns {stars}").format(
                    level=level_name(level), stars=stars_text(self.stars_for[level])
                ),
                weight="bold",
                fill=GOLD,
            )
        number = len(table.match.results) + 1
        if state.is_over:
            where = _("Hand {number} (over): you {mine} points, the computer {theirs}")
        else:
            where = _("Hand {number} (trick {trick} of 16): you {mine} points, the computer {theirs}")
        canvas.text(
            where.format(
                number=number,
                trick=min(state.trick_number, 16),
                mine=self.hand_points(me),
                theirs=self.hand_points(1 - me),
            ),
            size=13,
        )
        if self.outcome:
            result = {"won": _("You won this hand!"), "lost": _("The computer won this hand.")}.get(self.outcome, "")
            if result:
                canvas.text(upper_first(result), size=13)
        return canvas.svg()

    def _repr_mimebundle_(self, **kwargs: Any) -> Any:
        return self.widget._repr_mimebundle_(**kwargs)


class HandPlayed:
    """A lesson step's task around a :class:`MatchChallenge`: done once a hand of the match is over, won
    or lost, so that a learner who loses every game still goes on; the stars stay the challenge's, for
    a hand won (every task can be done by a learner who has read the step)."""

    def __init__(self, challenge: MatchChallenge) -> None:
        self.challenge = challenge
        self.widget = challenge.widget
        self._callbacks: list[Callable[[], None]] = []
        self._told = False
        challenge.table.on_refresh(self._watch)

    @property
    def done(self) -> bool:
        table = self.challenge.table
        return (
            table.state.is_over
            or bool(table.match.results)
            or self.challenge.progress.solved(self.challenge.progress_id) > 0
        )

    def on_done(self, callback: Callable[[], None]) -> None:
        self._callbacks.append(callback)

    def _watch(self) -> None:
        if self.done and not self._told:
            self._told = True
            for callback in list(self._callbacks):
                callback()

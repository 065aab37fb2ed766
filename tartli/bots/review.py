"""The review of a whole hand: every decision of a player in both phases, what it cost, and why.

:func:`review` replays a hand (a :class:`~tartli.game.HandState`, finished or not, or a
:class:`~tartli.record.Record`) and judges each decision of one player:

Every decision is judged by the course's one evaluation of its position
(:func:`tartli.bots.evaluate.evaluate`), the one the Hint advises by and Try again judges by: a move
the Hint advised is a best move here, because it is the evaluation's best move, not by a rule of
the review's.

* **Phase 1** (tricks 1-7): every move offered is played out on the same deals of the hidden cards
  as the player saw them at that moment (dealt from the position itself, so the same position is
  always judged the same). A move's ``loss`` is the mean of what the best move ended the hand with
  minus what this move did, in points of the final point difference (the player's melds and card
  points minus the opponent's), with its standard error ``se``, said in words ("about 25 points,
  give or take 10"). Why a move lost is read from the evaluation's own playouts
  (:func:`tartli.bots.explain.cause`: the meld a draw would have completed, a stichmatsch, the last
  trick's 10).
* **Phase 2** (tricks 8-16): exact: best play on both sides, the trick-8 declarations included. A
  card's loss in card points is half its loss in points (a card point that changes hands moves the
  difference by 2).
* Only the learner's decisions are judged: ``moves`` names the moves the learner made (a lesson's
  script, the moves of a loaded record or a shared game, and the computer's are left out), and
  ``offered`` the kinds of move the page offered (a table before melds has no Declare), as the
  Hint was given them.
* **Going out**: a claim under 501 (S3, S4) is a blunder, and so is a move made while a right claim
  was there to make (the game was won by claiming); a right claim is best. Their ``loss`` is None:
  a game is not a number of hand points.
* Moves made out of turn other than a claim (béla, the Austrian swap) and forced moves (one legal
  move besides going out) are not decisions.

**The classes.** chess.com classes a move by the expected points it gives away (a win 1, a draw
1/2): inaccuracy 0.05-0.10, mistake 0.10-0.20, blunder over 0.20. Here the unit is hand points, so
the bounds come from how the chance of winning the hand moves with the expected point difference:
over 871 (position, move) pairs of phase 1 (90 positions of hands played by the rules of thumb, 40
deals each) the share of deals won fits Φ(d / 90) (a probit, least squares), whose slope at an even
hand is 1 / (90 √(2π)) = 0.0044 a point. So 0.05, 0.10 and 0.20 of a win are 11, 23 and 45 points:

=============  ==========================  ======================================
class          loss (points of the         (chess.com, expected points)
               final point difference)
=============  ==========================  ======================================
best           0 (or within the sampling   0
               error of the best found)
good           under 11                    under 0.05
inaccuracy     11 to under 23              0.05-0.10
mistake        23 to under 45              0.10-0.20
blunder        45 or more; a wrong claim   over 0.20
               or a right claim not made
=============  ==========================  ======================================

A loss is classed by the loss itself (rounded to a point), the number the review shows, so a move
classed worse never shows a smaller loss than a move classed better; best is a loss of 0 (the
evaluation's best move, or one as good on every deal). The sampling error is said beside it in
words, not folded into the class: the same position always gets the same numbers, so the class
never changes from one look to the next.

**Accuracy** (a hand's, a match's): the mean over decisions of lichess's move accuracy,
``103.1668 exp(-0.04354 w) - 3.1669`` where ``w`` is the loss in win percentage points
(0.44 per point of loss, as above), so 100 for a best move, 80 for a loss of 11, 63 for 23,
41 for 45; a claim blunder scores 0.

**Could have cost.** A loss is what the move gave away against best play (phase 2) or on average
over the deals the player could not tell apart (phase 1); the hand itself may not have charged it.
In phase 2 the exact value of the position at the player's next move, and at the end of the
moves (the hand's result once it is over), tell: if either is still what the best move
guaranteed, the opponent did not punish the move (a stichmatsch after a card that could have cost
19 card points "could have cost" them). In
phase 1 the deal is known after the hand: the move and the best one are played out on the true
cards (16 playouts each): if the move did as well there, it "could have cost" but did not.

>>> from tartli.game import HandState
>>> from tartli.bots import HeuristicBot
>>> state = HandState.from_seed(3)
>>> while not state.is_over:
...     state.push(HeuristicBot().choose(state.view(state.to_move)))
>>> found = review(state, 0, samples=4)
>>> all(d.move.player == 0 for d in found.decisions) and found.summary.decisions == len(found.decisions)
True
"""

from __future__ import annotations

import dataclasses
import math
import random
import time
from collections.abc import Callable, Collection, Sequence
from dataclasses import dataclass, field
from typing import Any

from tartli._checks import bounded, checked, checked_fields, checked_items, checked_whole
from tartli.bots.base import right_claim
from tartli.bots.evaluate import (
    COURSE,
    Budget,
    Evaluation,
    MoveValue,
    evaluate,
    exact_value,
    position_seed,
    restrict,
)
from tartli.bots.explain import cause
from tartli.bots.hint import _broken_melds, _phase_one_facts, _sure, move_phrase
from tartli.bots.search import playout_values
from tartli.errors import ArgumentError, Choice, TartliError, shown
from tartli.game import LAST_MELD_TRICK, PHASE1_TRICKS, HandState, PlayerView, Status
from tartli.i18n import _, joined, ngettext
from tartli.moves import Declare, GoOut, Move, Pass, Play, coerce_move
from tartli.names import Named
from tartli.record import Record

__all__ = [
    "GOOD_BOUND",
    "INACCURACY_BOUND",
    "MISTAKE_BOUND",
    "Decision",
    "Grade",
    "HandReview",
    "HandSummary",
    "MatchSummary",
    "Retry",
    "Verdict",
    "accuracy",
    "grade",
    "match_summary",
    "review",
]

GOOD_BOUND = 11.0
"""A loss under this many points is good (0.05 of a win, see the module notes)."""
INACCURACY_BOUND = 23.0
"""A loss under this is an inaccuracy (0.10 of a win)."""
MISTAKE_BOUND = 45.0
"""A loss under this is a mistake (0.20 of a win); from here on a blunder."""
WIN_SHARE_PER_POINT = 0.0044
"""How much of a win one point of expected difference is worth at an even hand (the fit above)."""
TRUE_DEAL_PLAYOUTS = 16
"""Playouts on the true cards that decide "could have cost" in phase 1."""


class Grade(Choice):
    """The class of a decision, from the best to the worst."""

    BEST = "best"  #: the best move (phase 1: or within the sampling error of it)
    GOOD = "good"  #: loses under 11 points
    INACCURACY = "inaccuracy"  #: 11 to under 23
    MISTAKE = "mistake"  #: 23 to under 45
    BLUNDER = "blunder"  #: 45 or more, a wrong claim, a right claim not made

    @property
    def rank(self) -> int:
        return list(Grade).index(self)


MAX_LOSS = 1e9
"""Beyond any hand's points (a hand has 120 card points and a few hundred of melds): a bound on a loss."""


def _points_lost(loss: object) -> float:
    """``loss`` if it is a finite number (not a bool), else an :class:`ArgumentError`."""
    if not isinstance(loss, int | float) or isinstance(loss, bool) or not -MAX_LOSS <= loss <= MAX_LOSS:  # nan fails
        raise ArgumentError(f"a loss is a number of points from {-MAX_LOSS:g} to {MAX_LOSS:g}, not {shown(loss, 30)}")
    return loss


def grade(loss: float) -> Grade:
    """The class of a loss in points (see the module notes): the loss rounded to a point, against
    the bounds; 0 is best."""
    judged = round(_points_lost(loss))
    if judged <= 0:
        return Grade.BEST
    if judged < GOOD_BOUND:
        return Grade.GOOD
    if judged < INACCURACY_BOUND:
        return Grade.INACCURACY
    if judged < MISTAKE_BOUND:
        return Grade.MISTAKE
    return Grade.BLUNDER


def accuracy(loss: float | None) -> float:
    """One decision's accuracy, 0-100 (lichess's formula on the win share the loss gives away);
    ``None`` (a claim blunder) is 0."""
    if loss is None:
        return 0.0
    drop = 100 * WIN_SHARE_PER_POINT * max(0.0, round(_points_lost(loss)))
    return max(0.0, min(100.0, 103.1668 * math.exp(-0.04354 * drop) - 3.1669))


@dataclass(frozen=True)
class Decision:
    """One decision of the reviewed player (see the module notes)."""

    index: int
    """The move's place in the hand's moves (the record's ``moves``)."""
    trick: int
    move: Move
    grade: Grade
    loss: float | None
    """Points of the final point difference given away (None: a claim decision)."""
    se: float
    """Standard error of ``loss`` (0 when exact)."""
    samples: int
    """Deals of the hidden cards the move was played on (0 when exact)."""
    best: tuple[Move, ...]
    """The moves classed best there (phase 1: the best found and those within the sampling error of it),
    best first; a pass is left out (it is the same as playing the best card without declaring)."""
    claim: str | None
    """``"wrong"`` (a claim under 501), ``"missed"`` (a right claim not made), ``"right"``, or None."""
    punished: bool | None
    """False: the loss did not happen in this hand ("could have cost"); None: not known or no loss."""
    text: str
    """What was better and why, in the page's language when reviewed."""
    costly: bool = False
    """Among the (three) costliest decisions of the hand."""
    evaluation: Evaluation | None = field(default=None, repr=False, compare=False)
    """Every move of the position, judged (None for a claim decision): what Try again uses."""
    position: HandState | None = field(default=None, repr=False, compare=False)
    """The whole state before the decision (draw it as ``position.view(player)``)."""

    def __post_init__(self) -> None:
        checked_fields(self)

    @property
    def phase(self) -> int:
        return 1 if self.trick <= PHASE1_TRICKS else 2

    @property
    def accuracy(self) -> float:
        return accuracy(self.loss)

    def to_dict(self) -> dict[str, Any]:
        """The decision as the ``tartli review`` line prints it."""
        return {
            "index": self.index,
            "phase": self.phase,
            "trick": self.trick,
            "move": str(self.move),
            "best": [str(m) for m in self.best],
            "loss": None if self.loss is None else round(self.loss, 1),
            "se": round(self.se, 1),
            "samples": self.samples,
            "class": self.grade.value,
            "costly": self.costly,
            "punished": self.punished,
            "text": self.text,
        }


@dataclass(frozen=True)
class HandSummary:
    """One hand for a match summary: the player's and the opponent's points, the decisions by class."""

    player: int
    melds: tuple[int, int]
    """Meld points this hand (béla included): the player's, then the opponent's."""
    cards: tuple[int, int]
    """Card points this hand: the player's, then the opponent's."""
    status: str
    """``finished``, ``out`` (ended by a claim) or ``in-progress``."""
    grades: tuple[int, int, int, int, int]
    """Decisions by class: best, good, inaccuracy, mistake, blunder."""
    accuracy: float | None
    """Mean accuracy of the decisions, to 0.1 (None: no decision)."""
    lost: float
    """Points given away in all (claims aside), to 0.1."""

    def __post_init__(self) -> None:
        checked_fields(self, players=("player",))

    @property
    def decisions(self) -> int:
        return sum(self.grades)

    def to_dict(self) -> dict[str, Any]:
        return {
            "player": self.player,
            "melds": list(self.melds),
            "cards": list(self.cards),
            "status": self.status,
            "classes": {g.value: n for g, n in zip(Grade, self.grades, strict=True)},
            "decisions": self.decisions,
            "accuracy": None if self.accuracy is None else round(self.accuracy, 1),
            "lost": round(self.lost, 1),
        }

    @classmethod
    def from_dict(cls, data: Any) -> HandSummary:
        """Read :meth:`to_dict` back (a saved match); a :class:`TartliError` if it is not one."""
        try:
            classes = data["classes"]
            return cls(
                player=int(data["player"]),
                melds=(int(data["melds"][0]), int(data["melds"][1])),
                cards=(int(data["cards"][0]), int(data["cards"][1])),
                status=str(data["status"]),
                grades=tuple(int(classes.get(g.value, 0)) for g in Grade),  # type: ignore[arg-type]
                accuracy=None if data["accuracy"] is None else float(data["accuracy"]),
                lost=float(data["lost"]),
            )
        except (KeyError, IndexError, TypeError, ValueError, AttributeError) as err:
            raise TartliError(f"not a hand summary: {err}") from None


@dataclass(frozen=True)
class MatchSummary:
    """Hands of a match, each with the running accuracy over all decisions so far."""

    hands: tuple[HandSummary, ...]
    running: tuple[float | None, ...]
    """The accuracy over every decision up to and including each hand."""

    def __post_init__(self) -> None:
        checked_fields(self)

    @property
    def accuracy(self) -> float | None:
        return self.running[-1] if self.running else None

    @property
    def grades(self) -> tuple[int, int, int, int, int]:
        return tuple(sum(h.grades[k] for h in self.hands) for k in range(5))  # type: ignore[return-value]

    def to_dict(self) -> dict[str, Any]:
        return {
            "hands": [h.to_dict() for h in self.hands],
            "running_accuracy": [None if a is None else round(a, 1) for a in self.running],
            "classes": {g.value: n for g, n in zip(Grade, self.grades, strict=True)},
            "accuracy": None if self.accuracy is None else round(self.accuracy, 1),
        }


def match_summary(hands: Sequence[HandSummary]) -> MatchSummary:
    """The summary of a match from its hands' summaries (kept with a saved match as ``to_dict()``)."""
    hands = checked_items(hands, HandSummary, "hands", "[review(...).summary]")
    running: list[float | None] = []
    total = weight = 0.0
    for h in hands:
        if h.accuracy is not None and h.decisions:
            total += h.accuracy * h.decisions
            weight += h.decisions
        running.append(total / weight if weight else None)
    return MatchSummary(tuple(hands), tuple(running))


@dataclass(frozen=True)
class HandReview:
    """Every decision of ``player`` in one hand, and the hand's summary."""

    player: int
    decisions: tuple[Decision, ...]
    summary: HandSummary
    samples: int
    """Deals asked for each phase-1 decision."""
    seconds: float
    """How long the review took."""
    phase1_seconds: float = 0.0
    """How long its phase-1 decisions took (the sampled part)."""

    def __post_init__(self) -> None:
        checked_fields(self, players=("player",))

    @property
    def sampling_errors(self) -> list[float]:
        """The standard error of every sampled loss of the review: each move but the best found, at
        every phase-1 decision (a pass aside: it repeats the best card's numbers)."""
        return [
            v.se
            for d in self.decisions
            if d.evaluation is not None and not d.evaluation.exact
            for v in d.evaluation.moves[1:]
            if not isinstance(v.move, Pass)
        ]

    @property
    def costly(self) -> tuple[Decision, ...]:
        """The marked decisions, costliest first."""
        return tuple(sorted((d for d in self.decisions if d.costly), key=_cost_key))

    def retry(self, decision: Decision | int) -> Retry:
        """Try again: the position of a decision (or of the decision at that move index)."""
        if isinstance(decision, int) and not isinstance(decision, bool):
            found = next((d for d in self.decisions if d.index == decision), None)
            if found is None:
                raise ArgumentError(f"no decision of player {self.player} at move {shown(decision, 30)}")
            decision = found
        if not isinstance(decision, Decision) or decision.position is None:
            raise ArgumentError("Try again needs a decision of this review")
        if decision.claim == "wrong" and decision.evaluation is None:
            raise ArgumentError("that claim was made out of turn: the better choice was to wait, not another move")
        return Retry(decision, self.player)


@dataclass(frozen=True)
class Verdict:
    """A move tried at a reviewed position, judged by the review's own evaluation."""

    move: Move
    grade: Grade
    loss: float | None
    se: float
    better: bool
    """Better than the move first made there (a lower loss, or a right claim for a wrong one)."""
    text: str

    def __post_init__(self) -> None:
        checked_fields(self)


class Retry:
    """ "Learn from your mistakes": the position of a reviewed decision, and a judge for new tries.

    ``state`` is the whole state before the decision (show ``view``: the player's view), ``player``
    the seat to play. :meth:`judge` grades a move by the same evaluation as the review (the same
    deals, or the exact values), and :attr:`stars` follows the course's stages: 3 stars for a best
    move at the first try, 2 at the second, 1 later, 0 until then.
    """

    def __init__(self, decision: Decision, player: int) -> None:
        if not isinstance(decision, Decision) or decision.position is None:
            raise ArgumentError("Try again needs a decision of a review (HandReview.retry)")
        if player not in (0, 1) or isinstance(player, bool):
            raise ArgumentError(f"a player is 0 or 1, not {shown(player, 30)}")
        self.decision = decision
        self.player = player
        self.state = decision.position.copy()
        self.tries: list[Verdict] = []

    @property
    def view(self) -> PlayerView:
        return self.state.view(self.player)

    def judge(self, move: Move | str) -> Verdict:
        """Grade ``move`` here; an illegal move raises the engine's ``IllegalMoveError`` (with the rule)."""
        move = coerce_move(move)
        if move.player != self.player:
            raise ArgumentError(f"it is player {self.player}'s decision, not player {move.player}'s")
        self.state.copy().push(move)  # refuses an illegal move with the rule that forbids it
        original = self.decision
        if isinstance(move, GoOut):
            right = right_claim(self.state.view(self.player)) is not None
            verdict = Verdict(
                move,
                Grade.BEST if right else Grade.BLUNDER,
                None,
                0.0,
                right and original.claim != "right",
                _("A right claim: it wins the game (S3, S4).")
                if right
                else _("Under 501 a claim loses the game (S4)."),
            )
        elif original.claim == "missed":
            verdict = Verdict(move, Grade.BLUNDER, None, 0.0, False, _("Claim 501 here: it wins the game (S3, S4)."))
        else:
            assert original.evaluation is not None
            value = original.evaluation.of(move)
            found = grade(value.loss)
            before = original.loss if original.loss is not None else math.inf
            verdict = Verdict(
                move,
                found,
                value.loss,
                value.se,
                value.loss < before and found.rank < original.grade.rank,
                _verdict_text(found, value, original.evaluation),
            )
        self.tries.append(verdict)
        return verdict

    @property
    def solved(self) -> bool:
        return any(v.grade is Grade.BEST for v in self.tries)

    @property
    def stars(self) -> int:
        for k, v in enumerate(self.tries):
            if v.grade is Grade.BEST:
                return max(1, 3 - k)
        return 0


def _verdict_text(found: Grade, value: MoveValue, evaluation: Evaluation) -> str:
    if found is Grade.BEST:
        return _("A best move.")
    if evaluation.exact:
        lost = round(value.loss)
        return ngettext(
            "It loses {points} point against best play ({grade}).",
            "It loses {points} points against best play ({grade}).",
            lost,
        ).format(points=lost, grade=_grade_word(found))
    lost = round(value.loss)
    return ngettext(
        "It loses about {points} point on average, give or take {se} ({grade}).",
        "It loses about {points} points on average, give or take {se} ({grade}).",
        lost,
    ).format(points=lost, se=round(value.se), grade=_grade_word(found))


def _grade_word(found: Grade) -> str:
    return {
        Grade.BEST: _("best"),
        Grade.GOOD: _("good"),
        Grade.INACCURACY: _("an inaccuracy"),
        Grade.MISTAKE: _("a mistake"),
        Grade.BLUNDER: _("a blunder"),
    }[found]


# ----------------------------------------------------------------------------- the review


def _cost_key(d: Decision) -> tuple[int, float, int]:
    """Costliest first: claim blunders, then by the loss."""
    if d.loss is None:
        return (0 if d.grade is Grade.BLUNDER else 2, 0.0, d.index)
    return (1, -d.loss, d.index)


def review(
    source: HandState | Record,
    player: int,
    *,
    budget: Budget = COURSE,
    samples: int | None = None,
    moves: Collection[int] | None = None,
    offered: Callable[[Move], bool] | None = None,
    progress: Callable[[int, int], None] | None = None,
    costly: int = 3,
) -> HandReview:
    """Judge every decision of ``player`` in the hand (see the module notes).

    ``budget``: the evaluation's (the course's by default, the Hint's: keep it so that they agree);
    ``samples`` is a shorthand for ``Budget(deals=samples)``. ``moves``: the indices (in the hand's
    moves) of the moves the learner made; the others are not judged, counted or offered for Try
    again (None: every move of ``player``). ``offered``: the kinds of move the page offered
    (:func:`tartli.bots.evaluate.restrict`: it answers True or False). ``progress(done, total)`` is
    called before the first decision and after each one (for a progress bar; what it returns is
    not read). An exception either function raises passes through unchanged: it is the caller's
    own. The ``costly`` costliest decisions that lost anything (inaccuracies and worse) are marked.
    """
    start = time.perf_counter()
    if isinstance(source, Record):
        state = source.replay()
    elif isinstance(source, HandState):
        state = source
    else:
        raise ArgumentError("a review needs a HandState or a Record")
    if player not in (0, 1) or isinstance(player, bool):
        raise ArgumentError(f"a player is 0 or 1, not {shown(player, 30)}")
    if samples is not None:
        if type(samples) is not int or samples < 1:
            raise ArgumentError(f"samples is a whole number of 1 or more, not {shown(samples, 30)}")
        budget = Budget(deals=samples)
    checked(budget, Budget, "budget", "Budget(deals=48)")
    if offered is not None and not callable(offered):
        raise ArgumentError(f"offered is None or a function of a move, not {shown(offered, 30)}")
    if progress is not None and not callable(progress):
        raise ArgumentError(f"progress is None or a function of (done, total), not {shown(progress, 30)}")
    checked_whole(costly, "costly", 0, MAX_MOVES)
    mine = None if moves is None else _move_indices(moves)
    replay = HandState(state.deal, state.rules, state.scores_in)
    points: list[tuple[int, HandState, Move]] = []
    for index, move in enumerate(state.moves):
        if (
            move.player == player
            and (mine is None or index in mine)
            and replay.status is Status.IN_PROGRESS
            and _is_decision(replay, move, offered)
        ):
            points.append((index, replay.copy(), move))
        replay.push(move)
    total = len(points)
    if progress is not None:
        progress(0, total)
    decisions: list[Decision] = []
    phase1 = 0.0
    for k, (index, position, move) in enumerate(points):
        began = time.perf_counter()
        decisions.append(_judge(state, index, position, move, player, budget, offered))
        if position.trick_number <= PHASE1_TRICKS:
            phase1 += time.perf_counter() - began
        if progress is not None:
            progress(k + 1, total)
    marked = {
        d.index for d in sorted((d for d in decisions if d.grade.rank >= Grade.INACCURACY.rank), key=_cost_key)[:costly]
    }
    decisions = [dataclasses.replace(d, costly=True) if d.index in marked else d for d in decisions]
    summary = _summary(state, player, decisions)
    return HandReview(player, tuple(decisions), summary, budget.deals, time.perf_counter() - start, phase1)


MAX_MOVES = 1000
"""More moves than any hand has (a hand has at most a few dozen): the bound of ``moves`` and ``costly``."""


def _move_indices(moves: object) -> frozenset[int]:
    """``moves`` of :func:`review`: indices of moves, read to a bound."""
    items = bounded(moves, "moves", MAX_MOVES)
    try:
        return frozenset(items)  # type: ignore[arg-type]
    except TypeError:  # an unhashable item: a list among them
        raise ArgumentError("moves: indices of the hand's moves (whole numbers)") from None


def _is_decision(state: HandState, move: Move, offered: Callable[[Move], bool] | None = None) -> bool:
    """A claim, or a move in turn with a choice among the moves offered (or with a right claim there
    to make)."""
    if isinstance(move, GoOut):
        return True
    if state.to_move != move.player:
        return False
    view = restrict(state.view(move.player), offered)
    if isinstance(move, Pass) and move not in view.legal_moves:
        return False  # a pass with nothing offered to declare is playing without declaring (K1): no choice of its own
    if len([m for m in view.legal_moves if not isinstance(m, GoOut)]) > 1:
        return True
    return right_claim(view) is not None


def _summary(state: HandState, player: int, decisions: Sequence[Decision]) -> HandSummary:
    grades = [0, 0, 0, 0, 0]
    for d in decisions:
        grades[d.grade.rank] += 1
    other = 1 - player
    return HandSummary(
        player=player,
        melds=(state.meld_points[player], state.meld_points[other]),
        cards=(state.card_points[player], state.card_points[other]),
        status=state.status.value,
        grades=(grades[0], grades[1], grades[2], grades[3], grades[4]),
        accuracy=round(sum(d.accuracy for d in decisions) / len(decisions), 1) if decisions else None,
        lost=round(sum(d.loss for d in decisions if d.loss is not None), 1),
    )


def _judge(
    state: HandState,
    index: int,
    position: HandState,
    move: Move,
    player: int,
    budget: Budget,
    offered: Callable[[Move], bool] | None,
) -> Decision:
    trick = position.trick_number
    view = restrict(position.view(player), offered)
    if isinstance(move, GoOut):
        claim = view.claim(player)
        if claim.valid and claim.winner == player:
            text = _("A right claim with {total}: it won the game (S3, S4).").format(total=claim.total)
            return Decision(
                index, trick, move, Grade.BEST, None, 0.0, 0, (move,), "right", None, text, position=position
            )
        text = _("You claimed with {total}: under 501 a claim loses the game (S4). Better was to play on.").format(
            total=claim.total
        )
        # The moves that were there instead, judged as usual, for Try again (none out of turn: wait).
        others = evaluate(view, budget) if position.to_move == player else None
        best = () if others is None else _best_moves(others)
        return Decision(
            index,
            trick,
            move,
            Grade.BLUNDER,
            None,
            0.0,
            0,
            best,
            "wrong",
            True,
            text,
            evaluation=others,
            position=position,
        )
    claim_move = right_claim(view)
    if claim_move is not None:
        text = _("You had {total}: claiming 501 then would have won the game at once (S3, S4).").format(
            total=view.claim(player).total
        )
        return Decision(
            index, trick, move, Grade.BLUNDER, None, 0.0, 0, (claim_move,), "missed", None, text, position=position
        )
    evaluation = evaluate(view, budget)
    mine = evaluation.of(move)
    found = grade(mine.loss)
    top = evaluation.best
    best = _best_moves(evaluation)
    punished: bool | None = None
    if found is Grade.BEST:
        text = _best_text(view, evaluation, mine)
    elif evaluation.exact:
        reached = _reached(state, index, player)
        punished = None if reached is None else reached < top.value
        text = _exact_text(view, position, mine, top, reached)
    else:
        punished = _punished_on_the_deal(position, move, top.move, player, random.Random(position_seed(view)))
        text = _sampled_text(view, evaluation, mine, punished)
    return Decision(
        index,
        trick,
        move,
        found,
        mine.loss,
        mine.se,
        mine.samples,
        best,
        None,
        punished,
        text,
        evaluation=evaluation,
        position=position,
    )


def _best_moves(evaluation: Evaluation) -> tuple[Move, ...]:
    return tuple(v.move for v in evaluation.moves if grade(v.loss) is Grade.BEST and not isinstance(v.move, Pass))


def _reached(state: HandState, index: int, player: int) -> int | None:
    """What the hand kept of the move's value: the best of the exact value for ``player`` at their
    next move after ``index`` (the opponent's replies made) and at the end of the moves (the hand's
    result once it is over); None if a claim ended the hand."""
    if state.status is Status.OUT:
        return None
    replay = HandState(state.deal, state.rules, state.scores_in)
    at_next: int | None = None
    for k, move in enumerate(state.moves):
        if k > index and move.player == player and at_next is None:
            at_next = exact_value(replay, player)
        replay.push(move)
    at_end = exact_value(replay, player)
    return at_end if at_next is None else max(at_next, at_end)


def _punished_on_the_deal(position: HandState, move: Move, best: Move, player: int, rng: random.Random) -> bool:
    """Phase 1: did the move do worse than the best one on the true cards (playouts)?"""
    diff = 0
    for _k in range(TRUE_DEAL_PLAYOUTS):
        a, b = playout_values(position, [best, move], player, rng.random())
        diff += a - b
    return diff > 0


def _best_text(view: PlayerView, evaluation: Evaluation, mine: MoveValue) -> str:
    if evaluation.exact:
        return _("A best move: with best play on both sides nothing does better.")
    top = evaluation.best
    if mine.loss <= 0:
        return _("The best move the search found over {n} deals of the hidden cards as you saw them.").format(
            n=top.samples
        )
    return _("As good as the best move found, {best}, over {n} deals of the hidden cards as you saw them.").format(
        best=move_phrase(top.move, view), n=mine.samples
    )


def _exact_text(view: PlayerView, position: HandState, mine: MoveValue, top: MoveValue, reached: int | None) -> str:
    """Phase 2: what was better, by how much, and whether the opponent charged it."""
    best, played = move_phrase(top.move, view), move_phrase(mine.move, view)
    loss = round(mine.loss)
    given = None if reached is None else max(0, min(loss, round(top.value - reached)))
    parts: list[str] = []
    cards = (top.card_points or 0) - (mine.card_points or 0)
    if isinstance(top.move, Play) and isinstance(mine.move, Play) and 2 * cards == loss:
        # Only card points changed hands: say it in card points (half the difference).
        parts.append(
            _(
                "Better was {best_ins}: with best play on both sides it leaves you {points} card points, "
                "{played_ins} only {fewer}."
            ).format(best=best, points=top.card_points, played=played, fewer=mine.card_points)
        )
        if position.lead is None and _sure(position, top.move.card):
            parts.append(_("Nothing in your opponent's hand could beat it."))
        if given == 0:
            text = ngettext(
                "It could have cost {points} card point; your opponent did not punish it.",
                "It could have cost {points} card points; your opponent did not punish it.",
                cards,
            )
        elif given is not None and given < loss:
            text = ngettext(
                "It could have cost {points} card point; your opponent's replies gave some of them back.",
                "It could have cost {points} card points; your opponent's replies gave some of them back.",
                cards,
            )
        else:
            text = ngettext(
                "It cost {points} card point against best play.",
                "It cost {points} card points against best play.",
                cards,
            )
        parts.append(text.format(points=cards))
        return " ".join(parts)
    parts.append(
        _(
            "Better was {best_ins}: with best play on both sides it ends the hand {points:+d} points against "
            "your opponent, {played_ins} {fewer:+d}."
        ).format(best=best, points=round(top.value), played=played, fewer=round(mine.value))
    )
    if position.trick_number == LAST_MELD_TRICK and not isinstance(top.move, Play):
        parts.append(_("Trick 8 is the last one for melds (M4)."))
    if given == 0:
        parts.append(
            ngettext(
                "It could have cost {points} point; your opponent did not punish it.",
                "It could have cost {points} points; your opponent did not punish it.",
                loss,
            ).format(points=loss)
        )
    return " ".join(parts)


def _better(view: PlayerView, evaluation: Evaluation, mine: MoveValue) -> Named:
    """The better move in words: the best found, and where the question was whether to declare, the
    best declaration too when it is as good within the sampling error ("the Eight of Leaves or
    declaring Over-vannak (200) now")."""
    top = evaluation.best
    text = move_phrase(top.move, view)
    if not isinstance(top.move, Declare) and not isinstance(mine.move, Declare):
        declaration = next(
            (v for v in evaluation.moves if isinstance(v.move, Declare) and grade(v.loss) is Grade.BEST), None
        )
        if declaration is not None:
            # (joined keeps both moves' forms: "a nyolcassal vagy az alsó vannak (200) azonnali bemondásával")
            second = move_phrase(declaration.move, view)
            return joined([text, second], _("{first} or {second}"), "first", "second")
    return text


def _sampled_text(view: PlayerView, evaluation: Evaluation, mine: MoveValue, punished: bool) -> str:
    """Phase 1: the better move, the average gain over the deals, a fact about it, and the true deal."""
    top = evaluation.best
    points = round(mine.loss)
    parts = [
        ngettext(
            "Better was {best_ins}: over {n} deals of the hidden cards as you saw them it ended the hand about "
            "{points} point better on average (give or take {se}).",
            "Better was {best_ins}: over {n} deals of the hidden cards as you saw them it ended the hand about "
            "{points} points better on average (give or take {se}).",
            points,
        ).format(best=_better(view, evaluation, mine), n=mine.samples, points=points, se=round(mine.se))
    ]
    why = cause(view, evaluation, mine.move, mine.loss)
    facts = _broken_melds(view, mine.move) or ([why] if why else _phase_one_facts(view, top.move)[:1])
    parts.extend(facts)
    if not punished:
        parts.append(
            ngettext(
                "It could have cost about {points} point; with the cards as they lay, it cost nothing.",
                "It could have cost about {points} points; with the cards as they lay, it cost nothing.",
                points,
            ).format(points=points)
        )
    return " ".join(parts)

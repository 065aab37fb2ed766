"""The Hint: the best advice the course has for the player to move, with a reason that is true.

:func:`hint` takes a player's view (never the hidden cards) and returns a :class:`Hint`: a move of
``view.legal_moves`` and its reason in the learner's words, in the page's language.

* **Going out** (S3, S4): a claim only when it is right, and then at once (with B2's both-over
  state, only for the higher total).
* **Béla** (B1): at once, since it always scores 40 and is lost when the King or the Over of
  trumps is played first.
* Everything else is the best move of the course's one evaluation of the position
  (:func:`~tartli.bots.evaluate.evaluate`), the same the review and Try again judge by, so a move
  the Hint advises is a best move in the review:
* **Phase 1** (tricks 1-7): every move offered is played out on the same deals of the hidden cards
  (sampled from what the player has seen, seeded from the position itself: the same position always
  gets the same advice); declaring or holding a meld, swapping the trump Seven and passing are moves
  too, and the playouts go on through the draws, trick 8's declarations and phase 2.
* **Phase 2** (tricks 8-16): exact: the solver for the cards, and in trick 8 the declarations
  searched with the opponent's best answer. Of the cards that are best against best play, the one
  that does best against an opponent who plays by the rules of thumb is chosen
  (:func:`~tartli.bots.solver.against_rules_of_thumb`): it costs nothing against best play (every
  best card has no loss in the review) and gives a weaker opponent a way to go wrong.

A reason is made of facts checked against the position ("nothing left to come can beat it",
"the King of Hearts wins the trick: 15 card points for you", "with best play on both sides it
leaves you 93 card points, the Ten of Bells only 81") and, in phase 1, of the search's own
numbers stated as such ("over 60 deals of the hidden cards that fit what you have seen, it ended
the hand 12 points better on average than the Ace of Leaves, and won it in 64% of them"). The
rule of thumb's head start in the search (``prior``) never enters a number shown: when it decided,
the reason says so.

>>> from tartli.game import HandState
>>> state = HandState.from_seed(4)
>>> advice = hint(state.view(state.to_move), budget=Budget(deals=8))
>>> advice.move in state.legal_moves() and bool(advice.reason)
True
"""

from __future__ import annotations

import random
from dataclasses import dataclass

from tartli._checks import checked, checked_fields
from tartli.bots.base import right_claim
from tartli.bots.evaluate import COURSE, Budget, Evaluation, evaluate, phase_two_state, position_seed
from tartli.bots.explain import cause
from tartli.bots.heuristic import HeuristicBot, _beats, melds_words
from tartli.bots.solver import against_rules_of_thumb
from tartli.cards import TOTAL_CARD_POINTS, Card, Rank, mask_of
from tartli.errors import Choice, TartliError
from tartli.game import LAST_MELD_TRICK, PHASE1_TRICKS, HandState, PlayerView
from tartli.i18n import _, ngettext
from tartli.melds import Meld, MeldKind, contest_key, same_suit_ok, sequences_in, sets_in
from tartli.moves import Bela, Declare, GoOut, Move, Pass, Play, Swap
from tartli.names import Named

__all__ = ["Hint", "HintBot", "HintKind", "NoHint", "hint", "move_phrase"]


class NoHint(TartliError):
    """There is nothing to advise: the hand is over, or it is not the player's turn and no move out
    of turn is worth making."""


class HintKind(Choice):
    """Where a hint comes from."""

    CLAIM = "claim"  #: a right claim of 501 (S3, S4)
    BELA = "bela"  #: béla, declared at once (B1)
    ONLY = "only"  #: the only legal move (going out aside)
    SEARCH = "search"  #: phase 1: the evaluation over sampled deals of the hidden cards
    EXACT = "exact"  #: phase 2: exact, both hands known
    SWAP = "swap"  #: the Austrian swap out of turn (V7), by the rules of thumb


@dataclass(frozen=True)
class Hint:
    """A move of ``view.legal_moves`` and why, in the learner's words (the page's language).

    ``evaluation`` holds the numbers the move was chosen by (the review's own, for the same position).
    """

    move: Move
    reason: str
    kind: HintKind
    evaluation: Evaluation | None = None

    def __post_init__(self) -> None:
        checked_fields(self)


def hint(view: PlayerView, *, budget: Budget = COURSE) -> Hint:
    """The best advice for ``view``'s player now (see the module notes): the same for the same
    position, on any machine. ``budget`` is the evaluation's (the course's by default: the review's
    too). Raises :class:`NoHint` when there is nothing to advise.
    """
    if not isinstance(view, PlayerView):
        raise TartliError("a hint needs a player's view (state.view(player))")
    checked(budget, Budget, "budget", "Budget(deals=48)")
    moves = view.legal_moves
    me = view.player
    if not moves:
        raise NoHint("the hand is over: there is no move to advise")
    claim = right_claim(view)
    if claim is not None:
        found = view.claim(me)
        if found.buli == 2:
            text = _(
                "You have {total}: a claim of 501 is right now and wins the game, with a maccs "
                "(2 buli) since your opponent has only {other} (S3, S4)."
            )
        else:
            text = _("You have {total}: a claim of 501 is right now and wins the game (S3, S4).")
        return Hint(claim, text.format(total=found.total, other=found.other), HintKind.CLAIM)
    bela = next((m for m in moves if isinstance(m, Bela)), None)
    if bela is not None:
        return Hint(
            bela,
            _(
                "Béla always scores 40, whatever the contest (M3): declare it now, while you hold both the "
                "King and the Over of trumps (B1)."
            ),
            HintKind.BELA,
        )
    if view.to_move != me:
        swap = next((m for m in moves if isinstance(m, Swap)), None)
        if swap is not None and view.indicator is not None and HeuristicBot._swap_is_good(view):
            return Hint(swap, _swap_fact(view), HintKind.SWAP)
        raise NoHint("it is not this player's turn, and no move out of turn is worth making now")
    candidates = [m for m in moves if not isinstance(m, GoOut)]
    if any(isinstance(m, Play) for m in candidates):
        candidates = [m for m in candidates if not isinstance(m, Pass)]  # passing is playing without declaring
    if len(candidates) == 1:
        only = candidates[0]
        if isinstance(only, Play):
            text = _("The {card_The} is the only card you may play (T4).").format(card=only.card.name())
        else:
            text = _("It is the only move you can make now.")
        return Hint(only, text, HintKind.ONLY)
    if view.trick_number > PHASE1_TRICKS:
        return _phase_two(view, budget)
    judged = evaluate(view, budget)
    return Hint(judged.best.move, _phase_one_reason(view, judged), HintKind.SEARCH, evaluation=judged)


class HintBot:
    """A player who always follows the Hint (for benchmarks: ``tartli bench --hint-vs medium``)."""

    name = "hint"

    def __init__(self, *, budget: Budget = COURSE) -> None:
        self.budget = checked(
            budget, Budget, "budget", "Budget(deals=48)"
        )  # the Hint is the same for the same position: it needs no seed

    def choose(self, view: PlayerView) -> Move:
        return hint(view, budget=self.budget).move


# ----------------------------------------------------------------------------- words


def move_phrase(move: Move, view: PlayerView) -> Named:
    """A move as the object of a sentence, in the page's language: "the Ace of Leaves",
    "declaring Acorn-Over-Kvart (50) now", "swapping the trump Seven", "passing".

    It is a :class:`~tartli.names.Named`: a sentence may ask for the move as its means (``{move_ins}``:
    Hungarian "a zöld ásszal", German "mit dem Laub-Daus", "mit dem sofortigen Melden des Unter-Vierlings
    (100)"), as it asks a card's forms."""
    if isinstance(move, Play):
        card = move.card.name()
        return Named(_("the {card_the}").format(card=card), card.forms)
    if isinstance(move, Declare):
        # The melds keep their titles' forms, each with its own article: Hungarian "a király terc (20) és az
        # alsó vannak (100) azonnali bemondásával", German "dem sofortigen Melden der Herz-König-Terz (20) und
        # des Unter-Vierlings (100)" (the role gen is Hungarian's name with its article).
        melds = melds_words(move.melds)
        # Translators: a move named as a thing, the subject or object of a sentence ("the Ace of Leaves" is another).
        plain = _("declaring {melds_gen} now").format(melds=melds)
        # Translators: a move as the means in a sentence: Hungarian instrumental (-val/-vel), German the dative
        # that follows "mit" (without "mit"). The same for the four messages after this one.
        means = _("by declaring {melds_gen} now").format(melds=melds)
    elif isinstance(move, Swap):
        plain, means = _("swapping the trump Seven"), _("by swapping the trump Seven")
    elif isinstance(move, Pass):
        plain, means = _("passing"), _("by passing")
    elif isinstance(move, Bela):
        plain, means = _("declaring béla"), _("by declaring béla")
    else:
        plain, means = _("going out"), _("by going out")
    return Named(plain, {"ins": means, "dat": means})


def _swap_fact(view: PlayerView) -> str:
    assert view.indicator is not None
    return _(
        "The indicator, the {card_the}, is a higher trump than your Seven and worth {points} card points: "
        "swap them (T5)."
    ).format(card=view.indicator.name(), points=view.indicator.points(view.trump))


# ----------------------------------------------------------------------------- facts


def _gone(view: PlayerView) -> int:
    """Cards the opponent can never play against the player: played, or in the player's hand."""
    mask = mask_of(view.hand)
    for _leader, a, b, _w in view.tricks:
        mask |= a.bit | b.bit
    if view.lead is not None:
        mask |= view.lead.bit
    return mask


def _higher_all_gone(view: PlayerView, card: Card) -> bool:
    """Every card of ``card``'s suit that beats it has been played or is the player's."""
    gone = _gone(view)
    return all(
        gone >> other.index & 1
        for other in (Card(r, card.suit) for r in Rank)
        if other.strength(view.trump) > card.strength(view.trump)
    )


def _phase_one_facts(view: PlayerView, move: Move) -> list[str]:
    """True statements about ``move`` in phase 1 (checked against the view)."""
    trump = view.trump
    facts: list[str] = []
    if isinstance(move, Play):
        card = move.card
        if view.lead is None:
            if card.suit is trump and _higher_all_gone(view, card):
                facts.append(
                    _(
                        "Every higher trump has been played or is yours: nothing can beat the {card_acc} "
                        "({points} points)."
                    ).format(card=card.name(), points=card.points(trump))
                )
            elif card.suit is not trump and _higher_all_gone(view, card):
                facts.append(
                    _(
                        "Every higher card of its suit has been played or is yours: only a trump can beat the "
                        "{card_acc} ({points} points)."
                    ).format(card=card.name(), points=card.points(trump))
                )
            elif card.points(trump) == 0:
                facts.append(_("The {card_The} is worth no card points.").format(card=card.name()))
        else:
            lead = view.lead
            points = lead.points(trump) + card.points(trump)
            if _beats(lead, card, trump):
                trumps = [c for c in view.hand if c.suit is trump]
                lowest = min(trumps, key=lambda c: c.strength(trump)) if trumps else None
                if card.suit is trump and lead.suit is not trump and card == lowest:
                    text = _("The {card_The}, your lowest trump, wins the trick: {points} card points for you.")
                else:
                    text = _("The {card_The} wins the trick: {points} card points for you.")
                facts.append(text.format(card=card.name(), points=points))
            elif not any(_beats(lead, c, trump) for c in view.hand):
                facts.append(
                    _(
                        "None of your cards can win the {lead_acc}: the {card_ins} gives away {points} card points."
                    ).format(lead=lead.name(), card=card.name(), points=points)
                )
            else:
                facts.append(
                    _("The {card_ins} lets the trick go: {points} card points for your opponent.").format(
                        card=card.name(), points=points
                    )
                )
    elif isinstance(move, Declare):
        value = sum(m.value for m in move.melds)
        count = len(move.melds)
        # One meld is named without its value, which the sentence gives ("Acorn-Over-Vannak scores 200").
        words = move.melds[0].title() if count == 1 else melds_words(move.melds)
        if view.trick_number < LAST_MELD_TRICK:
            text = ngettext(
                "If your {melds_the} wins the contest, it scores {points} now; a declaration that loses "
                "costs nothing and may be made again while you hold its cards (K5).",
                "If your {melds_the} win the contest, they score {points} now; a declaration that loses "
                "costs nothing and may be made again while you hold their cards (K5).",
                count,
            )
        else:
            text = ngettext(
                "If your {melds_the} wins the contest, it scores {points} now.",
                "If your {melds_the} win the contest, they score {points} now.",
                count,
            )
        facts.append(text.format(melds=words, points=value))
        best = _unbeatable(view, move)
        if best is not None:
            facts.append(
                _("Nothing your opponent can hold beats your {meld_acc}, so {meld_it} wins the contest.").format(
                    meld=best.title()
                )
            )
    elif isinstance(move, Swap) and view.indicator is not None:
        facts.append(_swap_fact(view))
    return facts


def _broken_melds(view: PlayerView, move: Move) -> list[str]:
    """A card played from a meld the player could declare now and has not: that meld can no
    longer score (M7), a fact worth saying in a review."""
    if not isinstance(move, Play):
        return []
    melds = {m for d in view.legal_moves if isinstance(d, Declare) for m in d.melds if m.kind is not MeldKind.BELA}
    broken = sorted((m for m in melds if m.mask & move.card.bit), key=lambda m: (-m.value, str(m)))
    if not broken:
        return []
    meld = broken[0]
    return [
        _(
            "Playing the {card_ins} broke up your {meld_acc} ({points}) before you declared it: "
            "it can no longer score (M7)."
        ).format(card=move.card.name(), meld=meld.title(), points=meld.value)
    ]


def _unbeatable(view: PlayerView, move: Declare) -> Meld | None:
    """The declaration's best item if no meld the opponent may hold can beat it (K2, K6, K7/V5)."""
    rules, trump = view.rules, view.trump
    items = [m for m in move.melds if m.kind is not MeldKind.BELA]
    if not items:
        return None
    mine = max(items, key=lambda m: contest_key(m, trump, rules))
    key = contest_key(mine, trump, rules)
    possible = mask_of(view.unseen) | mask_of(view.opponent_known)
    scored_sets = {m for ms in view.scored_melds for m in ms if m.kind is MeldKind.SET}
    theirs = list(view.scored_melds[1 - view.player])
    second = view.leader != view.player
    for m in sets_in(possible, rules):
        if m not in scored_sets and (contest_key(m, trump, rules) > key or (second and m == mine)):
            return None
    for m in sequences_in(possible):
        if not same_suit_ok(m, theirs, rules):
            continue
        other = contest_key(m, trump, rules)
        if other > key or (other == key and second):
            return None
    return mine


def _phase_one_reason(view: PlayerView, found: Evaluation) -> str:
    top = found.best
    move = top.move
    parts = _phase_one_facts(view, move)
    n = found.samples
    others = [v for v in found.moves[1:] if not isinstance(v.move, Pass)]
    if not others:
        parts.append(_("The search sees no other move worth playing out here."))
        return " ".join(parts)
    if not isinstance(move, Declare):
        declarations = [v for v in others if isinstance(v.move, Declare)]
        if declarations:
            others = declarations  # the question is whether to declare now or hold
    second = min(others, key=lambda v: v.loss)
    other = move_phrase(second.move, view)
    better = round(second.loss)
    won = round(100 * top.won)
    if better > 0:
        parts.append(
            ngettext(
                "Over {n} deals of the hidden cards that fit what you have seen, it ended the hand {points} point "
                "better on average than {other_ins}, and won it in {won}% of them.",
                "Over {n} deals of the hidden cards that fit what you have seen, it ended the hand {points} points "
                "better on average than {other_ins}, and won it in {won}% of them.",
                better,
            ).format(n=n, points=better, other=other, won=won)
        )
    else:
        parts.append(
            _(
                "Over {n} deals of the hidden cards that fit what you have seen, it won the hand in {won}% of them "
                "(on average {diff:+d} against your opponent); {other_ins} won it in {won2}% of them (on average "
                "{diff2:+d})."
            ).format(
                n=n,
                won=won,
                diff=round(top.value),
                other=other,
                won2=round(100 * second.won),
                diff2=round(second.value),
            )
        )
    why = cause(view, found, second.move, second.loss)
    if why is not None:
        parts.append(why)
    return " ".join(parts)


# ----------------------------------------------------------------------------- phase 2


def _phase_two(view: PlayerView, budget: Budget) -> Hint:
    found = evaluate(view, budget)  # exact, over the moves the view offers
    state = phase_two_state(view, random.Random(position_seed(view)))
    top = max(v.value for v in found.moves)
    best = [v.move for v in found.moves if v.value == top]
    # On equal values: a play (or a pass) before a declaration that gains nothing; of the plays,
    # the one that does best against the rules of thumb.
    plays = [m for m in best if isinstance(m, Play)]
    if plays:
        move: Move = plays[0]
        if len(plays) > 1 and view.trick_number > LAST_MELD_TRICK:
            against = against_rules_of_thumb(state)
            move = max(plays, key=lambda m: (against[m], -plays.index(m)))
    else:
        move = best[0]
    return Hint(move, _phase_two_reason(view, state, found, move), HintKind.EXACT, evaluation=found)


def _sure(state: HandState, card: Card) -> bool:
    """Phase 2: no card the opponent may play to this lead beats it (T4)."""
    me = state.to_move
    assert me is not None
    theirs = state.hand(1 - me)
    follow = [c for c in theirs if c.suit is card.suit] or [c for c in theirs if c.suit is state.trump] or theirs
    return not any(_beats(card, c, state.trump) for c in follow)


def _phase_two_reason(view: PlayerView, state: HandState, found: Evaluation, move: Move) -> str:
    parts: list[str] = []
    chosen = found.of(move)
    if isinstance(move, Declare):
        plain = max((v for v in found.moves if not isinstance(v.move, Declare)), key=lambda v: v.value, default=None)
        gain = round(chosen.value - plain.value) if plain is not None else 0
        parts.append(
            ngettext(
                "Trick 8 is the last one for melds (M4): against your opponent's best answer, declaring "
                "{melds_acc} gains you {points} point.",
                "Trick 8 is the last one for melds (M4): against your opponent's best answer, declaring "
                "{melds_acc} gains you {points} points.",
                gain,
            ).format(melds=melds_words(move.melds), points=gain)
        )
    elif isinstance(move, Play):
        card = move.card
        points = chosen.card_points
        assert points is not None
        if view.lead is None and _sure(state, card):
            parts.append(_("Nothing in your opponent's hand can beat the {card_acc}.").format(card=card.name()))
        plays = [v for v in found.moves if isinstance(v.move, Play)]
        lower = [v for v in plays if v.card_points is not None and v.card_points < points]
        if points == TOTAL_CARD_POINTS:
            parts.append(
                _("With best play on both sides the {card_ins} takes all {total} card points.").format(
                    card=card.name(), total=TOTAL_CARD_POINTS
                )
            )
        elif not lower:
            parts.append(
                _("With best play on both sides every card you may play leaves you {points} card points.").format(
                    points=points
                )
            )
        if lower:
            other = max(lower, key=lambda v: (v.card_points, -plays.index(v)))
            assert isinstance(other.move, Play)
            parts.append(
                _(
                    "With best play on both sides the {card_ins} leaves you {points} card points, "
                    "the {other_ins} only {fewer}."
                ).format(card=card.name(), points=points, other=other.move.card.name(), fewer=other.card_points)
            )
    margin = round(chosen.value)
    if margin > 0:
        parts.append(
            ngettext(
                "So you win this hand by {points} point (melds and cards).",
                "So you win this hand by {points} points (melds and cards).",
                margin,
            ).format(points=margin)
        )
    elif margin < 0:
        parts.append(
            ngettext(
                "Even so you lose this hand by {points} point (melds and cards): no move does better.",
                "Even so you lose this hand by {points} points (melds and cards): no move does better.",
                -margin,
            ).format(points=-margin)
        )
    else:
        parts.append(_("So this hand ends level (melds and cards)."))
    return " ".join(parts)

"""The variants quiz of lesson 11: the same question under the Hungarian, Pais and Austrian rules.

:class:`VariantQuiz` poses a position under one of the three rule sets
(:meth:`RuleSet.hungarian`, :meth:`RuleSet.pais`, :meth:`RuleSet.austrian`) and
asks what that rule set allows or gives:

* ``four-nines``: may the leader declare four Nines? (M2, V3)
* ``two-sequences``: may the leader declare two sequences in one trick? (M5, V4)
* ``same-suit``: may a player add this sequence to the one they scored in that suit? (K7, V5)
* ``swap``: may this player swap the trump Seven now? (T5, V7)
* ``bela``: may this player score béla now, as a move of its own? (B1, B2)
* ``stichmatsch``: does winning all of tricks 8-16 take all 161 card points here? (S2, V9)
* ``double``: a player goes out: is it a double (maccs)? (S4, V10)
* ``dealer``: who deals the next hand? (D2, V2)
* ``indicator``: may the non-dealer choose this card as the trump card? (D1, V1)

No verdict is decided here: a move is pushed on a copy of the position's
:class:`~tartli.game.HandState` and accepted or refused by the engine (whose
message names the rule); a stichmatsch, a double and the next dealer are read
from the engine's finished or claimed hand and from :class:`~tartli.match.Match`;
the indicator from dealing with :meth:`HandState.from_seed`.

Headless use (tests, lessons)::

    quiz = VariantQuiz(seed=3, kinds=("four-nines",))
    quiz.answer(quiz.truth)        # or press one of the answer buttons
    quiz.solved, quiz.stars        # (True, 3)

:func:`rule_options` lists the options of :class:`RuleSet` with the sentence
``tartli/rules.py`` documents each with, for a table of the differences.
"""

from __future__ import annotations

import ast
import dataclasses
import inspect
import random
from collections.abc import Callable
from typing import Any

from tartli.cards import CARDS, SUITS, Card, Rank, Suit
from tartli.errors import IllegalMoveError, TartliError
from tartli.game import MACCS_LIMIT, PHASE1_TRICKS, WINNING_SCORE, Deal, HandState, trick_winner
from tartli.match import Match
from tartli.melds import SEQUENCES, Meld, MeldKind
from tartli.moves import Bela, Declare, GoOut, Move, Pass, Play, Swap, coerce_move
from tartli.names import agree
from tartli.render.cards import back_svg, card_svg
from tartli.render.table import hand_svg
from tartli.rules import RuleSet
from tartli.widgets.quiz import PLAYERS, Answer, _Quiz, does, who, whose
from tartli.widgets.trainers import _GOLD, _Canvas, _play_randomly, _random_hand

__all__ = ["RULE_SET_NAMES", "VariantQuiz", "move_words", "rule_options"]

RULE_SET_NAMES = {
    "hungarian": "Hungarian rules (the default)",
    "pais": "Hungarian rules with Pais's béla rule (B2)",
    "austrian": "Austrian Tartl, after Beck (V1-V11)",
}
"""The three presets by name, in words."""

_ORDINAL = {1: "4th", 2: "7th", 3: "10th", 4: "13th", 5: "16th", 6: "19th"}


# ---------------------------------------------------------------------------- the options, documented once
def rule_options() -> list[tuple[str, str, dict[str, object]]]:
    """Every option of :class:`RuleSet`: (name, its documentation in rules.py, value in each preset).

    The documentation is the docstring written under the field in ``tartli/rules.py``,
    so a table of differences is not typed twice.

    >>> [name for name, _, values in rule_options() if values["pais"] != values["hungarian"]]
    ['bela_at_declaration']
    """
    docs: dict[str, str] = {}
    body = ast.parse(inspect.getsource(RuleSet)).body[0]
    assert isinstance(body, ast.ClassDef)
    for node, after in zip(body.body, body.body[1:], strict=False):
        if (
            isinstance(node, ast.AnnAssign)
            and isinstance(node.target, ast.Name)
            and isinstance(after, ast.Expr)
            and isinstance(after.value, ast.Constant)
            and isinstance(after.value.value, str)
        ):
            docs[node.target.id] = " ".join(after.value.value.replace("``", "").split())
    presets = {name: RuleSet.named(name) for name in RULE_SET_NAMES}
    return [
        (f.name, docs.get(f.name, ""), {name: getattr(rules, f.name) for name, rules in presets.items()})
        for f in dataclasses.fields(RuleSet)
    ]


def move_words(move: Move | str, names: tuple[str, str] = PLAYERS) -> str:
    """A move in plain words, for a page that lists moves: ``move_words("0: bela")``.

    ``names`` are the two players' names, by default "You" (player 0) and "The computer".

    >>> move_words("1: declare kvart:XB terc:XL")
    'The computer declares the Bell-Ten-Kvart and the Leaf-Ten-Terc'
    >>> move_words("0: out")
    'You go out (claim 501)'
    """
    move = coerce_move(move)
    name = names[move.player]

    def says(third: str, second: str) -> str:
        return f"{name} {agree(name, third, second)}"

    if isinstance(move, Play):
        return f"{says('plays', 'play')} the {move.card.name()}"
    if isinstance(move, Declare):
        return f"{says('declares', 'declare')} " + " and ".join(
            "béla" if m.kind is MeldKind.BELA else f"the {m.title()}" for m in move.melds
        )
    if isinstance(move, Bela):
        return f"{says('calls', 'call')} béla on its own"
    if isinstance(move, Swap):
        return f"{says('swaps', 'swap')} the trump Seven for the trump card"
    if isinstance(move, Pass):
        return says("passes", "pass")
    return f"{says('goes', 'go')} out ({agree(name, 'claims', 'claim')} 501)"


# ---------------------------------------------------------------------------- helpers
def _deal_with(
    rng: random.Random, first: list[Card], second: list[Card], trump: Suit | None = None, indicator: Card | None = None
) -> Deal:
    """A deal (player 1 deals, so player 0 leads) where player 0 holds ``first`` and player 1 ``second``;
    the rest of each hand, the indicator (of the suit ``trump`` if given) and the talon are drawn at
    random from the other cards."""
    rest = [c for c in CARDS if c not in first and c not in second and c != indicator]
    rng.shuffle(rest)
    if indicator is None:
        indicator = next(c for c in rest if trump is None or c.suit is trump)
        rest.remove(indicator)
    hand0 = first + [rest.pop() for _ in range(9 - len(first))]
    hand1 = second + [rest.pop() for _ in range(9 - len(second))]
    return Deal(dealer=1, hands=(tuple(hand0), tuple(hand1)), indicator=indicator, talon=tuple(rest))


def _suit_cards(suit: Suit, ranks: str) -> list[Card]:
    return [Card(Rank(r), suit) for r in ranks]


def _strongest(cards: list[Card], trump: Suit) -> Card:
    return max(cards, key=lambda c: (c.suit is trump, c.strength(trump)))


def _start_of(trick: int) -> Callable[[HandState], bool]:
    """Stop when trick ``trick`` is about to be led."""

    def stop(state: HandState) -> bool:
        return state.trick_number == trick and state.lead is None

    return stop


class VariantQuiz(_Quiz):
    """Questions on what the Hungarian, Pais and Austrian rules allow, each judged by the engine."""

    id = "variant-quiz"
    title = "Which rules? A variants quiz"
    instruction = "Read the rule set at the top of the picture, then answer."

    KINDS = (
        "four-nines",
        "two-sequences",
        "same-suit",
        "swap",
        "bela",
        "stichmatsch",
        "double",
        "dealer",
        "indicator",
    )
    PLAYER_KINDS = ("dealer",)
    LEGALITY_KINDS = ("four-nines", "two-sequences", "same-suit", "swap", "bela")
    """The kinds answered by pushing ``move`` on ``state``."""

    rules_name: str
    rules: RuleSet
    move: Move | None
    match: Match | None
    packet: int
    deal_seed: int

    def __init__(self, seed: int | None = None, **kw: Any) -> None:
        self.move = None
        self.match = None
        self.packet = 6
        self.deal_seed = 0
        super().__init__(seed, **kw)

    # -- positions
    def _pose(self) -> None:
        rng = self.rng
        self.rules_name = rng.choice(tuple(RULE_SET_NAMES))
        self.rules = RuleSet.named(self.rules_name)
        self.move, self.match = None, None
        getattr(self, "_pose_" + self.kind.replace("-", "_"))()
        if self.kind in self.LEGALITY_KINDS:
            self.choices = [("Yes, that is allowed", True), ("No, that is refused", False)]
        elif self.kind == "dealer":
            self.choices = self._player_choices()
        else:
            self.choices = [("Yes", True), ("No", False)]

    def _under(self) -> str:
        return {"hungarian": "Under the Hungarian rules", "pais": "Under the Pais rules"}.get(
            self.rules_name, "Under the Austrian rules"
        )

    def _pose_four_nines(self) -> None:
        nines = [Card(Rank.NINE, s) for s in SUITS]
        self.state = HandState(_deal_with(self.rng, nines, []), self.rules)
        self.move = Declare(0, (Meld.parse("vannak:9"),))
        self.question = f"{self._under()}, may you declare four Nines (a Nine-vannak) before leading?"

    def _pose_two_sequences(self) -> None:
        rng = self.rng
        if rng.random() < 0.3:  # two sequences in one suit, a card apart
            suit = rng.choice(SUITS)
            first, second = Meld.parse(f"terc:A{suit.value}"), Meld.parse(f"terc:9{suit.value}")
        else:
            a, b = rng.sample(SUITS, 2)
            first = rng.choice([m for m in SEQUENCES if m.suit is a and m.length == 3])
            second = rng.choice([m for m in SEQUENCES if m.suit is b and m.length in (3, 4)])
        held = first.cards() + second.cards()
        self.state = HandState(_deal_with(rng, held, []), self.rules)
        self.move = Declare(0, (first, second))
        self.question = (
            f"{self._under()}, may you declare the {first.title()} and the {second.title()} together, "
            "in this one trick?"
        )

    def _pose_same_suit(self) -> None:
        rng = self.rng
        trump = rng.choice(SUITS)
        suit = rng.choice([s for s in SUITS if s is not trump])
        in_suit = [m for m in SEQUENCES if m.suit is suit and m.length <= 5]
        for _ in range(100):
            scored = rng.choice([m for m in in_suit if m.length in (3, 4)])
            new = rng.choice(in_suit)
            lo, hi = scored.top.rank.index, scored.top.rank.index + scored.length - 1
            near = lo - 2 <= new.top.rank.index <= hi + 2
            if new != scored and near and len(set(scored.cards() + new.cards())) <= 7:
                break
        held = [*sorted(set(scored.cards() + new.cards())), Card(Rank.OVER, trump)]
        state = HandState(_deal_with(rng, held, [], indicator=Card(Rank.SEVEN, trump)), self.rules)
        state.push(Declare(0, (scored,)))
        state.push(Play(0, Card(Rank.OVER, trump)))  # the top trump: player 0 wins trick 1 and leads trick 2
        state.push(Play(1, rng.choice(state.hand(1))))
        self.state = state
        self.move = Declare(0, (new,))
        self.question = (
            f"{self._under()}: you scored the {scored.title()} in trick 1. "
            f"May you declare the {new.title()} now, in trick 2?"
        )

    def _pose_swap(self) -> None:
        rng = self.rng
        trump = rng.choice(SUITS)
        seven = Card(Rank.SEVEN, trump)
        case = rng.choice(("second", "second", "declared", "leader"))
        if case == "leader":
            self.state = HandState(_deal_with(rng, [seven], [], trump), self.rules)
            self.move = Swap(0)
            self.question = (
                f"{self._under()}, may you, about to lead trick 1, swap the trump Seven for the trump indicator now?"
            )
            return
        held = _suit_cards(trump, "987") if case == "declared" else [seven]
        others = [c for c in CARDS if c.suit is not trump]
        state = HandState(_deal_with(rng, [rng.choice(others)], held, trump), self.rules)
        lead = rng.choice([c for c in state.hand(0) if c.suit is not trump])
        state.push(Play(0, lead))
        if case == "declared":
            state.push(Declare(1, (Meld.parse(f"terc:9{trump.value}"),)))
        self.state = state
        self.move = Swap(1)
        said = ", after declaring a terc that holds it," if case == "declared" else ""
        self.question = (
            f"{self._under()}: you have led. May the computer{said} swap the trump Seven for the indicator now, "
            "in the middle of the trick?"
        )

    def _pose_bela(self) -> None:
        rng = self.rng
        trump = rng.choice(SUITS)
        pair = _suit_cards(trump, "KO")
        p = rng.randint(0, 1)
        self.state = HandState(_deal_with(rng, pair if p == 0 else [], pair if p == 1 else [], trump), self.rules)
        self.move = Bela(p)
        when = "before leading trick 1" if p == 0 else "before you have led trick 1 (not its turn)"
        self.question = (
            f"{self._under()}, may {who(p, start=False)}, holding the King and Over of trumps, score béla right now, "
            f"{when}, as a move of its own?"
        )

    def _pose_stichmatsch(self) -> None:
        rng = self.rng
        want_sweep = rng.random() < 0.7
        state = _random_hand(rng, self.rules)
        for _ in range(300):
            state = _random_hand(rng, self.rules)
            _play_randomly(state, rng, lambda s: s.trick_number > PHASE1_TRICKS)
            self._play_phase_two(state, sweep=want_sweep)
            phase2 = state.trick_winners[PHASE1_TRICKS:]
            if state.is_over and len(set(phase2)) == 1 and want_sweep:
                break
            if state.is_over and not want_sweep and max(phase2.count(0), phase2.count(1)) >= 7:
                break
        self.state = state
        phase2 = state.trick_winners[PHASE1_TRICKS:]
        best = max((0, 1), key=phase2.count)
        self.question = (
            f"{self._under()}: {who(best, start=False)} won {phase2.count(best)} of the 9 tricks of phase 2. "
            f"{agree(who(best), 'Does', 'Do')} {who(best, start=False)} take all 161 card points (a stichmatsch)?"
        )

    def _play_phase_two(self, state: HandState, *, sweep: bool) -> None:
        """Tricks 8-16: the leader leads their strongest card; the second plays a card that loses
        (if ``sweep``) or one at random. Only choices: the engine decides who wins."""
        rng = self.rng
        while not state.is_over:
            plays = [m for m in state.legal_moves() if isinstance(m, Play)]
            if state.lead is None:
                card = _strongest([m.card for m in plays], state.trump)
                state.push(Play(state.leader, card))
                continue
            losing = [m for m in plays if trick_winner(state.lead, m.card, state.trump) == 0]
            state.push(rng.choice(losing if sweep and losing else plays))

    def _pose_double(self) -> None:
        rng = self.rng
        p = rng.randint(0, 1)
        loser_total = rng.choice((248, 249, 249, 250, 250, 250, 251, 252))
        mine = rng.randint(495, 500) if rng.random() < 0.12 else rng.randint(WINNING_SCORE, 540)
        for _ in range(100):
            probe = _random_hand(rng, self.rules)
            trick = rng.randint(2, 5)
            _play_randomly(probe, rng, _start_of(trick))
            gained = probe.totals
            scores = [0, 0]
            scores[p], scores[1 - p] = mine - gained[p], loser_total - gained[1 - p]
            if min(scores) >= 0 and not probe.is_over:
                break
        state = HandState(probe.deal, self.rules, scores)
        state.push_many(probe.moves)
        self.state = state
        self.move = GoOut(p)
        q = 1 - p
        self.question = (
            f"{self._under()}: {does(p, 'goes', 'go', start=False)} out with {state.total(p)}; "
            f"{does(q, 'has', 'have', start=False)} {state.total(q)}. "
            "Is the game won double (maccs)?"
        )

    def _pose_dealer(self) -> None:
        rng = self.rng
        match = Match(self.rules, seed=rng.randrange(10**9), first_dealer=rng.randint(0, 1))
        _play_randomly(match.state, rng, lambda s: False)
        match.next_hand()
        self.match, self.state = match, match.state
        last = match.results[-1]
        gained = [last.meld_points[p] + last.card_points[p] for p in (0, 1)]
        self.question = (
            f"{self._under()}: {who(last.dealer, start=False)} dealt the hand just played, in which you scored "
            f"{gained[0]} and the computer scored {gained[1]}. Who deals the next hand?"
        )

    def _pose_indicator(self) -> None:
        rng = self.rng
        self.deal_seed = rng.randrange(10**6)
        self.packet = rng.choice((1, 2, 3, 4, 5, 5, 6))
        self.state = HandState.from_seed(self.deal_seed, self.rules)
        self.question = (
            f"{self._under()}, may the non-dealer ask for the {_ORDINAL[self.packet]} card of the pack "
            "(the card after packet " + f"{self.packet} of three) to be turned up as the trump card?"
        )

    # -- the verdicts
    def _try(self) -> IllegalMoveError | None:
        """Push ``move`` on a copy of the position: None if the engine accepts it, else its refusal."""
        assert self.move is not None
        try:
            self.state.copy().push(self.move)
        except IllegalMoveError as err:
            return err
        return None

    def _claimed(self) -> HandState:
        after = self.state.copy()
        assert self.move is not None
        after.push(self.move)
        return after

    def _deal_refusal(self) -> TartliError | None:
        try:
            HandState.from_seed(self.deal_seed, self.rules, indicator_packet=self.packet)
        except TartliError as err:
            return err
        return None

    @property
    def truth(self) -> Answer:
        if self.kind in self.LEGALITY_KINDS:
            return self._try() is None
        if self.kind == "stichmatsch":
            return self.state.stichmatsch is not None  # S2, V9: the engine's finished hand
        if self.kind == "double":
            return max(self._claimed().buli) == 2  # S4, V10: the engine's award for the claim
        if self.kind == "dealer":
            assert self.match is not None
            return self.match.dealer  # D2, V2: the dealer the match chose
        return self._deal_refusal() is None  # V1: the engine deals with that indicator, or refuses

    def explain(self) -> str:
        return str(getattr(self, "_explain_" + self.kind.replace("-", "_"))())

    def _refusal(self) -> str:
        err = self._try()
        return f"the engine refuses it: “{err}”." if err is not None else ""

    def _explain_four_nines(self) -> str:
        if self.truth:
            return (
                "four Nines are a set worth 150 in the Hungarian game (M2), and Pais's rule changes only béla. "
                "Only the Austrian rules have no Nine-vannak (V3)."
            )
        return (
            f"{self._refusal()} Beck's Austrian game knows no set of four Nines (V3); "
            "four Overs, Aces, Tens, Kings and Unders remain."
        )

    def _explain_two_sequences(self) -> str:
        if self.truth:
            return (
                "under the Austrian rules several sequences may be declared in one trick, "
                "each in a different suit (V4)."
            )
        if self.rules.several_sequences:
            return f"{self._refusal()} Several sequences in one trick are allowed only in different suits (V4)."
        return (
            f"{self._refusal()} The Hungarian rules allow one set and one sequence a trick (M5); "
            "only the Austrian rules allow several sequences, one per suit (V4)."
        )

    def _explain_same_suit(self) -> str:
        rule = "V5" if self.rules.same_suit_rule == "austrian" else "K7"
        other = (
            "The Austrian rule only forbids a new sequence lying wholly inside one already scored in the suit (V5)."
            if rule == "V5"
            else "The Hungarian rule (K7) asks more than the Austrian one (V5), which only forbids a new sequence "
            "lying wholly inside one already scored."
        )
        if self.truth:
            return f"the engine accepts it under {rule}. {other}"
        return f"{self._refusal()} {other}"

    def _explain_swap(self) -> str:
        if self.truth:
            if self.rules.swap_any_time:
                return (
                    "under the Austrian rules the holder of the trump Seven may swap it at any moment "
                    "while the indicator lies out (V7)."
                )
            return (
                "the player about to lead may swap before declaring or leading (T5); "
                "the Austrian rules allow it at any moment (V7)."
            )
        if self.rules.swap_any_time:
            return (
                f"{self._refusal()} The Austrian swap is open at any moment, but a 7 swapped in a trick may not be "
                "part of a sequence declared in that trick (V7)."
            )
        return (
            f"{self._refusal()} Only the Austrian rules let the holder swap at any moment, "
            "even in the middle of a trick (V7)."
        )

    def _explain_bela(self) -> str:
        if self.truth:
            return (
                "béla may be declared and scored at any moment of tricks 1-8, also out of turn (B1). Only Pais's "
                "rule keeps it for the declaration, to score at step 7 (B2)."
            )
        return (
            f"{self._refusal()} Under Pais's rule béla is declared with the player's other melds and scores at "
            "step 7 of the trick (B2)."
        )

    def _explain_stichmatsch(self) -> str:
        state = self.state
        phase2 = state.trick_winners[PHASE1_TRICKS:]
        if len(set(phase2)) != 1:
            return (
                "a stichmatsch needs all nine tricks of phase 2 (S2), and here both players won some, "
                "so each keeps their own card points. (The Austrian rules have no stichmatsch at all, V9.)"
            )
        if self.truth:
            return (
                f"{who(phase2[0])} won all of tricks 8-16, so {does(phase2[0], 'takes', 'take', start=False)} "
                f"all 161 card points and {who(1 - phase2[0], start=False)} none (S2); only the Austrian rules drop "
                "this (V9). The engine ends the hand with "
                f"{state.card_points[0]} card points for you and {state.card_points[1]} for the computer."
            )
        return (
            "the Austrian rules have no stichmatsch (V9): each player keeps the card points of the tricks "
            f"they won, here {state.card_points[0]} for you and {state.card_points[1]} for the computer."
        )

    def _explain_double(self) -> str:
        after = self._claimed()
        assert self.move is not None
        p = self.move.player
        q = 1 - p
        mine, theirs = self.state.total(p), self.state.total(q)
        if after.out is not None and not after.out[1]:
            return (
                f"{does(p, 'has', 'have')} only {mine}, under 501: a wrong claim, and "
                f"{does(q, 'wins', 'win', start=False)} a single game (S4, V10)."
            )
        if self.rules.single_games:
            verdict = "below 250, so a double" if theirs < MACCS_LIMIT else "not below 250, so no double"
            return (
                f"the Austrian loser pays double only with less than 250 (V10); "
                f"{does(q, 'has', 'have', start=False)} {theirs}, {verdict}. "
                "(The Hungarian maccs counts 250 itself, S4.)"
            )
        verdict = "250 or less: a maccs, 2 buli" if theirs <= MACCS_LIMIT else "more than 250: 1 buli"
        return (
            f"the Hungarian maccs needs the loser at 250 or less (S4); "
            f"{does(q, 'has', 'have', start=False)} {theirs}, {verdict}. "
            "(Under the Austrian rules exactly 250 would not be double, V10.)"
        )

    def _explain_dealer(self) -> str:
        assert self.match is not None
        last = self.match.results[-1]
        if self.rules.winner_deals:
            return (
                f"under the Austrian rules the winner of a hand deals the next (V2); the engine reads the winner "
                f"as the player who scored more in it: {who(self.match.dealer, start=False)}."
            )
        return (
            f"the deal alternates (D2): {who(last.dealer, start=False)} dealt, so "
            f"{does(1 - last.dealer, 'deals', 'deal', start=False)} next, "
            "whoever won. Only the Austrian rules give the deal to the winner (V2)."
        )

    def _explain_indicator(self) -> str:
        err = self._deal_refusal()
        if err is not None:
            return f"the engine refuses to deal so: “{err}”. The usual trump card is the 19th, after the deal (D1)."
        if self.packet == 6:
            return "the 19th card, right after the two hands, is the usual trump card under every rule set (D1, V1)."
        return (
            "under the Austrian rules the non-dealer may choose the card after any packet of three: "
            "the 4th, 7th, 10th, 13th, 16th or 19th (V1)."
        )

    # -- the picture
    def _picture(self) -> str:
        canvas = _Canvas(self.question, min_width=640)
        canvas.text(f"Rules: {RULE_SET_NAMES[self.rules_name]}", size=17, weight="bold", fill=_GOLD)
        getattr(self, "_draw_" + self.kind.replace("-", "_"), self._draw_hand)(canvas)
        return canvas.svg()

    def _card(self, card: Card, width: float = 72) -> str:
        return card_svg(card, language=self.language, width=width, trump=card.suit is self.state.trump)

    def _draw_hand(self, canvas: _Canvas) -> None:
        """The position: trumps and trick, the lead and the indicator, the hand of the player asked about."""
        state = self.state
        self._header(canvas)
        assert self.move is not None
        p = self.move.player
        if self.kind == "same-suit":
            scored = ", ".join(m.title(self.language) for m in state.scored_melds[0])
            canvas.text(f"You won trick 1 and scored: {scored}.", size=14)
        if state.lead is not None:
            canvas.text(f"{does(state.leader, 'has', 'have')} led the {self.card_name(state.lead)}:", size=14)
            canvas.row([(self._card(state.lead), None)])
        said = state.declared[p]
        if said:
            melds = ", ".join(m.title(self.language) for m in said)
            canvas.text(f"{does(p, 'has', 'have')} declared: {melds}.", size=14)
        if state.indicator is not None:
            canvas.text("The indicator:", size=14)
            canvas.row([(self._card(state.indicator, 60), None)])
        marked: list[Card] = []
        if isinstance(self.move, Declare):
            marked = [c for m in self.move.melds for c in m.cards(state.trump)]
        elif isinstance(self.move, Swap):
            marked = [Card(Rank.SEVEN, state.trump)]
        elif isinstance(self.move, Bela):
            marked = _suit_cards(state.trump, "KO")
        canvas.text(f"{whose(p)} hand:", size=14)
        hand = hand_svg(
            state.hand(p),
            language=self.language,
            trump=state.trump,
            highlighted=marked,
            card_width=canvas.card_width(len(state.hand(p)), 72),
        )
        canvas.row([(hand, None)])

    def _draw_stichmatsch(self, canvas: _Canvas) -> None:
        state = self.state
        self._header(canvas, "the hand has been played out")
        winners = state.trick_winners
        for span, first, won in (("1-7", 1, winners[:PHASE1_TRICKS]), ("8-16", 8, winners[PHASE1_TRICKS:])):
            listed = [
                f"{who(p, start=False)} won {', '.join(str(first + i) for i, w in enumerate(won) if w == p) or 'none'}"
                for p in (0, 1)
            ]
            canvas.text(f"Tricks {span}: " + "; ".join(listed), size=14)
        canvas.text("The nine tricks of phase 2 (lead, then second card):", size=14)
        row = []
        for _, lead, second, _ in state.tricks[PHASE1_TRICKS:]:
            row.append((hand_svg([lead, second], language=self.language, trump=state.trump, card_width=40), None))
        canvas.row(row, gap=8)

    def _draw_double(self, canvas: _Canvas) -> None:
        state = self.state
        self._header(canvas)
        assert self.move is not None
        p = self.move.player
        for q in (p, 1 - p):
            canvas.text(
                f"{who(q)}: {state.scores_in[q]} before this hand + {state.meld_points[q]} in melds "
                f"+ {state.card_points[q]} in tricks = {state.total(q)}",
                size=14,
            )
        canvas.text(f"{does(p, 'says', 'say')}: “I am out!”", size=15, weight="bold")

    def _draw_dealer(self, canvas: _Canvas) -> None:
        assert self.match is not None
        last = self.match.results[-1]
        canvas.text(f"Hand 1 was dealt by {who(last.dealer, start=False)}.", size=14)
        canvas.text(
            f"Points scored in it: you {last.meld_points[0] + last.card_points[0]}, "
            f"the computer {last.meld_points[1] + last.card_points[1]} (nobody reached 501).",
            size=14,
        )
        canvas.text("Now hand 2 is about to be dealt.", size=14)

    def _draw_indicator(self, canvas: _Canvas) -> None:
        canvas.text("The pack is dealt in packets of three; the card asked for is marked.", size=14)
        canvas.y += 8
        y = canvas.y
        x = 16.0
        for position in range(1, 20):
            if canvas.fit is not None and position % 3 == 1 and x + 3 * 30 > canvas.fit - 16:  # a phone: next row
                x, y = 16.0, y + 72
            canvas.place(back_svg(width=26), x, y)
            if position == 3 * self.packet + 1:
                canvas.parts.append(
                    f'<rect x="{x - 3}" y="{y - 3}" width="32" height="48" rx="4" fill="none" '
                    f'stroke="{_GOLD}" stroke-width="3"/>'
                )
                canvas.label(x - 2, y + 60, f"card {position}", size=12, weight="bold")
            x += 30 + (8 if position % 3 == 0 else 0)
        canvas.y = y + 66

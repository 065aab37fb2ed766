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

from tartli import names as _names
from tartli.cards import CARDS, SUITS, Card, Rank, Suit
from tartli.errors import IllegalMoveError, TartliError
from tartli.game import MACCS_LIMIT, PHASE1_TRICKS, WINNING_SCORE, Deal, HandState, trick_winner
from tartli.i18n import N_, _, joined, language, the
from tartli.match import Match
from tartli.melds import SEQUENCES, Meld, MeldKind
from tartli.moves import Bela, Declare, GoOut, Move, Pass, Play, Swap, coerce_move
from tartli.names import Named
from tartli.render.cards import back_svg, card_svg
from tartli.render.table import hand_svg
from tartli.rules import RuleSet
from tartli.widgets.quiz import PLAYERS, Answer, _by, _Quiz, who
from tartli.widgets.trainers.base import _play_randomly, _random_hand
from tartli.widgets.trainers.canvas import _GOLD, _Canvas

__all__ = ["RULE_SET_NAMES", "VariantQuiz", "move_words", "rule_options"]

RULE_SET_NAMES = {
    "hungarian": N_("Hungarian rules (the default)"),
    "pais": N_("Hungarian rules with Pais's béla rule (B2)"),
    "austrian": N_("Austrian Tartl, after Beck (V1-V11)"),
}
"""The three presets by name, in words (English: ``_(RULE_SET_NAMES[name])`` in the page's language)."""

_ORDINAL = {1: N_("4th"), 2: N_("7th"), 3: N_("10th"), 4: N_("13th"), 5: N_("16th"), 6: N_("19th")}


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
    """A move in plain words, in the page's language, for a page that lists moves: ``move_words("0: bela")``.

    ``names`` are the two players' names, by default "You" (player 0) and "The computer"; a name
    "You" is spoken to, any other is spoken about.

    >>> move_words("1: declare kvart:XB terc:XL")
    'The computer declares the Bell-Ten-Kvart and the Leaf-Ten-Terc'
    >>> move_words("0: out")
    'You go out (claim 501)'
    """
    move = coerce_move(move)
    lang = language()
    name = names[move.player]
    you = name in (PLAYERS[0], _(PLAYERS[0]))
    if names is PLAYERS:
        name = _(name)
    if isinstance(move, Play):
        text = _("You play the {card}") if you else _("{name} plays the {card}")
        return text.format(name=name, card=move.card.name(lang))
    if isinstance(move, Declare):
        said = [
            Named(_names.BELA_NAME[lang], m.title(lang).forms) if m.kind is MeldKind.BELA else the(m.title(lang))
            for m in move.melds
        ]
        melds = said[0]
        for more in said[1:]:  # (the forms of the names go with them: "Du meldest {melds.acc}")
            melds = joined([melds, more], _("{melds} and {meld}"), "melds", "meld")
        text = _("You declare {melds}") if you else _("{name} declares {melds}")
        return text.format(name=name, melds=melds)
    if isinstance(move, Bela):
        text = _("You call béla on its own") if you else _("{name} calls béla on its own")
    elif isinstance(move, Swap):
        text = (
            _("You swap the trump Seven for the trump card")
            if you
            else _("{name} swaps the trump Seven for the trump card")
        )
    elif isinstance(move, Pass):
        text = _("You pass") if you else _("{name} passes")
    else:
        text = _("You go out (claim 501)") if you else _("{name} goes out (claims 501)")
    return text.format(name=name)


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
    hand0 = first + [rest.pop() for _try in range(9 - len(first))]
    hand1 = second + [rest.pop() for _try in range(9 - len(second))]
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
    title = N_("Which rules? A variants quiz")
    instruction = N_("Read the rule set at the top of the picture, then answer.")

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
            self.choices = [(_("Yes, that is allowed"), True), (_("No, that is refused"), False)]
        elif self.kind == "dealer":
            self.choices = self._player_choices()
        else:
            self.choices = [(_("Yes"), True), (_("No"), False)]

    def _under(self) -> str:
        """The rule set in force, to start a question: "Under the Pais rules"."""
        if self.rules_name == "hungarian":
            return _("Under the Hungarian rules")
        if self.rules_name == "pais":
            return _("Under the Pais rules")
        return _("Under the Austrian rules")

    def _meld(self, meld: Meld) -> str:
        return meld.title(self.language)

    def _pose_four_nines(self) -> None:
        nines = [Card(Rank.NINE, s) for s in SUITS]
        self.state = HandState(_deal_with(self.rng, nines, []), self.rules)
        self.move = Declare(0, (Meld.parse("vannak:9"),))
        self.question = _("{rules}, may you declare four Nines (a Nine-vannak) before leading?").format(
            rules=self._under()
        )

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
        self.question = _("{rules}, may you declare the {first} and the {second} together, in this one trick?").format(
            rules=self._under(), first=self._meld(first), second=self._meld(second)
        )

    def _pose_same_suit(self) -> None:
        rng = self.rng
        trump = rng.choice(SUITS)
        suit = rng.choice([s for s in SUITS if s is not trump])
        in_suit = [m for m in SEQUENCES if m.suit is suit and m.length <= 5]
        for _try in range(100):
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
        self.question = _(
            "{rules}: you scored the {scored} in trick 1. May you declare the {new} now, in trick 2?"
        ).format(rules=self._under(), scored=self._meld(scored), new=self._meld(new))

    def _pose_swap(self) -> None:
        rng = self.rng
        trump = rng.choice(SUITS)
        seven = Card(Rank.SEVEN, trump)
        case = rng.choice(("second", "second", "declared", "leader"))
        if case == "leader":
            self.state = HandState(_deal_with(rng, [seven], [], trump), self.rules)
            self.move = Swap(0)
            self.question = _(
                "{rules}, may you, about to lead trick 1, swap the trump Seven for the trump indicator now?"
            ).format(rules=self._under())
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
        if case == "declared":
            question = _(
                "{rules}: you have led. May the computer, after declaring a terc that holds it, swap the trump "
                "Seven for the indicator now, in the middle of the trick?"
            )
        else:
            question = _(
                "{rules}: you have led. May the computer swap the trump Seven for the indicator now, "
                "in the middle of the trick?"
            )
        self.question = question.format(rules=self._under())

    def _pose_bela(self) -> None:
        rng = self.rng
        trump = rng.choice(SUITS)
        pair = _suit_cards(trump, "KO")
        p = rng.randint(0, 1)
        self.state = HandState(_deal_with(rng, pair if p == 0 else [], pair if p == 1 else [], trump), self.rules)
        self.move = Bela(p)
        self.question = _by(
            p,
            _(
                "{rules}, may you, holding the King and Over of trumps, score béla right now, "
                "before leading trick 1, as a move of its own?"
            ),
            _(
                "{rules}, may the computer, holding the King and Over of trumps, score béla right now, "
                "before you have led trick 1 (not its turn), as a move of its own?"
            ),
        ).format(rules=self._under())

    def _pose_stichmatsch(self) -> None:
        rng = self.rng
        want_sweep = rng.random() < 0.7
        state = _random_hand(rng, self.rules)
        for _try in range(300):
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
        self.question = _by(
            best,
            _("{rules}: you won {count} of the 9 tricks of phase 2. Do you take all 161 card points (a stichmatsch)?"),
            _(
                "{rules}: the computer won {count} of the 9 tricks of phase 2. "
                "Does the computer take all 161 card points (a stichmatsch)?"
            ),
        ).format(rules=self._under(), count=phase2.count(best))

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
        for _try in range(100):
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
        self.question = _by(
            p,
            _("{rules}: you go out with {mine}; the computer has {theirs}. Is the game won double (maccs)?"),
            _("{rules}: the computer goes out with {mine}; you have {theirs}. Is the game won double (maccs)?"),
        ).format(rules=self._under(), mine=state.total(p), theirs=state.total(q))

    def _pose_dealer(self) -> None:
        rng = self.rng
        match = Match(self.rules, seed=rng.randrange(10**9), first_dealer=rng.randint(0, 1))
        _play_randomly(match.state, rng, lambda s: False)
        match.next_hand()
        self.match, self.state = match, match.state
        last = match.results[-1]
        gained = [last.meld_points[p] + last.card_points[p] for p in (0, 1)]
        self.question = _by(
            last.dealer,
            _(
                "{rules}: you dealt the hand just played, in which you scored {yours} and the computer scored "
                "{computers}. Who deals the next hand?"
            ),
            _(
                "{rules}: the computer dealt the hand just played, in which you scored {yours} and the computer "
                "scored {computers}. Who deals the next hand?"
            ),
        ).format(rules=self._under(), yours=gained[0], computers=gained[1])

    def _pose_indicator(self) -> None:
        rng = self.rng
        self.deal_seed = rng.randrange(10**6)
        self.packet = rng.choice((1, 2, 3, 4, 5, 5, 6))
        self.state = HandState.from_seed(self.deal_seed, self.rules)
        self.question = _(
            "{rules}, may the non-dealer ask for the {nth} card of the pack (the card after packet {packet} of "
            "three) to be turned up as the trump card?"
        ).format(rules=self._under(), nth=_(_ORDINAL[self.packet]), packet=self.packet)

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
        return _("the engine refuses it: “{reason}”.").format(reason=err) if err is not None else ""

    def _explain_four_nines(self) -> str:
        if self.truth:
            return _(
                "four Nines are a set worth 150 in the Hungarian game (M2), and Pais's rule changes only béla. "
                "Only the Austrian rules have no Nine-vannak (V3)."
            )
        then = _(
            "Beck's Austrian game knows no set of four Nines (V3); four Overs, Aces, Tens, Kings and Unders remain."
        )
        return f"{self._refusal()} {then}"

    def _explain_two_sequences(self) -> str:
        if self.truth:
            return _(
                "under the Austrian rules several sequences may be declared in one trick, "
                "each in a different suit (V4)."
            )
        if self.rules.several_sequences:
            then = _("Several sequences in one trick are allowed only in different suits (V4).")
        else:
            then = _(
                "The Hungarian rules allow one set and one sequence a trick (M5); "
                "only the Austrian rules allow several sequences, one per suit (V4)."
            )
        return f"{self._refusal()} {then}"

    def _explain_same_suit(self) -> str:
        rule = "V5" if self.rules.same_suit_rule == "austrian" else "K7"
        if rule == "V5":
            other = _(
                "The Austrian rule only forbids a new sequence lying wholly inside one already scored in the suit (V5)."
            )
        else:
            other = _(
                "The Hungarian rule (K7) asks more than the Austrian one (V5), which only forbids a new sequence "
                "lying wholly inside one already scored."
            )
        if self.truth:
            return _("the engine accepts it under {rule}. {other}").format(rule=rule, other=other)
        return f"{self._refusal()} {other}"

    def _explain_swap(self) -> str:
        if self.truth:
            if self.rules.swap_any_time:
                return _(
                    "under the Austrian rules the holder of the trump Seven may swap it at any moment "
                    "while the indicator lies out (V7)."
                )
            return _(
                "the player about to lead may swap before declaring or leading (T5); "
                "the Austrian rules allow it at any moment (V7)."
            )
        if self.rules.swap_any_time:
            then = _(
                "The Austrian swap is open at any moment, but a 7 swapped in a trick may not be "
                "part of a sequence declared in that trick (V7)."
            )
        else:
            then = _("Only the Austrian rules let the holder swap at any moment, even in the middle of a trick (V7).")
        return f"{self._refusal()} {then}"

    def _explain_bela(self) -> str:
        if self.truth:
            return _(
                "béla may be declared and scored at any moment of tricks 1-8, also out of turn (B1). Only Pais's "
                "rule keeps it for the declaration, to score at step 7 (B2)."
            )
        then = _(
            "Under Pais's rule béla is declared with the player's other melds and scores at step 7 of the trick (B2)."
        )
        return f"{self._refusal()} {then}"

    def _explain_stichmatsch(self) -> str:
        state = self.state
        phase2 = state.trick_winners[PHASE1_TRICKS:]
        if len(set(phase2)) != 1:
            return _(
                "a stichmatsch needs all nine tricks of phase 2 (S2), and here both players won some, "
                "so each keeps their own card points. (The Austrian rules have no stichmatsch at all, V9.)"
            )
        if self.truth:
            return _by(
                phase2[0],
                _(
                    "You won all of tricks 8-16, so you take all 161 card points and the computer none (S2); "
                    "only the Austrian rules drop this (V9). The engine ends the hand with {yours} card points "
                    "for you and {computers} for the computer."
                ),
                _(
                    "The computer won all of tricks 8-16, so the computer takes all 161 card points and you none "
                    "(S2); only the Austrian rules drop this (V9). The engine ends the hand with {yours} card "
                    "points for you and {computers} for the computer."
                ),
            ).format(yours=state.card_points[0], computers=state.card_points[1])
        return _(
            "the Austrian rules have no stichmatsch (V9): each player keeps the card points of the tricks "
            "they won, here {yours} for you and {computers} for the computer."
        ).format(yours=state.card_points[0], computers=state.card_points[1])

    def _explain_double(self) -> str:
        after = self._claimed()
        assert self.move is not None
        p = self.move.player
        q = 1 - p
        mine, theirs = self.state.total(p), self.state.total(q)
        if after.out is not None and not after.out[1]:
            return _by(
                p,
                _("You have only {points}, under 501: a wrong claim, and the computer wins a single game (S4, V10)."),
                _("The computer has only {points}, under 501: a wrong claim, and you win a single game (S4, V10)."),
            ).format(points=mine)
        if self.rules.single_games:
            verdict = _("below 250, so a double") if theirs < MACCS_LIMIT else _("not below 250, so no double")
            text = _by(
                q,
                _(
                    "the Austrian loser pays double only with less than 250 (V10); you have {points}, {verdict}. "
                    "(The Hungarian maccs counts 250 itself, S4.)"
                ),
                _(
                    "the Austrian loser pays double only with less than 250 (V10); the computer has {points}, "
                    "{verdict}. (The Hungarian maccs counts 250 itself, S4.)"
                ),
            )
            return text.format(points=theirs, verdict=verdict)
        verdict = _("250 or less: a maccs, 2 buli") if theirs <= MACCS_LIMIT else _("more than 250: 1 buli")
        text = _by(
            q,
            _(
                "the Hungarian maccs needs the loser at 250 or less (S4); you have {points}, {verdict}. "
                "(Under the Austrian rules exactly 250 would not be double, V10.)"
            ),
            _(
                "the Hungarian maccs needs the loser at 250 or less (S4); the computer has {points}, {verdict}. "
                "(Under the Austrian rules exactly 250 would not be double, V10.)"
            ),
        )
        return text.format(points=theirs, verdict=verdict)

    def _explain_dealer(self) -> str:
        assert self.match is not None
        last = self.match.results[-1]
        if self.rules.winner_deals:
            return _(
                "under the Austrian rules the winner of a hand deals the next (V2); the engine reads the winner "
                "as the player who scored more in it: {player}."
            ).format(player=who(self.match.dealer, start=False))
        return _by(
            last.dealer,
            _(
                "the deal alternates (D2): you dealt, so the computer deals next, whoever won. "
                "Only the Austrian rules give the deal to the winner (V2)."
            ),
            _(
                "the deal alternates (D2): the computer dealt, so you deal next, whoever won. "
                "Only the Austrian rules give the deal to the winner (V2)."
            ),
        )

    def _explain_indicator(self) -> str:
        err = self._deal_refusal()
        if err is not None:
            return _(
                "the engine refuses to deal so: “{reason}”. The usual trump card is the 19th, after the deal (D1)."
            ).format(reason=err)
        if self.packet == 6:
            return _("the 19th card, right after the two hands, is the usual trump card under every rule set (D1, V1).")
        return _(
            "under the Austrian rules the non-dealer may choose the card after any packet of three: "
            "the 4th, 7th, 10th, 13th, 16th or 19th (V1)."
        )

    # -- the picture
    def _picture(self) -> str:
        canvas = _Canvas(self.question, min_width=640)
        canvas.text(
            _("Rules: {rules}").format(rules=_(RULE_SET_NAMES[self.rules_name])), size=17, weight="bold", fill=_GOLD
        )
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
            canvas.text(_("You won trick 1 and scored: {melds}.").format(melds=scored), size=14)
        if state.lead is not None:
            canvas.text(
                _by(state.leader, _("You have led the {card}:"), _("The computer has led the {card}:")).format(
                    card=self.card_name(state.lead)
                ),
                size=14,
            )
            canvas.row([(self._card(state.lead), None)])
        said = state.declared[p]
        if said:
            melds = ", ".join(m.title(self.language) for m in said)
            canvas.text(
                _by(p, _("You have declared: {melds}."), _("The computer has declared: {melds}.")).format(melds=melds),
                size=14,
            )
        if state.indicator is not None:
            canvas.text(_("The indicator:"), size=14)
            canvas.row([(self._card(state.indicator, 60), None)])
        marked: list[Card] = []
        if isinstance(self.move, Declare):
            marked = [c for m in self.move.melds for c in m.cards(state.trump)]
        elif isinstance(self.move, Swap):
            marked = [Card(Rank.SEVEN, state.trump)]
        elif isinstance(self.move, Bela):
            marked = _suit_cards(state.trump, "KO")
        canvas.text(_by(p, _("Your hand:"), _("The computer's hand:")), size=14)
        hand = hand_svg(
            state.hand(p),
            language=self.language,
            trump=state.trump,
            highlighted=marked,
            card_width=canvas.card_width(len(state.hand(p)), 72),
        )
        canvas.hand(hand)

    def _draw_stichmatsch(self, canvas: _Canvas) -> None:
        state = self.state
        self._header(canvas, _("the hand has been played out"))
        winners = state.trick_winners
        for span, first, won in (("1-7", 1, winners[:PHASE1_TRICKS]), ("8-16", 8, winners[PHASE1_TRICKS:])):
            listed = [
                _by(p, _("you won {tricks}"), _("the computer won {tricks}")).format(
                    tricks=", ".join(str(first + i) for i, w in enumerate(won) if w == p) or _("none")
                )
                for p in (0, 1)
            ]
            canvas.text(_("Tricks {span}: {won}").format(span=span, won="; ".join(listed)), size=14)
        canvas.text(_("The nine tricks of phase 2 (lead, then second card):"), size=14)
        row = []
        for _leader, lead, second, _winner in state.tricks[PHASE1_TRICKS:]:
            row.append((hand_svg([lead, second], language=self.language, trump=state.trump, card_width=40), None))
        canvas.row(row, gap=8)

    def _draw_double(self, canvas: _Canvas) -> None:
        state = self.state
        self._header(canvas)
        assert self.move is not None
        p = self.move.player
        for q in (p, 1 - p):
            canvas.text(
                _("{player}: {before} before this hand + {melds} in melds + {tricks} in tricks = {total}").format(
                    player=who(q),
                    before=state.scores_in[q],
                    melds=state.meld_points[q],
                    tricks=state.card_points[q],
                    total=state.total(q),
                ),
                size=14,
            )
        canvas.text(_by(p, _("You say: “I am out!”"), _("The computer says: “I am out!”")), size=15, weight="bold")

    def _draw_dealer(self, canvas: _Canvas) -> None:
        assert self.match is not None
        last = self.match.results[-1]
        canvas.text(_by(last.dealer, _("Hand 1 was dealt by you."), _("Hand 1 was dealt by the computer.")), size=14)
        canvas.text(
            _("Points scored in it: you {yours}, the computer {computers} (nobody reached 501).").format(
                yours=last.meld_points[0] + last.card_points[0], computers=last.meld_points[1] + last.card_points[1]
            ),
            size=14,
        )
        canvas.text(_("Now hand 2 is about to be dealt."), size=14)

    def _draw_indicator(self, canvas: _Canvas) -> None:
        canvas.text(_("The pack is dealt in packets of three; the card asked for is marked."), size=14)
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
                canvas.label(x - 2, y + 60, _("card {number}").format(number=position), size=12, weight="bold")
            x += 30 + (8 if position % 3 == 0 else 0)
        canvas.y = y + 66

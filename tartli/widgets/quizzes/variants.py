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
the indicator from dealing with :meth:`HandState.from_seed`. The positions, the verdicts and
their reasons are :mod:`tartli.trainer_questions`' (:class:`~tartli.trainer_questions.VariantQuestion`),
which the worksheets print too; this module draws them.

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
from typing import Any

from tartli import names as _names
from tartli import trainer_questions
from tartli.cards import Card, Rank
from tartli.game import PHASE1_TRICKS
from tartli.i18n import N_, _, joined, language, the
from tartli.match import Match
from tartli.melds import Meld, MeldKind
from tartli.moves import Bela, Declare, Move, Pass, Play, Swap, coerce_move
from tartli.names import Named
from tartli.render.cards import back_svg, card_svg
from tartli.render.table import hand_svg
from tartli.rules import RuleSet
from tartli.widgets.quizzes.base import PLAYERS, Answer, Quiz, who
from tartli.widgets.trainers.canvas import GOLD, Canvas

__all__ = ["RULE_SET_NAMES", "VariantQuiz", "move_words", "rule_options"]

RULE_SET_NAMES = trainer_questions.RULE_SET_NAMES
"""The three presets by name, in words (English: ``_(RULE_SET_NAMES[name])`` in the page's language)."""
_by = trainer_questions.by_player


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
        text = _("You play the {card_acc}") if you else _("{name} plays the {card_acc}")
        return text.format(name=name, card=move.card.name(lang))
    if isinstance(move, Declare):
        said = [
            Named(_names.BELA_NAME[lang], m.title(lang).forms) if m.kind is MeldKind.BELA else the(m.title(lang))
            for m in move.melds
        ]
        melds = said[0]
        for more in said[1:]:  # (the forms of the names go with them: "Du meldest {melds.acc}")
            melds = joined([melds, more], _("{melds} and {meld}"), "melds", "meld")
        text = _("You declare {melds_acc}") if you else _("{name} declares {melds_acc}")
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


class VariantQuiz(Quiz):
    """Questions on what the Hungarian, Pais and Austrian rules allow, each judged by the engine."""

    id = "variant-quiz"
    title = N_("Which rules? A variants quiz")
    instruction = N_("Read the rule set at the top of the picture, then answer.")

    KINDS = trainer_questions.VARIANT_KINDS
    PLAYER_KINDS = ("dealer",)
    LEGALITY_KINDS = trainer_questions.LEGALITY_KINDS
    """The kinds answered by pushing ``move`` on ``state``."""

    rules_name: str
    rules: RuleSet
    move: Move | None
    match: Match | None
    packet: int
    deal_seed: int
    named: tuple[Meld, ...]

    def __init__(self, seed: int | None = None, **kw: Any) -> None:
        self.move = None
        self.match = None
        self.packet = 6
        self.deal_seed = 0
        self.named = ()
        super().__init__(seed, **kw)

    # -- positions (dealt by tartli.trainer_questions)
    def _pose(self) -> None:
        question = trainer_questions.deal_variant_question(self.rng, self.kind)
        self.rules_name, self.rules, self.state = question.rules_name, question.rules, question.state
        self.move, self.match = question.move, question.match
        self.packet, self.deal_seed, self.named = question.packet, question.deal_seed, question.named
        self.question = trainer_questions.ask_variant(question, self.language)
        if self.kind in self.LEGALITY_KINDS:
            self.choices = [(_("Yes, that is allowed"), True), (_("No, that is refused"), False)]
        elif self.kind == "dealer":
            self.choices = self._player_choices()
        else:
            self.choices = [(_("Yes"), True), (_("No"), False)]

    @property
    def dealt(self) -> trainer_questions.VariantQuestion:
        """The question asked, as :mod:`tartli.trainer_questions` judges it."""
        return trainer_questions.VariantQuestion(
            self.kind, self.rules_name, self.state, self.move, self.match, self.packet, self.deal_seed, self.named
        )

    # -- the verdicts
    @property
    def truth(self) -> Answer:
        return self.dealt.truth

    def explain(self) -> str:
        return trainer_questions.explain_variant(self.dealt, self.language)

    # -- the picture
    def _picture(self) -> str:
        canvas = Canvas(self.question, min_width=640)
        canvas.text(
            _("Rules: {rules}").format(rules=_(RULE_SET_NAMES[self.rules_name])), size=17, weight="bold", fill=GOLD
        )
        getattr(self, "_draw_" + self.kind.replace("-", "_"), self._draw_hand)(canvas)
        return canvas.svg()

    def _card(self, card: Card, width: float = 72) -> str:
        return card_svg(card, language=self.language, width=width, trump=card.suit is self.state.trump)

    def _draw_hand(self, canvas: Canvas) -> None:
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
                _by(state.leader, _("You have led the {card_acc}:"), _("The computer has led the {card_acc}:")).format(
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
            marked = trainer_questions.suit_cards(state.trump, "KO")
        canvas.text(_by(p, _("Your hand:"), _("The computer's hand:")), size=14)
        hand = hand_svg(
            state.hand(p),
            language=self.language,
            trump=state.trump,
            highlighted=marked,
            card_width=canvas.card_width(len(state.hand(p)), 72),
        )
        canvas.hand(hand)

    def _draw_stichmatsch(self, canvas: Canvas) -> None:
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

    def _draw_double(self, canvas: Canvas) -> None:
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

    def _draw_dealer(self, canvas: Canvas) -> None:
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

    def _draw_indicator(self, canvas: Canvas) -> None:
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
                    f'stroke="{GOLD}" stroke-width="3"/>'
                )
                canvas.label(x - 2, y + 60, _("card {number}").format(number=position), size=12, weight="bold")
            x += 30 + (8 if position % 3 == 0 else 0)
        canvas.y = y + 66

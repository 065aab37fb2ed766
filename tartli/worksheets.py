"""Printable worksheets with answer keys (issue 37): ``worksheet("02", seed=7, language="hu")``.

A worksheet is one standalone HTML page (its CSS and its card pictures inline, nothing fetched) for a
lesson with exercises: an A4 sheet of tasks with a line for the pupil's name and the date, then the
answer key on a page of its own, each answer with its reason and the rule IDs (RULES.md). The tasks are
the course's own questions (:mod:`tartli.trainer_questions`, the ones the trainers ask) and the engine
judges them; a task shows all it asks about: the trumps, the trick and its phase, the cards, what was led.

Which lessons have one (:data:`SHEETS`), by what each teaches and what came before it:

- 01 the pack: name the card from its picture, drawn as a real pack shows it (C1); which card wins a
  trick of two suits, a trump against another suit or an answer that neither follows nor trumps (T1:
  all lesson 01 tells; the orders within a suit come in 02);
- 02 ranks and points: which card wins a trick (T1, C3, C4), count the card points (C3-C5);
- 03 the deal: the deal quiz's questions, who leads (D3), may this player swap the trump Seven (T5), how
  many cards are in the talon (D1), who deals this hand (D2);
- 04 phase 1: which card wins in phase 1 (T2), now with the phases named; count the card points;
- 05 melds: find the melds of a hand and their points (M1-M3);
- 06 the meld contest: who scores, or may the second not declare (K2, K3);
- 07 building sequences: may this sequence be declared after those scored in its suit (K7);
- 08 phase 2: which card wins in phase 2, what may you play (T4), the card points with the last trick (C5);
- 09 scoring: may this player go out now, and for how many buli (S3, S4);
- 11 variants: four of the variants quiz's nine questions, each under the rule set it names (B2, V1-V10);
- 12 history: the history quiz's facts, its options in an order the seed gives, each answer with its source.

The quizzes' sheets (03, 11, 12) ask the quizzes' own questions, from the same data and judged the same
way (:class:`~tartli.trainer_questions.DealQuestion`, :class:`~tartli.trainer_questions.VariantQuestion`,
:data:`~tartli.trainer_questions.FACTS`). The other lessons ask other things (whole games, the scenario
lab): they have no worksheet. The same lesson and seed give the same sheet on
every machine (``random.Random`` seeded with a text); another seed gives other tasks. The command line
is ``tartli worksheet 02 --seed 7 --language hu -o sheet.html``; the course's server answers
``tartli/worksheet?lesson=02&seed=7&lang=hu`` (:mod:`tartli.server.worksheets`).
"""

from __future__ import annotations

import html
import random
import re
from collections.abc import Callable, Collection, Iterator
from contextlib import contextmanager
from dataclasses import dataclass

from tartli import names, trainer_questions
from tartli.cards import CARDS, SEQUENCE_ORDER, Card, Rank, Suit
from tartli.course import PAGES, Page, taught
from tartli.errors import ArgumentError
from tartli.game import PHASE1_TRICKS, HandState
from tartli.i18n import N_, _, ngettext
from tartli.melds import BELA, Meld
from tartli.moves import Bela, Declare, Swap
from tartli.names import LANGUAGES, Language, upper_first
from tartli.render.cards import back_svg, card_svg

__all__ = [
    "MAX_SEED",
    "SHEETS",
    "Sheet",
    "Task",
    "WorksheetError",
    "lessons",
    "parse_seed",
    "tasks",
    "worksheet",
]

MAX_SEED = 999_999_999
"""The largest seed a sheet takes (a seed is the sheet's number, printed on it)."""


class WorksheetError(ArgumentError):
    """A lesson without a worksheet, a seed that is not a number from 0 to :data:`MAX_SEED`, or a language
    the course does not speak."""


@dataclass(frozen=True)
class Sheet:
    """A lesson's worksheet: the page of the course and how many tasks of each kind, in order."""

    file: str
    plan: tuple[tuple[str, int], ...]
    pick: int = 0
    """How many of the plan's kinds one sheet asks, chosen by the seed and kept in the plan's order (0: all)."""


SHEETS: dict[str, Sheet] = {
    "01": Sheet("01_pack.ipynb", (("name-card", 6), ("trick-two-suits", 4))),
    "02": Sheet("02_ranks_and_points.ipynb", (("trick", 4), ("points", 2))),
    "03": Sheet("03_deal.ipynb", (("deal-leader", 2), ("deal-swap", 2), ("deal-talon", 1), ("deal-dealer", 1))),
    "04": Sheet("04_phase_one.ipynb", (("trick-phase-1", 4), ("points", 2))),
    "05": Sheet("05_melds.ipynb", (("melds", 6),)),
    "06": Sheet("06_meld_contest.ipynb", (("contest", 6),)),
    "07": Sheet("07_sequences.ipynb", (("same-suit", 6),)),
    "08": Sheet("08_phase_two.ipynb", (("trick-phase-2", 2), ("play", 2), ("points", 2))),
    "09": Sheet("09_scoring.ipynb", (("going-out", 4),)),
    "11": Sheet("11_variants.ipynb", tuple((f"variant-{kind}", 1) for kind in trainer_questions.VARIANT_KINDS), 4),
    "12": Sheet("12_history.ipynb", (("history", 8),)),
}
"""The lessons with a worksheet, by their number (see the module's notes for why these)."""


@dataclass(frozen=True)
class Task:
    """One task of a sheet: what it asks, the position, and the engine's answer.

    ``position`` is the question as :mod:`tartli.trainer_questions` deals it (a
    :class:`~tartli.trainer_questions.TrickQuestion`, a ``(HandState, claimant)`` pair ...); ``solution``
    the answer as a value (a :class:`~tartli.cards.Card`, a number of card points, a tuple of melds,
    ``"leader"``/``"second"``/``"illegal"``, True/False, a frozenset of cards, 0/1/2 buli); ``answer`` and
    ``reason`` the key's words. The sheet prints ``title`` and ``instruction`` once above the tasks of a kind.
    """

    kind: str
    position: object
    title: str
    instruction: str
    body: str
    """The task's HTML on the sheet (without its number)."""
    answer: str
    reason: str
    solution: object


# ---------------------------------------------------------------------------- the input
def lessons() -> tuple[str, ...]:
    """The lessons with a worksheet: ``("02", "04", ...)``."""
    return tuple(SHEETS)


def _lesson(lesson: object) -> str:
    text = str(lesson).strip() if isinstance(lesson, str | int) and not isinstance(lesson, bool) else ""
    number = text.split("_")[0].removesuffix(".ipynb")
    if number.isdigit() and len(number) <= 2 and f"{int(number):02d}" in SHEETS:
        return f"{int(number):02d}"
    raise WorksheetError(
        f"lesson {str(lesson)[:20]!r} has no worksheet: choose one of {', '.join(SHEETS)}"
        if text
        else f"which lesson? choose one of {', '.join(SHEETS)}"
    )


def _seed(seed: object) -> int:
    if isinstance(seed, bool) or not isinstance(seed, int) or not 0 <= seed <= MAX_SEED:
        raise WorksheetError(f"the seed must be a whole number from 0 to {MAX_SEED}, not {str(seed)[:20]!r}")
    return seed


def parse_seed(text: str) -> int:
    """A seed as typed (a command's option, an address's ``seed=``): digits only, 0 to :data:`MAX_SEED`.

    >>> parse_seed(" 7 "), parse_seed("0")
    (7, 0)
    """
    digits = text.strip()
    if not (digits.isascii() and digits.isdigit() and len(digits) <= len(str(MAX_SEED))):
        raise WorksheetError(f"the seed must be a whole number from 0 to {MAX_SEED}, not {text[:20]!r}")
    return _seed(int(digits))


def _language(language: object) -> Language:
    if language not in LANGUAGES:
        raise WorksheetError(f"the language must be one of {', '.join(LANGUAGES)}, not {str(language)[:20]!r}")
    return language


@contextmanager
def _speaking(language: Language) -> Iterator[None]:
    """The messages and names in ``language`` for a while (the page's own language comes back after)."""
    before = names.get_language()
    names.set_language(language)
    try:
        yield
    finally:
        names.set_language(before)


def _page(file: str) -> Page:
    return next(p for p in PAGES if p.file == file)


# ---------------------------------------------------------------------------- pieces of a task
def _e(text: str) -> str:
    return html.escape(str(text), quote=True)


def _line(text: str, css: str = "") -> str:
    return f'<p class="{css}">{_e(text)}</p>' if css else f"<p>{_e(text)}</p>"


def _figure(picture: str, caption: str, label: str = "", css: str = "") -> str:
    top = f'<div class="label">{_e(label)}</div>' if label else ""
    opening = f'<figure class="{css}">' if css else "<figure>"
    return f"{opening}{top}{picture}<figcaption>{_e(caption)}</figcaption></figure>"


def _card(card: Card, trump: Suit, language: Language, width: float = 46, *, highlighted: bool = False) -> str:
    return card_svg(card, language=language, width=width, trump=card.suit is trump, highlighted=highlighted)


def _fan(
    cards: list[Card] | tuple[Card, ...],
    trump: Suit,
    language: Language,
    width: float,
    *,
    highlighted: bool = False,
    marked: Collection[Card] = (),
) -> str:
    """Cards side by side, each covering part of the one before and leaving its corner index in view;
    all of them ``highlighted`` (a meld) or those ``marked`` (the cards a question is about)."""
    overlap = f"margin-left:{-0.42 * width:.1f}px"
    shown = "".join(
        f'<span style="{overlap}">{_card(c, trump, language, width, highlighted=highlighted or c in marked)}</span>'
        if i
        else f"<span>{_card(c, trump, language, width, highlighted=highlighted or c in marked)}</span>"
        for i, c in enumerate(cards)
    )
    return f'<div class="fan">{shown}</div>'


def _names(cards: list[Card] | tuple[Card, ...], language: Language) -> str:
    return ", ".join(card.name(language) for card in cards)


def _options(labels: list[str], css: str = "") -> str:
    boxes = "".join(f'<li><span class="box"></span>{_e(label)}</li>' for label in labels)
    return f'<ul class="options {css}">{boxes}</ul>' if css else f'<ul class="options">{boxes}</ul>'


def _answer_line() -> str:
    said = _("Answer:")
    return f'<p class="answer">{_e(said)}</p>'


def _trump_line(trump: Suit, language: Language) -> str:
    return _("Trump: {suit}").format(suit=trump.name_in(language))


# ---------------------------------------------------------------------------- the kinds of task
Maker = Callable[[random.Random, Language, frozenset[str]], Task]


def _trick_task(q: trainer_questions.TrickQuestion, language: Language, known: frozenset[str]) -> Task:
    if "phases" not in known:  # the two phases come in lesson 04
        when = _("Trick {number}")
    elif q.trick_number <= 7:
        when = _("Trick {number}, phase 1: any card may be played (T2)")
    else:
        when = _("Trick {number}, phase 2 (T4)")
    cards = "".join(
        _figure(_card(card, q.trump, language), card.name(language), label)
        for card, label in ((q.lead, _("led first")), (q.second, _("played second")))
    )
    body = (
        _line(_trump_line(q.trump, language), "facts")
        + _line(when.format(number=q.trick_number), "facts")
        + f'<div class="cards">{cards}{_answer_line()}</div>'
    )
    return Task(
        "trick",
        q,
        _("Which card wins the trick?"),
        "",
        body,
        upper_first(q.winner.name(language)),
        upper_first(trainer_questions.explain_trick(q, language)),
        q.winner,
    )


def _points_task(rng: random.Random, language: Language, known: frozenset[str]) -> Task:
    q = trainer_questions.deal_points(rng)
    if q.include_last:
        last = _("Including the last trick (trick {number})").format(number=q.tricks[-1][0])
    else:
        last = _("The last trick is not among them")
    figures = []
    for number, lead, second in q.tricks:
        label = _("Trick {number} (last)") if number == 16 else _("Trick {number}")
        figures.append(
            _figure(
                _fan((lead, second), q.trump, language, 42),
                _names((lead, second), language),
                label.format(number=number),
            )
        )
    body = (
        _line(_trump_line(q.trump, language), "facts")
        + _line(last, "facts")
        + f'<div class="cards">{"".join(figures)}{_answer_line()}</div>'
    )
    return Task(
        "points",
        q,
        _("Count the card points"),
        _("A player won these tricks. How many card points are they worth?"),
        body,
        str(q.expected),
        upper_first(trainer_questions.explain_points(q, language)),
        q.expected,
    )


def _melds_task(rng: random.Random, language: Language, known: frozenset[str]) -> Task:
    q = trainer_questions.deal_melds(rng)
    body = (
        _line(_("Trump: {suit} (for béla)").format(suit=q.trump.name_in(language)), "facts")
        + _figure(
            _fan(q.hand, q.trump, language, 44),
            _("Your hand: {cards}").format(cards=_names(q.hand, language)),
            css="hand",
        )
        + '<p class="answer"></p><p class="answer"></p>'
    )
    answer = ", ".join(f"{upper_first(m.title(language))} {m.value}" for m in q.targets)
    reason = " ".join(upper_first(trainer_questions.meld_found_text(m, q.trump, language)) for m in q.targets)
    return Task(
        "melds",
        q,
        _("Find the melds"),
        _("Write down every meld of this hand with its points: every set, every longest sequence and béla."),
        body,
        answer,
        reason,
        q.targets,
    )


def _meld_figures(melds: tuple[Meld, ...], trump: Suit, language: Language) -> str:
    figures = "".join(
        _figure(_fan(m.cards(trump), trump, language, 32, highlighted=True), f"{m.title(language)} · {m.value}")
        for m in melds
    )
    return f'<div class="cards">{figures}</div>'


CONTEST_OPTIONS = {
    "leader": N_("The leader scores"),
    "second": N_("The second player scores"),
    "illegal": N_("The second may not declare this (K3)"),
}
"""The three answers to a meld contest, as the trainer's buttons say them."""


def _contest_task(rng: random.Random, language: Language, known: frozenset[str]) -> Task:
    q = trainer_questions.deal_contest(rng, known)
    rules = _("Austrian rules (V3, V4)") if q.rules.same_suit_rule == "austrian" else _("Hungarian rules")
    body = (
        _line(f"{_trump_line(q.trump, language)} · {rules}", "facts")
        + '<div class="sides"><div>'
        + _line(_("The leader announces {melds}:").format(melds=trainer_questions.announced(q.leader_melds, language)))
        + _meld_figures(q.leader_melds, q.trump, language)
        + "</div><div>"
        + _line(
            _("The second player announces {melds}:").format(
                melds=trainer_questions.announced(q.second_melds, language)
            )
        )
        + _meld_figures(q.second_melds, q.trump, language)
        + "</div></div>"
        + _options([_(CONTEST_OPTIONS[side]) for side in trainer_questions.SIDES])
    )
    truth = q.truth
    return Task(
        "contest",
        q,
        _("Who scores the melds?"),
        _("The leader and then the second player declared these melds. Who scores?"),
        body,
        _(CONTEST_OPTIONS[truth]),
        upper_first(trainer_questions.explain_contest(q, language)),
        truth,
    )


def _same_suit_task(rng: random.Random, language: Language, known: frozenset[str]) -> Task:
    q = trainer_questions.deal_same_suit(rng, known)
    rule = _("Austrian rule (V5)") if q.rules.same_suit_rule == "austrian" else _("Hungarian rule (K7)")
    letters = "".join(f"<th>{_e(names.RANK_LETTERS[language][r.index])}</th>" for r in SEQUENCE_ORDER)
    rows = []
    shown = [(_("scored: {meld}"), m, False) for m in q.scored] + [(_("new: {meld}"), q.candidate, True)]
    for label, meld, new in shown:
        assert meld.suit is not None
        held = set(meld.cards())
        cells = "".join(
            f"<td>{card_svg(Card(r, meld.suit), language=language, width=28, highlighted=new)}</td>"
            if Card(r, meld.suit) in held
            else '<td class="slot"></td>'
            for r in SEQUENCE_ORDER
        )
        css = ' class="new"' if new else ""
        rows.append(f'<tr><th colspan="8"{css}>{_e(label.format(meld=meld.title(language)))}</th></tr><tr>{cells}</tr>')
    body = (
        _line(rule, "facts")
        + f'<table class="ladder"><tr>{letters}</tr>{"".join(rows)}</table>'
        + _options([_("May declare"), _("May not")])
    )
    ok = q.verdict[0]
    return Task(
        "same-suit",
        q,
        _("Another sequence in the same suit?"),
        _("This player has scored the sequences shown. May they now declare the new one?"),
        body,
        _("May declare") if ok else _("May not"),
        upper_first(trainer_questions.explain_same_suit(q, language)),
        ok,
    )


def _play_task(rng: random.Random, language: Language, known: frozenset[str]) -> Task:
    state = trainer_questions.deal_play(rng)
    lead = state.lead
    assert lead is not None and state.to_move is not None
    hand = state.hand(state.to_move)
    correct = trainer_questions.playable(state)
    led = _("Your opponent led the {card_acc}:").format(card=lead.name(language))
    body = (
        _line(
            _("Trump: {suit} · trick {number}, phase 2").format(
                suit=state.trump.name_in(language), number=state.trick_number
            ),
            "facts",
        )
        + f'<div class="led">{_card(lead, state.trump, language, 40)}{_line(led)}</div>'
        + _figure(_fan(hand, state.trump, language, 44), _names(hand, language), _("Your hand:"), "hand")
    )
    return Task(
        "play",
        state,
        _("What may you play?"),
        _("Phase 2: you play second. Circle every card you may play."),
        body,
        upper_first(_names([c for c in hand if c in correct], language)),
        upper_first(trainer_questions.explain_play(state, language)),
        frozenset(correct),
    )


GOING_OUT_OPTIONS = (N_("No (wrong claim)"), N_("Yes: 1 buli"), N_("Yes: 2 buli (maccs)"))
"""The three answers to "can you go out?" (0, 1 or 2 buli), as the trainer's buttons say them."""


def _going_out_task(rng: random.Random, language: Language, known: frozenset[str]) -> Task:
    state, claimant = trainer_questions.deal_claim(rng, known)
    rules = _("Austrian rules (V10)") if state.rules.single_games else _("Hungarian rules")
    if claimant == 0:
        wants = _("You want to claim 501 · trick {number} · {rules}")
    else:
        wants = _("The computer wants to claim 501 · trick {number} · {rules}")
    parts = [_line(wants.format(number=state.trick_number, rules=rules), "facts"), _players(state, claimant, language)]
    window = state.claim_window
    if window is not None and window.claimant == claimant:
        parts.append(_line(trainer_questions.silent_answer_line(window)))
    lead = state.lead
    if lead is not None:
        if state.leader == 0:
            under_way = _("Trick {number} is under way: you led the {card_acc}.")
        else:
            under_way = _("Trick {number} is under way: the computer led the {card_acc}.")
        label = under_way.format(number=state.trick_number, card=lead.name(language))
        parts.append(f'<div class="led">{_card(lead, state.trump, language, 34)}{_line(label)}</div>')
    parts.append(_options([_(option) for option in GOING_OUT_OPTIONS]))
    truth = trainer_questions.claim_truth(state, claimant)
    return Task(
        "going-out",
        (state, claimant),
        _("Can you go out?"),
        _("Can the player named below claim 501 now, and for how many buli?"),
        "".join(parts),
        _(GOING_OUT_OPTIONS[truth]),
        upper_first(trainer_questions.explain_claim(state, claimant)),
        truth,
    )


def _players(state: HandState, claimant: int, language: Language) -> str:
    """Both players' counts so far: the score before the hand, the melds scored, the completed tricks (S3)."""
    scored = state.scored_melds
    rows = []
    for p in (claimant, 1 - claimant):
        melds = [f"{m.title(language)} {m.value}" for m in scored[p]]
        if state.bela_scored[p]:
            melds.append(f"{BELA.title(language)} {BELA.value}")
        if melds:
            said = _("melds scored this hand: {melds}").format(melds=", ".join(melds))
        else:
            said = _("melds scored this hand: none")
        won = len([t for t in state.tricks if t[3] == p])
        tricks = ngettext(
            "card points of completed tricks: {points} ({n} trick won)",
            "card points of completed tricks: {points} ({n} tricks won)",
            won,
        ).format(points=state.card_points[p], n=won)
        before = _("before this hand: {score}").format(score=state.scores_in[p])
        who = _("You") if p == 0 else _("The computer")
        rows.append(f'<div class="player"><b>{_e(who)}</b><br>{_e(before)}<br>{_e(said)}<br>{_e(tricks)}</div>')
    return f'<div class="players">{"".join(rows)}</div>'


# ---------------------------------------------------------------------------- lesson 01: the pack
MEN_ON_FOOT = tuple(c for c in CARDS if c.rank in (Rank.OVER, Rank.UNDER))
"""The Overs and Unders, the cards beginners mix up most: half of the cards to name."""

_TITLE = re.compile(r"<title>[^<]*</title>")
_ARIA = re.compile(r"aria-label=([\"']).*?\1")


def _unnamed(card: Card, language: Language, width: float) -> str:
    """A card as a real pack shows it, with no letters and no name for a screen reader (that is the task)."""
    svg = card_svg(card, language=language, width=width, bare=True)
    label = _e(_("the card to name"))
    return _ARIA.sub(lambda _m: f'aria-label="{label}"', _TITLE.sub("", svg, count=1), count=1)


def _name_card_task(rng: random.Random, language: Language, known: frozenset[str]) -> Task:
    # lesson 01 shows how to tell the Over from the Under by where the pip stands: half of them are those
    card = rng.choice(MEN_ON_FOOT if rng.random() < 0.5 else CARDS)
    return Task(
        "name-card",
        card,
        _("Name the card"),
        _("Each card is drawn as a real pack shows it, with no letters. Write its name."),
        f'<div class="cards"><div>{_unnamed(card, language, 78)}</div>{_answer_line()}</div>',
        upper_first(card.name(language)),
        upper_first(trainer_questions.explain_card(card, language)),
        card,
    )


# ---------------------------------------------------------------------------- lesson 03: the deal quiz
def _ask(text: str) -> str:
    """The task's own question (a quiz's tasks each ask their own)."""
    return _line(text, "ask")


def _led_line(card: Card, trump: Suit, language: Language, said: str) -> str:
    """A card with a line of words beside it: the card led, the indicator."""
    return f'<div class="led">{_card(card, trump, language, 34)}{_line(said)}</div>'


def _side_by_side(parts: list[str]) -> str:
    """Cards with their words side by side (the card led and the indicator), going on to a new line when narrow."""
    return f'<div class="leds">{"".join(parts)}</div>' if parts else ""


def _deal_header(state: HandState, language: Language, known: frozenset[str], when: str | None = None) -> str:
    """Trumps, the dealer and the trick (the quizzes' first line), with the phase once the course has named it."""
    dealer = trainer_questions.who(state.dealer, start=False)
    if when is None and "phases" not in known:  # the two phases come in lesson 04
        text = _("Trump: {suit} · dealer: {dealer} · trick {number}").format(
            suit=state.trump.name_in(language), dealer=dealer, number=state.trick_number
        )
        return _line(text, "facts")
    if when is None:
        phase = names.term("phase 1" if state.trick_number <= PHASE1_TRICKS else "phase 2", language)
        when = _("trick {number}, {phase}").format(number=state.trick_number, phase=phase)
    text = _("Trump: {suit} · dealer: {dealer} · {when}").format(
        suit=state.trump.name_in(language), dealer=dealer, when=when
    )
    return _line(text, "facts")


def _hand_of(state: HandState, p: int, language: Language, marked: Collection[Card]) -> str:
    """Player ``p``'s hand, the cards a question is about marked."""
    hand = state.hand(p)
    label = trainer_questions.by_player(p, _("Your hand:"), _("The computer's hand:"))
    return _figure(_fan(hand, state.trump, language, 38, marked=marked), _names(hand, language), label, "hand")


def _player_options() -> str:
    return _options([trainer_questions.who(0), trainer_questions.who(1)])


DEAL_QUIZ = N_("The deal: a quick quiz")
DEAL_INSTRUCTION = N_("Answer the question about the position shown.")
SWAP_OPTIONS = (N_("Yes, the swap is allowed now"), N_("No, not now"))
"""The answers to "may this player swap?" (True first), as the deal quiz's buttons say them."""


def _deal_maker(kind: str) -> Maker:
    return lambda rng, language, known: _deal_task(trainer_questions.deal_deal_question(rng, kind), language, known)


def _deal_task(q: trainer_questions.DealQuestion, language: Language, known: frozenset[str]) -> Task:
    """A question of lesson 03's quiz (who leads, may this player swap, the talon, who deals) and its picture
    (the quiz's, on paper)."""
    state, by = q.state, trainer_questions.by_player
    parts = [_ask(trainer_questions.ask_deal(q, language))]
    truth = q.truth
    if q.kind == "dealer":
        assert q.match is not None
        results = q.match.results
        first = results[0].dealer if results else state.dealer
        played = len(results)
        first_words = by(
            first, _("You dealt the first hand of this match."), _("The computer dealt the first hand of this match.")
        )
        parts += [
            _line(first_words, "facts"),
            _line(
                ngettext(
                    "{count} hand has been played so far.", "{count} hands have been played so far.", played
                ).format(count=played)
            ),
            _line(_("Now hand {number} is about to be dealt.").format(number=played + 1)),
            _player_options(),
        ]
        answer = trainer_questions.who(int(truth))
    elif q.kind == "leader":
        parts.append(_deal_header(state, language, known))
        if state.trick_number == 1:
            parts.append(_line(_("The cards are dealt; nothing has been played yet.")))
        else:
            number = state.trick_number - 1
            leader, lead, second, _winner = state.tricks[number - 1]
            labels = (
                by(leader, _("You led"), _("The computer led")),
                by(1 - leader, _("You played second"), _("The computer played second")),
            )
            figures = "".join(
                _figure(_card(card, state.trump, language, 42), card.name(language), label)
                for card, label in zip((lead, second), labels, strict=True)
            )
            parts += [
                _line(_("Trick {number} has just been played:").format(number=number)),
                f'<div class="cards">{figures}</div>',
            ]
        parts.append(_player_options())
        answer = trainer_questions.who(int(truth))
    elif q.kind == "talon":
        done = state.trick_number - 1
        parts += [
            _deal_header(state, language, known),
            _line(
                ngettext(
                    "{count} trick has been played; trick {number} is about to begin.",
                    "{count} tricks have been played; trick {number} is about to begin.",
                    done,
                ).format(count=done, number=state.trick_number)
            ),
            _led_line(state.indicator, state.trump, language, _("The indicator:"))
            if state.indicator is not None
            else _line(_("The indicator has been taken.")),
            _answer_line(),
        ]
        answer = str(truth)
    else:
        parts += [_deal_header(state, language, known), *_swap_picture(q, language)]
        parts.append(_options([_(option) for option in SWAP_OPTIONS]))
        answer = _(SWAP_OPTIONS[0] if truth else SWAP_OPTIONS[1])
    return Task(
        f"deal-{q.kind}",
        q,
        _(DEAL_QUIZ),
        _(DEAL_INSTRUCTION),
        "".join(parts),
        answer,
        upper_first(trainer_questions.explain_deal(q, language)),
        truth,
    )


def _swap_picture(q: trainer_questions.DealQuestion, language: Language) -> list[str]:
    """Who leads, what they declared or led, the indicator and the hand of the trump Seven's holder."""
    state, by = q.state, trainer_questions.by_player
    leader = state.leader
    parts = [_line(by(leader, _("You lead this trick."), _("The computer leads this trick.")))]
    declared = state.declared[leader]
    if declared:
        said = ", ".join(m.announcement_in(language) for m in declared)
        parts.append(
            _line(
                by(leader, _("You have declared: {melds}."), _("The computer has declared: {melds}.")).format(
                    melds=said
                )
            )
        )
    if state.lead is None and not declared:
        parts.append(_line(_("Nothing has happened in this trick yet.")))
    if state.indicator is None:
        parts.append(_line(_("The indicator has been taken: the talon is empty.")))
    cards = []
    if state.lead is not None:
        led = by(leader, _("You have led the {card_acc}:"), _("The computer has led the {card_acc}:"))
        cards.append(_led_line(state.lead, state.trump, language, led.format(card=state.lead.name(language))))
    if state.indicator is not None:
        cards.append(_led_line(state.indicator, state.trump, language, _("The indicator, under the talon:")))
    parts += [_side_by_side(cards), _hand_of(state, q.holder, language, {trainer_questions.trump_seven(state)})]
    return parts


# ---------------------------------------------------------------------------- lesson 11: the variants quiz
VARIANT_QUIZ = N_("Which rules? A variants quiz")
VARIANT_INSTRUCTION = N_("Read the rules named at the top of each task, then answer.")
LEGALITY_OPTIONS = (N_("Yes, that is allowed"), N_("No, that is refused"))
"""The answers to "may this be done?" (True first), as the variants quiz's buttons say them."""
YES_NO = (N_("Yes"), N_("No"))


def _variant_maker(kind: str) -> Maker:
    return lambda rng, language, known: _variant_task(
        trainer_questions.deal_variant_question(rng, kind), language, known
    )


def _variant_task(q: trainer_questions.VariantQuestion, language: Language, known: frozenset[str]) -> Task:
    """A question of lesson 11's quiz under the rule set it names, and its picture (the quiz's, on paper)."""
    parts = [_ask(trainer_questions.ask_variant(q, language))]  # (it names the rules: "Under the Pais rules, ...")
    picture = {
        "stichmatsch": _stichmatsch_picture,
        "double": _double_picture,
        "dealer": _next_dealer_picture,
        "indicator": _indicator_picture,
    }.get(q.kind, _move_picture)
    parts += picture(q, language, known)
    truth = q.truth
    if q.kind == "dealer":
        parts.append(_player_options())
        answer = trainer_questions.who(int(truth))
    else:
        labels = LEGALITY_OPTIONS if q.kind in trainer_questions.LEGALITY_KINDS else YES_NO
        parts.append(_options([_(label) for label in labels]))
        answer = _(labels[0] if truth else labels[1])
    return Task(
        f"variant-{q.kind}",
        q,
        _(VARIANT_QUIZ),
        _(VARIANT_INSTRUCTION),
        "".join(parts),
        answer,
        upper_first(trainer_questions.explain_variant(q, language)),
        truth,
    )


def _move_picture(q: trainer_questions.VariantQuestion, language: Language, known: frozenset[str]) -> list[str]:
    """The position of a move asked about: trumps and trick, what was scored, led and declared, the
    indicator, and the hand of the player asked about with the cards of the move marked."""
    state, move, by = q.state, q.move, trainer_questions.by_player
    assert move is not None
    p = move.player
    parts = [_deal_header(state, language, known)]
    if q.kind == "same-suit":
        scored = ", ".join(m.title(language) for m in state.scored_melds[0])
        parts.append(_line(_("You won trick 1 and scored: {melds}.").format(melds=scored)))
    cards = []
    if state.lead is not None:
        led = by(state.leader, _("You have led the {card_acc}:"), _("The computer has led the {card_acc}:"))
        cards.append(_led_line(state.lead, state.trump, language, led.format(card=state.lead.name(language))))
    if state.indicator is not None:
        cards.append(_led_line(state.indicator, state.trump, language, _("The indicator:")))
    parts.append(_side_by_side(cards))
    said = state.declared[p]
    if said:
        melds = ", ".join(m.title(language) for m in said)
        parts.append(
            _line(by(p, _("You have declared: {melds}."), _("The computer has declared: {melds}.")).format(melds=melds))
        )
    marked: list[Card] = []
    if isinstance(move, Declare):
        marked = [c for m in move.melds for c in m.cards(state.trump)]
    elif isinstance(move, Swap):
        marked = [trainer_questions.trump_seven(state)]
    elif isinstance(move, Bela):
        marked = trainer_questions.suit_cards(state.trump, "KO")
    parts.append(_hand_of(state, p, language, marked))
    return parts


def _stichmatsch_picture(q: trainer_questions.VariantQuestion, language: Language, known: frozenset[str]) -> list[str]:
    """Who won which tricks, and the nine tricks of phase 2."""
    state, by = q.state, trainer_questions.by_player
    parts = [_deal_header(state, language, known, _("the hand has been played out"))]
    winners = state.trick_winners
    for span, first, won in (("1-7", 1, winners[:PHASE1_TRICKS]), ("8-16", 8, winners[PHASE1_TRICKS:])):
        listed = [
            by(p, _("you won {tricks}"), _("the computer won {tricks}")).format(
                tricks=", ".join(str(first + i) for i, w in enumerate(won) if w == p) or _("none")
            )
            for p in (0, 1)
        ]
        parts.append(_line(_("Tricks {span}: {won}").format(span=span, won="; ".join(listed))))
    pairs = "".join(
        _fan((lead, second), state.trump, language, 24)
        for _leader, lead, second, _winner in state.tricks[PHASE1_TRICKS:]
    )
    parts += [
        _line(_("The nine tricks of phase 2 (lead, then second card):")),
        f'<div class="cards tricks">{pairs}</div>',
    ]
    return parts


def _double_picture(q: trainer_questions.VariantQuestion, language: Language, known: frozenset[str]) -> list[str]:
    """Both players' counts, and the claim."""
    state, move = q.state, q.move
    assert move is not None
    p = move.player
    parts = [_deal_header(state, language, known)]
    for player in (p, 1 - p):
        count = _("{player}: {before} before this hand + {melds} in melds + {tricks} in tricks = {total}")
        parts.append(
            _line(
                count.format(
                    player=trainer_questions.who(player),
                    before=state.scores_in[player],
                    melds=state.meld_points[player],
                    tricks=state.card_points[player],
                    total=state.total(player),
                )
            )
        )
    parts.append(
        _line(trainer_questions.by_player(p, _("You say: “I am out!”"), _("The computer says: “I am out!”")), "ask")
    )
    return parts


def _next_dealer_picture(q: trainer_questions.VariantQuestion, language: Language, known: frozenset[str]) -> list[str]:
    """Who dealt the hand just played and what each scored in it."""
    assert q.match is not None
    last = q.match.results[-1]
    dealt = trainer_questions.by_player(
        last.dealer, _("Hand 1 was dealt by you."), _("Hand 1 was dealt by the computer.")
    )
    scored = _("Points scored in it: you {yours}, the computer {computers} (nobody reached 501).").format(
        yours=last.meld_points[0] + last.card_points[0], computers=last.meld_points[1] + last.card_points[1]
    )
    return [_line(dealt), _line(scored), _line(_("Now hand 2 is about to be dealt."))]


def _indicator_picture(q: trainer_questions.VariantQuestion, language: Language, known: frozenset[str]) -> list[str]:
    """The first 19 cards of the pack face down in packets of three, the card asked for marked."""
    asked = 3 * q.packet + 1
    packets = []
    for first in range(1, 20, 3):
        cards = "".join(
            f'<span class="asked">{back_svg(width=16, language=language)}</span>'
            if n == asked
            else f"<span>{back_svg(width=16, language=language)}</span>"
            for n in range(first, min(first + 3, 20))
        )
        packets.append(f'<span class="packet">{cards}</span>')
    return [
        _line(_("The pack is dealt in packets of three; the card asked for is marked.")),
        f'<div class="pack">{"".join(packets)}</div>',
        _line(_("card {number}").format(number=asked), "facts"),
    ]


# ---------------------------------------------------------------------------- lesson 12: the history quiz
HISTORY_QUIZ = N_("History: a quick quiz")
HISTORY_INSTRUCTION = N_("Choose the right answer.")


def _history_task(rng: random.Random, language: Language, known: frozenset[str]) -> Task:
    """A fact of the history quiz, its options in the order the seed gives, the cards it is about."""
    q = trainer_questions.deal_history_question(rng)
    fact = q.fact
    cards = [Card.parse(code) for code in fact.cards.split()]
    shown = "".join(card_svg(c, language=language, width=34) for c in cards)
    body = (
        _line(_(fact.topic), "facts")
        + _ask(_(fact.question))
        + '<div class="choose">'
        + _options([_(option) for option in q.options], "column")
        + (f'<div class="fan">{shown}</div>' if cards else "")
        + "</div>"
    )
    return Task(
        "history",
        q,
        _(HISTORY_QUIZ),
        _(HISTORY_INSTRUCTION),
        body,
        _(fact.options[0]),
        trainer_questions.explain_history(fact),
        fact.options[0],
    )


MAKERS: dict[str, Maker] = {
    "name-card": _name_card_task,
    "trick": lambda rng, lang, known: _trick_task(trainer_questions.deal_trick(rng), lang, known),
    "trick-phase-1": lambda rng, lang, known: _trick_task(trainer_questions.deal_trick(rng, 1), lang, known),
    "trick-phase-2": lambda rng, lang, known: _trick_task(trainer_questions.deal_trick(rng, 2), lang, known),
    "trick-two-suits": lambda rng, lang, known: _trick_task(
        trainer_questions.deal_trick_of_two_suits(rng), lang, known
    ),
    "points": _points_task,
    "melds": _melds_task,
    "contest": _contest_task,
    "same-suit": _same_suit_task,
    "play": _play_task,
    "going-out": _going_out_task,
    **{f"deal-{kind}": _deal_maker(kind) for kind in trainer_questions.DEAL_KINDS},
    **{f"variant-{kind}": _variant_maker(kind) for kind in trainer_questions.VARIANT_KINDS},
    "history": _history_task,
}
"""How each kind of task is made."""


def _identity(task: Task) -> object:
    """What tells two tasks apart (no task twice on a sheet)."""
    position = task.position
    if isinstance(position, HandState):
        return tuple(position.moves)
    if isinstance(position, tuple) and position and isinstance(position[0], HandState):
        return (tuple(position[0].moves), position[0].scores_in, position[1])
    if isinstance(position, trainer_questions.DealQuestion | trainer_questions.VariantQuestion):
        return position.key
    if isinstance(position, trainer_questions.HistoryQuestion):
        return position.fact  # no fact twice, whatever the order of its options
    return position


# ---------------------------------------------------------------------------- the sheet
def tasks(lesson: str, seed: int, language: str = "en") -> list[Task]:
    """The tasks of a lesson's sheet, in order (:func:`worksheet` prints them)."""
    number, seed, lang = _lesson(lesson), _seed(seed), _language(language)
    with _speaking(lang):
        return _tasks(number, seed, lang)


def _tasks(number: str, seed: int, language: Language) -> list[Task]:
    sheet = SHEETS[number]
    known = taught(sheet.file)
    rng = random.Random(f"tartli-worksheet/{number}/{seed}")  # a text seed: the same sheet on every machine
    plan = sheet.plan
    if sheet.pick:
        plan = tuple(plan[i] for i in sorted(rng.sample(range(len(plan)), sheet.pick)))
    made: list[Task] = []
    seen: set[object] = set()
    for kind, count in plan:
        for _i in range(count):
            for _round in range(30):
                task = MAKERS[kind](rng, language, known)
                if _identity(task) not in seen:
                    break
            seen.add(_identity(task))
            made.append(task)
    return made


def worksheet(lesson: str, seed: int, language: str) -> str:
    """A lesson's worksheet as one standalone HTML page: the tasks on an A4 page, then the answer key on
    its own page. ``lesson`` "02" (or "2"), ``seed`` 0 to :data:`MAX_SEED`, ``language`` en, hu or de.

    >>> page = worksheet("02", 7, "en")
    >>> page.startswith("<!DOCTYPE html>"), "size: A4" in page, page == worksheet("2", 7, "en")
    (True, True, True)
    """
    number, seed, lang = _lesson(lesson), _seed(seed), _language(language)
    with _speaking(lang):
        made = _tasks(number, seed, lang)
        page = _page(SHEETS[number].file)
        lesson_title = _("Lesson {number}: {title}").format(number=number, title=_(page.title))
        sheet_title = _("Worksheet no. {seed}").format(seed=seed)
        key_title = _("Answer key")
        words = {
            "print": _("Print this sheet"),
            "name": _("Name"),
            "date": _("Date"),
            "worksheet": _("Worksheet"),
        }
    items = []
    for i, task in enumerate(made, start=1):
        if i == 1 or (task.title, task.instruction) != (made[i - 2].title, made[i - 2].instruction):
            said = f"<p>{_e(task.instruction)}</p>" if task.instruction else ""
            items.append(f'<div class="group"><h2>{_e(task.title)}</h2>{said}</div>')
        items.append(
            f'<section class="task{" wide" if task.kind in WIDE else ""}" id="task-{i}" data-kind="{task.kind}">'
            f'<span class="n">{i}</span>{task.body}</section>'
        )
    key = "".join(
        f'<li id="key-{i}"><b class="answer-text">{_e(task.answer)}</b> '
        f'<span class="reason">{_e(task.reason)}</span></li>'
        for i, task in enumerate(made, start=1)
    )
    heading = f"Tartli · {words['worksheet']} · {lesson_title}"
    return (
        f'<!DOCTYPE html><html lang="{lang}"><head><meta charset="utf-8">'
        '<meta name="viewport" content="width=device-width, initial-scale=1">'
        f"<title>{_e(f'{heading} · {sheet_title}')}</title><style>{CSS}</style></head><body>"
        f'<button type="button" class="print" onclick="window.print()">{_e(words["print"])}</button>'
        f'<main class="sheet"><header><div class="title"><h1>{_e(heading)}</h1>'
        f'<p class="number">{_e(sheet_title)}</p></div>'
        f'<p class="who"><span>{_e(words["name"])}:</span><span>{_e(words["date"])}:</span></p></header>'
        f'<div class="tasks">{"".join(items)}</div></main>'
        f'<section class="key"><div class="title"><h1>{_e(key_title)} · {_e(lesson_title)}</h1>'
        f'<p class="number">{_e(sheet_title)}</p></div>'
        f"<ol>{key}</ol></section></body></html>\n"
    )


WIDE = frozenset({"points"})
"""Kinds of task that take the sheet's whole width."""

CSS = """
@page { size: A4; margin: 14mm 12mm; }
* { box-sizing: border-box; -webkit-print-color-adjust: exact; print-color-adjust: exact; }
html { background: #e9e4d8; }
body { margin: 0; padding: 12px; font-family: 'DejaVu Sans', Verdana, Arial, sans-serif; font-size: 9.5pt;
  line-height: 1.28; color: #222; }
main.sheet, section.key { background: #fff; max-width: 186mm; margin: 0 auto 12px; padding: 6mm; }
h1 { font-size: 12.5pt; margin: 0; }
p { margin: .4mm 0; }
.title { display: flex; flex-wrap: wrap; justify-content: space-between; align-items: baseline; gap: 0 4mm; }
.number { color: #555; margin: 0; }
.who { display: flex; gap: 8mm; margin: 2.5mm 0 1mm; }
.who span { flex: 1; border-bottom: 1px solid #444; padding-bottom: 1mm; }
.tasks { display: grid; grid-template-columns: minmax(0, 1fr) minmax(0, 1fr); gap: 2.2mm 3mm; }
.group { grid-column: 1 / -1; margin-top: 1.5mm; }
.group h2 { font-size: 10.5pt; margin: 0; }
.task { position: relative; border: 1px solid #b9a77a; border-radius: 2mm; padding: 1.5mm 3mm 1.5mm 9mm;
  break-inside: avoid; min-width: 0; }
.task.wide { grid-column: 1 / -1; }
.task .n { position: absolute; left: 2mm; top: 1.6mm; width: 5mm; height: 5mm; line-height: 5mm; border-radius: 50%;
  background: #3b2a6b; color: #fff; text-align: center; font-size: 8.5pt; font-weight: bold; }
.facts { font-weight: bold; color: #6b4e00; }
.ask { font-weight: bold; }
.cards { display: flex; flex-wrap: wrap; gap: 1mm 4mm; align-items: flex-start; margin: .5mm 0; }
figure { margin: .5mm 0; max-width: 100%; }
.cards figure { max-width: 32mm; }
.cards figure.hand { max-width: none; flex: 1; }
figure .label, figcaption { font-size: 8pt; color: #444; }
svg { display: block; max-width: 100%; height: auto; }
.fan { display: flex; }
.fan > span { flex: none; }
.answer { margin-top: 2mm; border-bottom: 1px dotted #555; min-height: 5mm; }
.options { list-style: none; padding: 0; margin: 1mm 0 0; display: flex; flex-wrap: wrap; gap: .5mm 5mm; }
.options.column { flex-direction: column; }
.choose { display: flex; gap: 2mm; align-items: flex-start; }
.choose .options { flex: 1; }
.choose .fan { gap: 1px; margin-top: 1mm; }
.box { display: inline-block; width: 3.2mm; height: 3.2mm; border: 1px solid #333; margin-right: 1.5mm;
  vertical-align: -0.4mm; }
.player { margin: .3mm 0; }
.led { display: flex; gap: 2mm; align-items: center; margin: .5mm 0; }
.leds { display: flex; flex-wrap: wrap; gap: 0 3mm; }
.leds .led { flex: 1 1 30mm; }
.sides { display: grid; grid-template-columns: minmax(0, 1fr) minmax(0, 1fr); gap: 2mm; }
.cards .answer { flex: 1 1 22mm; align-self: flex-end; }
.ladder { border-collapse: collapse; margin: .5mm 0; }
.ladder th { font-weight: normal; font-size: 8pt; text-align: left; padding: .5mm 0 0; }
.ladder tr:first-child th { text-align: center; }
.ladder th.new { font-weight: bold; }
.ladder td { width: 30px; height: 46px; padding: 0 1px; vertical-align: top; }
.ladder td.slot { border: 1px dashed #bbb; border-radius: 3px; }
.cards.tricks { gap: 1mm 2.5mm; }
.pack { display: flex; flex-wrap: wrap; gap: 1mm 2.5mm; margin: .5mm 0; }
.packet { display: flex; gap: 1px; }
.packet .asked svg { outline: 2px solid #6b4e00; outline-offset: 1px; }
.key { break-before: page; }
.key ol { padding-left: 6mm; margin: 3mm 0 0; }
.key li { margin: 0 0 2mm; break-inside: avoid; }
.key .reason { color: #333; }
button.print { display: block; margin: 0 auto 10px; font: inherit; padding: 6px 14px; }
@media print {
  html { background: #fff; }
  body { padding: 0; }
  main.sheet, section.key { max-width: none; margin: 0; padding: 0; }
  button.print { display: none; }
}
@media (max-width: 640px) {
  body { padding: 4px; }
  main.sheet, section.key { padding: 3mm; }
  .tasks { grid-template-columns: minmax(0, 1fr); }
  .who { flex-direction: column; gap: 3mm; }
}
"""
"""The sheet's style: A4 with the course's print margins, two columns of tasks, the key on a page of its own;
on a phone one column."""

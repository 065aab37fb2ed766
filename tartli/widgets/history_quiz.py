"""The history quiz of lesson 12: multiple-choice questions on the game, its pack and its relatives.

Each question comes from :data:`FACTS`, a small table written down from the
project's sources (``/work/shared/FACTS.md`` and the seed documents); the
comment beside each fact says where it comes from, and the feedback names
that source so a learner can read on. History teaches no rule, so the quiz
cites sources instead of rule IDs.

Headless use (tests, lessons)::

    quiz = HistoryQuiz(seed=3)
    quiz.answer(quiz.truth)        # the right option's text, or press its button
    quiz.solved, quiz.stars        # (True, 3)
"""

from __future__ import annotations

import html
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import ipywidgets as w

from tartli.cards import Card
from tartli.i18n import N_, _
from tartli.render.cards import card_svg
from tartli.widgets.trainers.base import Exercise
from tartli.widgets.trainers.canvas import _GOLD, _Canvas

__all__ = ["FACTS", "SOURCES", "Fact", "HistoryQuiz"]

SOURCES = {
    "pagat": N_("John McLeod's Tartli page on pagat.com, based on a contribution by Róbert Kovács"),
    "penguin": N_("The Penguin Book of Card Games (its chapter on Ulti, after John McLeod and Gyula Zsigri)"),
    "tarock": N_("a rules summary of three-player Slovenian Tarock"),
    "wiki": N_("the Hungarian Wikipedia article “Magyar kártya”"),
    "tell": N_("the Hungarian Wikipedia article “Magyar kártya”, steve-p.org (Tell cards) and mistrypress"),
    "seasons": N_("the Hungarian Wikipedia article “Magyar kártya” and wopc.co.uk (Hungarian Seasons pack)"),
}
"""Where the facts come from, in words a learner can look up (in English: translated when shown)."""


@dataclass(frozen=True)
class Fact:
    """One question: the right answer first among ``options``, why, where it comes from, cards to show.

    The texts are in English, the message ids of the catalogs: :meth:`translated` gives them in the
    page's language.
    """

    topic: str
    question: str
    options: tuple[str, ...]
    why: str
    source: str
    cards: str = ""

    def translated(self) -> Fact:
        """The same fact in the page's language (:func:`tartli.i18n.language`); ``source`` stays a key of SOURCES."""
        return Fact(
            _(self.topic), _(self.question), tuple(_(o) for o in self.options), _(self.why), self.source, self.cards
        )


FACTS: tuple[Fact, ...] = (
    # seed 001 (pagat.com, Tartli): Bródy paid partners to play after lunch
    Fact(
        N_("Hungary around 1900"),
        N_("Which Hungarian writer liked Tartli so much that he paid partners to play a game or two after lunch?"),
        (N_("Sándor Bródy"), N_("István Szomaházy"), N_("József Pais"), N_("Gyula Zsigri")),
        N_("Sándor Bródy, a writer of the years around 1900, paid people to sit down to Tartli with him after lunch."),
        "pagat",
    ),
    # seed 001: by the mid-1920s the decline was called "agonizing" by Szomaházy (the source does not say
    # where; his 1926 Pesti Hírlap article is listed apart, among the references)
    Fact(
        N_("Hungary around 1900"),
        N_("Who wrote in the mid-1920s that Tartli was in an “agonizing” decline?"),
        (N_("István Szomaházy"), N_("Sándor Bródy"), N_("Fritz Beck"), N_("Friedrich Schiller")),
        N_(
            "István Szomaházy, who wrote much about card games, called the game's state so by the mid-1920s "
            "(likely in his 1926 article on the life and death of card games, which the source lists apart)."
        ),
        "pagat",
    ),
    # seed 001: Felsős = the Over (felső) is top trump; Alsós = the Under (alsó) is
    Fact(
        N_("The names"),
        N_("Why is Tartli also called Felsős?"),
        (
            N_("Its highest trump is the Over (felső)"),
            N_("Its highest trump is the Under (alsó)"),
            N_("It is played with the Overs removed"),
            N_("The Over of Acorns always leads the first trick"),
        ),
        N_("Felső is the Over. In Tartli the Over is the top trump; in the game called Alsós it is the Under (alsó)."),
        "pagat",
        "OH UH",
    ),
    # seed 001: Alsós, top trump the Under
    Fact(
        N_("The names"),
        N_("In the game called Alsós, which card is the highest trump?"),
        (N_("The Under (alsó)"), N_("The Over (felső)"), N_("The Ace (ász)"), N_("The Nine (kilences)")),
        N_("Alsós is named after the Under (alsó), its top trump, as Felsős (Tartli) is named after the Over."),
        "pagat",
        "UA",
    ),
    # seed 001: class Jass group; unlike most Jass games the Over, not the Under, is top trump
    Fact(
        N_("The Jass family"),
        N_("To which family of card games does Tartli belong?"),
        (N_("The Jass family"), N_("The Tarock family"), N_("The Rummy family"), N_("The Whist family")),
        N_(
            "The Jass family: you take tricks, draw from a talon and score melds. Unlike most games of that family, "
            "Tartli's highest trump is the Over, not the Under."
        ),
        "pagat",
    ),
    # seed 001: related games: Kláber
    Fact(
        N_("The Jass family"),
        N_("Which game does the Pagat page name as related to Tartli?"),
        (N_("Kláber"), N_("Canasta"), N_("Piquet"), N_("Whist")),
        N_("The page classes Tartli in the Jass group and names Kláber as a related game."),
        "pagat",
    ),
    # FACTS.md: Schneider, card painter of Pest (hu.wikipedia; steve-p.org; mistrypress)
    Fact(
        N_("The William Tell pack"),
        N_("Who designed the William Tell pack, and where?"),
        (
            N_("József Schneider, a card painter in Pest"),
            N_("Fritz Beck, in Vienna"),
            N_("Friedrich Schiller, in Weimar"),
            N_("István Szomaházy, in Budapest"),
        ),
        N_("The pack was drawn by József Schneider, a card painter working in Pest."),
        "tell",
        "OA",
    ),
    # FACTS.md: mid-1830s; 1835, 1836 and 1837 are all given (the sources disagree)
    Fact(
        N_("The William Tell pack"),
        N_("When was the William Tell pack first made?"),
        (N_("In the mid-1830s"), N_("Around 1900"), N_("In 1804"), N_("In 1960")),
        N_(
            "In the mid-1830s: the sources give 1835, 1836 or 1837 and do not agree on the year. "
            "(1804 is the year of Schiller's play.)"
        ),
        "tell",
    ),
    # FACTS.md: Over of Acorns = William Tell (hu.wikipedia)
    Fact(
        N_("The William Tell pack"),
        N_("Who is pictured on the Over of Acorns?"),
        (N_("William Tell"), N_("Hermann Gessler"), N_("Rudolf Harras"), N_("Walter Fürst")),
        N_("The Over of Acorns is William Tell himself."),
        "wiki",
        "OA",
    ),
    # FACTS.md: Over of Hearts = Hermann Gessler (hu.wikipedia)
    Fact(
        N_("The William Tell pack"),
        N_("Who is pictured on the Over of Hearts?"),
        (N_("Hermann Gessler"), N_("William Tell"), N_("Stüssi the hunter"), N_("Ulrich Rudenz")),
        N_("The Over of Hearts shows Gessler, the governor of Schiller's play. Makers vary the names a little."),
        "wiki",
        "OH",
    ),
    # FACTS.md: characters from Schiller's Wilhelm Tell (1804)
    Fact(
        N_("The William Tell pack"),
        N_("Whose play gave the Overs and Unders their characters?"),
        (
            N_("Friedrich Schiller's Wilhelm Tell (1804)"),
            N_("Goethe's Faust"),
            N_("Shakespeare's Julius Caesar"),
            N_("Mozart's The Magic Flute"),
        ),
        N_(
            "The Overs and Unders are characters of Schiller's Wilhelm Tell, first staged in 1804; "
            "the Kings are anonymous."
        ),
        "wiki",
        "OA UA OH UH",  # both kinds the question names (issue 36: it showed four Overs)
    ),
    # FACTS.md: Aces show the seasons: Hearts spring (hu.wikipedia; wopc.co.uk)
    Fact(
        N_("The William Tell pack"),
        N_("Which season does the Ace of Hearts show?"),
        (N_("Spring"), N_("Summer"), N_("Autumn"), N_("Winter")),
        N_("The four Aces show the seasons: Hearts spring, Bells summer, Leaves autumn, Acorns winter."),
        "seasons",
        "AH",
    ),
    # FACTS.md: Acorns winter
    Fact(
        N_("The William Tell pack"),
        N_("Which season does the Ace of Acorns show?"),
        (N_("Winter"), N_("Spring"), N_("Summer"), N_("Autumn")),
        N_("The four Aces show the seasons: Hearts spring, Bells summer, Leaves autumn, Acorns winter."),
        "seasons",
        "AA",
    ),
    # FACTS.md: used across the former Austro-Hungarian lands (hu.wikipedia)
    Fact(
        N_("The William Tell pack"),
        N_("Where is the William Tell pack used?"),
        (
            N_("Across the lands of the former Austro-Hungarian monarchy"),
            N_("Only in Switzerland"),
            N_("Only in Budapest"),
            N_("In Spain and Portugal"),
        ),
        N_(
            "It is played across the former Austro-Hungarian lands: Hungary, Austria, Slovenia, Czechia, Slovakia, "
            "Croatia, Transylvania and South Tyrol."
        ),
        "wiki",
    ),
    # seed 001: Austrian Tartl after Fritz Beck, Tartl und Zensa, Perlen Reihe 660, Vienna 1960
    Fact(
        N_("Austria"),
        N_("Which book describes the Austrian Tartl?"),
        (
            N_("Fritz Beck, Tartl und Zensa (Vienna, 1960)"),
            N_("József Pais, Ulti, Tarokk és néhány kis játék (Budapest, 1990)"),
            N_("István Szomaházy, Kártya-Codex (Budapest, 1898)"),
            N_("Gyula Zsigri, 21 válogatott kártyajáték (Szeged, 1993)"),
        ),
        N_("Fritz Beck's Tartl und Zensa, volume 660 of the Perlen Reihe, Vienna 1960."),
        "pagat",
    ),
    # seed 001: the Hungarian rules follow Pais's book
    Fact(
        N_("Sources"),
        N_("The Hungarian rules of this course follow which book?"),
        (
            N_("József Pais, Ulti, Tarokk és néhány kis játék (Budapest, 1990)"),
            N_("Fritz Beck, Tartl und Zensa (Vienna, 1960)"),
            N_("The Penguin Book of Card Games"),
            N_("István Szomaházy, Kártyajátékok élete és halála (1926)"),
        ),
        N_(
            "József Pais's book (Hungaria Sport, Budapest, 1990), except for his béla rule, which the course offers "
            "as an option."
        ),
        "pagat",
    ),
    # seed 001: chalk and slate, signs for 20, 30, 50, 80 and 100
    Fact(
        N_("At the table"),
        N_("How was a game of Tartli traditionally scored?"),
        (
            N_("In chalk on a slate, with signs for 20, 30, 50, 80 and 100"),
            N_("With pegs on a board"),
            N_("With coloured chips"),
            N_("Only in the players' heads"),
        ),
        N_("With chalk on a slate (and a sponge), using signs for 20, 30, 50, 80 and 100."),
        "pagat",
    ),
    # seed 002: Ulti (Talonmarias), 3 players, 32 cards
    Fact(
        N_("Relatives"),
        N_("How many players does Ulti (formerly Talonmarias), Hungary's national card game, take?"),
        (N_("Three"), N_("Two"), N_("Four"), N_("Six")),
        N_("Ulti is a game for three: in each deal the highest bidder plays alone against the other two."),
        "penguin",
    ),
    # seed 002: the ulti bid: win the last trick with the trump 7
    Fact(
        N_("Relatives"),
        N_("In Ulti, what does the bid “ulti” promise?"),
        (
            N_("To win the last trick with the Seven of trumps"),
            N_("To win every trick"),
            N_("To lose every trick"),
            N_("To take at least 100 points"),
        ),
        N_("Ulti, the bid that named the game, undertakes to win the last trick with the lowest trump, the Seven."),
        "penguin",
    ),
    # seed 002: Aces and Tens 10 each, last trick 10: 90 points
    Fact(
        N_("Relatives"),
        N_("In Ulti, which cards count 10 card points each?"),
        (N_("Aces and Tens"), N_("Overs and Nines"), N_("Kings and Overs"), N_("Every picture card")),
        N_("Only Aces and Tens count, 10 each, plus 10 for the last trick: 90 in all, before marriages."),
        "penguin",
    ),
    # seed 004: 54 cards = 32 suited + 22 tarocks
    Fact(
        N_("Relatives"),
        N_("How many cards are in the Slovenian Tarock pack?"),
        ("54", "32", "36", "78"),
        N_("54: 32 suited cards and 22 tarocks."),
        "tarock",
    ),
    # seed 004: card points counted in groups of three
    Fact(
        N_("Relatives"),
        N_("How are card points counted in Slovenian Tarock?"),
        (
            N_("In groups of three cards"),
            N_("Card by card, as in Tartli"),
            N_("Only the tarocks count"),
            N_("By the number of tricks"),
        ),
        N_("Cards are counted in groups of three: the group's values plus one. The whole pack makes 70."),
        "tarock",
    ),
)
"""The facts the quiz asks about (the right answer is the first option), in English: see :meth:`Fact.translated`."""


class HistoryQuiz(Exercise):
    """Multiple-choice questions on Tartli's history, the William Tell pack and the game's relatives."""

    id = "history-quiz"
    title = N_("History: a quick quiz")
    instruction = N_("Choose the right answer.")

    fact: Fact
    """The question asked, as written in :data:`FACTS` (English)."""
    options: list[str]
    """The options as shown on the buttons, in the page's language, in their shuffled order."""

    def __init__(self, seed: int | None = None, **kw: Any) -> None:
        self.options = []
        super().__init__(seed, **kw)

    # -- the cycle
    def _generate(self) -> object:
        self.fact = self.rng.choice(FACTS)
        self.options = list(self.fact.translated().options)
        self.rng.shuffle(self.options)
        return self.fact.question

    def _restart(self) -> None:
        self.instruction_html.value = (
            f"<div style='font-size:1.05em'><b>{html.escape(_(self.fact.question), quote=False)}</b></div>"
        )
        self.controls.children = [self._button(option, self._answering(option)) for option in self.options]
        self.controls.layout = w.Layout(flex_flow="column", align_items="flex-start")
        super()._restart()

    def _answering(self, option: str) -> Callable[[], bool]:
        return lambda: self.answer(option)

    # -- judging
    @property
    def truth(self) -> str:
        """The right option (the first one written in :data:`FACTS`), as shown."""
        return _(self.fact.options[0])

    @property
    def source(self) -> str:
        """Where the fact comes from, in the page's language."""
        return _(SOURCES[self.fact.source])

    def answer(self, option: str | int) -> bool:
        """The learner's choice: an option's text, or its place (0-3) as shown."""
        if isinstance(option, int):
            option = self.options[option]
        if option not in self.options:
            raise ValueError(f"choose one of the options shown: {', '.join(self.options)}")
        why, source = _(self.fact.why), self.source
        if option == self.truth:
            return self._judge(True, _("Right. {why} (Source: {source}.)").format(why=why, source=source))
        return self._judge(
            False,
            _("Not quite: the answer is “{answer}”. {why} (Source: {source}.)").format(
                answer=self.truth, why=why, source=source
            ),
        )

    # -- the picture
    def _picture(self) -> str:
        canvas = _Canvas(_(self.fact.question), min_width=460)
        canvas.text(_(self.fact.topic), size=17, weight="bold", fill=_GOLD)
        if self.fact.cards:
            chosen = [Card.parse(c) for c in self.fact.cards.split()]
            canvas.row([(card_svg(c, language=self.language, width=96), None) for c in chosen])
        return canvas.svg()

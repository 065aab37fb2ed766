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
from tartli.render.cards import card_svg
from tartli.widgets.trainers import _GOLD, Exercise, _Canvas

__all__ = ["FACTS", "SOURCES", "Fact", "HistoryQuiz"]

SOURCES = {
    "pagat": "John McLeod's Tartli page on pagat.com, based on a contribution by Róbert Kovács",
    "penguin": "The Penguin Book of Card Games (its chapter on Ulti, after John McLeod and Gyula Zsigri)",
    "tarock": "a rules summary of three-player Slovenian Tarock",
    "wiki": "the Hungarian Wikipedia article “Magyar kártya”",
    "tell": "the Hungarian Wikipedia article “Magyar kártya”, steve-p.org (Tell cards) and mistrypress",
    "seasons": "the Hungarian Wikipedia article “Magyar kártya” and wopc.co.uk (Hungarian Seasons pack)",
}
"""Where the facts come from, in words a learner can look up."""


@dataclass(frozen=True)
class Fact:
    """One question: the right answer first among ``options``, why, where it comes from, cards to show."""

    topic: str
    question: str
    options: tuple[str, ...]
    why: str
    source: str
    cards: str = ""


FACTS: tuple[Fact, ...] = (
    # seed 001 (pagat.com, Tartli): Bródy paid partners to play after lunch
    Fact(
        "Hungary around 1900",
        "Which Hungarian writer liked Tartli so much that he paid partners to play a game or two after lunch?",
        ("Sándor Bródy", "István Szomaházy", "József Pais", "Gyula Zsigri"),
        "Sándor Bródy, a writer of the years around 1900, paid people to sit down to Tartli with him after lunch.",
        "pagat",
    ),
    # seed 001: by the mid-1920s the decline was called "agonizing" by Szomaházy (the source does not say
    # where; his 1926 Pesti Hírlap article is listed apart, among the references)
    Fact(
        "Hungary around 1900",
        "Who wrote in the mid-1920s that Tartli was in an “agonizing” decline?",
        ("István Szomaházy", "Sándor Bródy", "Fritz Beck", "Friedrich Schiller"),
        "István Szomaházy, who wrote much about card games, called the game's state so by the mid-1920s "
        "(likely in his 1926 article on the life and death of card games, which the source lists apart).",
        "pagat",
    ),
    # seed 001: Felsős = the Over (felső) is top trump; Alsós = the Under (alsó) is
    Fact(
        "The names",
        "Why is Tartli also called Felsős?",
        (
            "Its highest trump is the Over (felső)",
            "Its highest trump is the Under (alsó)",
            "It is played with the Overs removed",
            "The Over of Acorns always leads the first trick",
        ),
        "Felső is the Over. In Tartli the Over is the top trump; in the game called Alsós it is the Under (alsó).",
        "pagat",
        "OH UH",
    ),
    # seed 001: Alsós, top trump the Under
    Fact(
        "The names",
        "In the game called Alsós, which card is the highest trump?",
        ("The Under (alsó)", "The Over (felső)", "The Ace (ász)", "The Nine (kilences)"),
        "Alsós is named after the Under (alsó), its top trump, as Felsős (Tartli) is named after the Over.",
        "pagat",
        "UA",
    ),
    # seed 001: class Jass group; unlike most Jass games the Over, not the Under, is top trump
    Fact(
        "The Jass family",
        "To which family of card games does Tartli belong?",
        ("The Jass family", "The Tarock family", "The Rummy family", "The Whist family"),
        "The Jass family: you take tricks, draw from a talon and score melds. Unlike most games of that family, "
        "Tartli's highest trump is the Over, not the Under.",
        "pagat",
    ),
    # seed 001: related games: Kláber
    Fact(
        "The Jass family",
        "Which game does the Pagat page name as related to Tartli?",
        ("Kláber", "Canasta", "Piquet", "Whist"),
        "The page classes Tartli in the Jass group and names Kláber as a related game.",
        "pagat",
    ),
    # FACTS.md: Schneider, card painter of Pest (hu.wikipedia; steve-p.org; mistrypress)
    Fact(
        "The William Tell pack",
        "Who designed the William Tell pack, and where?",
        (
            "József Schneider, a card painter in Pest",
            "Fritz Beck, in Vienna",
            "Friedrich Schiller, in Weimar",
            "István Szomaházy, in Budapest",
        ),
        "The pack was drawn by József Schneider, a card painter working in Pest.",
        "tell",
        "OA",
    ),
    # FACTS.md: mid-1830s; 1835, 1836 and 1837 are all given (the sources disagree)
    Fact(
        "The William Tell pack",
        "When was the William Tell pack first made?",
        ("In the mid-1830s", "Around 1900", "In 1804", "In 1960"),
        "In the mid-1830s: the sources give 1835, 1836 or 1837 and do not agree on the year. "
        "(1804 is the year of Schiller's play.)",
        "tell",
    ),
    # FACTS.md: Over of Acorns = William Tell (hu.wikipedia)
    Fact(
        "The William Tell pack",
        "Who is pictured on the Over of Acorns?",
        ("William Tell", "Hermann Gessler", "Rudolf Harras", "Walter Fürst"),
        "The Over of Acorns is William Tell himself.",
        "wiki",
        "OA",
    ),
    # FACTS.md: Over of Hearts = Hermann Gessler (hu.wikipedia)
    Fact(
        "The William Tell pack",
        "Who is pictured on the Over of Hearts?",
        ("Hermann Gessler", "William Tell", "Stüssi the hunter", "Ulrich Rudenz"),
        "The Over of Hearts shows Gessler, the governor of Schiller's play. Makers vary the names a little.",
        "wiki",
        "OH",
    ),
    # FACTS.md: characters from Schiller's Wilhelm Tell (1804)
    Fact(
        "The William Tell pack",
        "Whose play gave the Overs and Unders their characters?",
        (
            "Friedrich Schiller's Wilhelm Tell (1804)",
            "Goethe's Faust",
            "Shakespeare's Julius Caesar",
            "Mozart's The Magic Flute",
        ),
        "The Overs and Unders are characters of Schiller's Wilhelm Tell, first staged in 1804; "
        "the Kings are anonymous.",
        "wiki",
        "OA OH OB OL",
    ),
    # FACTS.md: Aces show the seasons: Hearts spring (hu.wikipedia; wopc.co.uk)
    Fact(
        "The William Tell pack",
        "Which season does the Ace of Hearts show?",
        ("Spring", "Summer", "Autumn", "Winter"),
        "The four Aces show the seasons: Hearts spring, Bells summer, Leaves autumn, Acorns winter.",
        "seasons",
        "AH",
    ),
    # FACTS.md: Acorns winter
    Fact(
        "The William Tell pack",
        "Which season does the Ace of Acorns show?",
        ("Winter", "Spring", "Summer", "Autumn"),
        "The four Aces show the seasons: Hearts spring, Bells summer, Leaves autumn, Acorns winter.",
        "seasons",
        "AA",
    ),
    # FACTS.md: used across the former Austro-Hungarian lands (hu.wikipedia)
    Fact(
        "The William Tell pack",
        "Where is the William Tell pack used?",
        (
            "Across the lands of the former Austro-Hungarian monarchy",
            "Only in Switzerland",
            "Only in Budapest",
            "In Spain and Portugal",
        ),
        "It is played across the former Austro-Hungarian lands: Hungary, Austria, Slovenia, Czechia, Slovakia, "
        "Croatia, Transylvania and South Tyrol.",
        "wiki",
    ),
    # seed 001: Austrian Tartl after Fritz Beck, Tartl und Zensa, Perlen Reihe 660, Vienna 1960
    Fact(
        "Austria",
        "Which book describes the Austrian Tartl?",
        (
            "Fritz Beck, Tartl und Zensa (Vienna, 1960)",
            "József Pais, Ulti, Tarokk és néhány kis játék (Budapest, 1990)",
            "István Szomaházy, Kártya-Codex (Budapest, 1898)",
            "Gyula Zsigri, 21 válogatott kártyajáték (Szeged, 1993)",
        ),
        "Fritz Beck's Tartl und Zensa, volume 660 of the Perlen Reihe, Vienna 1960.",
        "pagat",
    ),
    # seed 001: the Hungarian rules follow Pais's book
    Fact(
        "Sources",
        "The Hungarian rules of this course follow which book?",
        (
            "József Pais, Ulti, Tarokk és néhány kis játék (Budapest, 1990)",
            "Fritz Beck, Tartl und Zensa (Vienna, 1960)",
            "The Penguin Book of Card Games",
            "István Szomaházy, Kártyajátékok élete és halála (1926)",
        ),
        "József Pais's book (Hungaria Sport, Budapest, 1990), except for his béla rule, which the course offers "
        "as an option.",
        "pagat",
    ),
    # seed 001: chalk and slate, signs for 20, 30, 50, 80 and 100
    Fact(
        "At the table",
        "How was a game of Tartli traditionally scored?",
        (
            "In chalk on a slate, with signs for 20, 30, 50, 80 and 100",
            "With pegs on a board",
            "With coloured chips",
            "Only in the players' heads",
        ),
        "With chalk on a slate (and a sponge), using signs for 20, 30, 50, 80 and 100.",
        "pagat",
    ),
    # seed 002: Ulti (Talonmarias), 3 players, 32 cards
    Fact(
        "Relatives",
        "How many players does Ulti (formerly Talonmarias), Hungary's national card game, take?",
        ("Three", "Two", "Four", "Six"),
        "Ulti is a game for three: in each deal the highest bidder plays alone against the other two.",
        "penguin",
    ),
    # seed 002: the ulti bid: win the last trick with the trump 7
    Fact(
        "Relatives",
        "In Ulti, what does the bid “ulti” promise?",
        (
            "To win the last trick with the Seven of trumps",
            "To win every trick",
            "To lose every trick",
            "To take at least 100 points",
        ),
        "Ulti, the bid that named the game, undertakes to win the last trick with the lowest trump, the Seven.",
        "penguin",
    ),
    # seed 002: Aces and Tens 10 each, last trick 10: 90 points
    Fact(
        "Relatives",
        "In Ulti, which cards count 10 card points each?",
        ("Aces and Tens", "Overs and Nines", "Kings and Overs", "Every picture card"),
        "Only Aces and Tens count, 10 each, plus 10 for the last trick: 90 in all, before marriages.",
        "penguin",
    ),
    # seed 004: 54 cards = 32 suited + 22 tarocks
    Fact(
        "Relatives",
        "How many cards are in the Slovenian Tarock pack?",
        ("54", "32", "36", "78"),
        "54: 32 suited cards and 22 tarocks.",
        "tarock",
    ),
    # seed 004: card points counted in groups of three
    Fact(
        "Relatives",
        "How are card points counted in Slovenian Tarock?",
        (
            "In groups of three cards",
            "Card by card, as in Tartli",
            "Only the tarocks count",
            "By the number of tricks",
        ),
        "Cards are counted in groups of three: the group's values plus one. The whole pack makes 70.",
        "tarock",
    ),
)
"""The facts the quiz asks about (the right answer is the first option)."""


class HistoryQuiz(Exercise):
    """Multiple-choice questions on Tartli's history, the William Tell pack and the game's relatives."""

    id = "history-quiz"
    title = "History: a quick quiz"
    instruction = "Choose the right answer."

    fact: Fact
    options: list[str]

    def __init__(self, seed: int | None = None, **kw: Any) -> None:
        self.options = []
        super().__init__(seed, **kw)

    # -- the cycle
    def _generate(self) -> object:
        self.fact = self.rng.choice(FACTS)
        self.options = list(self.fact.options)
        self.rng.shuffle(self.options)
        return self.fact.question

    def _restart(self) -> None:
        self.instruction_html.value = (
            f"<div style='font-size:1.05em'><b>{html.escape(self.fact.question, quote=False)}</b></div>"
        )
        self.controls.children = [self._button(option, self._answering(option)) for option in self.options]
        self.controls.layout = w.Layout(flex_flow="column", align_items="flex-start")
        super()._restart()

    def _answering(self, option: str) -> Callable[[], bool]:
        return lambda: self.answer(option)

    # -- judging
    @property
    def truth(self) -> str:
        """The right option (the first one written in :data:`FACTS`)."""
        return self.fact.options[0]

    @property
    def source(self) -> str:
        return SOURCES[self.fact.source]

    def answer(self, option: str | int) -> bool:
        """The learner's choice: an option's text, or its place (0-3) as shown."""
        if isinstance(option, int):
            option = self.options[option]
        if option not in self.options:
            raise ValueError(f"choose one of the options shown: {', '.join(self.options)}")
        cited = f"{self.fact.why} (Source: {self.source}.)"
        if option == self.truth:
            return self._judge(True, f"Right. {cited}")
        return self._judge(False, f"Not quite: the answer is “{self.truth}”. {cited}")

    # -- the picture
    def _picture(self) -> str:
        canvas = _Canvas(self.fact.question, min_width=460)
        canvas.text(self.fact.topic, size=17, weight="bold", fill=_GOLD)
        if self.fact.cards:
            chosen = [Card.parse(c) for c in self.fact.cards.split()]
            canvas.row([(card_svg(c, language=self.language, width=96), None) for c in chosen])
        return canvas.svg()

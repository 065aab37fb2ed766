"""The course map: the pages of the app in reading order, and the navigation between them.

Each page is a notebook in ``notebooks/`` at the top of the repository; the wheel
ships them inside the package as ``tartli/notebooks`` (see :func:`notebooks_dir`).
The index draws the map from here and every page ends with previous/next links
made by :func:`nav_html`, so the map has one source.
"""

from __future__ import annotations

import html
import sys
from dataclasses import dataclass
from pathlib import Path

from tartli.i18n import N_, _


@dataclass(frozen=True)
class Page:
    """One page of the app (its title and summary in English: :func:`tartli.i18n._` shows them translated)."""

    file: str
    title: str
    summary: str
    exercises: tuple[str, ...] = ()
    """Ids of the exercises on the page, whose stars the course map shows."""
    teaches: tuple[str, ...] = ()
    """What the page teaches that a table or a trainer may offer (:data:`TOPICS`): see :func:`taught`."""
    challenges: tuple[str, ...] = ()
    """Ids of other exercises on the page, whose stars are kept but not counted on the course map (lesson 13's
    challenges): a class's report may hold them (:data:`EXERCISES`)."""
    steps: int = 0
    """How many steps the lesson has (0: not a lesson of steps); the teacher's page says "step 4 of 10"
    without running the notebook (a test checks the number against the lesson itself)."""


DUELS_ENV = "TARTLI_DUELS"
"""Set (to ``1``) in the environment of the course's server, and so of every kernel it starts: tables for two
browsers exist there (issue 38; Binder and the static edition have none). Here, not in ``tartli.server``,
which the static edition does not ship."""

TOPICS = (
    "swap",
    "undo",
    "phases",
    "melds",
    "review",
    "out",
    "levels",
    "hint",
    "last-trick",
    "pause",
    "reveal",
    "austrian",
    "deals",
    "records",
)
"""What a lesson's table or trainer offers only once the course has taught it: the table's controls
(swap the trump 7, undo, declare, the review of phase 2, go out, the computer's level, the hint, the
last trick, how long a trick stays, both hands shown, deals by number, records) and the trainers'
words and positions (the two phases by name, the Austrian rules)."""


PAGES: tuple[Page, ...] = (  # the RULES.md IDs a lesson teaches are in its notebook's metadata
    Page("00_index.ipynb", N_("Welcome to Tartli"), N_("What the game is and how this course works.")),
    Page(
        "01_pack.ipynb",
        N_("The pack"),
        N_("The 32 William Tell cards, the four German suits, Over and Under."),
        exercises=("lesson01.name-the-card",),
        steps=11,
    ),
    Page(
        "02_ranks_and_points.ipynb",
        N_("Ranks and points"),
        N_("The three orders of the cards and the 161 card points."),
        exercises=("lesson02.which-card-wins", "lesson02.count-points"),
        steps=10,
    ),
    Page(
        "03_deal.ipynb",
        N_("The deal and the table"),
        N_("Packets of three, the trump indicator, the talon, the swap."),
        exercises=("lesson03.quiz",),
        teaches=("swap",),
        steps=10,
    ),
    Page(
        "04_phase_one.ipynb",
        N_("Phase 1: trick and draw"),
        N_("Free play in the first seven tricks, and who draws what."),
        exercises=("lesson04.quiz",),
        teaches=("undo", "phases"),
        steps=9,
    ),
    Page(
        "05_melds.ipynb",
        N_("Melds"),
        N_("Sequences from terc to okt, four of a kind, and béla."),
        exercises=("lesson05.find-melds",),
        steps=13,
    ),
    Page(
        "06_meld_contest.ipynb",
        N_("The meld contest"),
        N_("Who may answer a declaration, and who scores."),
        exercises=("lesson06.meld-contest",),
        teaches=("melds",),
        steps=12,
    ),
    Page(
        "07_sequences.ipynb",
        N_("Building sequences"),
        N_("Which sequence may follow which in the same suit, and the Over-kvint ladder."),
        exercises=("lesson07.same-suit",),
        steps=9,
    ),
    Page(
        "08_phase_two.ipynb",
        N_("Phase 2"),
        N_("Follow suit, trump if you cannot, the last trick's 10, stichmatsch; endgames with a coach."),
        exercises=("lesson08.endgame", "lesson08.what-may-you-play"),
        teaches=("review",),
        steps=12,
    ),
    Page(
        "09_scoring.ipynb",
        N_("Scoring and going out"),
        N_("Running scores to 501, claiming at any moment, buli and maccs, the chalk slate."),
        exercises=("lesson09.going-out",),
        teaches=("out",),
        steps=14,
    ),
    Page(
        "10_play_a_game.ipynb",
        N_("Play a game"),
        N_("A whole match against the computer at your level, with hints, undo and a review of each hand."),
        exercises=("lesson10.match",),
        teaches=("levels", "hint", "last-trick", "pause", "reveal"),
        steps=10,
    ),
    Page(
        "11_variants.ipynb",
        N_("Variants"),
        N_("The Austrian Tartl and the Pais béla rule, side by side on the same deal."),
        exercises=("lesson11.quiz",),
        teaches=("austrian",),
        steps=15,
    ),
    Page(
        "12_history.ipynb",
        N_("History"),
        N_(
            "A timeline from Schiller's play to today, the Jass family, the William Tell pack, "
            "and the game's neighbours."
        ),
        exercises=("lesson12.quiz",),
        steps=13,
    ),
    Page(
        "13_scenario_lab.ipynb",
        N_("Scenario lab"),
        N_("Set up any position, check it, play it out, or pass it on as a record."),
        exercises=("lesson13.lab-challenge",),
        challenges=("lesson13.lab-overs", "lesson13.lab-swap", "lesson13.lab-second-leads", "lesson13.lab-bela-501"),
        teaches=("deals", "records"),
        steps=8,
    ),
    Page("rules.ipynb", N_("The rule book"), N_("Every rule of the game, by its ID, in a few words.")),
    Page(
        "practice.ipynb",
        N_("Practice"),
        N_("Eight trainers: card names, tricks, card points, melds, the contest, what to play, going out."),
        exercises=(
            "name-the-card",
            "which-card-wins",
            "count-points",
            "find-melds",
            "meld-contest",
            "same-suit",
            "what-may-you-play",
            "going-out",
        ),
    ),
    Page("table.ipynb", N_("Play at the table"), N_("A whole game against the computer, or two people at one screen.")),
)
"""The pages in reading order. Lessons are added here as they are written."""


def page_named(name: str) -> str | None:
    """The course page a teacher names: its file (``03_deal.ipynb``), its name (``03_deal``, ``table``) or its
    lesson's number (``03``, ``3``); None if it names none."""
    text = name.strip().lower().removesuffix(".ipynb")
    for page in PAGES:
        stem = page.file.removesuffix(".ipynb")
        number = stem.split("_", 1)[0]
        if text == stem or (number.isdigit() and text.isdigit() and int(text) == int(number)):
            return page.file
    return None


EXERCISES = frozenset(exercise for page in PAGES for exercise in page.exercises + page.challenges)
"""The course's exercises: the only ones a star is kept or counted for (a class's report, a progress code)."""


def taught(file: str) -> frozenset[str]:
    """What the course has taught by the end of the page ``file`` (its own lesson included): a lesson's
    table and trainers offer only that. The pages after the lessons (the rule book, practice, the
    table) come after everything.

    >>> sorted(taught("03_deal.ipynb")), "austrian" in taught("09_scoring.ipynb"), taught("table.ipynb") == set(TOPICS)
    (['swap'], False, True)
    """
    found: set[str] = set()
    for page in PAGES[: index_of(file) + 1]:
        found.update(page.teaches)
    unknown = found - set(TOPICS)
    if unknown:  # pragma: no cover - PAGES and TOPICS are written together
        raise KeyError(f"topics {sorted(unknown)} are not in TOPICS")
    return frozenset(found)


def notebooks_dir() -> Path:
    """Where the pages are.

    An installed wheel holds them in the package, as ``tartli/notebooks`` (the build maps the
    package ``tartli.notebooks`` to the repository's ``notebooks/``: see pyproject.toml). In a
    clone (an editable install, or ``python -m tartli...`` run from its root) they are the
    clone's own ``notebooks/``, beside ``tartli/``.
    """
    package = Path(__file__).resolve().parent
    shipped = package / "notebooks"
    clone = package.parent / "notebooks"
    if not (shipped / PAGES[0].file).is_file() and (package.parent / "pyproject.toml").is_file():
        return clone
    return shipped


def page_url(page: Page, *, static: bool | None = None, lang: str | None = None) -> str:
    """The page's address relative to another page of the course, in the page's language.

    Voilà serves ``render/NN.ipynb``, with ``?lang=hu`` for a language other than English; the
    static edition (:mod:`tartli.site`, running in the browser's Pyodide, where ``sys.platform``
    is ``"emscripten"``) has ``render/NN.html``, and one copy of each page per language,
    ``render/NN.hu.html``. ``lang`` None: the language of this page (:func:`tartli.i18n.language`).

    >>> page_url(PAGES[1], static=False, lang="en"), page_url(PAGES[1], static=True, lang="en")
    ('01_pack.ipynb', '01_pack.html')
    >>> page_url(PAGES[1], static=False, lang="hu"), page_url(PAGES[1], static=True, lang="de")
    ('01_pack.ipynb?lang=hu', '01_pack.de.html')
    """
    from tartli.i18n import language

    if static is None:
        static = sys.platform == "emscripten"
    lang = lang or language()
    stem = page.file.removesuffix(".ipynb")
    if static:
        return f"{stem}.html" if lang == "en" else f"{stem}.{lang}.html"
    return page.file if lang == "en" else f"{page.file}?lang={lang}"


def index_of(file: str) -> int:
    for i, page in enumerate(PAGES):
        if page.file == file:
            return i
    raise KeyError(f"{file} is not a page of the course")


def welcome(*, static: bool | None = None) -> str:
    """The index's opening words (Markdown, in the page's language): what the game is and how the course
    teaches it. The index shows them, and the static edition draws them before its Python has started
    (:mod:`tartli.site.preview`), so both come from here. ``static``: as for :func:`page_url`.

    >>> "(rules.html)" in welcome(static=True), "(rules.ipynb)" in welcome(static=False)
    (True, True)
    """
    rule_book = page_url(PAGES[index_of("rules.ipynb")], static=static)  # in the page's language
    return "# Tartli\n\n" + _(
        """**Tartli** (also called *Felsős*) is a card game for two players from Hungary,
popular there around 1900, and played in Austria as *Tartl*. It uses the
32-card German-suited pack with the William Tell figures. Each of you keeps
nine cards, plays a card to each trick and draws from the talon; along the way
you announce combinations (*melds*): sequences in a suit, four of a kind
(*vannak*), and the King and Over of trumps (*béla*). Your points run on from
hand to hand: reach **501** and say so (or have 501 when the hand is played
out) to win a *buli*.

This course teaches the game in short steps. Every example is live: the cards
are dealt by the same engine that checks every rule, and every refused move
tells you which rule stopped it. The [rule book]({rule_book}) explains every
rule by its ID."""
    ).format(rule_book=rule_book)


def nav_html(file: str) -> str:
    """Previous / index / next links for the page ``file``."""
    i = index_of(file)
    links = []
    if i > 0:
        prev = PAGES[i - 1]
        back = html.escape(_(prev.title))
        links.append(f'<a class="tartli-prev" target="_self" href="{page_url(prev)}">← {back}</a>')
    if i != 0:
        home = _("Course map")
        links.append(f'<a class="tartli-home" target="_self" href="{page_url(PAGES[0])}">{html.escape(home)}</a>')
    if i + 1 < len(PAGES):
        nxt = PAGES[i + 1]
        on = html.escape(_(nxt.title))
        links.append(f'<a class="tartli-next" target="_self" href="{page_url(nxt)}">{on} →</a>')
    return '<nav class="tartli-nav" style="display:flex;gap:2em;margin:1.5em 0">' + "".join(links) + "</nav>"

"""The rule book page: every rule ID of RULES.md explained in a few words for a learner.

Error messages, lessons and trainers name rules by ID (``T4``, ``K7``...); this module
holds one short explanation per ID, in the course's own words, and builds the page
``rules.ipynb`` that shows them all, each under the anchor ``rule-<ID>``. Other pages
link to a rule with :func:`rule_href`, or let :func:`link_rule_ids` turn every ID
mentioned in a piece of HTML into such a link. Standard library only (and the card art).

>>> rule_ids()[:3], len(rule_ids())
(('C1', 'C2', 'C3'), 46)
>>> rule_href("K7")
'rules.ipynb#rule-K7'
>>> link_rule_ids("a T4 error (see T2/T4), not K99")  # doctest: +NORMALIZE_WHITESPACE
'a <a href="rules.ipynb#rule-T4" class="tartli-rule">T4</a> error (see
<a href="rules.ipynb#rule-T2" class="tartli-rule">T2</a>/<a href="rules.ipynb#rule-T4" class="tartli-rule">T4</a>),
not K99'
"""

from __future__ import annotations

import html
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from tartli import names
from tartli.cards import LAST_TRICK_BONUS, PLAIN_ORDER, PLAIN_POINTS, TRUMP_ORDER, TRUMP_POINTS, Card, Language
from tartli.course import Page, page_url
from tartli.errors import ArgumentError
from tartli.i18n import N_, _
from tartli.melds import BELA_VALUE, SEQUENCE_VALUES, SET_VALUES
from tartli.render.cards import card_svg

__all__ = [
    "RULES",
    "RULE_BOOK_PAGE",
    "SECTIONS",
    "Rule",
    "anchor",
    "link_rule_ids",
    "print_buttons_html",
    "quick_reference_html",
    "rule",
    "rule_book_html",
    "rule_href",
    "rule_ids",
]

RULE_BOOK_PAGE = "rules.ipynb"
"""The notebook of the rule book (a page of :data:`tartli.course.PAGES`)."""


@dataclass(frozen=True)
class Rule:
    """One rule of RULES.md, as the rule book tells it."""

    id: str
    """The RULES.md ID: ``"K7"``; its letter is the section."""
    title: str
    """In English (the message id): the page shows it translated, like ``text`` and ``caption``."""
    text: str
    """The explanation: plain text (2-5 sentences), escaped when shown."""
    example: str = ""
    """Cards to draw beside the text, like ``"OH UH"``; ``" / "`` separates groups."""
    caption: str = ""
    """What the example shows (plain text)."""
    trump: str = ""
    """The trump suit's letter if the example's cards of that suit are drawn as trumps (``"H"``)."""

    @property
    def section(self) -> str:
        """The section letter: ``"K"`` for K7."""
        return self.id[0]


SECTIONS: dict[str, str] = {
    "C": N_("Cards and orders"),
    "D": N_("The deal"),
    "T": N_("Tricks and the two phases"),
    "M": N_("Melds"),
    "K": N_("The meld contest"),
    "B": N_("Béla timing"),
    "S": N_("Scoring, going out and buli"),
    "V": N_("Variants: the Austrian Tartl"),
}
"""The sections of RULES.md, in its order: ID letter -> heading (in English; translated when shown)."""

RULES: tuple[Rule, ...] = (
    # C: cards and orders
    Rule(
        "C1",
        N_("The pack"),
        N_(
            "Tartli uses 32 cards: four suits of eight. The suits are Acorns, Leaves, Hearts and Bells, and each "
            "has an Ace, King, Over, Under, Ten, Nine, Eight and Seven. The Over and the Under are the two figures "
            "below the King: on the Over the suit pip stands in the top left corner, on the Under lower down the "
            "left side."
        ),
        "OA OL OH OB",
        N_("The four Overs: Acorns, Leaves, Hearts, Bells."),
    ),
    Rule(
        "C2",
        N_("The order for sequences"),
        N_(
            "For melds, the cards of a suit stand in their natural order: Ace, King, Over, Under, Ten, Nine, Eight, "
            "Seven (A K O U X 9 8 7). Cards next to each other in this order can form a sequence. The order does not "
            "go round: the Seven and the Ace are not neighbours."
        ),
        "AH KH OH UH XH 9H 8H 7H",
        N_("Hearts in sequence order, high to low."),
    ),
    Rule(
        "C3",
        N_("The trump suit: order and points"),
        N_(
            "In the trump suit the Over is the highest card and the Nine comes second: O 9 A X K U 8 7. "
            "They are worth 20, 14, 11, 10, 4, 2, 0 and 0 card points, 61 in all. "
            "So the trump Over and the trump Nine are both strong and rich."
        ),
        "OH 9H AH XH KH UH 8H 7H",
        N_("Hearts as trumps, strongest first."),
        trump="H",
    ),
    Rule(
        "C4",
        N_("The plain suits: order and points"),
        N_(
            "In the three suits that are not trumps the Ace is highest: A X K O U 9 8 7. The Ace is worth 11 card "
            "points, the Ten 10, the King 4, the Over 3 and the Under 2; the Nine, Eight and Seven are worth "
            "nothing. That makes 30 points in each plain suit."
        ),
        "AL XL KL OL UL 9L 8L 7L",
        N_("Leaves when they are not trumps, strongest first."),
    ),
    Rule(
        "C5",
        N_("The last trick's 10"),
        N_(
            "Whoever wins the last trick of a hand gets 10 card points extra. Add the trumps' 61 and 30 for each "
            "of the three plain suits, and every hand holds exactly 161 card points."
        ),
    ),
    # D: deal
    Rule(
        "D1",
        N_("The deal"),
        N_(
            "The dealer shuffles and the other player cuts. Each of you gets nine cards in packets of three, the "
            "non-dealer first. The next card is turned face up: its suit is trumps for this hand. The other 13 "
            "cards are stacked face down across it; with the face-up card they form the talon of 14 cards you "
            "draw from."
        ),
    ),
    Rule(
        "D2",
        N_("Who deals"),
        N_(
            "Choose the first dealer in any fair way, for example by drawing a card each: the lower card deals. "
            "After that you take turns to deal."
        ),
    ),
    Rule(
        "D3",
        N_("Who leads"),
        N_(
            "The player who did not deal leads, that is plays the first card of the first trick. After that, "
            "whoever wins a trick leads to the next one."
        ),
    ),
    # T: tricks and the two phases
    Rule(
        "T1",
        N_("Who wins a trick"),
        N_(
            "Each of you plays one card to a trick. If a trump is in it, the highest trump wins. If not, the "
            "highest card of the suit that was led wins, and a card of another suit cannot win. Highest means in "
            "the order of C3 for trumps and C4 for the other suits."
        ),
        "XL / 7H",
        N_("Hearts are trumps: the Ten of Leaves is led, and the little trump Seven takes it."),
        trump="H",
    ),
    Rule(
        "T2",
        N_("Phase 1: play what you like"),
        N_(
            "The first seven tricks, while the talon still has cards, are phase 1. Whoever plays second to a "
            "trick may play any card: you need not follow suit, nor play a trump."
        ),
    ),
    Rule(
        "T3",
        N_("Drawing from the talon"),
        N_(
            "After each of the first seven tricks you both draw a card from the talon: first the trick's winner, "
            "then the loser, so you each hold nine cards again. After trick 7 the loser takes the very last card: "
            "the face-up trump, or the trump Seven that was swapped for it."
        ),
    ),
    Rule(
        "T4",
        N_("Phase 2: follow suit, then trump"),
        N_(
            "From trick 8 to trick 16 the talon is empty and the second player has duties. You must follow suit "
            "if you can; if you cannot, you must play a trump if you have one; only then may you play any card. "
            "You never have to beat the card led."
        ),
    ),
    Rule(
        "T5",
        N_("Swapping the trump Seven"),
        N_(
            "Just before any of tricks 1 to 7, the player about to lead may exchange the trump Seven from their hand "
            "for the face-up trump card. You may, you need not. Only the leader may swap, and only before declaring "
            "and before playing a card."
        ),
        "7H / OH",
        N_("Hearts are trumps: with the Seven of Hearts you may take the face-up Over."),
        trump="H",
    ),
    # M: melds
    Rule(
        "M1",
        N_("Sequences"),
        N_(
            "Three or more cards of one suit that follow each other in the order of C2 make a sequence. Three "
            "cards (a terc) score 20, four (a kvart) 50, and five or more (kvint, szext, szept, okt) 100. A "
            "sequence is named by its suit, top card and length."
        ),
        "OA UA XA 9A",
        N_("The Acorn-Over-Kvart, worth 50."),
    ),
    Rule(
        "M2",
        N_("Sets of four"),
        N_(
            "Four cards of the same rank also score; players announce them as “vannak” (“they are here”). Four "
            "Overs score 200, four Nines 150, and four Aces, Tens, Kings or Unders 100 each. Four Eights or four "
            "Sevens score nothing."
        ),
        "OA OL OH OB",
        N_("Four Overs: 200."),
    ),
    Rule(
        "M3",
        N_("Béla"),
        N_(
            "The King and the Over of trumps together are béla, worth 40. Béla stays out of the meld contest: it "
            "never beats another meld and is never beaten, so it always scores."
        ),
        "KH OH",
        N_("Béla when Hearts are trumps."),
        trump="H",
    ),
    Rule(
        "M4",
        N_("When melds may be declared"),
        N_(
            "You may declare melds only during the first eight tricks. Trick 8 is already phase 2, but it is the "
            "last chance; from trick 9 on nobody declares."
        ),
    ),
    Rule(
        "M5",
        N_("One set and one sequence a trick"),
        N_(
            "In one trick you may declare at most one set of four and one sequence. The two may share a card: "
            "four Unders and O U X of Hearts can go together, the Under of Hearts counting in both."
        ),
        "UA UL UB UH / OH UH XH",
        N_("Four Unders, and the Heart-Over-Terc: the same Under of Hearts counts in both."),
    ),
    Rule(
        "M6",
        N_("Playing a card of your meld"),
        N_(
            "Declaring a meld does not freeze its cards. You may play one of them to the very trick in which you "
            "declared it."
        ),
    ),
    Rule(
        "M7",
        N_("Melds come from your hand, in time"),
        N_(
            "You can declare only melds whose cards are all in your hand at that moment. If you hold a set or a "
            "sequence but let your moment to declare in a trick pass, it cannot score in that trick."
        ),
    ),
    # K: the meld contest
    Rule(
        "K1",
        N_("The steps of a trick"),
        N_(
            "Every trick runs in the same order. The leader may swap the trump Seven, may declare, and plays a card. "
            "The second player may then declare, you compare your best melds, and the second player plays. "
            "Whoever declared the best meld scores every set and sequence they declared this trick; the other "
            "scores none of theirs. Then the winner takes the trick and you both draw."
        ),
    ),
    Rule(
        "K2",
        N_("Which meld is best"),
        N_(
            "Any set of four beats any sequence. Sets rank like trumps: Overs, Nines, Aces, Tens, Kings, Unders. "
            "Between sequences the longer wins, whatever its suit; at equal length the higher top card wins; if "
            "that is equal too, a trump sequence wins, and between two plain ones the leader's."
        ),
        "KL OL UL XL / AH KH OH",
        N_("A kvart beats a terc, even one headed by an Ace."),
    ),
    Rule(
        "K3",
        N_("When the second player may declare"),
        N_(
            "As second player you may declare only if your best meld could beat the leader's. If the leader "
            "declared a set, you need a set. If the leader declared only a sequence, you need a sequence at least "
            "as long, or a set. If the leader declared nothing, you may declare anything."
        ),
    ),
    Rule(
        "K4",
        N_("What the players say"),
        N_(
            "Melds are announced with traditional words: a set as “vannak”, a sequence by its length, like "
            "“kvart”. To compare, the leader names the rank or top card and the other answers “Good” (yours is "
            "better) or “Higher here”. The scorer then names each meld, like “Under-vannak” or “Acorn-Over-Kvart”."
        ),
    ),
    Rule(
        "K5",
        N_("Declaring again"),
        N_(
            "A meld you declared but did not score, because your opponent's was better, is not lost. You may "
            "declare it again in a later trick, as long as you still hold its cards and declaring is still "
            "allowed (M4)."
        ),
    ),
    Rule(
        "K6",
        N_("Each meld scores once"),
        N_(
            "A set of four scores at most once a hand, and the same sequence never scores twice. A declaration "
            "that breaks this rule, K3 or K7 is refused with a message; it is not taken and then quietly ignored."
        ),
    ),
    Rule(
        "K7",
        N_("More sequences in the same suit"),
        N_(
            "Once you have scored a sequence in a suit, a new one of yours in that suit must pass a test against "
            "each one already scored there. Either it overlaps the old one and reaches higher (or has the same top "
            "card and is longer), or it shares no card with it and leaves a gap of at least one card. After "
            "K O U X of Hearts, A K O may score; K O U and O U X 9 8 may not."
        ),
        "KH OH UH XH / AH KH OH",
        N_("After the Heart-King-Kvart, the Heart-Ace-Terc may still score."),
    ),
    # B: béla timing
    Rule(
        "B1",
        N_("Béla at any moment"),
        N_(
            "You may declare béla at any moment during the first eight tricks, until the second card of trick 8 "
            "is played, while you hold both its cards. It scores at once, once a hand, even when it is not your "
            "turn or between tricks, for example right after you draw its second card. If that brings you to "
            "501, you may go out."
        ),
    ),
    Rule(
        "B2",
        N_("The Pais option: béla with your melds"),
        N_(
            "With the Pais option, béla scores only at the scoring step of a trick, with your other melds, "
            "whoever wins the contest. So both of you may pass 501 in the same trick. From then on either of you "
            "may go out and the higher total wins one buli; while the totals are equal, nobody may go out and "
            "play goes on until the tie is broken."
        ),
    ),
    # S: scoring, going out, buli
    Rule(
        "S1",
        N_("Counting a hand"),
        N_(
            "When a hand ends, each of you adds the card points of the tricks you won, the 10 for the last trick "
            "and the melds you scored to your running score. The two trick totals always add up to 161."
        ),
    ),
    Rule(
        "S2",
        N_("Stichmatsch: all the tricks of phase 2"),
        N_(
            "If you win all nine tricks of phase 2 (tricks 8 to 16), you get all 161 card points and your opponent "
            "gets none for cards. Melds already scored stay with whoever scored them."
        ),
    ),
    Rule(
        "S3",
        N_("Going out"),
        N_(
            "Going out is claiming 501, at any moment. The claim counts your running score, the melds scored so "
            "far and finished tricks, never a trick under way; there is no stichmatsch. A silent "
            "answer (a card alone, no pass, no meld, to your declaration) decides the contest and ends the trick. "
            "Go out as your very next move, and the claim is judged at the contest: that trick's card points "
            "count for neither of you. If you need those points yourself, the claim is judged after the trick, "
            "as usual."
        ),
    ),
    Rule(
        "S4",
        N_("Right and wrong claims"),
        N_(
            "If you really have 501 or more, you win the game and one buli point, or two (a “maccs”) if your "
            "opponent has 250 or less. If you do not, play stops and your opponent wins one buli point. If you "
            "both have 501, whoever claims first wins."
        ),
    ),
    Rule(
        "S5",
        N_("When nobody goes out"),
        N_(
            "If the hand is played to the end without a claim, a player with 501 or more wins the buli (two points "
            "against 250 or less, as in S4). If you both have 501, the higher score wins. If the scores are equal, "
            "the first to score anything in the next hand wins (a meld, béla or a trick with card points); that "
            "hand is already the first of the new game."
        ),
    ),
    Rule(
        "S6",
        N_("Buli and the match"),
        N_(
            "After each buli both running scores start again at 0. A match is played to 5 buli points, or to 10 "
            "for a longer one."
        ),
    ),
    # V: variants
    Rule(
        "V1",
        N_("Austrian: the non-dealer picks the trump card"),
        N_(
            "In the Austrian Tartl the non-dealer chooses which card is turned up for trumps: the one after any "
            "packet of three (the 4th, 7th, 10th, 13th, 16th or 19th card). Without a choice it is the 19th, as "
            "in the Hungarian deal."
        ),
    ),
    Rule(
        "V2",
        N_("Austrian: the winner deals"),
        N_(
            "Whoever wins a hand deals the next one: the player who won the game in it, if one was won; else the "
            "one who scored more in the hand (melds and card points); if both scored the same, the deal passes to "
            "the other player. In the Hungarian game you take turns instead (D2)."
        ),
    ),
    Rule(
        "V3",
        N_("Austrian: no four Nines"),
        N_(
            "Four Nines are not a set in the Austrian game. A further option ranks four Tens below four Unders in "
            "the contest."
        ),
    ),
    Rule(
        "V4",
        N_("Austrian: several sequences a trick"),
        N_(
            "You may declare more than one sequence in the same trick, as long as each is in a different suit. "
            "In the Hungarian game it is one sequence a trick (M5)."
        ),
    ),
    Rule(
        "V5",
        N_("Austrian: a looser same-suit rule"),
        N_(
            "A new sequence may not lie wholly inside a sequence of the same suit that you already scored and that "
            "is at least as long. Anything else is allowed, also a sequence right next to an old one."
        ),
        "KH OH UH XH / UH XH 9H",
        N_("After the Heart-King-Kvart, U X 9 may score here, though O U X may not."),
    ),
    Rule(
        "V6",
        N_("Austrian: melds are shown"),
        N_(
            "The melds that score are laid out for the opponent to see. In the Hungarian game the scorer only names "
            "them (K4)."
        ),
    ),
    Rule(
        "V7",
        N_("Austrian: swapping the trump Seven at any time"),
        N_(
            "Whoever holds the trump Seven may swap it for the face-up card at any moment while that card is on the "
            "table, not only the leader. But a 7 swapped in a trick cannot be part of a sequence declared in that "
            "trick: once you have declared a sequence with the trump Seven in it, you cannot swap it in that trick."
        ),
    ),
    Rule(
        "V8",
        N_("Austrian: a look at the talon"),
        N_(
            "The winner of trick 7 shows the last face-down talon card before taking it. The loser takes the "
            "face-up trump, so from then on each of you can work out the other's whole hand."
        ),
    ),
    Rule(
        "V9",
        N_("Austrian: no stichmatsch"),
        N_(
            "Winning every trick of phase 2 earns nothing extra. The stichmatsch rule (S2) does not apply: the card "
            "points are counted as usual."
        ),
    ),
    Rule(
        "V10",
        N_("Austrian: each game stands alone"),
        N_(
            "Each game to 501 stands on its own, with no buli points to count. The loser pays double if below 250; "
            "at exactly 250 it is single, unlike the Hungarian maccs (S4). A wrong claim loses the game single."
        ),
    ),
    Rule(
        "V11",
        N_("Austrian: chalk marks on the slate"),
        N_(
            "Austrian players keep the score in chalk. A stroke is 20, and five strokes grouped together make 100; "
            "a “V” is 50, closed into a triangle it is 100. Negative scores are written with a bar above them, and "
            "numbers of two digits are underlined."
        ),
    ),
)
"""Every rule of RULES.md, in its order."""

_BY_ID: dict[str, Rule] = {r.id: r for r in RULES}

_ID = re.compile(r"(?<![\w&#])([A-Z][0-9]{1,2})(?!\w)")
"""A rule ID as a word of its own: ``K7``, ``(S3)``, ``T2/T4``; not ``K7x`` nor ``AK7``."""
_MARKUP = re.compile(
    r"<!--.*?-->|<!\[CDATA\[.*?\]\]>|<[!?][^>]*>|</?[A-Za-z][^>\"']*(?:(?:\"[^\"]*\"|'[^']*')[^>\"']*)*>", re.S
)
"""A comment, a declaration or a tag (its attribute values may hold ``>``); text is what lies between."""
_SKIPPED = ("a", "script", "style", "svg", "textarea", "title", "button", "select", "option")
"""Elements whose text is never linked: links already, code, pictures, form controls."""
_TAG = re.compile(r"<(/?)([A-Za-z][A-Za-z0-9-]*)[^>]*?(/?)>\Z", re.S)


def rule_ids() -> tuple[str, ...]:
    """Every rule ID, in the order of RULES.md."""
    return tuple(r.id for r in RULES)


def rule(rule_id: str) -> Rule:
    """The rule with this ID; :class:`~tartli.errors.ArgumentError` if there is none."""
    try:
        return _BY_ID[rule_id]
    except (KeyError, TypeError):
        raise ArgumentError(f"no rule {rule_id!r:.20} in the rule book: IDs run C1 ... V11") from None


def anchor(rule_id: str) -> str:
    """The id of the rule's section on the rule book page: ``anchor("K7") == "rule-K7"``."""
    return "rule-" + rule(rule_id).id


def rule_href(rule_id: str, *, static: bool | None = None) -> str:
    """A link to the rule from any page of the course: ``"rules.ipynb#rule-K7"``.

    Relative like the course's own links (:func:`tartli.course.page_url`), so it works from
    every page of the Voilà app (``render/rules.ipynb``) and of the static edition (``rules.html``).

    >>> rule_href("S3", static=True)
    'rules.html#rule-S3'
    """
    return page_url(Page(RULE_BOOK_PAGE, "", ""), static=static) + "#" + anchor(rule_id)


def link_rule_ids(html_text: str, *, href: Callable[[str], str] | None = None, target: str = "") -> str:
    """``html_text`` with every known rule ID in its text made a link to the rule book.

    ``K7`` becomes ``<a href="rules.ipynb#rule-K7" class="tartli-rule">K7</a>``. Unknown IDs
    (``K99``), parts of longer words (``K7x``), tags and their attributes, and the text of
    links, scripts, styles, pictures and form controls are left as they are, so linking
    twice changes nothing. ``href`` makes the link's address (default :func:`rule_href`);
    ``target`` (e.g. ``"_blank"``: read the rule in a new tab, keeping a game on this page)
    is added to each link if given.

    >>> link_rule_ids('<b title="K7">K7x</b> <a href="#">K7</a>')
    '<b title="K7">K7x</b> <a href="#">K7</a>'
    """
    make = href or rule_href
    extra = ""
    if target:
        extra = f' target="{html.escape(target)}"' + (' rel="noopener"' if target == "_blank" else "")
    out: list[str] = []
    skipping: list[str] = []  # open elements whose text is left alone

    def link(match: re.Match[str]) -> str:
        found = match.group(1)
        if found not in _BY_ID:
            return found
        return f'<a href="{html.escape(make(found))}" class="tartli-rule"{extra}>{found}</a>'

    position = 0
    for markup in _MARKUP.finditer(html_text):
        text = html_text[position : markup.start()]
        out.append(text if skipping else _ID.sub(link, text))
        tag = markup.group(0)
        out.append(tag)
        position = markup.end()
        parsed = _TAG.match(tag)
        if parsed is None:
            continue
        closing, name, self_closing = parsed.group(1), parsed.group(2).lower(), parsed.group(3)
        if closing:
            if name in skipping:
                while skipping.pop() != name:  # also closes elements left open inside it
                    pass
        elif name in _SKIPPED and not self_closing:
            skipping.append(name)
    rest = html_text[position:]
    out.append(rest if skipping else _ID.sub(link, rest))
    return "".join(out)


# ------------------------------------------------------------------ the page

_CSS = """
.tartli-rulebook{font-size:16px;line-height:1.5;color:#222;max-width:52em}
.tartli-rulebook h2{font-size:1.3em;margin:1.4em 0 .4em;padding-bottom:.2em;border-bottom:2px solid #c9b98f}
.tartli-rulebook h3{font-size:1.08em;font-weight:700;line-height:1.3;margin:0 0 .3em}
.tartli-rulebook p{margin:.3em 0}
.tartli-rulebook section{padding:.5em .7em;margin:.3em -.7em;border-radius:6px;scroll-margin-top:12px}
.tartli-rulebook section:target,.tartli-rulebook section.tartli-target{background:#fbf1d3;
  box-shadow:inset 4px 0 0 #c08a00}
.tartli-rulebook .tartli-rule-id{color:#7a4f00}
.tartli-rulebook .tartli-toc{background:#f6f2e8;border:1px solid #e0d6bd;border-radius:8px;padding:.6em .9em}
.tartli-rulebook .tartli-toc h2{margin:.1em 0 .4em;border:0;font-size:1.15em}
.tartli-rulebook .tartli-toc-row{margin:.45em 0}
.tartli-rulebook .tartli-toc-row>a{font-weight:600}
.tartli-rulebook .tartli-toc-ids{display:flex;flex-wrap:wrap;gap:6px;margin-top:.25em}
.tartli-rulebook .tartli-toc-ids a{display:inline-block;min-width:2.6em;text-align:center;padding:3px 6px;
  border:1px solid #c9b98f;border-radius:5px;background:#fff;text-decoration:none;font-size:15px}
.tartli-rulebook .tartli-example{display:flex;flex-wrap:wrap;align-items:flex-end;gap:6px 18px;margin:.5em 0 .2em}
.tartli-rulebook .tartli-example-cards{display:flex;flex-wrap:wrap;gap:4px}
.tartli-rulebook .tartli-example svg{display:block;flex:none}
.tartli-rulebook .tartli-example-caption{font-size:14px;color:#555;margin:.1em 0 0}
.tartli-rulebook .tartli-up{font-size:14px;margin:.6em 0 0}
.tartli-rulebook a.tartli-rule{font-weight:600}
"""

_SCROLL = """<script>(function () {
  function mark() {
    var id = "";
    try { id = decodeURIComponent(window.location.hash.slice(1)); } catch (e) { return null; }
    var old = document.querySelectorAll(".tartli-rulebook .tartli-target");
    for (var i = 0; i < old.length; i++) old[i].classList.remove("tartli-target");
    var el = id.indexOf("rule-") === 0 ? document.getElementById(id) : null;
    if (el) el.classList.add("tartli-target");
    return el;
  }
  function go() { var el = mark(); if (el) el.scrollIntoView(); }
  setTimeout(go, 0); setTimeout(go, 500);
  window.addEventListener("hashchange", mark);
})();</script>"""
"""The page is drawn after it loads, so the browser finds no ``#rule-K7`` to show when it arrives from a link
of another page (``rules.ipynb#rule-K7``): this scrolls there, and marks the rule the address names."""

_INTRO = N_(
    "Every rule of Tartli has a short ID: a letter for its part of the game and a number, like T4 or K7. "
    "When the game refuses a move, its message starts with the rule's ID (for example “T4: you must follow "
    "suit”), and the lessons name rules the same way: look them up here. The Hungarian rules are the "
    "game's usual rules; the V rules say what the Austrian Tartl changes, and B2 is the Pais option. Cards are "
    "written rank then suit: OH is the Over of Hearts, XA the Ten of Acorns (X stands for the Ten)."
)


def _same_page(rule_id: str) -> str:
    return "#" + anchor(rule_id)


_CARD_RUN = re.compile(r"(?<!\w)[AKOUXÁF2-9](?: [AKOUXÁF2-9](?!\w))+")
"""Rank letters in a row, like ``K O U X`` (Hungarian ``K F A X``): kept on one line."""


def _text(text: str) -> str:
    """Plain text as HTML: runs of rank letters kept on one line, the rules it mentions linked within the page."""
    escaped = _CARD_RUN.sub(lambda m: m.group(0).replace(" ", "\u00a0"), html.escape(text, quote=False))
    return link_rule_ids(escaped, href=_same_page, target="_self")


def _example(item: Rule, language: Language) -> str:
    if not item.example:
        return ""
    groups = []
    for group in item.example.split("/"):
        cards = [Card.parse(code) for code in group.split()]
        pictures = "".join(
            card_svg(card, language=language, width=56, trump=card.suit.value == item.trump) for card in cards
        )
        groups.append(f'<div class="tartli-example-cards">{pictures}</div>')
    caption = f'<p class="tartli-example-caption">{_text(_(item.caption))}</p>' if item.caption else ""
    return f'<div class="tartli-example">{"".join(groups)}</div>{caption}'


def _section(item: Rule, language: Language) -> str:
    return (
        f'<section id="{anchor(item.id)}">'
        f'<h3><span class="tartli-rule-id">{item.id}</span> · {html.escape(_(item.title))}</h3>'
        f"<p>{_text(_(item.text))}</p>{_example(item, language)}</section>"
    )


def _text_language() -> str:
    """The language the book's words are shown in: the page's, or English where its catalog lacks them."""
    lang = names.get_language()
    return lang if lang == "en" or _(_INTRO) != _INTRO else "en"


def rule_book_html(language: Language | None = None) -> str:
    """The whole rule book as one HTML fragment: intro, contents by section, then every rule.

    Each rule is a ``<section id="rule-K7">`` headed "K7 · title". The words are in the page's
    language (:func:`tartli.i18n.language`; English where its catalog has no translation);
    ``language`` names the cards of the pictures (their accessible names), by default the page's too.
    """
    cards_language = names.resolve(language)
    contents = _("Contents")
    toc = []
    body = []
    for letter, heading in SECTIONS.items():
        rules = [r for r in RULES if r.section == letter]
        chips = "".join(
            f'<a href="#{anchor(r.id)}" target="_self" title="{html.escape(_(r.title))}">{r.id}</a>' for r in rules
        )
        shown = html.escape(_(heading))
        toc.append(
            f'<div class="tartli-toc-row"><a href="#rules-{letter}" target="_self">{letter}: {shown}</a>'
            f'<div class="tartli-toc-ids">{chips}</div></div>'
        )
        sections = "".join(_section(r, cards_language) for r in rules)
        body.append(
            f'<h2 id="rules-{letter}">{letter}: {shown}</h2>{sections}'
            f'<p class="tartli-up"><a href="#rules-contents" target="_self">↑ {html.escape(contents)}</a></p>'
        )
    return (
        f'<div class="tartli-rulebook" lang="{_text_language()}"><style>{_CSS}</style>'
        f"<p>{_text(_(_INTRO))}</p>"
        f'<nav class="tartli-toc" id="rules-contents" aria-label="{html.escape(contents)}">'
        f"<h2>{html.escape(contents)}</h2>{''.join(toc)}</nav>"
        f"{''.join(body)}</div>{_SCROLL}"
    )


# ------------------------------------------------------------------ the quick reference and printing

QUICK_RULES = {"play": ("T1", "T4", "T5"), "contest": ("K1", "K2", "K3"), "scoring": ("S1", "S3", "S4")}
"""The rules the quick reference quotes (their rule-book words): playing a trick (which card wins, following
suit and trumping, the Seven swap: what a pupil needs most at the table), the meld contest and scoring."""

_QUICK_CSS = """
.tartli-quickref{font-size:14px;line-height:1.35;color:#222;max-width:52em;border:1px solid #e0d6bd;
  border-radius:8px;padding:.4em .9em;margin:.6em 0}
.tartli-quickref h2{font-size:1.25em;margin:.2em 0 .3em}
.tartli-quickref h3{font-size:1.02em;margin:.5em 0 .2em}
.tartli-quickref .tartli-quick-cols{display:flex;flex-wrap:wrap;gap:.4em 2em}
.tartli-quickref table{border-collapse:collapse;font-size:13px}
.tartli-quickref table th,.tartli-quickref table td{padding:1px 8px 1px 0;text-align:left;vertical-align:top}
.tartli-quickref table td.n{text-align:right}
.tartli-quickref p{margin:.15em 0}
"""


def _rows(pairs: Sequence[tuple[str, int]]) -> str:
    return "".join(f'<tr><td>{html.escape(str(name))}</td><td class="n">{value}</td></tr>' for name, value in pairs)


def quick_reference_html(language: Language | None = None) -> str:
    """A one-page sheet of the game for a teacher to print: the ranks and their card points, the melds
    and their values (from the engine's own tables), and the rule book's words for the meld contest
    and for scoring, in the page's language (``language``: the card names')."""
    lang = names.resolve(language)
    trumps = [(rank.name_in(lang), TRUMP_POINTS[rank.index]) for rank in TRUMP_ORDER]
    plain = [(rank.name_in(lang), PLAIN_POINTS[rank.index]) for rank in PLAIN_ORDER]
    sequences = [(names.sequence_name(n, lang), value) for n, value in sorted(SEQUENCE_VALUES.items())]
    sets = [(names.set_title(rank.index, lang), value) for rank, value in SET_VALUES.items()]
    bela = [(names.bela_title(lang), BELA_VALUE)]
    last = _("Last trick: {points} card points extra (C5).").format(points=LAST_TRICK_BONUS)

    def quoted(ids: tuple[str, ...]) -> str:
        return "".join(
            f"<p><b>{rule(i).id} · {html.escape(_(rule(i).title))}.</b> {_text(_(rule(i).text))}</p>" for i in ids
        )

    words = {
        "title": _("Tartli: quick reference"),
        "ranks": _("Ranks and card points"),
        "trumps": _("Trumps (C3)"),
        "plain": _("Plain suits (C4)"),
        "melds": _("Melds and their points"),
        "sequences": _("Sequences (M1)"),
        "sets": _("Sets of four (M2)"),
        "bela": _("Béla (M3)"),
        "play": _("Playing a trick"),
        "contest": _("The meld contest"),
        "scoring": _("Scoring"),
    }
    w = {key: html.escape(text) for key, text in words.items()}

    def table(heading: str, pairs: Sequence[tuple[str, int]]) -> str:
        return f"<table><tr><th colspan='2'>{heading}</th></tr>{_rows(pairs)}</table>"

    return (
        f'<div class="tartli-quickref" lang="{_text_language()}"><style>{_QUICK_CSS}</style>'
        f"<h2>{w['title']}</h2>"
        '<div class="tartli-quick-cols">'  # the ranks and the melds side by side where the width allows
        f"<section><h3>{w['ranks']}</h3>"
        f'<div class="tartli-quick-cols">{table(w["trumps"], trumps)}{table(w["plain"], plain)}</div>'
        f"<p>{html.escape(last)}</p></section>"
        f"<section><h3>{w['melds']}</h3>"
        f'<div class="tartli-quick-cols">{table(w["sequences"], sequences)}{table(w["sets"], sets)}'
        f"{table(w['bela'], bela)}</div></section></div>"
        '<div class="tartli-quick-rules">'  # in two columns on paper: the sheet stays one page
        f"<h3>{w['play']}</h3>{quoted(QUICK_RULES['play'])}"
        f"<h3>{w['contest']}</h3>{quoted(QUICK_RULES['contest'])}"
        f"<h3>{w['scoring']}</h3>{quoted(QUICK_RULES['scoring'])}"
        "</div></div>"
    )


_PRINT = """<script>
window.tartliPrint = function (quick) {
  // The quick reference prints alone (the template's print stylesheet shows only it); the rule book
  // prints without it.
  document.body.classList.toggle("tartli-print-quick", !!quick);
  window.addEventListener("afterprint", function () { document.body.classList.remove("tartli-print-quick"); },
                          { once: true });
  window.print();
};
</script>"""


def print_buttons_html() -> str:
    """The rule book page's two print buttons: the whole rule book, and the one-page quick reference."""
    book = html.escape(_("Print the rule book"))
    quick = html.escape(_("Print the quick reference"))
    return (
        f'<div class="tartli-print" style="display:flex;flex-wrap:wrap;gap:8px;margin:.4em 0">'
        f'<button type="button" class="tartli-reset" onclick="window.tartliPrint(false)">{book}</button>'
        f'<button type="button" class="tartli-reset" onclick="window.tartliPrint(true)">{quick}</button>'
        f"</div>{_PRINT}"
    )

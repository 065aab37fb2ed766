"""The rule-of-thumb opponent: plays by the advice of seed 001 and says why.

Every decision comes with a short reason in plain words (the table's hint):
``HeuristicBot().choose_with_reason(view)`` returns ``(move, reason)``.

The rules of thumb, in the order they are tried:

1. Going out: claim as soon as the total is 501 or more (S3, S4).
2. Béla: it always scores 40 (M3), so it is taken at once (B1), or named with
   the other melds under the Pais rule (B2).
3. Swap the trump Seven for the indicator (T5): a better trump for the lowest one,
   unless the 7 belongs to a trump sequence in hand.
4. Declare: the most valuable legal declaration (a declaration that loses the
   contest costs nothing and may be made again, K5).
5. Phase 1 (tricks 1-7): collect melds and keep trumps. Each card gets a keep
   value: trumps (more for the high ones, most for one that is sure to win a
   trick of phase 2), cards of melds in hand, of sets and open-ended sequences
   still possible (counting only the cards not seen elsewhere: played cards are
   watched), Overs and Nines. Lead or throw the card with the lowest keep value
   and few points; take the lead's points when that is cheap.
6. Phase 2 (tricks 8-16): the opponent's hand is known; lead a card that cannot
   be beaten, with the most points, or else a cheap one; as second player win
   a trick with points with the cheapest card that wins, else throw the cheapest.

>>> from tartli.game import HandState
>>> state = HandState.from_seed(4)
>>> move, reason = HeuristicBot().choose_with_reason(state.view(state.to_move))
>>> move in state.legal_moves() and bool(reason)
True
"""

from __future__ import annotations

from collections.abc import Sequence

from tartli._checks import checked, checked_items, checked_whole
from tartli.bots.base import right_claim
from tartli.cards import POINTS_BY_TRUMP, STRENGTH_BY_TRUMP, SUIT_MASKS, Card, Rank, Suit, indices_of, mask_of
from tartli.errors import ArgumentError
from tartli.game import PHASE1_TRICKS, WINNING_SCORE, PlayerView
from tartli.i18n import _, joined
from tartli.melds import Meld, MeldKind, sequences_in
from tartli.moves import Bela, Declare, Move, Pass, Play, Swap
from tartli.names import PRONOUNS, Named

__all__ = ["HeuristicBot", "keep_value", "phase2_card"]

_SET_WORTH = {Rank.OVER: 200, Rank.NINE: 150, Rank.ACE: 100, Rank.TEN: 100, Rank.KING: 100, Rank.UNDER: 100}


def _points(card: Card, trump: Suit) -> int:
    return card.points(trump)


def _beats(lead: Card, second: Card, trump: Suit) -> bool:
    """T1: does ``second`` win against ``lead``?"""
    if second.suit is lead.suit:
        return second.strength(trump) > lead.strength(trump)
    return second.suit is trump


def _played(view: PlayerView) -> int:
    mask = 0
    for _n, a, b, _w in view.tricks:
        mask |= a.bit | b.bit
    if view.lead is not None:
        mask |= view.lead.bit
    return mask


def _live(view: PlayerView) -> int:
    """Cards that may still come to this player: not seen anywhere (the talon or the opponent's hand)
    and the indicator while it lies out."""
    mask = mask_of(view.unseen)
    if view.indicator is not None:
        mask |= view.indicator.bit
    return mask


def _master_trump(view: PlayerView) -> Card | None:
    """The player's highest trump if no higher trump is still out: it is sure to win a trick."""
    trumps = [c for c in view.hand if c.suit is view.trump]
    if not trumps:
        return None
    top = max(trumps, key=lambda c: c.strength(view.trump))
    gone = _played(view) | mask_of(view.hand)
    for r in Rank:
        c = Card(r, view.trump)
        if c.strength(view.trump) > top.strength(view.trump) and not gone >> c.index & 1:
            return None
    return top


def keep_value(view: PlayerView, card: Card) -> float:
    """How much the player loses by giving ``card`` up in phase 1 (melds, trumps, the sure trick)."""
    checked(view, PlayerView, "view", "state.view(0)")
    checked(card, Card, "card", "Card.parse('AH')")
    trump = view.trump
    hand = mask_of(view.hand)
    live = _live(view)
    value = 0.0
    if card.suit is trump:
        value += 8 + 3 * card.strength(trump)
        if card == _master_trump(view):
            value += 30
    # Sets: the more of a rank held (and the rest still to come), the more it is worth keeping.
    worth = _SET_WORTH.get(card.rank, 0)
    if worth and (card.rank is not Rank.NINE or view.rules.four_nines):
        held = sum(1 for s in Suit if hand >> Card(card.rank, s).index & 1)
        missing = [Card(card.rank, s) for s in Suit if not hand >> Card(card.rank, s).index & 1]
        if all(live >> c.index & 1 for c in missing):
            value += worth * {1: 0.0, 2: 0.04, 3: 0.15, 4: 0.4}[held]
    if card.rank in (Rank.OVER, Rank.NINE):
        value += 4
    # Sequences in hand and sequences that may still grow around the card.
    i = card.index
    lo_suit, hi_suit = card.suit.index * 8, card.suit.index * 8 + 7
    for m in sequences_in(hand):
        if m.mask >> i & 1:
            value += 12 + m.value * 0.2
            break
    else:
        for j in (i - 1, i + 1):  # a neighbour in the sequence order
            if lo_suit <= j <= hi_suit and hand >> j & 1:
                a, b = min(i, j), max(i, j)
                ends = [k for k in (a - 1, b + 1) if lo_suit <= k <= hi_suit and live >> k & 1]
                value += 5 * len(ends)  # open at both ends: two cards complete it
        for j in (i - 2, i + 2):  # a gap of one card that may still come
            gap = (i + j) // 2
            if lo_suit <= j <= hi_suit and hand >> j & 1 and live >> gap & 1:
                value += 3
    return value


def _best_declaration(moves: tuple[Move, ...]) -> Declare | None:
    decls = [m for m in moves if isinstance(m, Declare)]
    if not decls:
        return None
    return max(decls, key=lambda d: (sum(m.value for m in d.melds), len(d.melds), str(d)))


def melds_words(melds: Sequence[Meld]) -> Named:
    """Melds named with their values, "Acorn-Over-Kvart (50) and Under-vannak (100)", in the page's language:
    each title keeps its own forms (Hungarian ``the`` "a makk felső kvart (50) és az alsó vannak (100)", each
    with its article; German ``gen`` "der Eichel-Ober-Quart (50) und des Unter-Vierlings (100)")."""
    melds = checked_items(melds, Meld, "melds", "a Declare's melds")
    return and_list([_with_value(m.title(), m.value) for m in melds])


def _with_value(title: Named, value: int) -> Named:
    """ "Acorn-Over-Kvart (50)", every form of the title with its value too (a pronoun stands alone: "sie")."""
    return Named(
        f"{title} ({value})",
        {form: said if form in PRONOUNS else f"{said} ({value})" for form, said in title.forms.items()},
    )


def and_list(items: list[str]) -> Named:
    """ "A and B and C" in the page's language (the words are said one after another), with the forms
    the items know (``{melds.acc}``)."""
    items = checked_items(items, str, "items", "['kvart', 'béla']")  # a Named is a str
    if not items:
        raise ArgumentError("items: one or more words")
    text = items[0] if isinstance(items[0], Named) else Named(items[0])
    for item in items[1:]:
        text = joined([text, item], _("{first} and {second}"), "first", "second")
    return text


ALL_CARDS = (1 << 32) - 1
"""The mask of the whole pack."""


class HeuristicBot:
    """Rules of thumb from the advice on play (seed 001), each decision with its reason."""

    name = "heuristic"

    def choose(self, view: PlayerView) -> Move:
        return self.choose_with_reason(view)[0]

    def choose_with_reason(self, view: PlayerView) -> tuple[Move, str]:
        claim = right_claim(view)  # refuses a view with no move
        moves = view.legal_moves
        me = view.player
        if claim is not None:
            return claim, _("You have {total}: claim 501 now and the game is yours (S3).").format(
                total=view.claim(me).total
            )
        bela = next((m for m in moves if isinstance(m, Bela)), None)
        if bela is not None:
            return bela, _("Béla always scores 40 whatever the contest: declare it now while you hold both cards.")
        swap = next((m for m in moves if isinstance(m, Swap)), None)
        if swap is not None and view.indicator is not None and self._swap_is_good(view):
            return swap, _(
                "Swap the trump Seven for the {card_sub}: a better trump (worth {points} card points) "
                "for the lowest one."
            ).format(card=view.indicator.name(), points=view.indicator.points(view.trump))
        decl = _best_declaration(moves)
        if decl is not None:
            if any(m.kind is MeldKind.BELA for m in decl.melds) and len(decl.melds) == 1:
                return decl, _("Name béla now: it scores 40 with your declaration whatever the contest.")
            return decl, _("Declare {melds_acc}: melds are the big points of the first half.").format(
                melds=melds_words(decl.melds)
            )
        plays = [m for m in moves if isinstance(m, Play)]
        if not plays:
            passing = next((m for m in moves if isinstance(m, Pass)), None)
            if passing is not None:
                return passing, _("Nothing to declare that could win the contest: pass.")
            return moves[0], _("The only move.")
        if view.to_move != me:
            return moves[0], _("Not your turn.")
        if len(plays) == 1:
            return plays[0], _("The {card_The} is your only legal card.").format(card=plays[0].card.name())
        if view.trick_number <= PHASE1_TRICKS:
            return self._phase1(view, plays)
        return self._phase2(view, plays)

    @staticmethod
    def _swap_is_good(view: PlayerView) -> bool:
        seven = Card(Rank.SEVEN, view.trump)
        hand = mask_of(view.hand)
        return not any(m.mask & seven.bit for m in sequences_in(hand))

    # ---------------------------------------------------------------- phase 1
    def _phase1(self, view: PlayerView, plays: list[Play]) -> tuple[Move, str]:
        trump = view.trump
        me = view.player
        race = max(view.totals) >= WINNING_SCORE - 120  # someone is close: card points matter more
        weight = 2.5 if race else 1.0
        keep = {m.card: keep_value(view, m.card) for m in plays}
        if view.lead is None:
            choice = min(plays, key=lambda m: (keep[m.card] + weight * _points(m.card, trump), m.card.index))
            card = choice.card
            if card.suit is trump:
                text = _(
                    "Lead the {card_acc}: by the rules of thumb the card you can best spare, though a trump "
                    "(worth {points} points); keep trumps and meld cards for later."
                )
            else:
                text = _(
                    "Lead the {card_acc}: by the rules of thumb the card you can best spare (worth {points} points); "
                    "keep trumps and meld cards for later."
                )
            return choice, text.format(card=card.name(), points=_points(card, trump))
        lead = view.lead
        lead_points = _points(lead, trump)
        best: tuple[float, int, Play] | None = None
        for m in plays:
            c = m.card
            if _beats(lead, c, trump):
                score = weight * (lead_points + _points(c, trump)) - keep[c]
            else:
                score = -weight * (lead_points + _points(c, trump)) - keep[c]
            if best is None or (score, -c.index) > (best[0], -best[1]):
                best = (score, c.index, m)
        assert best is not None
        card = best[2].card
        # Every clause below is a fact of the position: the trick's card points, the lowest trump.
        taken = lead_points + _points(card, trump)
        if _beats(lead, card, trump):
            trumps = [c for c in view.hand if c.suit is trump]
            if card.suit is trump and lead.suit is not trump:
                if card == min(trumps, key=lambda c: c.strength(trump)):
                    text = _(
                        "Trump the {lead_acc} with your lowest trump, the {card_ins}: "
                        "the trick brings you {points} card points."
                    )
                else:
                    text = _("Trump the {lead_acc} with the {card_ins}: the trick brings you {points} card points.")
            else:
                text = _("Win the {lead_acc} with the {card_ins}: the trick brings you {points} card points.")
            text = text.format(lead=lead.name(), card=card.name(), points=taken)
        elif not any(_beats(lead, m.card, trump) for m in plays):
            text = _("None of your cards can win the {lead_acc}: throw the {card_acc}, worth {points} points.").format(
                lead=lead.name(), card=card.name(), points=_points(card, trump)
            )
        else:
            text = _(
                "Throw the {card_acc} (worth {points} points): by the rules of thumb the cards that would win this "
                "trick are worth more kept."
            ).format(card=card.name(), points=_points(card, trump))
        if race and me == view.player:
            text = _("{advice} (The race to 501 is close, so the rules of thumb weigh card points more.)").format(
                advice=text
            )
        return best[2], text

    # ---------------------------------------------------------------- phase 2
    def _phase2(self, view: PlayerView, plays: list[Play]) -> tuple[Move, str]:
        trump = view.trump
        lead = view.lead
        card_index, rule = _phase2_card(
            trump.index,
            mask_of(view.hand),
            mask_of(view.unseen) | mask_of(view.opponent_known),
            lead.index if lead is not None else -1,
        )
        choice = next(m for m in plays if m.card.index == card_index)
        card = choice.card
        if rule == "sure":
            return choice, _(
                "Lead the {card_acc}: nothing in your opponent's hand can beat it, so its {points} points are safe."
            ).format(card=card.name(), points=_points(card, trump))
        if rule == "low":
            return choice, _("Lead the {card_acc}: no card of yours is sure to win, so give up little.").format(
                card=card.name()
            )
        assert lead is not None
        if rule == "win":
            return choice, _(
                "Win the {lead_acc} with the {card_ins}, the cheapest card that takes {lead_itacc}."
            ).format(lead=lead.name(), card=card.name())
        if rule == "take":
            return choice, _("Take the trick with the {card_ins}: it brings its own points home.").format(
                card=card.name()
            )
        return choice, _("Throw the {card_acc}: give away as few points as possible.").format(card=card.name())


def phase2_card(t: int, hand: int, theirs: int, lead: int) -> tuple[int, str]:
    """The phase-2 rule of thumb on card masks (both hands known, T4 followed): the card to play
    and the rule that chose it.

    ``t`` is the trump suit's index, ``hand`` and ``theirs`` the two hands, ``lead`` the card
    led (-1 to lead). Leading: the card with the most points that nothing of theirs can beat
    (``"sure"``), else the cheapest (``"low"``: few points, a plain card, a weak one). Answering:
    a trick with points (or the last card) is won with the cheapest winner (``"win"``), a winner
    worth 10 or more takes a trick without points (``"take"``), else the cheapest card is
    thrown (``"throw"``). The rule-of-thumb bot, the search's playouts and the solver's
    :func:`~tartli.bots.solver.against_rules_of_thumb` all play phase 2 by it.
    """
    checked_whole(t, "t (the trump suit's index)", 0, 3)
    checked_whole(hand, "hand (a mask of cards)", 1, ALL_CARDS)
    checked_whole(theirs, "theirs (a mask of cards)", 0, ALL_CARDS)
    checked_whole(lead, "lead (a card's index, -1 to lead)", -1, 31)
    if hand & theirs or (lead >= 0 and (hand | theirs) >> lead & 1):
        raise ArgumentError("hand, theirs and lead: cards of the pack, each in one place only")
    return _phase2_card(t, hand, theirs, lead)


def _beaten_by(t: int, c: int) -> int:
    """The mask of the cards that beat card ``c`` led with trump suit ``t`` (T1): a stronger card of
    its suit, or any trump when ``c`` is not one."""
    strength = STRENGTH_BY_TRUMP[t]
    return sum(
        1 << d for d in range(32) if (d >> 3 == c >> 3 and strength[d] > strength[c]) or (d >> 3 == t and c >> 3 != t)
    )


# _BEATEN_BY[t][c]: :func:`_beaten_by`, a table (the playouts ask it tens of thousands of times a review).
_BEATEN_BY = tuple(tuple(_beaten_by(t, c) for c in range(32)) for t in range(4))


def _phase2_card(t: int, hand: int, theirs: int, lead: int) -> tuple[int, str]:
    """:func:`phase2_card` on masks known to be right (the playouts' and the solver's inner loops)."""
    pts = POINTS_BY_TRUMP[t]
    beaten_by = _BEATEN_BY[t]
    if lead < 0:
        cards = indices_of(hand)
        trumps = theirs & SUIT_MASKS[t]
        # A sure lead: no answer the opponent may give (T4: follow, else trump, else any) beats it.
        sure = [c for c in cards if not (theirs & SUIT_MASKS[c >> 3] or trumps or theirs) & beaten_by[c]]
        if sure:
            return max(sure, key=lambda i: (pts[i], -i)), "sure"
        strength = STRENGTH_BY_TRUMP[t]
        return min(cards, key=lambda i: (pts[i], i >> 3 == t, strength[i], i)), "low"
    strength = STRENGTH_BY_TRUMP[t]
    legal = hand & SUIT_MASKS[lead >> 3] or hand & SUIT_MASKS[t] or hand
    cards = indices_of(legal)
    winners = indices_of(legal & beaten_by[lead])
    if winners and (pts[lead] > 0 or len(cards) == 1):
        return min(winners, key=lambda i: (strength[i] + 10 * (i >> 3 == t), i)), "win"
    if winners and any(pts[i] >= 10 for i in winners):
        return max(winners, key=lambda i: (pts[i], -i)), "take"
    return min(cards, key=lambda i: (pts[i], strength[i], i)), "throw"

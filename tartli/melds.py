"""Melds: sequences (M1), sets of four, "vannak" (M2), and béla (M3).

Finding every meld in a hand, the contest order (K2), the rule on what the
second player may declare (K3) and the same-suit rules (K7 Hungarian, V5
Austrian) live here; *when* melds may be declared is the game's business.

>>> Meld.parse("kvart:OA").cards()
[Card.parse('OA'), Card.parse('UA'), Card.parse('XA'), Card.parse('9A')]
>>> Meld.parse("kvart:OA").title()
'Acorn-Over-Kvart'
>>> Meld.parse("vannak:U").value, Meld.parse("vannak:U").title()
(100, 'Under-vannak')
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field

from tartli import names
from tartli._checks import checked, checked_fields, checked_items
from tartli.cards import RANKS, SUITS, Card, Rank, Suit, _cards_arg, _mask_arg, _suit_arg, _trump_arg, cards_of
from tartli.errors import ArgumentError, Choice, TartliError, shown
from tartli.i18n import _, comma_list
from tartli.rules import RuleSet, rules_arg, ruleset_arg

SEQUENCE_NAMES = {3: "terc", 4: "kvart", 5: "kvint", 6: "szext", 7: "szept", 8: "okt"}
"""M1: the length names, as announced (K4) and written in records."""
SEQUENCE_VALUES = {3: 20, 4: 50, 5: 100, 6: 100, 7: 100, 8: 100}
"""M1: terc 20, kvart 50, kvint to okt 100."""
SET_VALUES = {Rank.OVER: 200, Rank.NINE: 150, Rank.ACE: 100, Rank.TEN: 100, Rank.KING: 100, Rank.UNDER: 100}
"""M2: four Overs 200, four Nines 150, four Aces, Tens, Kings or Unders 100. No Eights or Sevens."""
BELA_VALUE = 40
"""M3: King and Over of trumps."""
SEQUENCE_LENGTHS = {name: length for length, name in SEQUENCE_NAMES.items()}
"""The length of a sequence by its name: ``SEQUENCE_LENGTHS["kvart"] == 4``."""
_NAME_LENGTH = SEQUENCE_LENGTHS


_TITLES: dict[tuple[str, str], names.Named] = {}


class MeldKind(Choice):
    """The three kinds of meld."""

    SEQUENCE = "sequence"  #: 3-8 consecutive cards of a suit in C2 order (M1)
    SET = "set"  #: four cards of one rank, "vannak" (M2)
    BELA = "bela"  #: King and Over of trumps (M3)


class InvalidMeldError(TartliError):
    """Text that does not name a meld (``kvart:OA``, ``vannak:U``, ``bela``)."""


def _check_meld(kind: object, rank: object, suit: object, length: object) -> None:
    """The arguments of ``Meld(...)``: a sequence of 3-8 cards inside its suit, a set of a rank
    that makes one (M2), or béla; else an :class:`ArgumentError`."""
    if kind is MeldKind.SEQUENCE:
        if not isinstance(rank, Rank) or not isinstance(suit, Suit):
            raise ArgumentError(
                f"a sequence is Meld(MeldKind.SEQUENCE, top rank, suit, length), not {shown(rank)}, {shown(suit)}"
            )
        if type(length) is not int or not 3 <= length <= 8 - rank.index:
            raise ArgumentError(f"M1: a sequence from the {rank.name_in('en')} has 3 to {8 - rank.index} cards")
    elif kind is MeldKind.SET:
        if not isinstance(rank, Rank) or rank not in SET_VALUES or suit is not None or length != 0:
            raise ArgumentError("M2: a set is Meld(MeldKind.SET, rank), a rank of A K O U X 9 (no suit, no length)")
    elif kind is MeldKind.BELA:
        if rank is not None or suit is not None or length != 0:
            raise ArgumentError("M3: béla is Meld(MeldKind.BELA), with no rank, suit or length")
    else:
        raise ArgumentError(f"a meld's kind is a MeldKind, not {shown(kind)}")


@dataclass(frozen=True, slots=True)
class Meld:
    """One meld. A sequence is named by its top card and length, a set by its rank.

    Béla's suit is the trump suit of the hand, which the meld itself does not know.
    """

    kind: MeldKind
    rank: Rank | None = None
    suit: Suit | None = None
    length: int = 0
    mask: int = field(init=False, repr=False, compare=False, hash=False)
    value: int = field(init=False, repr=False, compare=False, hash=False)
    text: str = field(init=False, repr=False, compare=False, hash=False)
    """Record notation: ``kvart:OA``, ``vannak:U``, ``bela``."""

    def __post_init__(self) -> None:
        _check_meld(self.kind, self.rank, self.suit, self.length)
        if self.kind is MeldKind.SEQUENCE:
            assert self.suit is not None and self.rank is not None
            top = self.suit.index * 8 + self.rank.index
            mask = ((1 << self.length) - 1) << top
            value = SEQUENCE_VALUES[self.length]
        elif self.kind is MeldKind.SET:
            assert self.rank is not None
            mask = sum(1 << (s * 8 + self.rank.index) for s in range(4))
            value = SET_VALUES[self.rank]
        else:
            mask, value = 0, BELA_VALUE
        object.__setattr__(self, "mask", mask)
        object.__setattr__(self, "value", value)
        if self.kind is MeldKind.BELA:
            text = "bela"
        elif self.kind is MeldKind.SET:
            text = f"vannak:{self.rank.value}"  # type: ignore[union-attr]
        else:
            text = f"{SEQUENCE_NAMES[self.length]}:{self.rank.value}{self.suit.value}"  # type: ignore[union-attr]
        object.__setattr__(self, "text", text)

    @classmethod
    def parse(cls, text: str) -> Meld:
        """Read record notation: ``terc:KH``, ``kvart:OA``, ``vannak:U``, ``bela``."""
        meld = _BY_TEXT.get(text.strip().lower() if isinstance(text, str) else "")
        if meld is None:
            raise InvalidMeldError(
                f"M1/M2: {shown(text)} is not a meld: write <terc|kvart|kvint|szext|szept|okt>:<top card> "
                f"(e.g. kvart:OA), vannak:<rank> (e.g. vannak:U), or bela"
            )
        return meld

    @property
    def is_sequence(self) -> bool:
        return self.kind is MeldKind.SEQUENCE

    @property
    def is_set(self) -> bool:
        return self.kind is MeldKind.SET

    @property
    def top(self) -> Card:
        """A sequence's top card (C2 order)."""
        if self.kind is not MeldKind.SEQUENCE:
            raise TartliError(_("only a sequence has a top card"))
        assert self.rank is not None and self.suit is not None
        return Card(self.rank, self.suit)

    def cards(self, trump: Suit | None = None) -> list[Card]:
        """The cards of the meld, high to low. Béla needs the trump suit."""
        _trump_arg(trump)
        if self.kind is MeldKind.BELA:
            if trump is None:
                return []
            return [Card(Rank.KING, trump), Card(Rank.OVER, trump)]
        if self.kind is MeldKind.SET:
            return [Card(self.rank, s) for s in SUITS]  # type: ignore[arg-type]
        return cards_of(self.mask)

    def card_mask(self, trump: Suit | None) -> int:
        """The cards as a hand mask (béla's depends on the trump suit)."""
        _trump_arg(trump)
        if self.kind is MeldKind.BELA:
            return bela_mask(trump) if trump is not None else 0
        return self.mask

    @property
    def announcement(self) -> str:
        """What is said at the declaration step (K4): ``"vannak"`` or the length name."""
        if self.kind is MeldKind.SET:
            return "vannak"
        if self.kind is MeldKind.BELA:
            return "béla"
        return SEQUENCE_NAMES[self.length]

    def title(self, language: str | None = None) -> names.Named:
        """How the scorer specifies it (K4): "Acorn-Over-Kvart", "Under-vannak", "Béla".

        In Hungarian "makk felső kvart", "alsó vannak", "béla"; in German "Eichel-Ober-Quart",
        "Unter-Vierling". No language: the page's (:func:`tartli.names.set_language`). The title
        knows its forms with the article (:class:`tartli.names.Named`): ``title("hu").the`` is
        "az alsó vannak", ``title("de").acc`` "den Unter-Vierling".
        """
        language = names.resolve(language)
        key = (self.text, language)
        title = _TITLES.get(key)
        if title is None:
            title = _TITLES[key] = self._title(language)  # the game logs titles often: made once
        return title

    def _title(self, language: str) -> names.Named:
        if self.kind is MeldKind.BELA:
            return names.bela_title(language)
        assert self.rank is not None
        if self.kind is MeldKind.SET:
            return names.set_title(self.rank.index, language)
        assert self.suit is not None
        return names.sequence_title(self.rank.index, self.suit.index, self.length, language)

    def announcement_in(self, language: str | None = None) -> str:
        """The declaration-step word (K4) in a language: "kvart", "vannak" (de "Quart", "Vierling").

        No language: the page's.
        """
        language = names.resolve(language)
        if self.kind is MeldKind.SET:
            return names.SET_NAME[language]
        if self.kind is MeldKind.BELA:
            return names.BELA_NAME[language]
        return names.sequence_name(self.length, language)

    def __str__(self) -> str:
        return self.text

    def __repr__(self) -> str:
        return f"Meld.parse('{self.text}')"

    def _repr_svg_(self) -> str:
        """Jupyter shows the meld's cards with its name and value."""
        from tartli.render.table import meld_svg

        return meld_svg(self)

    def __hash__(self) -> int:
        # Equal melds have equal text; hashing the (cached) string hash is fast.
        return hash(self.text)

    # Positions 0..7 in C2 order of a sequence's top and bottom card.
    @property
    def _span(self) -> tuple[int, int]:
        assert self.rank is not None
        top = self.rank.index
        return top, top + self.length - 1


BELA = Meld(MeldKind.BELA)
SEQUENCES: tuple[Meld, ...] = tuple(
    Meld(MeldKind.SEQUENCE, RANKS[top], suit, length)
    for suit in SUITS
    for top in range(6)
    for length in range(3, 9 - top)
)
"""All 84 sequences (M1)."""
SETS: tuple[Meld, ...] = tuple(Meld(MeldKind.SET, rank) for rank in SET_VALUES)
"""The six possible sets (M2), before V3 removes the Nines."""
_BY_TEXT: dict[str, Meld] = {str(m).lower(): m for m in (*SEQUENCES, *SETS, BELA)}

# For each suit mask (8 bits, bit 0 = Ace), the sequences it holds: (top index, length).
_RUNS_IN: list[tuple[tuple[int, int], ...]] = []
for _m in range(256):
    _runs = []
    for _top in range(6):
        for _len in range(3, 9 - _top):
            _bits = ((1 << _len) - 1) << _top
            if _m & _bits == _bits:
                _runs.append((_top, _len))
    _RUNS_IN.append(tuple(_runs))
_SEQ_BY_KEY = {(m.suit.index, m.rank.index, m.length): m for m in SEQUENCES}  # type: ignore[union-attr]
_SEQS_IN_SUIT: list[list[tuple[Meld, ...]]] = [
    [tuple(_SEQ_BY_KEY[(s, top, length)] for top, length in _RUNS_IN[m]) for m in range(256)] for s in range(4)
]
_SET_MASKS = tuple((m, m.mask) for m in SETS)


def _melds_arg(melds: object, what: str = "the melds") -> tuple[Meld, ...]:
    return tuple(checked_items(melds, Meld, what, "Meld.parse('kvart:OA')"))


def _meld_arg(meld: object, what: str = "a meld") -> Meld:
    return checked(meld, Meld, what, "Meld.parse('kvart:OA')")


def bela_mask(trump: Suit) -> int:
    """The King and Over of trumps as a mask."""
    return _BELA_MASKS[_suit_arg(trump, "the trump suit").index]


_BELA_MASKS = tuple((1 << (s * 8 + Rank.KING.index)) | (1 << (s * 8 + Rank.OVER.index)) for s in range(4))


# The public functions check their arguments; the engine's hot paths call the unchecked twins
# (``_sequences_in`` ...) with the masks it keeps itself.


def sequences_in(hand: int) -> list[Meld]:
    """Every sequence held in the hand mask, including the shorter ones inside longer runs."""
    return _sequences_in(_mask_arg(hand))


def _sequences_in(hand: int) -> list[Meld]:
    return [
        *_SEQS_IN_SUIT[0][hand & 0xFF],
        *_SEQS_IN_SUIT[1][(hand >> 8) & 0xFF],
        *_SEQS_IN_SUIT[2][(hand >> 16) & 0xFF],
        *_SEQS_IN_SUIT[3][hand >> 24 & 0xFF],
    ]


_HAS_RUN = tuple(bool(runs) for runs in _RUNS_IN)


def may_hold_meld(hand: int) -> bool:
    """A fast test: does the hand hold any set or sequence at all (béla aside)?"""
    return _may_hold_meld(_mask_arg(hand))


def _may_hold_meld(hand: int) -> bool:
    if hand & (hand >> 8) & (hand >> 16) & (hand >> 24) & 0xFF:
        return True  # some rank in all four suits (Eights and Sevens too: the caller looks closer)
    return (
        _HAS_RUN[hand & 0xFF]
        or _HAS_RUN[hand >> 8 & 0xFF]
        or _HAS_RUN[hand >> 16 & 0xFF]
        or _HAS_RUN[hand >> 24 & 0xFF]
    )


def sets_in(hand: int, rules: RuleSet) -> list[Meld]:
    """Every set of four held in the hand mask (no Nines under V3)."""
    return _sets_in(_mask_arg(hand), ruleset_arg(rules))


def _sets_in(hand: int, rules: RuleSet) -> list[Meld]:
    # A rank held in all four suits leaves its bit set in the and of the four suit bytes.
    ranks = hand & (hand >> 8) & (hand >> 16) & (hand >> 24) & 0xFF
    if not ranks & 0x3F:  # Eights and Sevens (bits 6 and 7) make no set (M2)
        return []
    out = [m for m, mask in _SET_MASKS if hand & mask == mask]
    if not rules.four_nines:
        out = [m for m in out if m.rank is not Rank.NINE]
    return out


def find_melds(cards: Iterable[Card] | int, rules: RuleSet | None = None, trump: Suit | None = None) -> list[Meld]:
    """Every set, sequence and (given the trump suit) béla in a hand.

    >>> [str(m) for m in find_melds([Card.parse(c) for c in ["KH", "OH", "UH", "XH"]], trump=Suit.HEARTS)]
    ['terc:KH', 'kvart:KH', 'terc:OH', 'bela']
    """
    rules = rules_arg(rules) or RuleSet()
    _trump_arg(trump)
    hand = _mask_arg(cards) if isinstance(cards, int) else sum({1 << c.index for c in _cards_arg(cards)})
    melds: list[Meld] = [*_sets_in(hand, rules), *_sequences_in(hand)]
    if trump is not None and hand & bela_mask(trump) == bela_mask(trump):
        melds.append(BELA)
    return melds


def contest_key(meld: Meld, trump: Suit, rules: RuleSet) -> tuple[int, int, int, int]:
    """Sort key of K2: any set beats any sequence; sets in the order of ``rules.set_order()``;
    a longer sequence beats a shorter; then the higher top card (C2); then trumps.

    Two equal keys can only be two plain sequences of the same length and top:
    then the leader's wins (K2), which the caller decides.
    """
    if _meld_arg(meld).kind is MeldKind.BELA:
        raise ArgumentError("M3: béla takes no part in the contest (only sets and sequences have a contest key)")
    _suit_arg(trump, "the trump suit")
    ruleset_arg(rules)
    return _contest_key(meld, trump, rules)


def _contest_key(meld: Meld, trump: Suit, rules: RuleSet) -> tuple[int, int, int, int]:
    """:func:`contest_key` of a set or sequence, arguments known to be right (the engine's contests)."""
    assert meld.rank is not None
    if meld.kind is MeldKind.SET:
        order = rules.set_order()
        return (1, len(order) - order.index(meld.rank.value), 0, 0)
    return (0, meld.length, 8 - meld.rank.index, 1 if meld.suit is trump else 0)


def best_item(melds: Iterable[Meld], trump: Suit, rules: RuleSet) -> Meld | None:
    """The declared item that counts in the contest (béla never does, M3)."""
    _suit_arg(trump, "the trump suit")
    ruleset_arg(rules)
    return _best_item(_melds_arg(melds), trump, rules)


def _best_item(melds: tuple[Meld, ...], trump: Suit, rules: RuleSet) -> Meld | None:
    """:func:`best_item`, arguments known to be right."""
    best: Meld | None = None
    for m in melds:
        if m.kind is MeldKind.BELA:
            continue
        if best is None or _contest_key(m, trump, rules) > _contest_key(best, trump, rules):
            best = m
    return best


@dataclass(frozen=True)
class Contest:
    """The outcome of a meld contest (K2) with the reason in words, for logs and lessons."""

    winner: str
    """``"leader"``, ``"second"``, or ``"none"`` when nobody declared a set or sequence."""
    leader_best: Meld | None
    second_best: Meld | None
    rule: str
    """The clause of K2 that decided it."""
    clause: str
    """The deciding clause in words (see :attr:`reason`)."""
    needs_detail: bool
    """K4 step 5: the announcements alone did not decide (two sets, or two sequences of one length)."""
    set_order: str = ""
    """The set ranks from best to worst (rank letters) when two sets met, else ``""``."""

    def __post_init__(self) -> None:
        checked_fields(self)

    @property
    def clause_words(self) -> str:
        """:attr:`clause` in the page's language (English: the clause itself)."""
        if self.set_order:
            letters = names.RANK_LETTERS[names.get_language()]
            order = ", ".join(letters[Rank(r).index] for r in self.set_order)
            return _("sets rank {order}").format(order=order)
        return {
            "nobody declared a set or a sequence": _("nobody declared a set or a sequence"),
            "only the leader declared": _("only the leader declared"),
            "only the second declared": _("only the second declared"),
            "any set beats any sequence": _("any set beats any sequence"),
            "a longer sequence beats a shorter one": _("a longer sequence beats a shorter one"),
            "equal length, so the higher top card wins": _("equal length, so the higher top card wins"),
            "equal length and top card, so the trump sequence wins": _(
                "equal length and top card, so the trump sequence wins"
            ),
            "equal plain sequences: the leader's, declared first, wins": _(
                "equal plain sequences: the leader's, declared first, wins"
            ),
        }.get(self.clause, self.clause)

    @property
    def reason(self) -> str:
        """The clause with the melds named, in the page's language: "any set beats any sequence:
        Under-vannak beats ..."."""
        clause = self.clause_words
        if self.winner == "none":
            return clause
        best, other = (
            (self.second_best, self.leader_best) if self.winner == "second" else (self.leader_best, self.second_best)
        )
        assert best is not None
        if other is None:
            return _("{clause}: {meld_the} scores unopposed").format(clause=clause, meld=best.title())
        return _("{clause}: {meld_the} beats {other_acc}").format(clause=clause, meld=best.title(), other=other.title())


def contest(leader: Iterable[Meld], second: Iterable[Meld], trump: Suit, rules: RuleSet) -> Contest:
    """K2: whose best declared item wins (béla takes no part, M3), and why.

    The reason's words are made only when asked for (the game decides many contests).

    >>> from tartli.cards import Suit
    >>> c = contest([Meld.parse("kvart:OA")], [Meld.parse("vannak:U")], Suit.HEARTS, RuleSet())
    >>> c.winner, c.reason
    ('second', 'any set beats any sequence: Under-vannak beats Acorn-Over-Kvart')
    """
    lead = _melds_arg(leader, "the leader's melds")
    _suit_arg(trump, "the trump suit")
    ruleset_arg(rules)
    return _contest(lead, _melds_arg(second), trump, rules)


def _contest(leader: tuple[Meld, ...], second: tuple[Meld, ...], trump: Suit, rules: RuleSet) -> Contest:
    """:func:`contest`, arguments known to be right (the engine decides a contest at every declaration)."""
    lb, sb = _best_item(leader, trump, rules), _best_item(second, trump, rules)
    if lb is None or sb is None:
        if lb is None and sb is None:
            return Contest("none", None, None, "K2", "nobody declared a set or a sequence", False)
        who = "leader" if lb is not None else "second"
        return Contest(who, lb, sb, "K1", f"only the {who} declared", False)
    lk, sk = _contest_key(lb, trump, rules), _contest_key(sb, trump, rules)
    winner = "second" if sk > lk else "leader"
    both_sets = lb.kind is MeldKind.SET and sb.kind is MeldKind.SET
    same_length = lb.kind is MeldKind.SEQUENCE and sb.kind is MeldKind.SEQUENCE and lb.length == sb.length
    order = ""
    if lb.kind is not sb.kind:
        clause = "any set beats any sequence"
    elif both_sets:
        order = rules.set_order()
        clause = f"sets rank {', '.join(order)}"
    elif not same_length:
        clause = "a longer sequence beats a shorter one"
    elif lk[2] != sk[2]:
        clause = "equal length, so the higher top card wins"
    elif lk != sk:
        clause = "equal length and top card, so the trump sequence wins"
    else:
        clause = "equal plain sequences: the leader's, declared first, wins"
    return Contest(winner, lb, sb, "K2", clause, both_sets or same_length, order)


def may_answer(leader: Iterable[Meld], second: Iterable[Meld]) -> bool:
    """K3: may the second player declare ``second`` after the leader declared ``leader``?

    Only the announcements count (a set is "vannak", a sequence its length): after
    a set the second needs a set; after sequences only, a set or a sequence at
    least as long as the leader's longest. Béla plays no part in the contest (M3),
    so it never restricts and is never restricted.
    """
    return _may_answer(_melds_arg(leader, "the leader's melds"), _melds_arg(second, "the second player's melds"))


def _may_answer(leader: Iterable[Meld], second: Iterable[Meld]) -> bool:
    lead = [m for m in leader if m.kind is not MeldKind.BELA]
    if not lead:
        return True
    answer = [m for m in second if m.kind is not MeldKind.BELA]
    if not answer:
        return True
    if any(m.kind is MeldKind.SET for m in answer):
        return True
    if any(m.kind is MeldKind.SET for m in lead):
        return False
    longest = max(m.length for m in lead)
    return any(m.length >= longest for m in answer)


def same_suit_ok(new: Meld, scored: Iterable[Meld], rules: RuleSet) -> bool:
    """May a player who already scored ``scored`` sequences declare ``new`` (K7 or V5)?

    K7 (Hungarian), against every scored sequence of the suit: (a) it overlaps and
    has a higher top, or the same top and is longer; or (b) it shares no card and
    leaves at least one missing card between them. That (a) asks for an overlap is
    RULES.md's ruling (seed 000 forbids a directly adjacent higher sequence, which
    seed 001's wording alone would allow). V5 (Austrian): it must not lie wholly
    inside a scored sequence of the suit.
    """
    return _same_suit(*_same_suit_args(new, scored, rules))[0] == "ok"


def _same_suit_args(new: object, scored: object, rules: object) -> tuple[Meld, list[Meld], RuleSet]:
    meld = _meld_arg(new, "the new meld")
    if not meld.is_sequence:
        raise ArgumentError("K7/V5: the same-suit rules are about sequences: the new meld must be one")
    return meld, [m for m in _melds_arg(scored, "the scored melds") if m.is_sequence], ruleset_arg(rules)


def _same_suit(new: Meld, scored: Iterable[Meld], rules: RuleSet) -> tuple[str, Meld | None, list[Meld]]:
    """The verdict as a code ("ok", "inside", "again", "overlap", "adjacent"), the scored
    sequence that decided it, and the sequences of the suit checked (for the words)."""
    lo, hi = new._span
    austrian = rules.same_suit_rule == "austrian"
    checked: list[Meld] = []
    for old in scored:
        if old.suit is not new.suit:
            continue
        olo, ohi = old._span
        checked.append(old)
        if austrian:
            if olo <= lo and hi <= ohi:
                return "inside", old, checked
            continue
        if lo <= ohi and olo <= hi:  # they overlap
            if not (lo < olo or (lo == olo and hi > ohi)):
                return ("again" if (lo, hi) == (olo, ohi) else "overlap"), old, checked
        elif hi + 1 == olo or ohi + 1 == lo:
            return "adjacent", old, checked
    return "ok", None, checked


def same_suit_reason(new: Meld, scored: Iterable[Meld], rules: RuleSet) -> tuple[bool, str]:
    """:func:`same_suit_ok` with the reason in words, naming the scored sequence that decides.

    >>> same_suit_reason(Meld.parse("terc:OH"), [Meld.parse("terc:9H")], RuleSet())[1]
    'K7: Heart-Over-Terc shares no card with Heart-Nine-Terc but lies right next to it (no missing card between)'

    The reason is in the page's language; it starts with the rule ID.
    """
    verdict, old, checked = _same_suit(*_same_suit_args(new, scored, rules))
    rule = "V5" if rules.same_suit_rule == "austrian" else "K7"
    meld = new.title()
    if verdict == "ok":
        if not checked:
            text = _("no sequence of this suit has scored yet, so {meld_the} may be declared").format(meld=meld)
        else:
            text = _("{meld_the} may follow {scored_acc}").format(
                meld=meld, scored=comma_list([m.title() for m in checked])
            )
        return True, f"{rule}: {text}"
    assert old is not None
    if verdict == "inside":
        return False, "V5: " + _("{meld_the} lies wholly inside {old_ine}, already scored").format(
            meld=meld, old=old.title()
        )
    if verdict == "again":
        return False, "K6: " + _("{meld_the} has scored already").format(meld=meld)
    if verdict == "overlap":
        return False, "K7: " + _(
            "{meld_the} overlaps {old_acc} without a higher top card (or the same top and more cards)"
        ).format(meld=meld, old=old.title())
    return False, "K7: " + _(
        "{meld_the} shares no card with {old_ela} but lies right next to it (no missing card between)"
    ).format(meld=meld, old=old.title())


ALL_MELDS: tuple[Meld, ...] = (*SETS, *SEQUENCES, BELA)

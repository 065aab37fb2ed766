"""Rule sets: the Hungarian default, ``pais`` (B2), ``austrian`` (V1-V11), and each option alone.

One :class:`RuleSet` object is passed to the game; the code has no forks per
variant, only these switches. In a ``tartli/1`` record a rule set is written as
a preset name (``"hungarian"``, ``"pais"``, ``"austrian"``) or as an object naming
a base and options, e.g. ``{"base": "austrian", "tens_below_unders": true}``.

>>> RuleSet.from_record({"base": "hungarian", "stichmatsch": False}).stichmatsch
False
>>> RuleSet.austrian().to_record()
'austrian'
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from typing import Any, Literal

from tartli._checks import checked
from tartli.errors import ArgumentError, RecordError, shown
from tartli.i18n import _

SameSuitRule = Literal["hungarian", "austrian"]


@dataclass(frozen=True)
class RuleSet:
    """Every rule switch of RULES.md. The defaults are the Hungarian game (seed 001, Pais)."""

    bela_at_declaration: bool = False
    """B2 (``pais``): béla is a meld inside a declaration and scores at step 7 only."""
    indicator_choice: bool = False
    """V1: the non-dealer may choose the 4th, 7th, ... or 19th card as the trump indicator."""
    winner_deals: bool = False
    """V2: the winner of each hand deals the next (instead of alternating, D2)."""
    four_nines: bool = True
    """M2/V3: four Nines is a set (150). Austrian: no set of Nines."""
    tens_below_unders: bool = False
    """V3 option: four Tens rank below four Unders in the contest (K2)."""
    several_sequences: bool = False
    """V4: several sequences a trick, each in a different suit (Hungarian: one, M5)."""
    same_suit_rule: SameSuitRule = "hungarian"
    """K7 (``"hungarian"``) or V5 (``"austrian"``) for new sequences in a suit already scored."""
    show_melds: bool = False
    """V6: scored melds are shown to the opponent (the Hungarian scorer only names them)."""
    swap_any_time: bool = False
    """V7: the holder of the trump 7 may swap at any moment while the indicator is out (T5: leader only)."""
    show_last_talon_card: bool = False
    """V8: the winner of trick 7 shows the second to last talon card before taking it."""
    stichmatsch: bool = True
    """S2 (off under V9): winning all of tricks 8-16 takes all 161 card points."""
    single_games: bool = False
    """V10: each game to 501 stands alone; double if the loser is below 250 (not "250 or less").
    A wrong claim loses single: RULES.md's ruling (the Austrian source is silent on wrong claims)."""
    slate: SameSuitRule = "hungarian"
    """V11: the chalk-mark tradition used to draw the score (display only)."""
    buli_target: int = 5
    """S6: a match is played to 5 (or 10) buli points."""

    def __post_init__(self) -> None:
        for f in dataclasses.fields(self):
            problem = _option_problem(f.name, getattr(self, f.name))
            if problem:
                raise ArgumentError(f"RuleSet: {problem}")

    @classmethod
    def hungarian(cls) -> RuleSet:
        """The default rules (seed 001, after Pais, with béla at any moment, B1)."""
        return cls()

    @classmethod
    def pais(cls) -> RuleSet:
        """The Hungarian rules with Pais's béla rule (B2)."""
        return cls(bela_at_declaration=True)

    @classmethod
    def austrian(cls) -> RuleSet:
        """Austrian Tartl after Beck: V1-V11."""
        return cls(
            indicator_choice=True,
            winner_deals=True,
            four_nines=False,
            several_sequences=True,
            same_suit_rule="austrian",
            show_melds=True,
            swap_any_time=True,
            show_last_talon_card=True,
            stichmatsch=False,
            single_games=True,
            slate="austrian",
        )

    @classmethod
    def named(cls, name: str) -> RuleSet:
        """A preset by name: ``hungarian``, ``pais`` or ``austrian`` (:class:`RecordError` for anything else)."""
        if not isinstance(name, str) or name not in _PRESETS:
            raise RecordError(
                "rules: "
                + _("unknown rule set {name}: use one of {names}").format(
                    name=shown(name), names=", ".join(sorted(_PRESETS))
                )
            )
        return _PRESETS[name]()

    def replace(self, **options: Any) -> RuleSet:
        """A copy with some options changed (unknown or ill-typed options are refused)."""
        return RuleSet.from_record({"base": self, **options})

    @classmethod
    def from_record(cls, value: Any) -> RuleSet:
        """Read the ``rules`` field of a record: a preset name or ``{"base": ..., option: value}``."""
        if isinstance(value, RuleSet):
            return value
        if isinstance(value, str):
            return cls.named(value)
        if not isinstance(value, dict):
            raise RecordError(
                "rules: "
                + _("must be {names} or an object with {base}").format(
                    names='"hungarian", "pais", "austrian"', base='"base"'
                )
            )
        options = dict(value)
        base_value = options.pop("base", "hungarian")
        base = base_value if isinstance(base_value, RuleSet) else cls.named(base_value)
        changes: dict[str, Any] = {}
        for key, option in options.items():
            if key not in _FIELDS:
                raise RecordError(
                    "rules: "
                    + _("unknown option {name}; options are {names}").format(name=shown(key), names=", ".join(_FIELDS))
                )
            problem = _option_problem(key, option)
            if problem:
                raise RecordError(f"rules: {problem}")
            changes[key] = option
        return dataclasses.replace(base, **changes)

    def to_record(self) -> str | dict[str, Any]:
        """The shortest record form: a preset name, or a base with the options that differ."""
        best_name, best_diff = "hungarian", None
        for name, make in _PRESETS.items():
            diff = _diff(make(), self)
            if not diff:
                return name
            if best_diff is None or len(diff) < len(best_diff):
                best_name, best_diff = name, diff
        return {"base": best_name, **(best_diff or {})}

    @property
    def name(self) -> str:
        """A short label: the preset name, or ``"custom"``."""
        form = self.to_record()
        return form if isinstance(form, str) else "custom"

    def set_order(self) -> str:
        """Set ranks from best to worst for the contest (K2, V3), as rank letters."""
        order = "O9AXKU" if self.four_nines else "OAXKU"
        if self.tens_below_unders:
            order = order.replace("X", "") + "X"
        return order


def _option_problem(key: str, value: object) -> str:
    """What is wrong with ``value`` for the option ``key`` ("" if nothing)."""
    if key in ("same_suit_rule", "slate"):
        if not isinstance(value, str) or value not in ("hungarian", "austrian"):
            return _("{key} must be {hungarian} or {austrian}").format(
                key=key, hungarian='"hungarian"', austrian='"austrian"'
            )
    elif key == "buli_target":
        if type(value) is not int or not 1 <= value <= 1000:
            return _("{key} must be a whole number of buli from 1 to 1000, e.g. 5 or 10").format(key=key)
    elif type(value) is not bool:
        return _("option {key} must be {true} or {false}").format(key=key, true="true", false="false")
    return ""


_PRESETS = {"hungarian": RuleSet.hungarian, "pais": RuleSet.pais, "austrian": RuleSet.austrian}
_FIELDS = {f.name: type(getattr(RuleSet(), f.name)) for f in dataclasses.fields(RuleSet)}


def _diff(base: RuleSet, other: RuleSet) -> dict[str, Any]:
    return {
        f.name: getattr(other, f.name)
        for f in dataclasses.fields(RuleSet)
        if getattr(base, f.name) != getattr(other, f.name)
    }


def rules_arg(rules: object) -> RuleSet | None:
    """A ``rules`` argument of the public API: a RuleSet or None, else an :class:`ArgumentError`."""
    return None if rules is None else ruleset_arg(rules)


def ruleset_arg(rules: object) -> RuleSet:
    """A ``rules`` argument that must be given: a RuleSet, else an :class:`ArgumentError`."""
    return checked(rules, RuleSet, "rules", "RuleSet.named('austrian')")

"""The error contract of the whole public API (STYLE.md principle 5): every public callable, given
values of every type, either works or raises a :class:`TartliError`, in bounded time; a refused call
on a hand or a match leaves it as it was. ``test_api_arguments.py`` aims chosen values at chosen
entry points; this file finds the entry points itself, so that a new one is covered the day it is
written.

What "public" means, mechanically (:func:`public_targets`):

* the engine's modules: ``tartli`` (its ``__all__``), ``tartli.cards``, ``errors``, ``game``,
  ``match``, ``melds``, ``moves``, ``names``, ``record`` and ``rules`` (rendering and widgets
  are the engine's users, not its API; ``tartli._checks``, like any module whose name starts with
  an underscore, is private); in each, every name without a leading underscore;
* the API beside the engine (:data:`USERS`): ``tartli.share`` (its ``__all__``) and the bots:
  ``tartli.bots`` (its ``__all__``) and the functions its notes send a user to (``hint``,
  ``evaluate``, ``review``, ``cause``);
* the bots' modules whole (:data:`INNER`: determinization, the search's playouts, the solver's
  positions, the rules of thumb...): every name without a leading underscore defined in one, in
  its ``__all__`` or not, but the benchmarks' runners (:data:`RUNNERS`: ``bench.run``,
  ``tournament.run_*``...: a count of hands there is a request for that much time; their bad
  arguments are tested apart, :func:`test_the_benchmarks_refuse_bad_arguments_before_they_play`);
* of those names, each bound to a function or a class defined in one of these modules
  (``dataclass`` or ``random`` imported there are not; a class imported from a sibling module
  counts once);
* of each such class: its constructor (for an enum, ``Suit(value)``; a base of enums without
  members has none) and every attribute without a leading underscore defined in its body or in a
  base from these modules: functions, classmethods, staticmethods and properties. Methods and
  properties are called on instances the engine made (:data:`INSTANCES`): the arguments are what
  is random, not ``self``.

A constructor that returns must have checked what it stores: for a value class (a dataclass or a
named tuple: a view, a sampled world, an event...) every field holds a value of its annotated type
(:func:`garbage_kept`; an ``int`` field no bool, no None). One that keeps ``World(None, 3, ...)``
breaks the contract as surely as one that raises a TypeError: the error comes later, far from the
call.

Each parameter draws from :data:`VALUES`: None, bools, small, negative and huge integers, floats
with nan and inf, text (with control and format characters), bytes, lists, tuples, dicts, cards,
melds, suits, rule sets, deals, hands, views, moves, matches, records, a random generator, open
file objects, paths, a FIFO and a folder. An optional parameter is sometimes left out.

The count: ``TARTLI_API_CALLS=5000 pytest tests/test_api_contract.py -k sweep -s`` makes that many
calls (spread evenly over the callables, reproducibly) without stopping at the first failure and
prints how many raised anything other than a TartliError, by type and by callable.
"""

from __future__ import annotations

import contextlib
import dataclasses
import enum
import importlib
import inspect
import io
import itertools
import math
import os
import random
import signal
import types
import typing
from collections import Counter, abc
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from types import FrameType
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import Phase as Stage
from hypothesis import strategies as st

from tartli import CARDS, Card, Deal, HandState, Match, Meld, Record, RuleSet, TartliError, names
from tartli.bots import HandReview, HeuristicBot, HintBot, RandomBot, SearchBot
from tartli.bots.determinize import Announcement, Sampler, World
from tartli.bots.evaluate import Budget, Evaluation
from tartli.bots.review import Decision, Grade, HandSummary, MatchSummary, Retry, match_summary, review
from tartli.bots.solver import PhaseTwoPosition, position_of
from tartli.bots.tournament import ToldHint
from tartli.cards import Rank, Suit
from tartli.errors import ArgumentError, shown
from tartli.game import ClaimWindow, Event, Phase, PlayerView, Status
from tartli.melds import BELA, Contest, MeldKind, contest
from tartli.moves import Declare, GoOut, Play
from tartli.names import Named
from tartli.record import ReplayError
from tartli.share import SharedPosition, record_code
from tests.test_errors import snapshot

MODULES = (
    "tartli",
    "tartli.cards",
    "tartli.errors",
    "tartli.game",
    "tartli.match",
    "tartli.melds",
    "tartli.moves",
    "tartli.names",
    "tartli.record",
    "tartli.rules",
)
USERS = {
    "tartli.bots": None,  # its __all__
    "tartli.bots.hint": ("hint",),
    "tartli.bots.evaluate": ("evaluate", "Budget"),
    "tartli.bots.review": ("review",),
    "tartli.bots.explain": ("cause",),
    "tartli.share": None,
}
"""The public API beside the engine's modules: a module and its public names (None: its ``__all__``)."""
INNER = tuple(
    f"tartli.bots.{name}"
    for name in (
        *("base", "bench", "determinize", "evaluate", "explain", "heuristic"),
        *("hint", "review", "search", "solver", "tournament"),
    )
)
"""The bots' modules, whole: every public name defined in one (``__all__`` or not) is called too."""
RUNNERS = frozenset(
    (
        *("bench.trick8_positions", "bench.run", "bench.hint_latency", "bench.review_time", "bench.agreement"),
        *("tournament.run_hands", "tournament.run_hint_bench", "tournament.run_matches"),
    )
)
"""Benchmarks whose counts of hands (or positions) are a request for that much time: left out."""
EXAMPLE = Path(__file__).resolve().parent / "data" / "example.json"
FILES = {"record.json": EXAMPLE.read_bytes(), "latin1.json": '{"format": "tartli/1", "x": "é"}'.encode("latin-1")}
TIME_LIMIT = 5.0
"""Seconds one call may take: any call of the engine answers in far less, a hang is a failure."""


# ----------------------------------------------------------------- what is public


@dataclass(frozen=True)
class Target:
    """One public callable: ``owner`` (a module or a class) and the attribute ``name`` on it."""

    id: str
    owner: Any
    name: str
    kind: str  # "function", "constructor", "enum", "class-level", "method", "property"


def _ours(obj: object) -> bool:
    module = getattr(obj, "__module__", None)
    return module in MODULES or module == "tartli.share" or str(module).startswith("tartli.bots.")


def _class_members(cls: type) -> Iterator[tuple[str, str]]:
    """(name, kind) of the public attributes defined in ``cls`` and its bases from our modules."""
    seen: set[str] = set()
    for base in cls.__mro__:
        if not _ours(base):
            continue
        for name, attr in vars(base).items():
            if name.startswith("_") or name in seen:
                continue
            seen.add(name)
            if isinstance(attr, staticmethod | classmethod):
                yield name, "class-level"
            elif isinstance(attr, property):
                yield name, "property"
            elif inspect.isfunction(attr):
                yield name, "method"


def public_targets() -> list[Target]:
    targets: dict[str, Target] = {}
    done: set[int] = set()
    exports: list[tuple[str, list[str]]] = []
    for module_name in MODULES:
        module = importlib.import_module(module_name)
        exports.append((module_name, module.__all__ if module_name == "tartli" else list(vars(module))))
    for module_name, chosen in USERS.items():
        exports.append((module_name, list(importlib.import_module(module_name).__all__ if chosen is None else chosen)))
    for module_name in INNER:
        module = importlib.import_module(module_name)
        defined = [n for n, obj in vars(module).items() if getattr(obj, "__module__", None) == module_name]
        exports.append((module_name, defined))
    for module_name, exported in exports:
        module = importlib.import_module(module_name)
        for name in exported:
            if name.startswith("_"):
                continue
            obj = getattr(module, name)
            if not (inspect.isfunction(obj) or inspect.isclass(obj)) or not _ours(obj) or id(obj) in done:
                continue
            done.add(id(obj))
            where = obj.__module__.removeprefix("tartli.").removeprefix("bots.")
            if f"{where}.{name}" in RUNNERS:
                continue
            if inspect.isfunction(obj):
                targets[f"{where}.{name}"] = Target(f"{where}.{name}", obj, "", "function")
                continue
            if getattr(obj, "_is_protocol", False):  # an interface (Bot): the classes that have it are tested
                continue
            kind = "enum" if issubclass(obj, enum.Enum) else "constructor"
            if kind == "enum" and not len(obj):  # a base of enums: it has no value to look up
                continue
            targets[f"{where}.{name}()"] = Target(f"{where}.{name}()", obj, "", kind)
            for member, member_kind in _class_members(obj):
                key = f"{where}.{name}.{member}"
                targets[key] = Target(key, obj, member, member_kind)
    return [targets[k] for k in sorted(targets)]


# ----------------------------------------------------------------- instances and values


def _state_template(moves: int, rules: RuleSet | None = None, out: bool = False) -> HandState:
    state = HandState.from_seed(7, rules)
    for _ in range(moves):
        legal = state.legal_moves()
        state.push(legal[len(legal) // 2])
    if out:
        state.push(GoOut(0))
    return state


def _phase_two(trick: int) -> HandState:
    """A hand in progress at ``trick`` (8-16): the solver's positions."""
    state = HandState.from_seed(11)
    while state.trick_number < trick:
        state.push(next(m for m in state.legal_moves() if isinstance(m, Play)))
    return state


_STATES = [_state_template(0), _state_template(9, RuleSet.austrian()), _state_template(3, RuleSet.pais(), out=True)]
_LATE = _phase_two(12)
_LATE_VIEW = _LATE.view(_LATE.to_move or 0)
_SHARED = SharedPosition(Record.from_state(_STATES[1], seed=7), 2, 1)
_VIEW = _STATES[1].view(1)
_EVENTS = _STATES[1].events
_KVART, _VANNAK = Meld.parse("kvart:OA"), Meld.parse("vannak:U")


def _match(over: bool) -> Match:
    match = Match(seed=2, first_dealer=1)
    if over:
        match.state.push(GoOut(0))  # a wrong claim: the hand is over, the match is not
    return match


def _record() -> Record:
    return Record.from_json(EXAMPLE.read_text(encoding="utf-8"))


def _replay_error(moves: int) -> ReplayError:
    """The refusal of a record whose last move cannot be made (after ``moves`` good ones), as a user gets it."""
    record = _record()
    try:
        dataclasses.replace(record, moves=[*record.moves[:moves], "1: play ZZ" if moves else "0: play ZZ"]).replay()
    except ReplayError as err:
        return err
    raise AssertionError("the record was replayed")


INSTANCES: dict[type, list[Callable[[], Any]]] = {
    Card: [lambda: CARDS[0], lambda: CARDS[31]],
    Meld: [lambda: _KVART, lambda: _VANNAK, lambda: BELA, lambda: Meld.parse("okt:AB")],
    Deal: [lambda: _STATES[0].deal],
    HandState: [state.copy for state in _STATES],
    Match: [lambda: _match(False), lambda: _match(True)],
    Record: [_record, lambda: Record.from_state(_STATES[1], seed=7)],
    ReplayError: [lambda: _replay_error(0), lambda: _replay_error(1)],
    RuleSet: [RuleSet, RuleSet.austrian, RuleSet.pais],
    Event: [lambda: _EVENTS[0], lambda: _EVENTS[-1]],
    PlayerView: [lambda: _VIEW, lambda: _STATES[2].view(0)],
    Status: [lambda: Status.OUT],
    Phase: [lambda: Phase.FIRST],
    MeldKind: [lambda: MeldKind.SET],
    Suit: [lambda: Suit.HEARTS, lambda: Suit.ACORNS],
    Rank: [lambda: Rank.OVER, lambda: Rank.SEVEN],
    Named: [lambda: CARDS[0].name("de"), lambda: _VANNAK.title("hu")],
    RandomBot: [lambda: RandomBot(1)],
    HeuristicBot: [HeuristicBot],
    SearchBot: [lambda: SearchBot(1, samples=4, budget_ms=20.0)],
    HintBot: [lambda: HintBot(budget=Budget(deals=4, min_deals=2))],
    ToldHint: [lambda: ToldHint("hand", budget=Budget(deals=4, min_deals=2)), lambda: _told(_STATES[2])],
    SharedPosition: [lambda: _SHARED],
    HandReview: [lambda: _review()],
    Sampler: [lambda: Sampler(_VIEW), lambda: Sampler(_LATE_VIEW, infer=False)],
    Evaluation: [lambda: _review().decisions[0].evaluation],
    Decision: [lambda: _review().decisions[0], lambda: _review().decisions[-1]],
    Retry: [lambda: _review().retry(_review().decisions[0])],
    HandSummary: [lambda: _review().summary],
    MatchSummary: [lambda: match_summary([_review().summary]), lambda: match_summary([])],
    Grade: [lambda: Grade.BEST, lambda: Grade.BLUNDER],
    PhaseTwoPosition: [lambda: position_of(_LATE), lambda: position_of(_LATE_VIEW)],
    Contest: [
        lambda: contest([_KVART], [_VANNAK], Suit.HEARTS, RuleSet()),
        lambda: contest([], [], Suit.HEARTS, RuleSet()),
    ],
}
"""Instances of each public class with methods or properties (made by the engine, as a user gets them)."""


def _told(state: HandState) -> ToldHint:
    """A told Hint as a tournament leaves it: told the true state."""
    bot = ToldHint("deal", budget=Budget(deals=4, min_deals=2))
    bot.state = state
    return bot


_REVIEWS: list[HandReview] = []


def _review() -> HandReview:
    """The review of a late hand (made once: a review takes a while)."""
    if not _REVIEWS:
        _REVIEWS.append(review(_LATE, 0, budget=Budget(deals=4, min_deals=2)))
    return _REVIEWS[0]


def _instances_of(cls: type) -> list[Callable[[], Any]]:
    return INSTANCES.get(cls, [])


_OPEN: list[io.IOBase] = []
"""Files a value opened for one call; closed after it."""


def _opened(mode: str) -> Callable[[], Any]:
    def make() -> Any:
        file = open("record.json", mode)  # noqa: SIM115 (closed after the call)
        _OPEN.append(file)
        return file

    return make


WORDS = [
    "AH",
    "OH",
    "7B",
    "10h",
    "kvart:OA",
    "terc:KH",
    "vannak:U",
    "bela",
    "0: play AH",
    "1: play 9H",
    "0: swap",
    "1: pass",
    "0: out",
    "1: declare vannak:U",
    "hungarian",
    "pais",
    "austrian",
    "en",
    "hu",
    "de",
    "good",
    "trump",
    "Acorn",
    "",
    " ",
    "\x00",
    "\x1b[31m",
    "\u202e",
    "A\u200bH",
    "x" * 300,
    "\udcff",
    # files in the test's folder (never an absolute path: a call may write to it)
    "record.json",
    "missing.json",
    "latin1.json",
    "folder",
    "fifo",
]
_HAND0, _HAND1 = _STATES[0].deal.hands
OBJECTS: list[Callable[[], Any]] = [
    lambda: CARDS[0],
    lambda: CARDS[17],
    lambda: _KVART,
    lambda: _VANNAK,
    lambda: BELA,
    lambda: CARDS[5].suit,
    lambda: CARDS[5].rank,
    lambda: MeldKind.SEQUENCE,
    lambda: Status.FINISHED,
    lambda: Phase.SECOND,
    RuleSet,
    RuleSet.austrian,
    lambda: _STATES[0].deal,
    lambda: _STATES[0].copy(),
    lambda: _STATES[1].copy(),
    lambda: _VIEW,
    lambda: _EVENTS[1],
    lambda: Play(0, CARDS[0]),
    lambda: Declare(1, (_KVART,)),
    lambda: GoOut(1),
    lambda: _match(False),
    _record,
    lambda: random.Random(1),
    _opened("r"),
    _opened("rb"),
    lambda: io.StringIO(EXAMPLE.read_text(encoding="utf-8")),
    lambda: Path("record.json"),
    lambda: Path("fifo"),
    object,
    lambda: ClaimWindow(0, 1, 14, 1),
    lambda: list(_HAND0),
    lambda: _HAND1,
    lambda: (_HAND0, _HAND1),
    lambda: list(_STATES[0].deal.talon),
    lambda: [_KVART, BELA],
    lambda: ["0: play AH", "1: play 9H"],
    lambda: {"format": "tartli/1", "dealer": 1, "seed": 3, "moves": []},
    lambda: {"base": "austrian", "stichmatsch": True},
    lambda: (0, 0),
    lambda: [501, 250],
    lambda: _LATE.copy(),
    lambda: _LATE_VIEW,
    HeuristicBot,
    lambda: RandomBot(2),
    lambda: Budget(deals=2, min_deals=1),
    lambda: _SHARED,
    lambda: record_code(_record()),
    lambda: _SHARED.query(),
]
SCALARS = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(),
    st.sampled_from([0, 1, 2, -1, 3, 6, 8, 9, 13, 31, 32, 2**31, 2**32, 2**63, 2**64, -(2**64), 10**30, 10**5000]),
    st.floats(),
    st.sampled_from([math.nan, math.inf, -math.inf, 0.0, 1.0]),
    st.text(alphabet=st.characters(blacklist_characters="/\\"), max_size=12),
    st.sampled_from(WORDS),
    st.binary(max_size=8),
)
OBJECT_VALUES = st.sampled_from(OBJECTS).map(lambda make: make())
VALUES = st.one_of(
    SCALARS,
    OBJECT_VALUES,
    st.lists(st.one_of(SCALARS, OBJECT_VALUES), max_size=4),
    st.tuples(st.one_of(SCALARS, OBJECT_VALUES), st.one_of(SCALARS, OBJECT_VALUES)),
    st.dictionaries(st.text(max_size=6), SCALARS, max_size=3),
)
OPTION_NAMES = st.sampled_from(["base", "stichmatsch", "buli_target", "same_suit_rule", "four_nines", "slate", "x"])


# ----------------------------------------------------------------- one call


class Hang(BaseException):
    """A call that did not answer within :data:`TIME_LIMIT` (a BaseException: no handler swallows it)."""


@contextlib.contextmanager
def time_limit(seconds: float) -> Iterator[None]:
    def stop(signum: int, frame: FrameType | None) -> None:
        raise Hang

    previous = signal.signal(signal.SIGALRM, stop)
    signal.setitimer(signal.ITIMER_REAL, seconds)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)


@contextlib.contextmanager
def guarded_descriptors(values: list[Any], closed: list[int]) -> Iterator[None]:
    """Keep the caller's open file descriptors among ``values`` (``Record.load(1)``) open.

    A descriptor that the call closed or replaced is put back and listed in ``closed``: the test
    itself, pytest's output among them, must survive a call that breaks the contract.
    """
    identities: dict[int, tuple[int, int]] = {}
    for value in values:
        if type(value) in (int, bool) and 0 <= value < 1 << 16:
            with contextlib.suppress(OSError):
                info = os.fstat(int(value))
                identities[int(value)] = (info.st_dev, info.st_ino)
    # Copied only once all are known: a copy takes the lowest free number, maybe one of ``values``.
    saved = {fd: (os.dup(fd), identity) for fd, identity in identities.items()}
    try:
        yield
    finally:
        for fd, (copy, identity) in saved.items():
            try:
                info = os.fstat(fd)
                same = (info.st_dev, info.st_ino) == identity
            except OSError:
                same = False
            if not same:
                closed.append(fd)
                os.dup2(copy, fd)
            os.close(copy)


def _signature(func: Any, kind: str) -> inspect.Signature:
    if kind == "enum":
        return inspect.Signature([inspect.Parameter("value", inspect.Parameter.POSITIONAL_ONLY)])
    try:
        return inspect.signature(func)
    except ValueError:  # an exception class without its own __init__: ValueError(*args)
        return inspect.Signature([inspect.Parameter("args", inspect.Parameter.VAR_POSITIONAL)])


def _arguments(data: st.DataObject, signature: inspect.Signature) -> tuple[list[Any], dict[str, Any]]:
    args: list[Any] = []
    kwargs: dict[str, Any] = {}
    skipped = False  # once an optional positional is left out, the rest go by name
    for param in signature.parameters.values():
        if param.kind is param.VAR_POSITIONAL:
            if not skipped:
                args += data.draw(st.lists(VALUES, max_size=3), label=f"*{param.name}")
            continue
        if param.kind is param.VAR_KEYWORD:
            kwargs.update(data.draw(st.dictionaries(OPTION_NAMES, VALUES, max_size=2), label=f"**{param.name}"))
            continue
        if param.default is not param.empty and data.draw(st.booleans(), label=f"leave out {param.name}"):
            skipped = True
            continue
        value = data.draw(VALUES, label=param.name)
        if param.kind is param.POSITIONAL_ONLY or (param.kind is param.POSITIONAL_OR_KEYWORD and not skipped):
            args.append(value)
        else:
            kwargs[param.name] = value
    return args, kwargs


def _watch(value: object) -> object:
    """What a refused call must leave unchanged on a hand or a match."""
    if isinstance(value, HandState):
        return snapshot(value)
    if isinstance(value, Match):
        return (value.scores, value.buli, value.dealer, len(value.results), value.tie_pending, snapshot(value.state))
    return None


def conforms(value: object, hint: Any) -> bool:
    """``value`` is of the annotated type ``hint`` (as the annotations of the engine's values are
    written: classes, unions, tuples, frozensets, mappings; an ``int`` is not a bool)."""
    origin, args = typing.get_origin(hint), typing.get_args(hint)
    if hint is Any:
        return True
    if hint is None or hint is type(None):
        return value is None
    if hint is int:
        return isinstance(value, int) and not isinstance(value, bool)
    if hint is float:
        return isinstance(value, int | float) and not isinstance(value, bool)
    if origin in (typing.Union, types.UnionType):
        return any(conforms(value, arg) for arg in args)
    if origin is tuple:
        if not isinstance(value, tuple):
            return False
        if len(args) == 2 and args[1] is Ellipsis:
            return all(conforms(item, args[0]) for item in value)
        return len(value) == len(args) and all(conforms(item, arg) for item, arg in zip(value, args, strict=True))
    if origin in (list, set, frozenset):
        return isinstance(value, origin) and all(conforms(item, args[0]) for item in value)
    if origin in (dict, abc.Mapping):
        return isinstance(value, origin) and all(
            conforms(k, args[0]) and conforms(v, args[1]) for k, v in value.items()
        )
    return isinstance(value, origin or hint)


def garbage_kept(made: object) -> str | None:
    """A value class's constructor (a dataclass or a named tuple) that returned must have checked
    what it stores: None if every field holds a value of its annotated type, else the first that does not."""
    cls = type(made)
    if dataclasses.is_dataclass(cls):
        fields = [f.name for f in dataclasses.fields(cls) if f.init]
    elif isinstance(made, tuple) and hasattr(cls, "_fields"):
        fields = list(cls._fields)
    else:
        return None
    hints = typing.get_type_hints(cls)
    for name in fields:
        value = getattr(made, name)
        if not conforms(value, hints[name]):
            return f"kept {name}={shown(value, 40)}: not a {getattr(hints[name], '__name__', hints[name])}"
    return None


def furnish() -> None:
    """The files the values name, in the current folder, as they should be before each call (a call
    to ``save`` may have written over one): a record, a Latin-1 file, a folder and a FIFO."""
    for name, content in FILES.items():
        path = Path(name)
        if not path.is_file() or path.read_bytes() != content:
            path.unlink(missing_ok=True)
            path.write_bytes(content)
    Path("folder").mkdir(exist_ok=True)
    fifo = Path("fifo")
    if not fifo.is_fifo():
        fifo.unlink(missing_ok=True)
        os.mkfifo(fifo)


def call_once(target: Target, data: st.DataObject) -> str | None:
    """Make one call with drawn values: None if it kept the contract, else what went wrong."""
    furnish()
    if target.kind in ("method", "property"):
        owner = data.draw(st.sampled_from(_instances_of(target.owner)), label="instance")()
    else:
        owner = target.owner
    args: list[Any] = []
    kwargs: dict[str, Any] = {}
    func: Callable[..., Any]
    if target.kind == "property":
        func = lambda: getattr(owner, target.name)  # noqa: E731
    else:
        func = owner if target.kind in ("function", "constructor", "enum") else getattr(owner, target.name)
        args, kwargs = _arguments(data, _signature(func, target.kind))
    watched = [v for v in (owner, *args, *kwargs.values()) if isinstance(v, HandState | Match)]
    before = [_watch(v) for v in watched]
    language = names.get_language()
    closed: list[int] = []
    problem = None
    try:
        with guarded_descriptors([*args, *kwargs.values()], closed), time_limit(TIME_LIMIT):
            made = func(*args, **kwargs)
        if target.kind == "constructor":
            problem = garbage_kept(made)
    except Hang:
        problem = f"no answer within {TIME_LIMIT} s"
    except TartliError as err:
        message = str(err)
        if not message or len(message) > 400:
            problem = f"{type(err).__name__} with a message of {len(message)} characters"
        elif [_watch(v) for v in watched] != before:
            problem = f"refused ({type(err).__name__}) but changed the state"
    except Exception as err:  # the point of the test: any other exception breaks the contract
        problem = f"{type(err).__name__}: {str(err)[:200]}"
    finally:
        names.set_language(language)
        while _OPEN:
            _OPEN.pop().close()
    if closed:
        problem = f"closed the caller's file descriptor {closed[0]}"
    return problem


# ----------------------------------------------------------------- the tests

TARGETS = public_targets()


@pytest.fixture
def sandbox(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """The test's own folder as the current one: the files the values name are made there."""
    monkeypatch.chdir(tmp_path)
    return tmp_path


def test_the_enumeration_finds_the_whole_api() -> None:
    ids = {t.id for t in TARGETS}
    for expected in (
        "cards.Card.from_index",
        "cards.Card()",
        "cards.Suit()",
        "cards.indices_of",
        "game.HandState.push_many",
        "game.PlayerView.claim",
        "match.Match.draw_for_dealer",
        "melds.Meld()",
        "melds.find_melds",
        "names.suit_name",
        "record.Record.load",
        "record.Record.from_state",
        "record.replay_file",
        "rules.RuleSet.replace",
        "moves.parse_move",
        "errors.cut",
    ):
        assert expected in ids, expected
    assert len(TARGETS) > 150
    # Every class with methods or properties has instances to call them on.
    missing = {t.owner.__name__ for t in TARGETS if t.kind in ("method", "property") and not _instances_of(t.owner)}
    assert not missing, missing


@pytest.mark.parametrize("target", TARGETS, ids=[t.id for t in TARGETS])
@settings(max_examples=100, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(data=st.data())
def test_a_public_callable_works_or_raises_a_tartli_error(target: Target, data: st.DataObject, sandbox: Path) -> None:
    problem = call_once(target, data)
    assert problem is None, f"{target.id}: {problem}"


def sweep(calls: int) -> tuple[int, Counter[str], Counter[str], dict[str, str]]:
    """About ``calls`` calls spread over the targets, reproducibly; nothing stops at a failure."""
    per_target = max(1, calls // len(TARGETS))
    total = 0
    by_type: Counter[str] = Counter()
    by_target: Counter[str] = Counter()
    first: dict[str, str] = {}

    def runner(target: Target) -> Callable[[], None]:
        @settings(
            max_examples=per_target,
            phases=[Stage.generate],
            derandomize=True,
            database=None,
            deadline=None,
            suppress_health_check=list(HealthCheck),
        )
        @given(data=st.data())
        def run(data: st.DataObject) -> None:
            nonlocal total
            total += 1
            problem = call_once(target, data)
            if problem is not None:
                by_type[problem.partition(":")[0]] += 1
                by_target[target.id] += 1
                first.setdefault(target.id, problem)

        return run

    for target in TARGETS:
        runner(target)()
    return total, by_type, by_target, first


def test_a_sweep_of_random_calls_raises_only_tartli_errors(sandbox: Path) -> None:
    calls = int(os.environ.get("TARTLI_API_CALLS", "1500"))
    total, by_type, by_target, first = sweep(calls)
    failed = sum(by_target.values())
    print(f"\n{total} calls on {len(TARGETS)} public callables: {failed} broke the contract")
    for kind, n in by_type.most_common():
        print(f"  {n:5} {kind}")
    for target_id, n in sorted(by_target.items()):
        print(f"  {n:5} {target_id}: {first[target_id]}")
    assert failed == 0


VALUE_CLASS_REFUSALS: list[tuple[Callable[[], object], str]] = [
    (lambda: World((CARDS[0],), 3, None), "World: talon must be a tuple, each item a Card, not 3"),  # type: ignore[arg-type]
    (lambda: World((CARDS[0],), (), None, weight=True), "World: weight must be a number, not True"),
    (lambda: Announcement("1", (), 0, None, None, False), "Announcement: trick must be a whole number"),  # type: ignore[arg-type]
    (lambda: Event("play", 2), "Event: player must be a player, 0 or 1, not 2"),
    (lambda: ClaimWindow(0, 1, 14.5, 1), "ClaimWindow: points must be a whole number, not 14.5"),  # type: ignore[arg-type]
    (lambda: dataclasses.replace(_VIEW, hand=["AH"]), "PlayerView: hand must be a tuple, each item a Card"),
    (lambda: dataclasses.replace(_VIEW, scores_in=(0, True)), "PlayerView: scores_in must be a tuple"),
    (lambda: PhaseTwoPosition((1, 2), Suit.HEARTS, 2, None, (0, 0), (), False), "leader must be a player, 0 or 1"),
]


@pytest.mark.parametrize(("make", "message"), VALUE_CLASS_REFUSALS, ids=[m for _, m in VALUE_CLASS_REFUSALS])
def test_a_value_class_refuses_a_field_of_the_wrong_type_and_names_it(make: Callable[[], object], message: str) -> None:
    """The engine's and the bots' values (a view, a sampled world, an event...) check what their
    constructor is given; the sweep finds a constructor that keeps garbage, these name the field."""
    with pytest.raises(ArgumentError) as caught:
        make()
    assert message in str(caught.value)


def test_the_values_the_engine_makes_unchecked_would_pass_the_check() -> None:
    """The hot paths make views, sampled worlds and playout lines without the check
    (:func:`tartli._checks.unchecked`): made again through the checked constructor, each is the same."""
    import random as random_module

    from tartli.bots.evaluate import playout_lines

    for state in (*_STATES, _LATE):
        for player in (0, 1):
            view = state.view(player)
            assert dataclasses.replace(view) == view
            if not view.legal_moves:
                continue
            sampler, rng = Sampler(view), random_module.Random(3)
            for _ in range(4):
                world = sampler.sample(rng)
                assert dataclasses.replace(world) == world
    lines = playout_lines(_LATE.copy(), list(_LATE.legal_moves()), _LATE.to_move or 0, 0.5)
    assert lines and all(dataclasses.replace(line) == line for line in lines)


# ----------------------------------------------------------------- the caller's own functions


class OwnError(Exception):
    """What a caller's own function raises: not a bad argument, the caller's own failure."""


def _own(*args: object) -> Any:
    raise OwnError("the caller's")


def _callback_calls(callback: Callable[..., Any]) -> dict[str, Callable[[], object]]:
    """Each public call that takes a function of the caller's, with ``callback`` as that function."""
    from tartli.bots.evaluate import restrict
    from tartli.bots.search import playout_results
    from tartli.bots.tournament import run_hands

    late_moves = list(_LATE.legal_moves())
    return {
        "restrict(offered)": lambda: restrict(_VIEW, callback),
        "review(offered)": lambda: review(_LATE, 0, budget=Budget(deals=2, min_deals=1), offered=callback),
        "review(progress)": lambda: review(_LATE, 0, budget=Budget(deals=2, min_deals=1), progress=callback),
        "playout_results(result)": lambda: playout_results(_LATE.copy(), late_moves, 0.5, callback),
        "Sampler(plays).sample": lambda: Sampler(_STATES[1].view(0), plays=callback).sample(random.Random(1)),
        "run_hands(out)": lambda: run_hands("random", "random", 2, out=callback),
    }


@pytest.mark.parametrize("call", list(_callback_calls(_own)))
def test_an_exception_of_the_callers_own_function_passes_through_unchanged(call: str) -> None:
    """A function the caller passes (a page's ``offered``, a progress bar, a play model, a printer)
    is the caller's own code: its exception reaches the caller as it was raised, as one raised by
    ``sorted``'s ``key`` or ``map``'s function does, not turned into a TartliError (the contract is
    about bad arguments)."""
    with pytest.raises(OwnError, match="the caller's"):
        _callback_calls(_own)[call]()


WRONG_ANSWERS: list[tuple[str, Any, str]] = [
    ("restrict(offered)", lambda move: "yes", "offered must answer True or False, not 'yes'"),
    ("restrict(offered)", lambda move: None, "offered must answer True or False, not None"),
    ("review(offered)", lambda move: 1, "offered must answer True or False, not 1"),
    ("Sampler(plays).sample", lambda *a: "x", "plays must answer a likelihood, a number from 0, not 'x'"),
    ("Sampler(plays).sample", lambda *a: math.nan, "plays must answer a likelihood"),
    ("Sampler(plays).sample", lambda *a: -0.5, "plays must answer a likelihood"),
    ("Sampler(plays).sample", lambda *a: True, "plays must answer a likelihood"),
    ("restrict(offered)", "not a function", "offered is None or a function"),
    ("review(progress)", 3, "progress is None or a function"),
    ("playout_results(result)", "x", "result is a function"),
    ("Sampler(plays).sample", 2.5, "plays is None or a model of play"),
    ("run_hands(out)", None, "out is a function"),
]


@pytest.mark.parametrize(("call", "callback", "message"), WRONG_ANSWERS, ids=[m for _c, _f, m in WRONG_ANSWERS])
def test_a_callback_that_is_no_function_or_answers_the_wrong_type_is_a_bad_argument(
    call: str, callback: Any, message: str
) -> None:
    """A "function" that is none, or that answers what its parameter's type does not allow (an
    ``offered`` that says "yes", a play model that says "x" or nan), is a bad argument: an
    ArgumentError naming the parameter, not Python's TypeError from deep in a loop."""
    with pytest.raises(ArgumentError) as caught:
        _callback_calls(callback)[call]()
    assert message in str(caught.value)


# ----------------------------------------------------------------- endless and huge iterables

ENDLESS = {
    "count()": "itertools.count()",
    "repeat('AH')": "itertools.repeat('AH')",
    "repeat(card)": "itertools.repeat(CARDS[0])",
    "range(10**18)": "range(10**18)",
    "range(10**30)": "range(10**30)",
}
"""Iterables that a call must refuse before it reads them (their text: the child process makes them)."""

_ENDLESS_CHILD = r"""
import itertools, random, resource, sys, time
resource.setrlimit(resource.RLIMIT_AS, (1 << 30, 1 << 30))  # memory without bound: a MemoryError, not a swapped machine
sys.path[:0] = sys.argv[1:3]
import tests.test_api_contract as c
from tartli import CARDS, TartliError
from tartli.cards import parse_cards
from tartli.share import share_url

ENDLESS = {name: (lambda text=text: eval(text)) for name, text in c.ENDLESS.items()}
rng = random.Random(42)


def run(label, call):
    print("start", label, flush=True)
    began = time.perf_counter()
    try:
        call()
        outcome = "returned"
    except TartliError:
        outcome = "TartliError"
    except c.Hang:
        outcome = "hang"
    except BaseException as err:
        outcome = type(err).__name__
    print("end", f"{time.perf_counter() - began:.6f}", outcome, label, flush=True)


# The issue's three, as they were written.
run("share_url(range(10**18), None)", lambda: share_url(range(10**18), None))
run("share_url(itertools.count(), record)", lambda: share_url(itertools.count(), c._record()))
run("parse_cards(itertools.repeat('AH'))", lambda: parse_cards(itertools.repeat("AH")))
# Every public callable, each parameter in turn an endless or huge iterable, the others values of
# the contract's sweep (drawn reproducibly).
c.furnish()
for target in c.TARGETS:
    if target.kind in ("property", "enum"):
        continue
    for make in c._instances_of(target.owner)[:1] if target.kind == "method" else [lambda: target.owner]:
        owner = make()
        func = owner if target.kind in ("function", "constructor") else getattr(owner, target.name)
        params = list(c._signature(func, target.kind).parameters.values())
        for i, param in enumerate(params):
            if param.kind in (param.VAR_POSITIONAL, param.VAR_KEYWORD):
                continue
            for name, endless in ENDLESS.items():
                for _draw in range(2):
                    args, kwargs = [], {}
                    for j, other in enumerate(params):
                        if other.kind in (other.VAR_POSITIONAL, other.VAR_KEYWORD):
                            continue
                        if j != i and other.default is not other.empty:
                            continue
                        value = endless() if j == i else rng.choice(c.OBJECTS)()
                        if other.kind is other.KEYWORD_ONLY:
                            kwargs[other.name] = value
                        else:
                            args.append(value)
                    with c.time_limit(c.TIME_LIMIT):  # a loop in Python is stopped; one in C only by the parent
                        run(f"{target.id} {param.name}={name}", lambda: func(*args, **kwargs))
print("finished", flush=True)
"""


def test_endless_and_huge_iterables_are_refused_not_read(sandbox: Path) -> None:
    """``share_url(range(10**18), None)``, ``parse_cards(itertools.repeat('AH'))`` and every public
    callable given an endless or huge iterable in each parameter in turn: refused with a TartliError
    (or answered) before the iterable is read through. A call in a C loop cannot be interrupted, so
    the calls run in a child process under a watchdog (and a memory limit); the slowest refusals are
    printed (a measure, not an assertion)."""
    import subprocess
    import sys

    root = str(Path(__file__).resolve().parent.parent)
    proc = subprocess.Popen(
        [sys.executable, "-c", _ENDLESS_CHILD, root, str(Path(__file__).resolve().parent)],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        cwd=sandbox,
    )
    try:
        out, err = proc.communicate(timeout=300)  # all of them take about 20 s
    except subprocess.TimeoutExpired:
        proc.kill()
        out, err = proc.communicate()
        started = [line for line in out.splitlines() if line.startswith("start ")]
        pytest.fail(f"no answer: {started[-1][6:] if started else 'before the first call'}")
    assert "finished" in out.splitlines(), err[-2000:]
    ends = [line.split(" ", 3) for line in out.splitlines() if line.startswith("end ")]
    broken = [(outcome, label) for _end, _seconds, outcome, label in ends if outcome not in ("TartliError", "returned")]
    slowest = sorted(ends, key=lambda e: -float(e[1]))[:5]
    print(f"\n{len(ends)} calls with an endless or huge iterable; slowest:")
    for _end, seconds, outcome, label in slowest:
        print(f"  {float(seconds):8.4f} s  {outcome:12} {label}")
    assert not broken, broken[:20]


# ----------------------------------------------------------------- the benchmarks' runners

RUNNER_BAD_VALUES: dict[str, list[Any]] = {
    "count": ["x", None, -1, 10**18, 10**5000, 2.5, True, itertools.count()],
    "seed": ["x", None, 2.5, [1], 10**0.5],
    "text": [None, 3, "x", b"random", "\x00"],
    "rules": ["hungarian", 3, object()],
    "out": [None, 3, "x"],
    "budget_ms": ["x", None, -1.0, math.nan, math.inf, 0],
    "samples": ["x", 0, 2.5, 10**9, True],
    "times": ["x", 3, {}],
    "buli": ["x", None, -1, 10**9],
    "jobs": ["x", None, 0, -1, 10**9, 2.5, True],
    "told": ["x", 3, "cards", "Hand", b"hand", True, ["hand"]],
}
"""Bad values for each kind of a runner's parameter (:data:`RUNNERS`): the runner must refuse each
before it plays a hand (its defaults ask for hundreds of hands: a value read late hangs the test)."""
RUNNER_KINDS = {
    "count": "count",
    "hands": "count",
    "positions": "count",
    "matches": "count",
    "seed": "seed",
    "a": "text",
    "b": "text",
    "level": "text",
    "rules_name": "text",
    "rules": "rules",
    "out": "out",
    "budget_ms": "budget_ms",
    "samples": "samples",
    "samples_a": "samples",
    "times": "times",
    "buli": "buli",
    "jobs": "jobs",
    "told": "told",
}
RUNNER_REQUIRED = {"count": 1, "a": "random", "b": "random", "level": "medium"}
"""Valid values of the parameters without a default, for the calls that aim at another parameter."""


def runner_calls() -> Iterator[tuple[str, str, Callable[[], Any]]]:
    """(runner, what, call) for each runner, each parameter and each bad value of its kind."""
    for runner in sorted(RUNNERS):
        module_name, name = runner.split(".")
        func = getattr(importlib.import_module(f"tartli.bots.{module_name}"), name)
        params = inspect.signature(func).parameters
        for param in params.values():
            for value in RUNNER_BAD_VALUES[RUNNER_KINDS[param.name]]:
                kwargs = {p: RUNNER_REQUIRED[p] for p in params if p != param.name and params[p].default is param.empty}
                kwargs[param.name] = value

                def call(func: Callable[..., Any] = func, kwargs: dict[str, Any] = kwargs) -> Any:
                    return func(**kwargs)

                yield runner, f"{param.name}={shown(value, 30)}", call


def test_the_benchmarks_refuse_bad_arguments_before_they_play(sandbox: Path) -> None:
    """The runners left out of the sweep (a count of hands is a request for that much time) still
    keep the contract for a bad argument: a TartliError at once, not hours of hands, an endless
    count or Python's own TypeError after the last hand."""
    calls = 0
    problems: list[str] = []
    for runner, what, call in runner_calls():
        calls += 1
        try:
            with time_limit(TIME_LIMIT):
                call()
        except Hang:
            problems.append(f"{runner}({what}): no answer within {TIME_LIMIT} s")
        except TartliError:
            continue
        except Exception as err:
            problems.append(f"{runner}({what}): {type(err).__name__}: {str(err)[:100]}")
        else:
            problems.append(f"{runner}({what}): accepted")
    broken = len(problems)
    print(f"\n{calls} calls of {len(RUNNERS)} benchmark runners with a bad argument: {broken} not refused")
    assert not problems, problems

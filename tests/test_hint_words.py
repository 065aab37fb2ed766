"""The Hint's and the review's sentences in Hungarian and German: whole sentences, each name in the case and
with the article its place needs, never "label: value" ("{other}: 62% (+60)", "Jobb lett volna ez: ...",
"schlägt deine Meldung Zehner-Vierling"). Each test renders the real component's sentence in both languages
and reads the words."""

from __future__ import annotations

import random
from collections.abc import Iterator

import pytest

from tartli import HandState, i18n
from tartli.bots import review
from tartli.bots.evaluate import Budget, Evaluation, MoveValue, evaluate
from tartli.bots.hint import _phase_one_facts, _phase_one_reason, _phase_two_reason, move_phrase
from tartli.game import LAST_MELD_TRICK, PlayerView
from tartli.moves import Declare, GoOut, Move, Play


def _walk(want: int) -> tuple[HandState, Declare]:
    """The first position of a random hand (seeds in order) where the player to move may declare two melds in
    trick ``want`` (or before trick 8 when ``want`` is 0)."""
    for seed in range(3000):
        state = HandState.from_seed(seed)
        rng = random.Random(seed)
        while state.to_move is not None and state.trick_number <= LAST_MELD_TRICK:
            moves = state.legal_moves()
            two = [m for m in moves if isinstance(m, Declare) and len(m.melds) == 2]
            if two and (state.trick_number == want or (want == 0 and state.trick_number < LAST_MELD_TRICK)):
                return state, two[0]
            state.push(rng.choice([m for m in moves if not isinstance(m, GoOut)]))
    raise AssertionError("no position with a declaration of two melds")


STATE, TWO = _walk(0)  # seed 0 ... : Acorn-Over-Terc (20) and Ten-vannak (100) in trick 5
VIEW = STATE.view(TWO.player)
PLAY = next(m for m in VIEW.legal_moves if isinstance(m, Play))


@pytest.fixture(params=["hu", "de"])
def lang(request: pytest.FixtureRequest) -> Iterator[str]:
    i18n.set_language(request.param)
    try:
        yield request.param
    finally:
        i18n.set_language("en")


def _titles(move: Declare, form: str) -> list[str]:
    return [f"{getattr(m.title(), form)} ({m.value})" for m in move.melds]


def test_a_declaration_of_two_melds_names_each_with_its_own_article(lang: str) -> None:
    """The twin gone: move_phrase takes the meld titles' forms through joined, so each meld has its article
    (Hungarian "a makk felső terc (20) és a tízes vannak (100)"; before, one article for the list); German says
    the genitive after "Melden" ("des Zehner-Vierlings (100)", before "von Zehner-Vierling (100)")."""
    said = move_phrase(TWO, VIEW)
    means = i18n.form_of(said, "ins")
    if lang == "hu":
        first, second = _titles(TWO, "the")
        assert str(said) == f"{first} és {second} azonnali bemondása", said
        assert means == f"{first} és {second} azonnali bemondásával", means
    else:
        first, second = _titles(TWO, "gen")
        assert str(said) == f"das sofortige Melden {first} und {second}", said
        assert means == f"dem sofortigen Melden {first} und {second}", means
        assert " von " not in means


def test_the_contest_sentence_makes_the_melds_its_subject(lang: str) -> None:
    """ "If your ... win the contest, they score 120 now": the melds the subject with their article, not
    "most 120 pontot érnek ezek: ..." nor "zählt deine Meldung Ober-Vierling"."""
    facts = _phase_one_facts(VIEW, TWO)
    contest = facts[0]
    if lang == "hu":
        first, second = _titles(TWO, "the")
        assert contest.startswith(f"Ha {first} és {second} megnyerik az összemérést, most együtt 120 pontot érnek")
        assert "ezek:" not in contest
    else:
        first, second = _titles(TWO, "the")
        assert contest.startswith(f"Gewinnen {first} und {second} den Vergleich, bekommst du dafür jetzt")
        assert "deine Meldung" not in contest
    one = Declare(TWO.player, TWO.melds[1:])
    single = _phase_one_facts(VIEW, one)[0]
    title = TWO.melds[1].title()
    expected = f"Ha {title.the} megnyeri az összemérést" if lang == "hu" else f"Gewinnt {title.the} den Vergleich"
    assert single.startswith(expected), single


def test_an_unbeatable_meld_is_the_object_of_its_sentence(lang: str) -> None:
    """ "Nothing your opponent can hold beats your Ten-vannak": the meld in the accusative with its article, and
    the pronoun of its gender (German "er" for the Vierling), not "ezt a bemondásodat: tízes vannak"."""
    facts = _phase_one_facts(VIEW, TWO)
    (unbeatable,) = [f for f in facts if "ellenfelednek" in f or "Nichts" in f]
    meld = TWO.melds[1].title()
    if lang == "hu":
        assert f"amely legyőzné {meld.acc}, így az nyeri az összemérést" in unbeatable, unbeatable
    else:
        assert f"schlägt {meld.acc}, also gewinnt er den Vergleich" in unbeatable, unbeatable


def test_the_hint_says_the_runner_up_as_a_sentence(lang: str) -> None:
    """The Hint's comparison with the runner-up, once "{other}: 62% (+12)": now the move as the means of a
    clause ("a ... bemondásával a kiosztások 62%-ában nyerted meg", "mit dem sofortigen Melden ... hast du die Runde
    in 62% davon gewonnen")."""
    found = Evaluation(
        TWO.player, False, 48, (MoveValue(PLAY, 12.0, 0.0, 0.0, 48, 0.6), MoveValue(TWO, 12.0, 0.0, 1.0, 48, 0.62))
    )
    reason = _phase_one_reason(VIEW, found)
    means = i18n.form_of(move_phrase(TWO, VIEW), "ins")
    if lang == "hu":
        assert f"; {means} a kiosztások 62%-ában nyerted meg (átlagosan +12 pont)." in reason, reason
    else:
        assert f"; mit {means} hast du die Runde in 62% davon gewonnen (im Schnitt +12)." in reason, reason
    assert ": 62%" not in reason


def test_trick_eight_says_declaring_the_melds_in_the_accusative(lang: str) -> None:
    """Trick 8's declaration, once "...nyersz ezzel a bemondással: makk felső terc (20)": "ha bemondod a makk
    felső tercet (20) és ...", "die ... und den ...-Vierling (100) zu melden"."""
    state, move = _walk(LAST_MELD_TRICK)
    view = state.view(move.player)
    found = evaluate(view, Budget(deals=4))
    assert found.exact
    from tartli.bots.evaluate import phase_two_state, position_seed

    reason = _phase_two_reason(view, phase_two_state(view, random.Random(position_seed(view))), found, move)
    first, second = _titles(move, "acc")
    if lang == "hu":
        assert f"(M4): ha bemondod {first} és {second}, az ellenfeled legjobb válaszával szemben is" in reason
    else:
        assert f"{first} und {second} zu melden." in reason, reason
        assert reason.count("-Vierling") + reason.count("-Terz") + reason.count("-Quart") >= 2


def _values(best: Move, played: Move, exact: bool) -> tuple[Evaluation, MoveValue, MoveValue]:
    n = 0 if exact else 48
    top = MoveValue(best, 30.0, 0.0, 0.0, n, 0.7, 50 if exact else None)
    mine = MoveValue(played, 10.0, 20.0, 0.0 if exact else 3.0, n, 0.5, 40 if exact else None)
    return Evaluation(best.player, exact, n, (top, mine)), top, mine


def test_the_review_says_the_better_move_as_the_means(lang: str) -> None:
    """The review's "Better was ...", once "Jobb lett volna ez: ..." / "Besser war: ...": "Jobban jártál volna a
    ... bemondásával", "Mit dem sofortigen Melden ... wärst du besser gefahren"; the move played in its case too
    ("a makk felsővel csak +10 ponttal", not "ezzel (a makk felső)")."""
    means = i18n.form_of(move_phrase(TWO, VIEW), "ins")
    played = i18n.form_of(move_phrase(PLAY, VIEW), "ins")
    found, top, mine = _values(TWO, PLAY, exact=True)
    exact = review._exact_text(VIEW, STATE, mine, top, None)
    found, top, mine = _values(TWO, PLAY, exact=False)
    sampled = review._sampled_text(VIEW, found, mine, True)
    if lang == "hu":
        assert exact.startswith(f"Jobban jártál volna {means}: ha mindketten"), exact
        assert f", {played} csak +10 ponttal." in exact, exact
        assert sampled.startswith(f"Jobban jártál volna {means}: a rejtett lapok 48 kiosztásán"), sampled
        assert "ez:" not in exact + sampled and "ezzel (" not in exact
    else:
        assert exact.startswith(f"Mit {means} wärst du besser gefahren: Bei bestem Spiel"), exact
        assert f", mit {played} dagegen mit +10." in exact, exact
        assert sampled.startswith(f"Mit {means} wärst du besser gefahren: Über 48"), sampled
        assert "Besser war:" not in exact + sampled and "so (" not in exact


def test_the_review_keeps_both_moves_forms_in_an_or(lang: str) -> None:
    """ "the Eight of Leaves or declaring ... now" as the means keeps each move's form (joined)."""
    other = next(m for m in VIEW.legal_moves if isinstance(m, Play) and m != PLAY)
    values = (
        MoveValue(other, 30.0, 0.0, 0.0, 48, 0.7),
        MoveValue(TWO, 30.0, 0.0, 1.0, 48, 0.7),
        MoveValue(PLAY, 10.0, 20.0, 3.0, 48, 0.5),
    )
    found = Evaluation(TWO.player, False, 48, values)
    better = review._better(VIEW, found, values[2])
    card = i18n.form_of(move_phrase(other, VIEW), "ins")
    means = i18n.form_of(move_phrase(TWO, VIEW), "ins")
    word = "vagy" if lang == "hu" else "oder"
    assert i18n.form_of(better, "ins") == f"{card} {word} {means}"


def test_as_good_as_names_the_best_move_in_apposition(lang: str) -> None:
    """ "As good as the best move found, ..., over 48 deals": the move in apposition, not in brackets."""
    found, _top, _mine = _values(TWO, PLAY, exact=False)
    text = review._best_text(VIEW, found, MoveValue(PLAY, 30.0, 0.5, 1.0, 48, 0.7))
    said = move_phrase(TWO, VIEW)
    if lang == "hu":
        assert text.startswith(f"Ugyanolyan jó, mint a legjobbnak talált lépés, {said}, a rejtett lapok"), text
    else:
        assert text.startswith(f"So gut wie der beste gefundene Zug, {said}, über 48"), text


def test_try_again_says_the_move_played_as_the_means(lang: str) -> None:
    """Try again's title, once "Itt ezt választottad: a piros ász" / "Deine Wahl hier: ...": "Itt a piros
    ásszal léptél", "Du hast hier mit dem Herz-Daus gespielt"."""
    from tartli.widgets import TableController

    table = TableController(seed=11, language=lang)  # type: ignore[arg-type]
    table.budget = Budget(deals=6, min_deals=4, batch=2)
    rng = random.Random(11)
    while not table.state.is_over:
        table.act(rng.choice([m for m in table.offered_moves() if isinstance(m, (Play, Declare))]))
    panel = table.review_panel
    found = panel.run()
    marked = next(d for d in found.costly if d.evaluation is not None)
    panel.retry_buttons.children[found.costly.index(marked)].click()
    assert panel.retry is not None
    view: PlayerView = panel.retry.view
    means = i18n.form_of(move_phrase(marked.move, view), "ins")
    title = panel.retry_title.value
    if lang == "hu":
        assert f"Itt {means} léptél (" in title, title
    else:
        assert f"Du hast hier mit {means} gespielt (" in title, title


def test_the_moves_without_a_card_are_nouns_in_german_as_in_hungarian() -> None:
    """Swapping, passing, béla and going out are named as things, as a declaration is ("das sofortige Melden
    ..."): "So gut wie der beste gefundene Zug, das Passen, ..." and "Stich 3: der Tausch des Trumpf-Siebeners";
    the infinitives they were ("zu passen", "den Trumpf-Siebener zu tauschen") do not stand in an apposition or
    after a heading. Hungarian names them as nouns already ("a passz")."""
    from tartli.moves import Bela, Pass, Swap

    i18n.set_language("de")
    try:
        said = {
            kind: str(move_phrase(move, VIEW))
            for kind, move in {
                "swap": Swap(VIEW.player),
                "pass": Pass(VIEW.player),
                "bela": Bela(VIEW.player),
                "out": GoOut(VIEW.player),
            }.items()
        }
    finally:
        i18n.set_language("en")
    assert said == {
        "swap": "der Tausch des Trumpf-Siebeners",
        "pass": "das Passen",
        "bela": "das Melden der Béla",
        "out": "das Ausgehen",
    }
    assert not any(" zu " in f" {s} " for s in said.values())

"""The table controller, driven headless: clicks, buttons, undo, records, the opponent's view."""

from __future__ import annotations

import datetime
import json
import random

import pytest

from tartli import Card, Deal, HandState, PlayerView, RuleSet
from tartli.bots import RandomBot
from tartli.moves import Declare, Move, Play
from tartli.record import Record, result
from tartli.widgets import SvgBoard, TableController
from tartli.widgets.table import declaration_label


def hand_of(table: TableController) -> set[str]:
    return {c.text for c in table.state.hand(table.human)}


def snapshot(table: TableController) -> tuple[object, ...]:
    s = table.state
    return (json.dumps(result(s)), [str(m) for m in s.moves], s.hand(0), s.hand(1))


class SpyBot:
    """Records what it is given; plays like the random bot."""

    name = "spy"

    def __init__(self) -> None:
        self.seen: list[object] = []
        self.inner = RandomBot(seed=3)

    def choose(self, view: PlayerView) -> Move:
        self.seen.append(view)
        return self.inner.choose(view)


def upload(name: str, content: bytes) -> dict[str, object]:
    """What a FileUpload widget holds after the browser sent a file."""
    return {
        "name": name,
        "type": "application/json",
        "size": len(content),
        "content": memoryview(content),
        "last_modified": datetime.datetime(2026, 1, 1),
    }


def deal_with(h0: str, h1: str, trump: str, dealer: int = 1) -> Deal:
    cards0 = tuple(Card.parse(c) for c in h0.split())
    cards1 = tuple(Card.parse(c) for c in h1.split())
    used = {*cards0, *cards1, Card.parse(trump)}
    from tartli import CARDS

    talon = tuple(c for c in CARDS if c not in used)
    return Deal(dealer, (cards0, cards1), Card.parse(trump), talon)


def test_a_legal_click_plays_the_card_and_the_computer_answers() -> None:
    table = TableController(seed=7)
    assert table.state.to_move == table.human
    card = next(m.card for m in table.state.legal_moves() if isinstance(m, Play))
    table.board.pick(card.text)
    assert card.text not in hand_of(table)
    assert str(table.state.moves[0]) == f"0: play {card.text}"
    assert table.state.moves[1].player == 1  # the computer answered, one move
    assert table.state.to_move == table.human or table.state.is_over


@pytest.mark.rule("T2", "K1")
def test_an_illegal_click_changes_nothing_and_shows_the_rule() -> None:
    table = TableController(seed=8)
    before = snapshot(table)
    not_mine = table.state.hand(1)[0]
    table.board.pick(not_mine.text)
    assert snapshot(table) == before
    assert table.messages[-1].startswith("K1: you do not hold")
    assert "⚠" in table.message.value


@pytest.mark.rule("T4")
def test_a_refused_phase_2_click_explains_the_follow_duty() -> None:
    table = TableController(seed=11)
    rng = random.Random(2)
    while table.state.trick_number < 8 or table.state.to_move != table.human or table.state.lead is None:
        if table.state.is_over:
            pytest.fail("the hand ended before phase 2")
        moves = [m for m in table.state.legal_moves() if isinstance(m, Play)]
        table.act(rng.choice(moves))
    legal = {m.card for m in table.state.legal_moves() if isinstance(m, Play)}
    illegal = [c for c in table.state.hand(table.human) if c not in legal]
    assert illegal, "the seed was chosen so that the follow duty forbids some card here"
    before = snapshot(table)
    table.board.pick(illegal[0].text)
    assert snapshot(table) == before
    assert table.messages[-1].startswith("T4: you must")


def test_undo_restores_exactly_and_redo_replays() -> None:
    table = TableController(seed=5)
    start = snapshot(table)
    first = next(m for m in table.state.legal_moves() if isinstance(m, Play))
    table.act(first)
    after = snapshot(table)
    table.undo()
    assert snapshot(table) == start
    table.redo()
    assert snapshot(table) == after
    with pytest.raises(Exception):  # noqa: B017 - the controller's own guard is tested below
        table.redo()


def test_undo_button_is_disabled_until_a_move_and_reports_errors_politely() -> None:
    table = TableController(seed=5)
    assert table.undo_button.disabled
    table.undo_button.click()
    assert "no move of yours" in table.messages[-1]


def test_a_whole_hand_is_finished_through_the_widget_api() -> None:
    table = TableController(seed=21)
    rng = random.Random(4)
    declared = 0
    while not table.state.is_over:
        assert table.state.to_move == table.human
        if table._declare_moves and rng.random() < 0.7:
            table.declarations.value = 0
            table.declare_button.click()
            declared += 1
            continue
        if table.pass_button.layout.display != "none" and rng.random() < 0.3:
            table.pass_button.click()
            continue
        plays = [m for m in table.state.legal_moves() if isinstance(m, Play)]
        table.board.pick(rng.choice(plays).card.text)
    assert table.state.status.value in ("finished", "out")
    assert declared > 0
    assert "Hand over" in table.status.value
    assert table.next_button.layout.display != "none"
    table.next_button.click()
    assert len(table.match.results) == 1
    assert table.state.dealer == 0  # D2: the deal alternates (the first hand was dealt by player 1)


def test_the_opponent_only_ever_receives_a_view() -> None:
    spy = SpyBot()
    table = TableController(seed=13, opponent=spy)
    rng = random.Random(9)
    while not table.state.is_over:
        plays = [m for m in table.state.legal_moves() if isinstance(m, Play)]
        table.act(rng.choice(plays))
    assert spy.seen
    for view in spy.seen:
        assert type(view) is PlayerView
        assert view.player == 1
        assert not any(isinstance(value, HandState) for value in vars(view).values())


def test_only_the_moves_the_moment_allows_are_offered() -> None:
    # Player 0 leads trick 1 holding the trump 7 (Bells) and a King-Over-Under of Hearts.
    deal = deal_with("7B KH OH UH AA XA 9L 8L 7L", "AB KB OB UB XB 9B 8B AH XH", "9A")
    table = TableController(seed=1)
    table.load_deal(deal)
    assert table.swap_button.layout.display == "none"  # trumps are Acorns: 7B is no trump 7
    labels = [label for label, _ in table.declarations.options]
    assert labels == [declaration_label(m) for m in table.state.legal_moves() if isinstance(m, Declare)]
    assert "Heart-King-Terc (20)" in labels and table.shorter_toggle.layout.display == "none"
    assert table.bela_button.layout.display == "none" and table.pass_button.layout.display == "none"

    deal = deal_with("7A KH OH UH AB XA 9L 8L 7L", "AA KB OB UB XB 9B 8B AH XH", "9A")
    table.load_deal(deal)
    assert table.swap_button.layout.display != "none"
    table.swap_button.click()
    assert Card.parse("9A") in table.state.hand(0) and table.state.indicator == Card.parse("7A")


def test_declaring_from_the_menu_scores_through_the_engine() -> None:
    deal = deal_with("KH OH UH XH AA XA 9L 8L 7L", "AB KB OB UB XB 9B 8B AH 9H", "9A")
    table = TableController(seed=1)
    table.load_deal(deal)
    options = dict(table.declarations.options)
    table.declarations.value = options["Heart-King-Kvart (50)"]
    table.declare_button.click()
    table.click_card("AA")  # the computer answers; the contest is decided when it declares, passes or plays
    assert table.state.meld_points[0] in (0, 50)
    assert any("kvart" in e.say for e in table.state.events if e.kind == "declare")


def test_callback_errors_become_a_message_not_a_traceback() -> None:
    class Broken:
        name = "broken"

        def choose(self, view: PlayerView) -> Move:
            raise RuntimeError("boom")

    table = TableController(seed=3, opponent=Broken())
    card = next(m for m in table.state.legal_moves() if isinstance(m, Play)).card
    table.board.pick(card.text)  # the human's move is made, then the bot fails
    assert "Something went wrong" in table.messages[-1]
    assert "Traceback" not in table.message.value
    assert card not in table.state.hand(0)


def test_records_save_and_load_and_a_bad_record_keeps_the_game() -> None:
    table = TableController(seed=17)
    for _ in range(3):
        table.act(next(m for m in table.state.legal_moves() if isinstance(m, Play)))
    text = table.save_record()
    assert "data:application/json" in table.download.value
    other = TableController(seed=99)
    other.load_record(text)
    assert json.dumps(result(other.state)) == json.dumps(result(table.state))
    before = snapshot(other)
    other.upload.receive("bad.json", b'{"format": "tartli/1", "dealer": 5}')
    assert snapshot(other) == before
    assert other.messages[-1].startswith("dealer:")
    other.upload.receive("bin.json", b"\xff\xfe")
    assert "not UTF-8" in other.messages[-1] and snapshot(other) == before
    other.upload._on_message(other.upload, {"event": "too-big", "name": "huge.json"}, [])
    assert "at most" in other.messages[-1] and snapshot(other) == before
    other.upload._on_message(other.upload, {"event": "file", "name": "t.json"}, [memoryview(text.encode())])
    assert json.dumps(result(other.state)) == json.dumps(result(table.state))  # a file from the browser loads
    assert other.upload.label == "Open a saved game"


def test_reveal_shows_the_opponents_cards() -> None:
    table = TableController(seed=4)
    theirs = table.state.hand(1)
    assert not any(f'data-card="{c.text}"' in table.board.svg for c in theirs)
    table.reveal_toggle.value = True
    assert all(f'data-card="{c.text}"' in table.board.svg for c in theirs)


def test_two_people_at_one_screen_see_the_player_to_move() -> None:
    table = TableController(seed=6, two_players=True)
    first = table.state.to_move
    table.show_my_cards()
    table.act(next(m for m in table.state.legal_moves() if isinstance(m, Play)))
    assert table.state.to_move != first and len(table.state.moves) == 1  # no computer move
    assert table.viewer == table.state.to_move
    mine = table.state.hand(table.viewer)
    assert not any(f'data-pick="{c.text}"' in table.board.svg for c in mine)  # hidden until they are ready
    table.show_my_cards()
    assert all(f'data-pick="{c.text}"' in table.board.svg for c in mine)


def test_new_deal_by_seed_is_reproducible() -> None:
    a = TableController(seed=1)
    a.seed_input.value = 42
    a.new_button.click()
    b = TableController(seed=42)
    assert a.state.hand(0) == b.state.hand(0) and a.state.indicator == b.state.indicator


def test_going_out_button_claims_501() -> None:
    table = TableController(seed=2)
    table.match.scores = [495, 100]
    table.load_deal(Deal.from_seed(2), scores=(495, 100))
    while table.state.total(0) < 501 and not table.state.is_over:
        table.act(next(m for m in table.state.legal_moves() if isinstance(m, Play)))
    assert not table.state.is_over, "the seed was chosen so that player 0 passes 501 mid-hand"
    assert table.out_button.layout.display != "none"
    table.out_button.click()
    assert table.state.out == (0, True) and table.state.buli == [2, 0]  # opponent <= 250: maccs (S4)


def test_board_is_an_anywidget_with_clickable_hand() -> None:
    table = TableController(seed=1)
    assert isinstance(table.board, SvgBoard)
    for card in table.state.hand(0):
        assert f'data-pick="{card.text}"' in table.board.svg
    for card in table.state.hand(1):
        assert f'data-pick="{card.text}"' not in table.board.svg


@pytest.mark.rule("V7")
def test_austrian_swap_is_offered_out_of_turn() -> None:
    # Player 1 (the computer) leads; the learner holds the trump 7 (Acorns) and may swap at once (V7).
    deal = deal_with("AB KB OB UB XB 9B 8B AH XH", "7A KH OH UH AA XA 9L 8L 7L", "9A", dealer=0)
    table = TableController(seed=1, rules=RuleSet.austrian(), human=1, autoplay=False)
    table.load_deal(deal)
    table.human = 0
    table.refresh()
    assert table.state.to_move == 1  # not the learner's turn
    assert table.swap_button.layout.display == "none"  # the learner (player 0) holds no trump 7
    table.human = 1
    table.refresh()
    assert table.swap_button.layout.display != "none"
    table.swap_button.click()
    assert Card.parse("9A") in table.state.hand(1)
    assert Record.from_json(table.save_record()).rules == RuleSet.austrian()


def test_course_map_lists_every_page_with_its_exercises() -> None:
    from tartli.course import PAGES
    from tartli.widgets.course_map import CourseMap
    from tartli.widgets.trainers import TRAINERS

    pages = CourseMap.of().pages
    assert [p["href"] for p in pages] == [p.file for p in PAGES[1:]]
    practice = next(p for p in pages if p["href"] == "practice.ipynb")
    assert set(practice["exercises"]) == set(TRAINERS)  # every trainer's stars count on the map


def test_the_declaration_menu_starts_on_the_most_valuable_declaration() -> None:
    deal = deal_with("KH OH UH XH 9H AA XA 9L 8L", "AB KB OB UB XB 9B 8B AH 7H", "9A")
    table = TableController(seed=1, autoplay=False)
    table.load_deal(deal)
    labels = [label for label, _ in table.declarations.options]
    assert labels == ["Heart-King-Kvint (100)"]  # one entry for the run, not six
    table.shorter_toggle.value = True  # the K7 ladder's shorter sequences, on request
    labels = [label for label, _ in table.declarations.options]
    assert labels[0] == "Heart-King-Kvint (100)" and "Heart-King-Terc (20)" in labels and len(labels) == 6
    chosen = table._declare_moves[table.declarations.value]
    assert declaration_label(chosen) == "Heart-King-Kvint (100)"
    table.declare_button.click()  # pressing Declare at once declares what the menu shows
    assert table.state.moves[-1] == chosen


def test_new_deal_reseeds_the_default_computer() -> None:
    def replies(table: TableController) -> list[str]:
        for _ in range(4):
            table.act(next(m for m in table.state.legal_moves() if isinstance(m, Play)))
        return [str(m) for m in table.state.moves]

    a = TableController(seed=1)
    replies(a)  # the computer's generator has moved on
    a.new_deal(5)
    b = TableController(seed=5)
    assert replies(a) == replies(b)


# ---------------------------------------------------------------- S3's claim window at the table
class Scripted:
    """Makes the given moves (record text) when they are legal, else the first legal play; never claims."""

    name = "scripted"

    def __init__(self, *moves: str) -> None:
        self.moves = list(moves)

    def choose(self, view: PlayerView) -> Move:
        legal = {str(m): m for m in view.legal_moves}
        if self.moves and self.moves[0] in legal:
            return legal[self.moves.pop(0)]
        return next(m for m in view.legal_moves if isinstance(m, Play))


WINDOW_DEAL = ("OA UA XA 9A 7H 8H KL 7B 8B", "AH XH AL OL UL 8L 7L KB AB", "9B")


@pytest.mark.rule("S3")
@pytest.mark.parametrize("choice", ["go out", "play on"])
def test_the_table_waits_in_the_learners_claim_window(choice: str) -> None:
    # The learner declares the kvart and leads 7H; the computer's silent Ace takes 11 and would lead.
    table = TableController(opponent=Scripted("1: play AH", "1: play AL"), delay=0)
    table.load_deal(deal_with(*WINDOW_DEAL), scores=(455, 240))
    table.act(next(m for m in table.state.legal_moves() if str(m) == "0: declare kvart:OA"))
    table.click_card("7H")
    assert str(table.state.moves[-1]) == "1: play AH"  # the computer waits: it is its lead
    assert table.play_on_button.layout.display != "none" and "go out now" in table.status.value
    assert table.out_button.button_style == "warning"  # the claim is right
    if choice == "go out":
        table.out_button.click()
        assert table.state.out == (0, True) and table.state.buli == [2, 0] and table.state.card_points == [0, 0]
    else:
        table.play_on_button.click()
        assert str(table.state.moves[-1]) == "1: play AL" and table.play_on_button.layout.display == "none"


@pytest.mark.rule("S3")
def test_the_computer_claims_in_its_window_out_of_turn() -> None:
    # The computer leads with its kvart; the learner's silent Ace takes the trick: the computer claims at once.
    table = TableController(opponent=Scripted("0: declare kvart:OA", "0: play 7H"), human=1, delay=0)
    table.load_deal(deal_with(*WINDOW_DEAL), scores=(455, 240))
    assert [str(m) for m in table.state.moves] == ["0: declare kvart:OA", "0: play 7H"]
    table.click_card("AH")
    assert str(table.state.moves[-1]) == "0: out"
    assert table.state.out == (0, True) and table.state.buli == [2, 0] and table.state.card_points == [0, 0]


@pytest.mark.rule("S3", "S4")
@pytest.mark.parametrize("answer", ["1: declare kvart:XL", "1: pass"])
def test_the_table_waits_when_the_computers_answer_decides_the_contest_for_the_learner(answer: str) -> None:
    # The learner (455) declares the Acorn-Over-Kvart and leads the Ten of Hearts; the computer (240)
    # answers with a lower kvart, or passes: the learner's kvart scores, 505, before the computer's card.
    # Its Ace would take 21 card points (261, no maccs): the table waits for the learner's claim.
    deal = deal_with("OA UA XA 9A XH 8H KL 7B 8B", "AH XL 9L 8L 7L KB AB UL 7H", "9B")
    table = TableController(opponent=Scripted(answer, "1: play AH"), delay=0)
    table.load_deal(deal, scores=(455, 240))
    table.act(next(m for m in table.state.legal_moves() if str(m) == "0: declare kvart:OA"))
    table.click_card("XH")
    assert str(table.state.moves[-1]) == answer  # the computer waits before its card
    assert table.play_on_button.layout.display != "none" and "505" in table.status.value
    table.out_button.click()
    assert table.state.out == (0, True) and table.state.buli == [2, 0]  # the maccs a record gives


@pytest.mark.rule("S3")
def test_after_play_on_the_computer_plays_its_card() -> None:
    deal = deal_with("OA UA XA 9A XH 8H KL 7B 8B", "AH XL 9L 8L 7L KB AB UL 7H", "9B")
    table = TableController(opponent=Scripted("1: pass", "1: play AH"), delay=0)
    table.load_deal(deal, scores=(455, 240))
    table.act(next(m for m in table.state.legal_moves() if str(m) == "0: declare kvart:OA"))
    table.click_card("XH")
    table.play_on_button.click()
    assert "1: play AH" in [str(m) for m in table.state.moves]


def _table_page_words(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """The words of the table page's two prose cells (run as the page runs them), in order."""
    from pathlib import Path

    import IPython.display

    shown: list[object] = []
    monkeypatch.setattr(IPython.display, "display", lambda *items, **_: shown.extend(items))
    cells = json.loads((Path(__file__).parents[1] / "notebooks" / "table.ipynb").read_text(encoding="utf-8"))["cells"]
    namespace: dict[str, object] = {}
    for cell in (cells[0], cells[2]):
        exec("".join(cell["source"]), namespace)
    return [" ".join(str(getattr(item, "data", getattr(item, "value", item))).split()) for item in shown]


def test_the_table_page_speaks_of_both_modes_and_says_what_going_out_is(monkeypatch: pytest.MonkeyPatch) -> None:
    """Issue 36 items 13 and 15: the intro said "you play against the computer" also with two people at
    one screen, and the help said Go out "when you reach 501" while the button is there all through
    the hand: it is a claim, possible at any moment, wrong below 501."""
    intro, help_text = _table_page_words(monkeypatch)
    assert "against the computer" in intro and "two people play each other" in intro
    table = TableController(seed=1)
    label = table.out_button.description
    assert f"<i>{label}</i> is there all through the hand" in help_text
    assert "at any moment" in help_text and "below 501 is wrong" in help_text and "when you reach 501" not in help_text
    assert table.out_button.layout.display != "none"  # there at the first move of a hand, as the help says


@pytest.mark.parametrize(
    ("lang", "done"),
    [("en", "You swapped the trump Seven"), ("hu", "Kicserélted az adu hetest"), ("de", "Du hast den Trumpf-Siebener")],
)
def test_the_message_after_the_swap_says_it_is_done(lang: str, done: str) -> None:
    # Issue 36 item 20: "Kicseréled az adu hetest" (you swap) after the swap reads as the button's own
    # instruction; the message after the click says the swap was made, in every language.
    from tartli import i18n

    i18n.set_language(lang)
    try:
        table = TableController(seed=1)
        table.load_deal(deal_with("7A KH OH UH AB XA 9L 8L 7L", "AA KB OB UB XB 9B 8B AH XH", "9A"))
        table.swap_button.click()
        assert table.state.indicator == Card.parse("7A")
        assert done in table.message.value
        assert done in table.log_view.value
    finally:
        i18n.set_language("en")


def test_the_table_page_says_a_saved_game_was_loaded_and_a_lesson_script_does_not() -> None:
    # Issue 36 item 20: the learner's own Load says so; a record loaded by code (a lesson's position) does not.
    table = TableController(seed=17)
    for _ in range(3):
        table.act(next(m for m in table.state.legal_moves() if isinstance(m, Play)))
    text = table.save_record()
    other = TableController(seed=99, autoplay=False)
    other.say("The computer wins trick 16.")
    other.load_record(text)
    assert "loaded" not in other.message.value and "trick 16" not in other.message.value
    assert not any("loaded" in m for m in other.messages)
    other.upload.receive("saved.json", text.encode())
    assert other.messages[-1] == f"Record loaded: {len(table.state.moves)} moves."


def test_an_empty_log_draws_no_box() -> None:
    # Issue 36 item 20 (lesson 03 step 8): before the first move the log is empty, and its bordered box
    # stood empty under the table's buttons; it shows once there is something to read.
    table = TableController(seed=3, autoplay=False)
    assert table.log_view.value == "" and table.log_view.layout.display == "none"
    table.act(next(m for m in table.state.legal_moves() if isinstance(m, Play)))
    assert table.log_view.value and table.log_view.layout.display != "none"
    table.new_deal(4)
    assert table.log_view.layout.display == "none"

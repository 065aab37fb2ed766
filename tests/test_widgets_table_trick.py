"""The table that teaches (issue 17, first part): every finished trick is seen, the history is told
trick by trick, a wrong claim and a new deal in a match are asked about once, and the words are a
learner's ("You", "The computer"), never "Player 0"."""

from __future__ import annotations

import itertools
import re

import pytest

from tartli import Card, Deal, HandState
from tartli.bots import HeuristicBot, RandomBot
from tartli.bots.evaluate import Budget
from tartli.moves import Play
from tartli.record import Record
from tartli.widgets import TableController
from tartli.widgets.table import review_html


def deal_with(h0: str, h1: str, trump: str, dealer: int = 1) -> Deal:
    from tartli import CARDS

    cards0 = tuple(Card.parse(c) for c in h0.split())
    cards1 = tuple(Card.parse(c) for c in h1.split())
    used = {*cards0, *cards1, Card.parse(trump)}
    return Deal(dealer, (cards0, cards1), Card.parse(trump), tuple(c for c in CARDS if c not in used))


class Plays:
    """Plays these cards in order when legal (else the first legal card); never declares or claims."""

    name = "plays"

    def __init__(self, *cards: str) -> None:
        self.cards = list(cards)

    def choose(self, view):  # type: ignore[no-untyped-def]
        plays = [m for m in view.legal_moves if isinstance(m, Play)]
        for m in plays:
            if self.cards and str(m.card) == self.cards[0]:
                self.cards.pop(0)
                return m
        return plays[0]


DEAL = ("AH 7L 8L 9A UB 8B XL KA 7A", "9H XH AL OL 8A UA 7B KB 9L", "OB")


def table(*computer_cards: str) -> TableController:
    t = TableController(opponent=Plays(*computer_cards), delay=0)
    t.load_deal(deal_with(*DEAL))
    return t


def test_the_finished_trick_stays_on_the_table_with_its_winner() -> None:
    t = table("9H")
    t.click_card("AH")  # the computer answers with the Nine of Hearts: you win 11
    svg = t.board.svg
    assert "tartli-trick-result" in svg and "Trick 1: You win · 11 card points" in svg
    assert "Ace of Hearts" in svg
    assert "Nine of Hearts" in svg  # the computer's card is seen, not gathered at once
    t.click_card("7L")  # your next lead gathers it (the computer's answer then finishes trick 2)
    assert "Trick 1:" not in t.board.svg and "Trick 2:" in t.board.svg


def test_the_last_trick_is_one_click_away() -> None:
    t = table("9H", "AL")
    t.click_card("AH")
    t.click_card("7L")  # trick 2: the computer's Ace of Leaves wins; it leads next (headless: at once)
    t.last_trick_button.value = True
    shown = t.last_trick_view.value
    assert "Trick" in shown and "won" in shown
    t.last_trick_button.value = False
    assert t.last_trick_view.value == ""


def test_the_history_is_told_trick_by_trick_oldest_first_and_whole() -> None:
    t = TableController(seed=5, delay=0)
    for _ in range(40):
        if t.state.is_over:
            break
        legal = [m for m in t.state.legal_moves() if isinstance(m, Play)]
        if t.state.to_move == 0 and legal:
            t.act(legal[0])
    log = t.log_view.value
    numbers = [int(n) for n in re.findall(r"<summary>Trick (\d+)", log)]
    assert numbers == sorted(numbers) and numbers[0] == 1 and len(numbers) >= 8
    assert "Player 0" not in log and "Player 1" not in log and "You play" in log


def test_no_player_numbers_in_what_the_learner_sees() -> None:
    t = table("9H")
    t.click_card("AH")
    seen = " ".join([t.status.value, t.message.value, t.log_view.value, t.board.svg])
    assert "Player 0" not in seen and "Player 1" not in seen
    assert "You" in t.board.svg and "The computer" in t.board.svg


def test_a_wrong_claim_is_asked_about_once() -> None:
    t = table()
    t.out_button.click()
    assert t.state.out is None and t.question_box.layout.display == "flex"
    assert "a claim needs 501" in t.question.value and "the computer the game" in t.question.value
    t.no_button.click()
    assert t.state.out is None and t.question_box.layout.display == "none"
    t.out_button.click()
    t.yes_button.click()
    assert t.state.out == (0, False)  # asked, answered: the claim is made


def test_the_guard_can_be_switched_off_for_real_play() -> None:
    t = TableController(opponent=Plays(), delay=0, confirm_claims=False)
    t.out_button.click()
    assert t.state.out == (0, False)


def test_a_new_deal_during_a_match_asks_first() -> None:
    t = table("9H")
    t.click_card("AH")
    moves = list(t.state.moves)
    t.new_button.click()
    assert t.state.moves == moves and "ends this match" in t.question.value
    t.yes_button.click()
    assert t.state.moves == [] and t.match.buli == [0, 0]  # a fresh match: you lead, nothing played yet


def test_pass_is_offered_only_with_something_to_declare() -> None:
    t = table()
    t.click_card("AH")  # the computer is second: its turn; then yours to lead, nothing to pass
    assert t.pass_button.layout.display == "none"


def test_on_a_phone_the_table_is_drawn_upright_with_cards_side_by_side() -> None:
    t = table("9H")
    assert "narrow" not in t.board.svg.split(">", 1)[0]
    t.board.client_width = 358  # what the browser reports on a 390 px phone
    head = t.board.svg.split(">", 1)[0]
    assert 'class="tartli-table narrow"' in head and 'viewBox="0 0 400 ' in head
    places = [float(x) for x in re.findall(r'<g data-pick="\w\w"><g transform="translate\(([0-9.]+) ', t.board.svg)]
    assert len(places) == 9
    first_row = sorted(places[:5])
    assert all(b - a >= 70 for a, b in itertools.pairwise(first_row))  # 70-unit cards: no overlap
    table_words = (
        r"<text [^>]*font-family=\"'Helvetica Neue', Arial, 'DejaVu Sans', sans-serif\" font-size=\"([0-9.]+)\""
    )
    sizes = [float(s) for s in re.findall(table_words, t.board.svg)]
    assert sizes and min(sizes) >= 12  # the table's own words; the cards' pictures are checked in the browser
    t.click_card("AH")
    assert "tartli-trick-result" in t.board.svg and "narrow" in t.board.svg.split(">", 1)[0]
    t.board.client_width = 1200
    assert "narrow" not in t.board.svg.split(">", 1)[0]


def test_the_running_match_comes_back_after_a_reload() -> None:
    first = TableController(seed=11, delay=0, keep_in_browser="test")
    assert first.board.storage_key == "tartli.table.test"
    for _ in range(3):
        first.act(next(m for m in first.state.legal_moves() if isinstance(m, Play)))
    first.match.buli = [1, 2]
    first.refresh()
    kept = first.board.progress  # what the browser's localStorage now holds
    again = TableController(seed=11, delay=0, keep_in_browser="test")  # the reloaded page: a fresh table
    again.board.progress = kept  # the browser hands its copy back
    assert [str(m) for m in again.state.moves] == [str(m) for m in first.state.moves]
    assert again.match.buli == [1, 2] and again.state.hand(0) == first.state.hand(0)
    assert "back where you left it" in again.message.value


def test_a_broken_kept_game_is_ignored() -> None:
    table = TableController(seed=11, delay=0, keep_in_browser="test")
    for text in ('{"tartli-table": 1, "record": {"format": "tartli/1"}, "buli": [0, 0]}', "[" * 5000, "nonsense"):
        table.board.progress = text
        assert table.state.moves == [] and table.match.buli == [0, 0]


def test_two_people_at_one_screen_hide_the_hand_between_turns() -> None:
    t = TableController(seed=3, delay=0, offer_two_players=True)
    assert t.two_toggle.layout.display != "none"
    t.two_toggle.value = True  # nothing played yet: the match for two starts at once
    assert t.two_players and t.names == ("Anna", "Bence")
    mover = t.state.to_move
    assert mover is not None and t.ready_button.layout.display != "none"
    assert "data-pick" not in t.board.svg  # no cards shown before the player is ready
    assert f"I am {t.names[mover]}" in t.ready_button.description
    t.ready_button.click()
    assert "data-pick" in t.board.svg and t.ready_button.layout.display == "none"
    t.act(next(m for m in t.state.legal_moves() if isinstance(m, Play)))
    assert t.state.to_move == 1 - mover and "data-pick" not in t.board.svg  # hidden again for the other
    t.ready_button.click()
    assert "data-pick" in t.board.svg and "Player 0" not in t.status.value


def test_a_six_card_run_is_one_menu_entry_and_what_is_not_offered_says_why() -> None:
    # The leader holds a szext of Hearts (A K O U X 9); the menu offers it once, chosen.
    t = TableController(opponent=Plays(), delay=0, autoplay=False)
    t.load_deal(deal_with("AH KH OH UH XH 9H 7L 8A 9L", "AL KL OL UL 8B AB 7B KB XB", "OB"))
    labels = [label for label, _ in t.declarations.options]
    assert labels == ["Heart-Ace-Szext (100)"] and t.declarations.value == 0
    assert t.shorter_toggle.layout.display != "none"  # the ladder's shorter runs on request (10 in all)
    # The second player, after a kvart was announced, may not answer with a terc (K3): it says so.
    second = TableController(opponent=None, delay=0, autoplay=False, human=1)
    second.load_deal(deal_with("AL KL OL UL 8B AB 7B XB 9A", "KH OH UH 7L 8A 9L 8H 7A XA", "OB"))
    second.state.push("0: declare kvart:AL")
    second.state.push("0: play 8B")
    second.refresh()
    assert "Heart-King-Terc" in second.not_offered.value and "K3" in second.not_offered.value
    assert second.declarations.options == ()


def test_a_lessons_table_offers_only_what_the_course_has_taught() -> None:
    # Lesson 03: the swap only. The leader holds the trump 7 and a terc; neither melds nor going out show.
    deal = deal_with("7B KH OH UH AA XA 9L 8L 7L", "AB KB OB UB XB 9A 8B AH XH", "9B")
    lesson = TableController(opponent=Plays(), delay=0, controls={"swap"})
    lesson.load_deal(deal)
    assert lesson.swap_button.layout.display != "none"
    assert lesson.declarations.layout.display == "none" and lesson.out_button.layout.display == "none"
    full = TableController(opponent=Plays(), delay=0)
    full.load_deal(deal)
    assert full.declarations.layout.display != "none" and full.out_button.layout.display != "none"


def test_unknown_controls_are_refused() -> None:
    import pytest

    from tartli import TartliError

    with pytest.raises(TartliError, match="unknown controls"):
        TableController(controls={"teleport"})


# ---------------------------------------------------------------- the end of a hand, as the learner reads it
def _stichmatsch_hand() -> HandState:
    """Deal 3: the learner (rules of thumb) takes every trick of phase 2 against the random computer,
    after one phase-2 card that could have cost 2 card points against best play."""
    state = HandState.from_seed(3)
    players = [HeuristicBot(), RandomBot(seed=3)]
    while not state.is_over:
        state.push(players[state.to_move].choose(state.view(state.to_move)))
    assert state.stichmatsch == 0 and state.card_points == [161, 0]
    return state


def test_no_trick_17_in_the_log_after_the_last_trick() -> None:
    table = TableController(record=Record.from_state(_stichmatsch_hand()))
    shown = re.sub(r"<[^>]+>", " ", table.log_view.value)
    assert "Trick 17" not in shown and "under way" not in shown
    assert "End of the hand" in shown and "Trick 16" in shown


def test_the_review_after_a_stichmatsch_says_could_have_cost_not_gave_away() -> None:
    text = re.sub(r"<[^>]+>", " ", review_html(_stichmatsch_hand(), 0))
    assert "could have cost 2 card points" in text and "did not punish" in text
    assert "gave away" not in text and "it cost" not in text
    assert "turning point" not in text  # the learner took every card point: nothing turned


@pytest.mark.rule("S4", "S6")
def test_the_buli_counter_counts_the_hand_just_won() -> None:
    table = TableController(delay=0)
    table.load_deal(deal_with("OA UA XA 9A XH 8H KL 7B 8B", "AH XL 9L 8L 7L KB AB UL 7H", "9B"), scores=(505, 240))
    table.out_button.click()  # 505 against 240: a maccs
    assert table.state.buli == [2, 0]
    assert "Games won (buli): You 2, The computer 0" in table.status.value  # before Next hand
    table.next_button.click()
    assert "Games won (buli): You 2, The computer 0" in table.status.value  # and after it: the same


# ---------------------------------------------------------------- only what the course has taught (issue 26)
def _display(widget: object) -> str:
    return str(widget.layout.display)  # type: ignore[attr-defined]


def test_the_lesson_03_table_offers_the_swap_and_nothing_untaught() -> None:
    from tartli.course import taught

    t = TableController(seed=3, controls=taught("03_deal.ipynb"))
    hidden = [
        t.hint_button,
        t.last_trick_button,
        t.level_buttons,
        t.level_label,
        t.pause_choice,
        t.undo_button,
        t.redo_button,
        t.seed_input,
        t.new_button,
        t.reveal_toggle,
        t.upload,
        t.download,
        t.review_panel.widget,
        t.summary_view,
    ]
    assert all(_display(part) == "none" for part in hidden)
    assert "buli" not in t.status.value  # games won come with going out (lesson 09)
    assert "phase" not in t.board.svg and "trick 1" in t.board.svg  # phases come in lesson 04
    full = TableController(seed=3)
    assert all(_display(getattr(full, name)) != "none" for name in ("hint_button", "undo_button", "level_buttons"))
    assert "trick 1 · phase 1" in full.board.svg
    t.board.client_width = 390  # a phone: the upright table
    assert "phase" not in t.board.svg and "trick 1" in t.board.svg


def test_the_tables_own_button_is_not_the_lessons_continue() -> None:
    t = TableController(seed=3)
    assert t.continue_button.description == "Next trick"
    assert all("Continue" not in label for label, _value in t.pause_choice.options)


def test_the_hint_offers_only_what_the_table_offers() -> None:
    # The learner leads with a Bell-Ace-Terc in hand; a table without melds must not advise declaring it.
    deal = deal_with("AB KB OB XH 8H 9L 7A 8A UL", "AH 7H AL OL 8L UA 7B XB 9A", "9H")
    t = TableController(opponent=Plays(), delay=0, controls={"swap", "hint"})
    t.load_deal(deal)
    t.budget = Budget(deals=16)
    assert "declar" not in t.hint().lower() and t.hinted in t.offered_moves()
    full = TableController(opponent=Plays(), delay=0)
    full.load_deal(deal)
    full.budget = Budget(deals=16)
    assert "Bell-Ace-Terc" in full.hint()  # declaring it advised, or weighed against the card advised

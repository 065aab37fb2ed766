"""Lesson 01's exercise, "Name the card" (tartli.widgets.trainers.NameTheCard): judged by Card.name, cites C1.

No browser: the answer buttons are pressed with ``.click()`` as the front-end would.
"""

from __future__ import annotations

import re
from typing import Any

import ipywidgets as w
import pytest

from tartli import Card
from tartli.cards import CARDS, Rank
from tartli.widgets.trainers import TRAINERS, NameTheCard, trainer

SEEDS = range(30)


def feedback_text(ex: NameTheCard) -> str:
    return re.sub(r"<[^>]+>", "", ex.feedback.value)


def button_for(ex: NameTheCard, name: str) -> Any:
    """The answer button showing ``name``."""
    found = [b for b in ex.option_buttons if b.description == name]
    assert len(found) == 1, [b.description for b in ex.option_buttons]
    return found[0]


@pytest.mark.rule("C1")
def test_the_right_name_solves_with_three_stars() -> None:
    for seed in SEEDS:
        ex = NameTheCard(seed=seed)
        assert not ex.solved
        button_for(ex, ex.card.name("en")).click()
        assert ex.solved and ex.stars == 3, seed
        assert "Right" in feedback_text(ex) and "C1" in feedback_text(ex)
        assert all(b.disabled for b in ex.option_buttons)  # solved: no more answers
        assert ex.progress.stage(ex.progress_id) == (1, 0)  # one of the stage's five, right at the first try


@pytest.mark.rule("C1")
def test_a_wrong_name_is_explained_with_c1_and_costs_a_star() -> None:
    for seed in SEEDS:
        ex = NameTheCard(seed=seed)
        wrong = [c for c in ex.options if c != ex.card]
        button_for(ex, wrong[0].name("en")).click()
        text = feedback_text(ex)
        assert not ex.solved and ex.mistakes == 1, seed
        assert "Not quite" in text and "C1" in text and wrong[0].name("en") in text
        assert ex.card.name("en") not in text  # the first hint does not give the answer away
        assert button_for(ex, wrong[0].name("en")).disabled  # a name tried once cannot be chosen again
        button_for(ex, wrong[1].name("en")).click()
        assert ex.card.name("en") in feedback_text(ex)  # the second miss names the card
        assert ex.answer(ex.card) and ex.stars == 1


@pytest.mark.rule("C1")
def test_over_and_under_confusion_points_at_the_pip() -> None:
    ex = NameTheCard(seed=4)
    ex.set_card("OA")
    under = Card.parse("UA")
    assert under in ex.options  # the look-alike is offered
    assert not ex.answer(under)
    assert "pip" in feedback_text(ex) and "Over" in feedback_text(ex) and "C1" in feedback_text(ex)
    assert ex.answer("Over of Acorns") and ex.stars == 2


@pytest.mark.rule("C1")
def test_the_options_are_four_distinct_names_one_right() -> None:
    for seed in SEEDS:
        ex = NameTheCard(seed=seed)
        for _ in range(3):
            names = ex.option_names
            assert len(names) == 4 and len(set(names)) == 4, (seed, names)
            assert names.count(ex.card.name("en")) == 1
            assert [b.description for b in ex.option_buttons] == names
            for card in ex.options:  # every wrong name shares the suit or the rank, never both
                if card != ex.card:
                    assert (card.suit is ex.card.suit) != (card.rank is ex.card.rank)
            ex.new_position()


def test_the_wrong_names_include_the_look_alike_rank() -> None:
    over_under = {Rank.OVER, Rank.UNDER}
    for seed in SEEDS:
        ex = NameTheCard(seed=seed)
        if ex.card.rank in over_under:
            partner = (over_under - {ex.card.rank}).pop()
            assert Card(partner, ex.card.suit) in ex.options, seed


def test_same_seed_same_cards_and_every_card_comes_up() -> None:
    a, b = NameTheCard(seed=7), NameTheCard(seed=7)
    seen = set()
    for _ in range(300):
        assert (a.card, a.options) == (b.card, b.options)
        assert a.board.svg == b.board.svg
        seen.add(a.card)
        a.new_button.click()
        b.new_position()
    assert seen == set(CARDS)
    assert [NameTheCard(seed=s).card for s in range(8)] != [NameTheCard(seed=s + 100).card for s in range(8)]


@pytest.mark.rule("C1")
def test_names_follow_the_language() -> None:
    for language in ("hu", "de"):
        ex = NameTheCard(seed=3, language=language)
        en = NameTheCard(seed=3)
        assert ex.card == en.card and ex.options == en.options
        assert ex.option_names == [c.name(language) for c in ex.options]
        assert ex.option_names != en.option_names
        wrong = next(c for c in ex.options if c != ex.card)
        assert not ex.answer(wrong.name("en"))  # an English name is not one of the offered names
        assert ex.attempts == 0 and "Choose one of the four names" in feedback_text(ex)
        button_for(ex, wrong.name(language)).click()
        assert wrong.name(language) in feedback_text(ex)
        button_for(ex, ex.card.name(language)).click()
        assert ex.solved and ex.stars == 2
        assert ex.card.name(language) in feedback_text(ex)


def test_the_picture_does_not_tell_the_name_until_solved() -> None:
    ex = NameTheCard(seed=2)
    name = ex.card.name("en")
    assert f'data-card="{ex.card.text}"' in ex.board.svg
    assert name not in ex.board.svg
    ex.answer(ex.card)
    assert name in ex.board.svg


def test_catalogue_and_lesson_progress_id() -> None:
    assert TRAINERS["name-the-card"] is NameTheCard
    assert isinstance(trainer("name-the-card", seed=1), NameTheCard)
    ex = NameTheCard(seed=1, progress_id="lesson01.name-the-card")
    assert ex.board.storage_key == "tartli.trainers.lesson01.name-the-card"
    ex.answer(ex.card)
    assert ex.progress.stage("lesson01.name-the-card") == (1, 0) and ex.progress.stage("name-the-card") == (0, 0)
    assert isinstance(ex.widget, w.VBox) and all(b in ex.controls.children for b in ex.option_buttons)

"""The game and the match at the table: whose turn, the learner's moves and the computer's, claims,
undo and redo, deals, records and links, and the summaries of the hands played (no widget is made
here: :class:`~tartli.widgets.table.controls.TableController` builds them and draws the state)."""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from typing import Any

import ipywidgets as w

from tartli.bots import Bot, bot_for_level
from tartli.bots.base import right_claim
from tartli.bots.evaluate import Budget
from tartli.bots.review import HandReview, HandSummary, review
from tartli.errors import TartliError
from tartli.game import Deal, Event, HandState
from tartli.i18n import _, language, ngettext
from tartli.match import Match
from tartli.moves import Bela, Declare, GoOut, Move, Pass, Swap
from tartli.names import Language
from tartli.record import Record
from tartli.rules import RuleSet
from tartli.share import SharedPosition
from tartli.widgets.hands import HandsKept
from tartli.widgets.share import ShareButton, open_linked, page_query


def kernel_loop() -> asyncio.AbstractEventLoop | None:
    """The event loop of a live Jupyter kernel serving a page, or None (scripts, tests): only there
    are the computer's moves spread out in time; elsewhere they are made at once."""
    try:
        from IPython import get_ipython
    except ImportError:  # pragma: no cover - IPython comes with ipykernel
        return None
    shell = get_ipython()
    if shell is None or not hasattr(shell, "kernel"):
        return None
    try:
        return asyncio.get_running_loop()
    except RuntimeError:
        return None


class TableFlow:
    """The table's game and match flow: a base of :class:`~tartli.widgets.table.controls.TableController`,
    which sets every attribute below when it is made and draws the state (``refresh``)."""

    rules: RuleSet
    seed: int
    human: int
    level: str
    opponent: Bot
    budget: Budget
    two_players: bool
    language: Language | None
    autoplay: bool
    delay: float
    trick_pause: float
    confirm_claims: bool
    controls: frozenset[str]
    _match: Match
    _own_opponent: bool
    _mine: tuple[HandState | None, set[int]]
    _summaries: list[HandSummary]
    _hand_summary: tuple[tuple[HandState, int], HandSummary] | None
    _redo: list[Move]
    _pending: bool
    _played_on_at: int
    _player_names: tuple[str, str] | None
    _shown_trick: int | None
    _ready_for: int | None
    _held: bool
    _from_link: bool
    _review_counted: Any
    # the widgets the flow speaks through (built by the controls)
    message: w.HTML
    share_button: ShareButton
    hands: HandsKept
    summary_view: w.HTML

    # ------------------------------------------------------------ what the controls do (controls.py)
    def refresh(self) -> None:
        """Re-render everything from the state (:meth:`TableController.refresh`)."""
        raise NotImplementedError

    def say(self, text: str, *, error: bool = False) -> None:
        """Show a message to the learner (:meth:`TableController.say`)."""
        raise NotImplementedError

    def guard(self, fn: Callable[..., Any]) -> Callable[..., Any]:
        """``fn`` as a callback whose errors become a message (:meth:`TableController.guard`)."""
        raise NotImplementedError

    def _ask(self, question: str, yes: str, on_yes: Callable[[], None]) -> None:
        raise NotImplementedError

    def _show_match_summary(self) -> None:
        raise NotImplementedError

    # ------------------------------------------------------------ state
    @property
    def match(self) -> Match:
        """The match at this table; the engine's refusals name its players as the table does."""
        return self._match

    @match.setter
    def match(self, match: Match) -> None:
        self._match = match
        self._summaries, self._hand_summary = [], None  # a new match: no hand summed up yet
        match.player_names = self._english_names()

    @property
    def state(self) -> HandState:
        return self.match.state

    @property
    def viewer(self) -> int:
        """Whose view is drawn: the learner, or in a two-player game the player to move."""
        if self.two_players and self.state.to_move is not None:
            return self.state.to_move
        return self.human

    @property
    def names(self) -> tuple[str, str]:
        """The two players as every text and picture calls them: "You" and "The computer", or the two
        people's names at a table for two."""
        if self._player_names is not None:
            return self._player_names
        if self.two_players:
            return ("Anna", "Bence")
        you, computer = _("You"), _("The computer")
        return (you, computer) if self.human == 0 else (computer, you)

    def _english_names(self) -> tuple[str, str]:
        """The two players as the engine's event texts expect them: "You" is spoken to (the engine
        says them in the page's language)."""
        if self._player_names is not None or self.two_players:
            return self.names
        return ("You", "The computer") if self.human == 0 else ("The computer", "You")

    def _who(self, player: int) -> str:
        """ "you", "computer" or "name": which sentence speaks of ``player``."""
        name = self._english_names()[player]
        if name in ("You", _("You")):
            return "you"
        if name in ("The computer", _("The computer")):
            return "computer"
        return "name"

    def _said(self, player: int) -> str:
        """``player``'s name inside a sentence: "te", "a gép" (English keeps "You", "The computer")."""
        name = self.names[player]
        if language() == "en" or self._who(player) == "name":
            return name
        return name[:1].lower() + name[1:]

    def _describe(self, event: Event, viewer: int | None = None) -> str:
        """One step of the hand in words, for ``viewer`` (default: the player whose view is drawn)."""
        return event.describe(self.viewer if viewer is None else viewer, self._english_names())

    def _is_bot(self, player: int) -> bool:
        return not self.two_players and player != self.human

    # ------------------------------------------------------------ the match summary
    def match_won(self) -> bool:
        """The hand is over and someone has won the match with it (the buli as the status line counts them)."""
        m = self.match
        return self.state.is_over and m.target is not None and any(b >= m.target for b in m.buli_with_hand)

    def note_summary(self, state: HandState, summary: HandSummary) -> None:
        """Keep a finished hand's summary (from its review) for the match summary."""
        if state is self.state and state.is_over:
            self._hand_summary = ((state, len(state.moves)), summary)
            if self._review_counted is not state.deal and not self.two_players:
                self._review_counted = state.deal
                self.hands.hand_reviewed(summary.accuracy)
            if self.summary_view.value and self.match_won():
                self._show_match_summary()  # the full review replaces the quick one in the match summary

    def _known_summary(self) -> HandSummary | None:
        state = self.state
        if self._hand_summary is not None and self._hand_summary[0] == (state, len(state.moves)):
            return self._hand_summary[1]
        return None

    def hand_summary(self, progress: Callable[[int, int], None] | None = None) -> HandSummary:
        """The finished hand's summary: from its review, or reviewed now (the same review) when the
        learner did not ask for it (``progress`` is told how far, as the review's own bar is)."""
        known = self._known_summary()
        if known is None:
            found = self.learner_review(progress)
            self.note_summary(self.state, found.summary)
            known = found.summary
        return known

    @property
    def summaries(self) -> list[HandSummary]:
        """The summaries of the match's hands so far (the finished hand's included once it is known)."""
        done = list(self._summaries)
        known = self._known_summary() if self.state.is_over else None
        if known is not None:
            done.append(known)
        return done

    def _summing_up(self) -> bool:
        """Are the hands summed up for the match summary? (Not at a table for two or without the review.)"""
        return "review" in self.controls and not self.two_players and self.state.is_over

    def act(self, move: Move) -> None:
        """Make the learner's move; a refused move changes nothing and shows the rule."""
        if self._pending:
            raise TartliError(_("K1: wait for the computer's move"))
        self.state.push(move)  # raises IllegalMoveError with the rule, leaving the state as it was
        self._note_mine(len(self.state.moves) - 1)
        self._redo.clear()
        self._held = False
        self.say(self._describe_last())
        self._after_move()

    def _note_mine(self, index: int) -> None:
        state = self.state
        if self._mine[0] is not state:
            self._mine = (state, set())
        self._mine[1].add(index)

    def learner_review(self, progress: Callable[[int, int], None] | None = None) -> HandReview:
        """The review of the hand under way for the learner: the moves they made here, the kinds of move
        this table offers, the evaluation's budget the Hint uses (:func:`tartli.bots.review.review`)."""
        return review(
            self.state,
            self.human,
            budget=self.budget,
            moves=self.learner_moves(),
            offered=self.offered,
            progress=progress,
        )

    def learner_moves(self) -> frozenset[int]:
        """The moves of the hand under way that the learner made at this table (their indices): not a
        lesson's script, the moves of a record loaded or of a shared game, or the computer's. A move
        taken back and made again (Redo) stays the learner's."""
        state = self.state
        return frozenset(self._mine[1]) if self._mine[0] is state else frozenset()

    def _describe_last(self) -> str:
        events = self.state.view(self.viewer).events
        return self._describe(events[-1]) if events else ""

    def _waiting_for_continue(self) -> bool:
        """A finished trick is on show and the computer would lead next: it waits for Continue
        (or for the pause the learner chose)."""
        state = self.state
        return (
            self._shown_trick is not None
            and state.to_move is not None
            and self._is_bot(state.to_move)
            and state.lead is None
            and not self._holding_for_claim()
        )

    def offered(self, move: Move) -> bool:
        """Is this kind of move one of the table's controls? (Cards are always played.)"""
        if isinstance(move, Swap):
            return "swap" in self.controls
        if isinstance(move, (Declare, Pass, Bela)):
            return "melds" in self.controls
        if isinstance(move, GoOut):
            return "out" in self.controls
        return True

    def _cards_hidden(self) -> bool:
        state = self.state
        return self.two_players and not state.is_over and state.to_move is not None and state.to_move != self._ready_for

    def show_my_cards(self) -> None:
        """At a table for two: the player to move is at the screen; show their cards."""
        self._ready_for = self.state.to_move
        self.refresh()

    def continue_play(self) -> None:
        """The learner has seen the finished trick: gather it, and the computer goes on."""
        self._shown_trick = None
        self._pending = False
        self.refresh()
        if self._bot_due() is not None and self.autoplay:
            self._after_move()

    def request_claim(self) -> None:
        """The Go out button: a right claim is made at once; a wrong one is asked about first (the
        course's tables; ``confirm_claims=False`` on the table page for real play)."""
        viewer = self.viewer
        claim = self.state.claim(viewer)
        if claim.valid or not self.confirm_claims:
            self.act(GoOut(viewer))
            return
        if self._who(1 - viewer) == "computer":
            question = _(
                "You have {total}; a claim needs 501 and would give the computer the game (S3, S4). Claim anyway?"
            )
        else:
            question = _("You have {total}; a claim needs 501 and would give {name} the game (S3, S4). Claim anyway?")
        self._ask(
            question.format(total=claim.total, name=self.names[1 - viewer]),
            _("Claim anyway"),
            lambda: self.act(GoOut(viewer)),
        )

    def request_new_deal(self, seed: int) -> None:
        """The New deal button: asks first while a match is under way (its buli would be lost)."""
        match = self.match
        if (not match.results and not self.state.moves) or match.is_over:
            self.new_deal(seed)
            return
        you, other = self.human, 1 - self.human
        self._ask(
            _(
                "A new deal ends this match ({you} {mine}, {other} {theirs} buli) and starts a new one. Start anew?"
            ).format(you=self._said(you), mine=match.buli[you], other=self._said(other), theirs=match.buli[other]),
            _("Start a new match"),
            lambda: self.new_deal(seed),
        )

    def _holding_for_claim(self) -> bool:
        """The learner may go out now, and the computer's last move gave them that chance: the computer
        waits until they go out or play on (S3: a claim may be made at any moment).

        The chance is S3's claim window (the computer's silent card decided a contest the learner's melds
        won and took the trick), or the computer's pass or losing declaration, which decided the contest
        and scored the learner's melds before its card: a claim then counts what a record counts at that
        moment, not the trick the computer's card would take."""
        state = self.state
        if (
            self.two_players
            or "out" not in self.controls
            or state.to_move is None
            or not self._is_bot(state.to_move)
            or self._played_on_at == len(state.moves)
        ):
            return False
        return state.claim(self.human).at_step_seven or self._claim_opened_by_computer()

    def _claim_opened_by_computer(self) -> bool:
        """The learner's claim is right now and was not before the computer's last move."""
        state = self.state
        if not state.moves or state.moves[-1].player == self.human or not state.claim(self.human).valid:
            return False
        before = state.copy()
        before.pop()
        return not before.claim(self.human).valid

    def play_on(self) -> None:
        """The learner lets the claim window pass (or a position from a link go on): the computer goes on."""
        self._played_on_at = len(self.state.moves)
        self._held = False
        self._after_move()

    def _held_bot(self) -> bool:
        """A position from a link waits with the computer to move (it moves when Play on is pressed)."""
        to_move = self.state.to_move
        return self._held and to_move is not None and self._is_bot(to_move)

    def _bot_due(self) -> int | None:
        """The computer's seat if it moves now: in turn, or out of turn with a right claim (S3, e.g. in the
        claim window after the learner's silent card took a trick its melds had won)."""
        state = self.state
        player = state.to_move
        if player is None or self._held or self._holding_for_claim():
            return None
        if self._is_bot(player):
            return player
        other = 1 - player
        return other if self._is_bot(other) and state.claim(other).valid else None

    def _after_move(self) -> None:
        self.refresh()
        if self._bot_due() is None:
            return
        loop = kernel_loop()
        if self.autoplay and self._waiting_for_continue() and loop is not None:
            # Every trick is seen: the finished one stays until Continue, or for the chosen pause.
            if self.trick_pause > 0:
                self._pending = True
                shown = (self.state, len(self.state.moves))

                def gather() -> None:
                    if (self.state, len(self.state.moves)) == shown and self._shown_trick is not None:
                        self.continue_play()

                loop.call_later(self.trick_pause, self.guard(gather))
            return
        if self.autoplay and self.delay > 0 and loop is not None:
            self._pending = True
            loop.call_later(self.delay, self.guard(self._auto_step))
            return
        if self.autoplay:
            self.run_opponent()

    def _auto_step(self) -> None:
        self._pending = False
        if self.opponent_step():
            self._after_move()

    def opponent_step(self) -> bool:
        """One move of the computer, from its view only. True if it moved."""
        state = self.state
        player = self._bot_due()
        if player is None:
            return False
        view = state.view(player)
        move = self.opponent.choose(view) if player == state.to_move else right_claim(view)
        if move is None:
            return False
        state.push(move)
        self.say(self._describe_last())
        self.refresh()
        return True

    def run_opponent(self) -> int:
        """Let the computer move until it is the learner's turn or the hand ends; returns the moves made."""
        made = 0
        while self.opponent_step():
            made += 1
        return made

    # ------------------------------------------------------------ undo, deals, records
    def _human_moves_made(self) -> bool:
        return any(m.player == self.human or self.two_players for m in self.state.moves)

    def undo(self) -> None:
        """Take back the learner's last move (and the computer's replies after it)."""
        state = self.state
        if not self._human_moves_made():
            raise TartliError(_("there is no move of yours to take back"))
        while state.moves:
            move = state.pop()
            self._redo.append(move)
            if self.two_players or move.player == self.human:
                break
        self.say(_("Move taken back."))
        self.refresh()

    def redo(self) -> None:
        """Make again the moves taken back last (the computer's replies as they were)."""
        if not self._redo:
            raise TartliError(_("there is nothing to redo"))
        while self._redo:
            move = self._redo.pop()
            self.state.push(move)
            if self._redo and (self.two_players or self._redo[-1].player == self.human):
                break
        self.say(_("Move made again."))
        self._after_move()

    def new_deal(self, seed: int) -> None:
        """Start again from a fresh match with the deal of ``seed``."""
        self.seed = seed
        if self._own_opponent:
            self.opponent = bot_for_level(self.level, seed=seed)  # the same deal number plays the same way
        self.match = Match(self.rules, seed=seed, first_dealer=1)
        self._redo.clear()
        self._held = False
        self.refresh()  # the board and buttons first: a page that sees the message sees them too
        self.say(_("New deal #{seed}.").format(seed=seed))
        self._after_move()

    def next_hand(self) -> None:
        """Book the finished hand and deal the next one of the match (D2, S6). A hand the learner did
        not have reviewed is reviewed now for the match summary (a few seconds): the message line
        counts its decisions, so the button does not seem dead meanwhile."""

        def counting(done: int, total: int) -> None:
            self.say(
                _("Summing up this hand for the match: {done} of {total} decisions").format(done=done, total=total)
            )

        summary = self.hand_summary(counting) if self._summing_up() else None
        self.match.next_hand()
        if summary is not None:
            self._summaries.append(summary)
        self._hand_summary = None
        self._redo.clear()
        self._held = False
        self.refresh()  # the board and buttons first: a page that sees the message sees them too
        dealer, number = self.state.dealer, len(self.match.results) + 1
        if self._who(dealer) == "you":
            self.say(_("Hand {number}: You deal.").format(number=number))
        else:
            self.say(_("Hand {number}: {name} deals.").format(number=number, name=self._said(dealer)))
        self._after_move()

    def load_record(self, text: str, *, announce: bool = False) -> None:
        """Load a ``tartli/1`` record; a bad record is refused with a message and the game is kept.

        ``announce``: say "Record loaded: N moves." (the table page's Load, where the learner chose a
        saved game). A lesson's scripted position is loaded silently: that learner loaded nothing, and
        the last message, about the game before, goes."""
        record = Record.from_json(text)
        state = record.replay()  # raises before anything is replaced
        match = Match(record.rules, seed=self.seed, first_dealer=record.deal.dealer, scores=record.scores)
        match.state = state
        self.rules = record.rules
        self.match = match
        self._redo.clear()
        self._held = False
        self.refresh()  # the board and buttons first: a page that sees the message sees them too
        if announce:
            self.say(_("Record loaded: {n} moves.").format(n=len(state.moves)))
        else:
            self.message.value = ""
        self._after_move()

    def open_position(self, position: SharedPosition) -> None:
        """Show a shared position: its hand after ``position.move`` moves, the learner in ``position.seat``.
        The game's later moves wait in Redo (step through them), and the computer waits for the learner
        (who may play on from here instead)."""
        record = position.record
        whole = record.replay()  # a link's record was replayed once already: this cannot fail
        state = position.state()
        match = Match(record.rules, seed=self.seed, first_dealer=record.deal.dealer, scores=record.scores)
        match.state = state
        self.human = position.seat
        self.rules = record.rules
        self.match = match  # (after the seat: the engine's names follow it)
        self._redo = list(reversed(whole.moves[position.move :]))
        self._held = True
        self._from_link = True
        self._played_on_at = -1
        self.refresh()  # the board and buttons first: a page that sees the message sees them too
        total = len(record.moves)
        if position.move == total:
            said = ngettext(
                "The position of the link, after its game's {n} move.",
                "The position of the link, after all {n} moves of its game.",
                total,
            )
        else:
            said = _("The position of the link: move {n} of {total}. Play on, or step through the game with Redo.")
        self.say(said.format(n=position.move, total=total))
        self._after_move()

    def open_from_address(self, query: str | None = None) -> bool:
        """Open the position the page's address names (``?record=...&move=N&as=S``: Voilà's
        ``QUERY_STRING``, or ``query``). True if one was opened; a link that cannot be opened leaves a
        fresh deal and says why. Nothing happens without ``record=`` in the address. Without
        ``query``, a page whose kernel was not given its address (the static edition) opens the link
        when the browser sends the address (:class:`~tartli.widgets.share.ShareButton`)."""
        if query is None:
            query = page_query()
            if not self.share_button.listen_address:  # (the static edition's kernel is not given the address)
                self.share_button.on_address(self.guard(self.open_from_address))
        if "record=" in query:
            self.share_button.address_handled = True

        def refused(text: str) -> None:
            self._from_link = True  # the message stays: the kept game does not replace it
            self.say(text, error=True)

        return open_linked(query, self.open_position, refused)

    def save_record(self) -> str:
        """The hand so far as ``tartli/1`` text."""
        return Record.from_state(self.state).to_json()

    def load_deal(self, deal: Deal, scores: tuple[int, int] = (0, 0)) -> None:
        """Start a given deal (a lesson's scenario)."""
        self.match = Match(self.rules, seed=self.seed, first_dealer=deal.dealer, scores=scores)
        self.match.redeal(deal)
        self._redo.clear()
        self._held = False
        self.refresh()  # the board and buttons first: a page that sees the message sees them too
        self.say(_("A new position is dealt."))
        self._after_move()


__all__ = ["TableFlow", "kernel_loop"]

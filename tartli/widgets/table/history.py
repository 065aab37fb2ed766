"""The table's story and what it keeps: the status line, the hand's log trick by trick, the last trick,
what a screen reader hears, why a meld is not offered, the record to save or share, and the match
kept in the browser (a reload brings it back)."""

from __future__ import annotations

import html
import json
import logging
from typing import Any
from urllib.parse import quote

import ipywidgets as w

from tartli import names
from tartli.bots import LEVELS, bot_for_level
from tartli.bots.review import HandSummary
from tartli.cards import LAST_TRICK_BONUS
from tartli.errors import IllegalMoveError, TartliError
from tartli.game import TRICKS, PlayerView, Status
from tartli.i18n import _, ngettext
from tartli.match import Match
from tartli.melds import MeldKind, find_melds
from tartli.moves import Declare
from tartli.record import Record
from tartli.render.table import hand_svg
from tartli.share import share_query
from tartli.widgets.board import Announcer
from tartli.widgets.table.flow import TableFlow

log = logging.getLogger("tartli.widgets.table")  # (the name the table's log lines have always had)


class TableHistory(TableFlow):
    """The history and share panel of :class:`~tartli.widgets.table.controls.TableController`."""

    announcer: Announcer
    _announced: int | None
    download: w.HTML
    level_buttons: w.ToggleButtons

    # ------------------------------------------------------------ the match kept in the browser
    def saved_game(self) -> str:
        """The running match as the browser keeps it: the hand as a tartli/1 record, the buli, the level,
        and the summaries of the hands booked (for the match summary)."""
        m = self.match
        return json.dumps(
            {
                "tartli-table": 1,
                "record": Record.from_state(self.state).to_dict(),
                "buli": list(m.buli),
                "tie_pending": m.tie_pending,
                "hands": len(m.results),
                "level": self.level,
                "seed": self.seed,
                "summaries": [h.to_dict() for h in self._summaries],
            },
            sort_keys=True,
        )

    def restore_game(self, text: str) -> bool:
        """Bring back a match the browser kept (True if it was restored). Anything that is not a
        readable saved match is ignored and the fresh game stays."""
        try:
            data = json.loads(text) if len(text) <= 200_000 else None
        except (ValueError, RecursionError):
            data = None
        if not isinstance(data, dict) or data.get("tartli-table") != 1:
            return False
        buli, level, seed = data.get("buli"), data.get("level"), data.get("seed")
        if not (isinstance(buli, list) and len(buli) == 2 and all(type(b) is int and 0 <= b < 1000 for b in buli)):
            return False
        record = Record.from_dict(data.get("record"))  # a TartliError for anything malformed
        state = record.replay()
        kept = data.get("summaries", [])
        if not isinstance(kept, list) or len(kept) > 1000:
            return False
        summaries = [HandSummary.from_dict(h) for h in kept]  # a TartliError for anything malformed
        match = Match(
            record.rules,
            seed=seed if type(seed) is int else self.seed,
            first_dealer=record.deal.dealer,
            scores=record.scores,
            buli=(buli[0], buli[1]),
        )
        match.state = state
        match.tie_pending = data.get("tie_pending") is True
        self.rules, self.match = record.rules, match
        # The game kept in the browser was played at this table: the learner's moves are theirs again.
        self._mine = (state, {k for k, m in enumerate(state.moves) if self.two_players or m.player == self.human})
        self._summaries = summaries
        if type(seed) is int:
            self.seed = seed
        if isinstance(level, str) and level in LEVELS and self._own_opponent:
            self.level = level
            self.opponent = bot_for_level(level, seed=self.seed)
            self.level_buttons.value = level
        self._redo.clear()
        return True

    def _on_saved_game(self, change: dict[str, Any]) -> None:
        text = change["new"]
        if self._from_link or self._human_moves_made() or self.match.results or text == self.saved_game():
            return  # only a fresh page takes the kept game back
        try:
            restored = self.restore_game(text)
        except TartliError:
            log.warning("ignoring a kept game that is not a valid match")
            return
        if restored:
            self.refresh()
            self.say(_("Your game is back where you left it."))
            self._after_move()

    def _status_html(self) -> str:
        state, m = self.state, self.match
        who = self.names
        if state.is_over:
            a, b = state.totals
            line = _("Hand over: {name0} {score0}, {name1} {score1}.").format(
                name0=self._said(0), score0=a, name1=self._said(1), score1=b
            )
            if state.out is not None:
                p, valid = state.out
                line += " " + self._went_out(p, valid)
            if any(state.buli):
                winner = 0 if state.buli[0] else 1
                buli = max(state.buli)
                if self._who(winner) == "you":
                    won = ngettext("You win {n} buli.", "You win {n} buli.", buli)
                else:
                    won = ngettext("{name} wins {n} buli.", "{name} wins {n} buli.", buli)
                line += " " + won.format(name=who[winner], n=buli)
            if state.tied:
                line += " " + _("Both past 501 and equal: the first to score in the next hand wins the buli (S5).")
        elif self._holding_for_claim() and state.claim(self.human).at_step_seven:
            line = _(
                "Your melds won the contest and the trick was taken at once: you may go out now, counted before "
                "that trick (its card points count for nobody, S3), or play on."
            )
        elif self._holding_for_claim():
            line = _(
                "Your melds won the contest: with {total} you may go out now, before the computer plays its card "
                "(S3), or play on."
            ).format(total=state.claim(self.human).total)
        elif self._held_bot():
            line = _("The computer's turn: Play on lets it move; Redo shows the move made in the game.")
        elif self._waiting_for_continue():
            line = _("Trick over: press Next trick when you have seen it.")
        elif self._is_bot(state.to_move or 0):
            line = _("The computer is thinking…")
        elif self._who(state.to_move or 0) == "you":
            line = _("Your turn.")
        else:
            line = _("{name}: your turn.").format(name=who[state.to_move or 0])
        if "out" not in self.controls:  # games won (buli) come with going out, lesson 09
            return f"<b>{html.escape(line)}</b>"
        you, other = self.human, 1 - self.human
        if m.target is not None:
            games = _("Games won (buli): {you} {mine}, {other} {theirs} (first to {target})")
        else:
            games = _("Games won (buli): {you} {mine}, {other} {theirs}")
        standing = m.buli_with_hand  # the hand's buli as soon as it is won, not only after Next hand
        line += " " + games.format(
            you=self._said(you), mine=standing[you], other=self._said(other), theirs=standing[other], target=m.target
        )
        champion = next((p for p in (0, 1) if m.target is not None and standing[p] >= m.target), None)
        if champion is not None:
            if self._who(champion) == "you":
                line += ". " + _("You win the match!")
            else:
                line += ". " + _("{name} wins the match!").format(name=who[champion])
        return f"<b>{html.escape(line)}</b>"

    def _went_out(self, player: int, valid: bool) -> str:
        name = self.names[player]
        if self._who(player) == "you":
            return _("You went out: the claim was right.") if valid else _("You went out: the claim was wrong.")
        if valid:
            return _("{name} went out: the claim was right.").format(name=name)
        return _("{name} went out: the claim was wrong.").format(name=name)

    def _announce(self, view: PlayerView) -> None:
        """Say, in the live region, what happened since the last redraw, in the log's words: each card, who
        won a trick and its card points, the draws, a meld scored, a claim judged, the hand's end. Moves
        taken back are not said, and the first drawing of a hand says nothing."""
        events = view.events
        seen, self._announced = self._announced, len(events)
        if seen is None or len(events) <= seen:
            return
        sentences = (self._describe(e, view.player).strip() for e in events[seen:])
        self.announcer.say(" ".join(s if s.endswith((".", "!", "?")) else s + "." for s in sentences if s))

    def _log_html(self, view: PlayerView) -> str:
        """The hand's story, trick by trick, oldest first: the trick under way and the last finished one
        open, the earlier ones folded (a click opens them); nothing is cut."""
        groups: dict[int, list[str]] = {}
        for e in view.events:
            if e.kind != "end":
                groups.setdefault(e.trick, []).append(self._describe(e, view.player))
        finished = {n + 1: t for n, t in enumerate(view.tricks)}
        last = max(groups, default=0)
        parts = []
        for number in sorted(groups):
            trick = finished.get(number)
            if trick is not None:
                _leader, lead, second, winner = trick
                points = lead.points(view.trump) + second.points(view.trump)
                if number == TRICKS:  # C5: the last trick's 10 is in the score, so it is in the log
                    points += LAST_TRICK_BONUS
                    if self._who(winner) == "you":
                        head = _("Trick {number}: You won {points} card points (the last trick's 10 included, C5)")
                    else:
                        head = _("Trick {number}: {name} won {points} card points (the last trick's 10 included, C5)")
                elif self._who(winner) == "you":
                    head = _("Trick {number}: You won {points} card points")
                else:
                    head = _("Trick {number}: {name} won {points} card points")
                head = head.format(number=number, name=self._said(winner), points=points)
            elif number > TRICKS:  # what the hand's end says (stichmatsch, the buli): no trick 17
                head = _("End of the hand")
            elif view.status is not Status.IN_PROGRESS:
                head = _("Trick {number} (not finished: the hand ended)").format(number=number)
            else:
                head = _("Trick {number} (under way)").format(number=number)
            rows = "".join(f"<li>{html.escape(t)}</li>" for t in groups[number])
            opened = " open" if number >= last - 1 else ""
            parts.append(
                f"<details{opened}><summary>{html.escape(head)}</summary><ul style='margin:2px 0'>{rows}</ul></details>"
            )
        return "".join(parts)

    def _not_offered_html(self, view: PlayerView) -> str:
        """Why a meld the learner holds is not in the menu now (K3, K6, K7, V5...), from the engine."""
        state = self.state
        player = view.player
        offered = {m for d in view.legal_moves if isinstance(d, Declare) for m in d.melds}
        reasons: list[str] = []
        said: set[str] = set()  # the general words after a reason's last ": ", said once (K7's long rule was said
        for meld in find_melds(view.hand, state.rules, state.trump):  # for every sequence it refused)
            if meld in offered or meld.kind is MeldKind.BELA:
                continue
            trial = state.copy()
            try:
                trial.push(Declare(player, (meld,)))
            except IllegalMoveError as err:
                title, reason = meld.title(names.resolve(self.language)), str(err)
                head, _colon, general = reason.rpartition(": ")
                if head and general in said and head.count(": ") >= 1:
                    reason = head
                said.add(general)
                # the reason names the meld itself ("K7: Acorn-Nine-Terc may not follow..."): no title before it
                reasons.append(reason if title in reason else f"{title}: {reason}")
        if not reasons:
            return ""
        items = "".join(f"<li>{html.escape(r)}</li>" for r in reasons[:4])
        not_now = html.escape(_("Not offered now:"))
        head = f"<div class='tartli-not-offered'><small>{not_now}"
        return f"{head}<ul style='margin:2px 0'>{items}</ul></small></div>"

    def _last_trick_html(self, view: PlayerView) -> str:
        """The trick before the one on the table, small, with who won it (the "Last trick" button)."""
        if not view.tricks:
            none_yet = html.escape(_("No trick has been finished yet."))
            return f"<i>{none_yet}</i>"
        index = len(view.tricks) - 1
        if self._shown_trick == index and len(view.tricks) > 1:
            index -= 1  # the last one is on the table already: show the one before
        elif self._shown_trick == index:
            on_table = html.escape(_("The only finished trick is on the table."))
            return f"<i>{on_table}</i>"
        leader, lead, second, winner = view.tricks[index]
        points = lead.points(view.trump) + second.points(view.trump)
        lang = names.resolve(self.language)
        cards = hand_svg([lead, second], language=lang, trump=view.trump, card_width=56)
        you_led, you_won = self._who(leader) == "you", self._who(winner) == "you"
        if you_led and you_won:
            said = _("Trick {number}: You led, You won {points} card points.")
        elif you_led:
            said = _("Trick {number}: You led, {winner} won {points} card points.")
        elif you_won:
            said = _("Trick {number}: {leader} led, You won {points} card points.")
        else:
            said = _("Trick {number}: {leader} led, {winner} won {points} card points.")
        text = said.format(number=index + 1, leader=self._said(leader), winner=self._said(winner), points=points)
        return f"<div class='tartli-last-trick'>{cards}<div>{html.escape(text)}</div></div>"

    def share_record(self) -> tuple[Record, int]:
        """The game a link to this table holds, and how many of its moves are made: the moves so far,
        and those a Redo would make again (a position opened from a link keeps the rest of its game)."""
        state = self.state
        made = len(state.moves)
        record = Record.from_state(state)
        record.moves += [str(m) for m in reversed(self._redo)]
        return record, made

    def _refresh_download(self) -> None:
        record, made = self.share_record()
        self.share_button.query = share_query(record, move=made, seat=self.human)
        text = Record.from_state(self.state).to_json()
        href = "data:application/json;charset=utf-8," + quote(text)
        save = html.escape(_("Save record"))
        # a link (the browser saves the file) that looks and sits as the buttons beside it do
        self.download.value = f'<a class="tartli-button-link" download="tartli-hand.json" href="{href}">{save}</a>'


__all__ = ["TableHistory"]

"""A table for two browsers (issue 38): this page's seat at a game whose authority is the course's server.

The game lives in the server process (:mod:`tartli.server.duels`); this page's kernel holds only what
its player may know. The server sends each seat its own *shadow* of the hand: the real moves on a deal
whose hidden cards (the other's hand, the talon not yet drawn) are a sample consistent with everything
this player has seen, so that the table draws exactly the player's view and offers exactly their legal
moves. A move is sent to the server, which applies it to the real game through the engine; the other's
moves come back within a moment (a long poll, :meth:`DuelTable.listen`).

The seat is the browser's: the server gives the page's kernel the seat's token (``TARTLI_SEAT``) and
its own address (``TARTLI_SERVER``) when the page ``table.ipynb?duel=CODE`` is opened by a browser that
holds that table's seat (:mod:`tartli.server.app`). A reload or a phone that locked comes back to the
same seat.

The table offers what a game between two people needs: the cards, melds, béla, the swap, going out,
the last trick, how long a trick stays, and, once the hand is over, its record and its review (each
player's own, of their own decisions). Undo, the computer's level, new deals and both hands shown are not
offered (they would change a shared game); the Hint only while both players agree to it (each asks for
their own, from their own view).
"""

from __future__ import annotations

import asyncio
import base64
import html
import io
import json
import logging
import os
import time
import urllib.error
import urllib.request
import zipfile
from typing import Any, Protocol
from urllib.parse import parse_qs, quote, urlencode, urlsplit

import ipywidgets as w

from tartli.bots.base import Bot
from tartli.course import DUELS_ENV
from tartli.errors import TartliError
from tartli.game import PlayerView
from tartli.i18n import _, language, ngettext
from tartli.moves import Move
from tartli.widgets.table import TableController, kernel_loop

log = logging.getLogger(__name__)

DUEL_CONTROLS = ("swap", "melds", "out", "last-trick", "pause", "review")
"""What a table for two browsers offers besides playing cards (see the module's docstring). Its record is
offered once the hand is over (the real hand: every card has been played), never a record of the hand under
way (this page holds a shadow of it) and never loading one (it would replace the shared game)."""

_LINE_STYLE = "font-size: 16px; line-height: 1.45; margin: .2em 0; white-space: normal; overflow-wrap: anywhere"
"""The line above the table: the page's text size (a widget's HTML is set smaller), a long link wrapped."""

POLL_WAIT = 25.0
"""Seconds a long poll waits at the server for the other's move before asking again."""


class DuelError(TartliError):
    """The server refused an action or could not be reached (the message says why, in a player's words)."""


class DuelLink(Protocol):
    """How a table reaches the game's authority: each call returns the seat's state (the server's
    ``state_for``) or raises :class:`DuelError`."""

    def state(self, since: int | None = None, wait: float = 0.0) -> dict[str, Any]: ...

    def move(self, version: int, move: str) -> dict[str, Any]: ...

    def next_hand(self, hand: int) -> dict[str, Any]: ...

    def let_computer_play(self, on: bool) -> dict[str, Any]: ...

    def allow_hints(self, on: bool) -> dict[str, Any]: ...

    def another_match(self, match: int) -> dict[str, Any]: ...

    def records(self, match: int | None = None) -> list[dict[str, Any]]: ...

    def leave(self) -> None: ...


class HttpLink:
    """The course's server's duel API (``tartli/duel/...``), called from this page's kernel with the
    seat's token (a header; the kernel runs on the server's machine)."""

    def __init__(self, server: str, code: str, token: str, timeout: float = 10.0) -> None:
        self.server = server.rstrip("/") + "/"
        self.code = code
        self.token = token
        self.timeout = timeout

    @classmethod
    def from_environment(cls, code: str) -> HttpLink | None:
        """The link the server gave this page's kernel (None if it gave none: not a seated browser)."""
        server, token = os.environ.get("TARTLI_SERVER", ""), os.environ.get("TARTLI_SEAT", "")
        if not server or not token:
            return None
        return cls(server, code, token)

    def _post(self, action: str, body: dict[str, Any], timeout: float | None = None) -> dict[str, Any]:
        request = urllib.request.Request(
            f"{self.server}tartli/duel/{action}",
            data=json.dumps({"code": self.code, "lang": language(), **body}).encode(),
            headers={"Content-Type": "application/json", "X-Tartli-Seat": self.token},
            method="POST",
        )
        try:
            with urllib.request.urlopen(request, timeout=timeout or self.timeout) as response:
                answer = json.loads(response.read() or b"{}")
        except urllib.error.HTTPError as err:
            try:
                said = json.loads(err.read() or b"{}").get("error")
            except ValueError:
                said = None
            raise DuelError(said or _("The course's server refused this ({status}).").format(status=err.code)) from err
        except (OSError, ValueError) as err:
            raise DuelError(_("The course's server cannot be reached: try again in a moment.")) from err
        if not isinstance(answer, dict):
            raise DuelError(_("The course's server sent something this page cannot read."))
        return answer

    def state(self, since: int | None = None, wait: float = 0.0) -> dict[str, Any]:
        body: dict[str, Any] = {} if since is None else {"since": since, "wait": wait}
        return self._post("state", body, timeout=self.timeout + wait)

    def move(self, version: int, move: str) -> dict[str, Any]:
        return self._post("move", {"version": version, "move": move})

    def next_hand(self, hand: int) -> dict[str, Any]:
        return self._post("next", {"hand": hand})

    def let_computer_play(self, on: bool) -> dict[str, Any]:
        return self._post("computer", {"on": on})

    def allow_hints(self, on: bool) -> dict[str, Any]:
        return self._post("hints", {"on": on})

    def another_match(self, match: int) -> dict[str, Any]:
        return self._post("again", {"match": match})

    def records(self, match: int | None = None) -> list[dict[str, Any]]:
        records = self._post("records", {} if match is None else {"match": match}).get("records")
        if not isinstance(records, list) or not all(isinstance(r, dict) for r in records):
            raise DuelError(_("The course's server sent something this page cannot read."))
        return records

    def leave(self) -> None:
        self._post("leave", {})


class _Nobody(Bot):
    """The other seat: a person, whose moves come from the server (never chosen here)."""

    name = "person"

    def choose(self, view: PlayerView) -> Move:  # pragma: no cover - never asked: _is_bot is False for both seats
        raise TartliError("the other seat is a person")


class DuelTable(TableController):
    """This browser's seat at a table for two browsers (see the module's docstring)."""

    def __init__(self, link: DuelLink, *, code: str = "", language: Any = None, trick_pause: float = 1.5) -> None:
        self.link = link
        self.code = code
        self.version = -1
        self.seat = 0
        self.duel: dict[str, Any] = {}
        """The server's last word on this table (its ``state_for``)."""
        self._listening = False
        super().__init__(
            opponent=_Nobody(),
            language=language,
            controls=DUEL_CONTROLS,
            confirm_claims=True,
            trick_pause=trick_pause,
            autoplay=False,
        )
        self.duel_status = w.HTML()
        self.duel_status.add_class("tartli-duel-status")
        self.wait_button = w.Button(description=_("Wait"), layout=w.Layout(display="none"))
        self.computer_button = w.Button(button_style="warning", layout=w.Layout(display="none", width="auto"))
        self.leave_button = w.Button(description=_("Leave the table"), button_style="danger")
        self.again_button = w.Button(
            description=_("Play another match"), button_style="success", layout=w.Layout(display="none", width="auto")
        )
        self.match_download = w.HTML()
        """The match's hands that are over, one file to save (a zip of ``tartli/1`` records)."""
        self._archived: tuple[int, int] | None = None  # (match, hands over) the link was made for
        self.hints_toggle = w.ToggleButton(
            description=_("Allow the Hint for both of us"),
            tooltip=_("The Hint is offered to both of you while both agree"),
            layout=w.Layout(width="auto"),
        )
        self._showing = False  # (the toggle set from the server's word is no request of the player's)
        self.hints_toggle.observe(self.guard(self._on_hints_toggle), names="value")
        self.wait_button.on_click(self.guard(lambda _b: self._apply(self.link.let_computer_play(False))))
        self.computer_button.on_click(self.guard(lambda _b: self._apply(self.link.let_computer_play(True))))
        self.leave_button.on_click(self.guard(lambda _b: self._ask_leave()))
        self.again_button.on_click(self.guard(lambda _b: self.another_match()))
        bar = w.HBox(
            [
                self.wait_button,
                self.computer_button,
                self.again_button,
                self.hints_toggle,
                self.match_download,
                self.leave_button,
            ],
            layout=w.Layout(flex_flow="row wrap", align_items="center"),
        )
        self.widget = w.VBox([self.duel_status, bar, self.widget])  # (the table's own box keeps its parts in order)
        self.widget.add_class("tartli-duel")
        self._apply(self.link.state())

    # ------------------------------------------------------------ who is who
    def _is_bot(self, player: int) -> bool:
        return False  # the other seat is a person (or the server's computer): nothing moves here by itself

    @property
    def other_name(self) -> str:
        return str(self.duel.get("other") or _("your classmate"))

    # ------------------------------------------------------------ the server's word
    def _apply(self, state: dict[str, Any]) -> None:
        """Show the server's state of the table: the seat's game (restored when it changed) and the status."""
        self.duel = state
        version = state.get("version")
        seat = state.get("seat")
        if type(version) is not int or seat not in (0, 1):
            raise DuelError(_("The course's server sent something this page cannot read."))
        game = state.get("game")
        text = game if isinstance(game, str) or game is None else json.dumps(game)
        names = (_("You"), self.other_name) if seat == 0 else (self.other_name, _("You"))
        changed = version != self.version
        self.version, self.seat, self.human = version, seat, seat
        self._player_names = names
        if text is not None and changed and not self.restore_game(text):
            raise DuelError(_("The course's server sent a game this page cannot read."))
        self.refresh()
        self._show_duel()

    def refresh(self) -> None:
        super().refresh()
        if self.duel.get("status") == "match-over":  # (the server's word: the page's match may not count the last hand)
            self.next_button.layout.display = "none"

    def _show_duel(self) -> None:
        """The line above the table: whom you play, whose turn, the other's absence and what you may do."""
        if not hasattr(self, "duel_status"):
            return  # (refresh during the table's own construction)
        state = self.duel
        status = state.get("status")
        other = html.escape(self.other_name)
        away = state.get("other_away")
        away = float(away) if isinstance(away, (int, float)) else 0.0  # (seconds the other's page has been gone)
        gone = away >= self._away_after()
        computer = bool(state.get("computer_plays_other"))
        lines: list[str] = []
        if status == "waiting":
            link = invite_link(self.code)
            said = _("Waiting for a classmate: give them the code {code}, or this link: {link}")
            shown = f"<a href='{html.escape(link)}' target='_blank' rel='noopener'>{html.escape(link)}</a>"
            lines.append(said.format(code=f"<b class='tartli-duel-code'>{html.escape(self.code)}</b>", link=shown))
        elif status == "closed":
            lines.append(_("This table is closed."))
        elif status == "match-over":
            lines.append(_("Your match against {name} is over.").format(name=other))
        elif computer:
            lines.append(_("The computer plays for {name} while they are away.").format(name=other))
        elif gone:
            minutes = max(1, int(away // 60))
            said = ngettext(
                "{name} has been away for {minutes} minute: wait for them, or let the computer play for them.",
                "{name} has been away for {minutes} minutes: wait for them, or let the computer play for them.",
                minutes,
            )
            lines.append(said.format(name=other, minutes=minutes))
        else:
            lines.append(_("You are playing {name}.").format(name=other))
        offer = status == "playing" and gone and not computer
        mine, theirs = self._hints()
        if status == "playing" and (mine or theirs):
            if mine and theirs:
                lines.append(_("You both agree to the Hint."))
            elif mine:
                lines.append(_("You agree to the Hint; it is offered once {name} agrees too.").format(name=other))
            else:
                lines.append(_("{name} would like the Hint for both of you.").format(name=other))
        self.duel_status.value = f"<p style='{_LINE_STYLE}'>" + " ".join(lines) + "</p>"
        self._showing = True
        try:
            self.hints_toggle.value = mine
        finally:
            self._showing = False
        self.hints_toggle.layout.display = "" if status == "playing" else "none"
        shown = "" if status == "playing" and mine and theirs else "none"
        self.hint_button.layout.display = self.hint_view.layout.display = shown
        self.computer_button.description = _("Let the computer play for {name}").format(name=self.other_name)
        self.computer_button.layout.display = "" if offer else "none"
        self.wait_button.layout.display = "" if computer else "none"
        self.leave_button.layout.display = "none" if status == "closed" else ""
        self.again_button.layout.display = "" if status == "match-over" else "none"
        self._refresh_match_download()

    def _hands_over(self) -> int:
        """How many hands of the match played now are over (the server's word)."""
        number = self.duel.get("hand_number")
        number = number if type(number) is int and number > 0 else 1
        return number - 1 + (1 if self.duel.get("status") in ("hand-over", "match-over") else 0)

    def _refresh_match_download(self) -> None:
        """The link that saves the match's hands that are over (fetched from the server once a hand ends)."""
        match = self.duel.get("match_number")
        match = match if type(match) is int else 1
        over = self._hands_over()
        if over < 1:
            self.match_download.value, self._archived = "", None
            return
        if self._archived == (match, over):
            return
        records = self.link.records()
        text = (
            ngettext("Save the match ({n} hand)", "Save the match ({n} hands)", len(records))
            if self.duel.get("status") == "match-over"
            else ngettext("Save the hand played ({n})", "Save the hands played ({n})", len(records))
        ).format(n=len(records))
        name = f"tartli-match-{self.code or 'table'}-{match}.zip"
        href = "data:application/zip;base64," + base64.b64encode(match_archive(records)).decode("ascii")
        self.match_download.value = (
            f'<a class="tartli-button-link" download="{html.escape(name)}" href="{href}">{html.escape(text)}</a>'
        )
        self._archived = (match, over)

    def _away_after(self) -> float:
        """Seconds the other must have been gone before the computer may play for them (the server says)."""
        limit = self.duel.get("away_after")
        return float(limit) if isinstance(limit, (int, float)) and limit > 0 else 120.0

    def _status_html(self) -> str:
        state = self.state
        waiting = self.duel.get("status") if self.duel else None
        if waiting in ("waiting", "closed"):
            line = _("Waiting for a classmate to sit down.") if waiting == "waiting" else _("This table is closed.")
            return f"<b>{html.escape(line)}</b>"
        if not state.is_over and state.to_move is not None and state.to_move != self.human and self.duel:
            line = _("{name}'s turn: waiting for their move…").format(name=self.other_name)
            return f"<b>{html.escape(line)}</b>"
        return super()._status_html()

    def _refresh_download(self) -> None:
        """The hand's record to save, once the hand is over (the server then sends the real one)."""
        over = self.state.is_over
        self.download.layout.display = "" if over else "none"
        if over:
            super()._refresh_download()

    # ------------------------------------------------------------ the Hint, when both agree
    def _hints(self) -> tuple[bool, bool]:
        """Whether this player, and the other, agree to the Hint (the server's word)."""
        hints = self.duel.get("hints")
        if not isinstance(hints, dict):
            return False, False
        return bool(hints.get("mine")), bool(hints.get("theirs"))

    def both_agree_to_hints(self) -> bool:
        return all(self._hints())

    def _on_hints_toggle(self, change: dict[str, Any]) -> None:
        if not self._showing:
            self._apply(self.link.allow_hints(bool(change["new"])))

    def hint(self) -> str:
        """The Hint, as at any table, while both players agree to it (each Hint is its own player's)."""
        if not self.both_agree_to_hints():
            raise DuelError(_("The Hint is offered when both of you agree to it."))
        if not self.state.is_over and self.state.to_move != self.human:
            text = _("A hint comes when it is your turn.")
            self.hint_view.value = self._box(html.escape(text), "#8a5a00", "#fbf4e4")
            return text
        return super().hint()

    # ------------------------------------------------------------ moves go to the server
    def act(self, move: Move) -> None:
        """Send the player's move to the server; a move the rules refuse is refused here first, with its rule."""
        if self.duel.get("status") != "playing":
            raise DuelError(_("The game is not under way: wait for your classmate."))
        # The engine decides, with its rule in the message (K1 for a move out of turn; béla, going out and the
        # Austrian swap may be made out of turn, B1, S3, V7): this seat's view decides its legal moves.
        self.state.copy().push(move)
        self._apply(self.link.move(self.version, str(move)))
        self.say(self._describe_last())

    def next_hand(self) -> None:
        """The next hand of the match, dealt by the server (either player may ask: the first deals it for both)."""
        number = self.duel.get("hand_number")
        self._apply(self.link.next_hand(number if type(number) is int else 1))

    def another_match(self) -> None:
        """Another match at the table once the match is over (either player may ask: the first starts it for both)."""
        number = self.duel.get("match_number")
        self._apply(self.link.another_match(number if type(number) is int else 1))
        self.say(_("A new match: both start at 0 buli."))

    def _ask_leave(self) -> None:
        self._ask(_("Leave the table? The game ends for both of you."), _("Leave"), self.leave)

    def leave(self) -> None:
        """Leave the table: it closes for both players."""
        self.link.leave()
        self._apply(self.link.state())
        self.say(_("You have left the table."))

    # ------------------------------------------------------------ the other's moves come back
    async def listen(self) -> None:
        """Wait at the server for every change of the table (the other's move, a new hand, their absence)
        and show it, until the table is closed."""
        loop = asyncio.get_running_loop()
        failures = 0
        while self.duel.get("status") != "closed":
            try:
                state = await loop.run_in_executor(None, lambda: self.link.state(self.version, POLL_WAIT))
            except DuelError as err:
                failures += 1
                if failures == 3:
                    self.say(str(err), error=True)
                await asyncio.sleep(min(10.0, 1.0 * failures))
                continue
            failures = 0
            try:
                self._apply(state)
            except TartliError as err:
                self.say(str(err), error=True)
            except Exception:  # the page must stay usable whatever happens
                log.exception("a table state could not be shown")
                await asyncio.sleep(2.0)

    def start_listening(self) -> bool:
        """Listen in the page's kernel (True), or not at all outside one (scripts and tests call :meth:`listen`)."""
        loop = kernel_loop()
        if loop is None or self._listening:
            return False
        self._listening = True
        loop.create_task(self.listen())
        return True


def match_archive(records: list[dict[str, Any]]) -> bytes:
    """The hands of a match as one file to save: a zip holding each hand as its own ``tartli/1`` record
    (``hand-01.json``, ``hand-02.json``, ...; RECORD.md: a record fixes one hand, with the running scores
    before it), so that each one loads at a table and replays with ``tartli replay`` as it is."""
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", compression=zipfile.ZIP_DEFLATED) as archive:
        for number, record in enumerate(records, 1):
            info = zipfile.ZipInfo(f"hand-{number:02d}.json", date_time=time.localtime()[:6])
            info.compress_type = zipfile.ZIP_DEFLATED
            archive.writestr(info, json.dumps(record, indent=2, sort_keys=True) + "\n")
    return buffer.getvalue()


def invite_link(code: str) -> str:
    """The address a classmate opens to take the other seat: the duel page with the table's code, on the
    server as this page's browser reached it (Voilà gives the kernel that address)."""
    page = urlsplit(os.environ.get("VOILA_REQUEST_URL", ""))
    base = os.environ.get("VOILA_BASE_URL", "/") or "/"
    origin = f"{page.scheme}://{page.netloc}" if page.scheme and page.netloc else ""
    return f"{origin}{base}tartli/duel?{urlencode({'code': code})}"


def duel_code(query: str) -> str | None:
    """The table code this page's address names (``duel=CODE``), or None."""
    codes = parse_qs(query).get("duel")
    return codes[0].strip().upper()[:12] if codes else None


def open_duel(query: str, *, link: DuelLink | None = None) -> DuelTable | None:
    """The table for two browsers that this page's address names (``duel=CODE``), listening for the other's
    moves; None if the address names none. :class:`DuelError` if this page has no seat there."""
    code = duel_code(query)
    if code is None:
        return None
    link = link or HttpLink.from_environment(code)
    if link is None:
        raise DuelError(_("This page has no seat at table {code}: open the table's link again.").format(code=code))
    table = DuelTable(link, code=code)
    table.start_listening()
    return table


def duel_widget(query: str) -> w.Widget | None:
    """What the table page shows for ``?duel=CODE``: this seat's table, or why there is none (with the way
    back to the page where a seat is taken); None if the address names no table."""
    if duel_code(query) is not None and not os.environ.get(DUELS_ENV):
        return classmate_link()  # (a link to a table, opened where no server keeps games: says why)
    try:
        table = open_duel(query)
    except TartliError as err:
        code = duel_code(query) or ""
        again = _("Take a seat at the table")
        return w.HTML(
            f"<p role='alert'>⚠ {html.escape(str(err))}</p>"
            f"<p><a href='../../tartli/duel?code={quote(code)}'>{html.escape(again)}</a></p>"
        )
    return None if table is None else table.widget


def classmate_link() -> w.HTML:
    """The table page's way to a game against a classmate on another device, on the course's server; elsewhere
    (Binder, where each person has a server of their own, and the static edition) why there is none, and the
    table for two people at one screen instead."""
    if not os.environ.get(DUELS_ENV):
        why = _(
            "Playing a classmate on another device needs the course's own server (the tartli course command), "
            "which keeps the game for both; here two people can play at one screen: {two_people}."
        ).format(two_people=_("Two people at one screen"))
        return w.HTML(f"<p style='{_LINE_STYLE}'>{html.escape(why)}</p>")
    text = _("Play a classmate on another device")
    return w.HTML(f"<p style='{_LINE_STYLE}'><a href='../../tartli/duel'>{html.escape(text)} →</a></p>")


__all__ = [
    "DUELS_ENV",
    "DUEL_CONTROLS",
    "DuelError",
    "DuelLink",
    "DuelTable",
    "HttpLink",
    "classmate_link",
    "duel_code",
    "duel_widget",
    "invite_link",
    "match_archive",
    "open_duel",
]

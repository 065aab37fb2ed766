"""The clickable picture: an anywidget that shows SVG from :mod:`tartli.render` and reports picks.

Every element of the picture with a ``data-pick`` attribute (a card of the
learner's hand, a card of an exercise) can be clicked, or reached with Tab and
the arrow keys and chosen with Enter or Space: the browser lays a button over
it (``.tartli-hit``, named as the card's picture names it, e.g. "Over of
Acorns, playable"), and the picture becomes a group of such buttons. The widget sends
``{"event": "pick", "pick": "OH"}`` to Python, where :meth:`SvgBoard.on_pick`
handlers run; tests call :meth:`SvgBoard.pick` to do the same without a browser.

The widget also keeps lesson progress in the browser's ``localStorage`` (so it
survives a reload): the ``progress`` trait is loaded from the key
``storage_key`` when the widget is shown and written back whenever Python
changes it.
"""

from __future__ import annotations

import json
import logging
from collections.abc import Callable
from typing import Any

import anywidget
import traitlets

from tartli.errors import TartliError
from tartli.i18n import _
from tartli.record import grouped

MAX_SAVED_GAME_BYTES = 256 * 1024
"""The largest saved game the table and the lab open (``tartli replay`` reads up to
:data:`tartli.record.MAX_RECORD_BYTES`). A whole hand's record is about 1 KB (measured in
tests/test_server.py); the bound leaves room for any record a person writes by hand, and keeps a
page's websocket messages small (:data:`tartli.server.app.WEBSOCKET_MAX_BYTES`)."""

log = logging.getLogger(__name__)

_ESM = r"""
function render({ model, el }) {
  el.classList.add("tartli-board");
  let focusIndex = -1;
  const picks = () => Array.from(el.querySelectorAll("[data-pick]"));

  function send(node) {
    model.send({ event: "pick", pick: node.getAttribute("data-pick") });
  }

  // Each element with data-pick (a card) gets a button: a transparent rectangle laid over it, named as
  // its picture names it ("Over of Acorns, playable"). The picture itself is hidden from assistive
  // technology and is no control: a whole picture with controls inside is a group, not an image, and a
  // button whose name is its picture's words keeps no visible text of its own (the corner letters).
  const SVG_NS = "http://www.w3.org/2000/svg";
  const buttonOf = (node) => node.querySelector(":scope > .tartli-hit");

  function wire() {
    const nodes = picks();
    const root = el.querySelector(":scope > svg");
    if (root && nodes.length) { root.setAttribute("role", "group"); }
    nodes.forEach((node, i) => {
      const picture = node.querySelector("svg[aria-label]");
      let label = node.getAttribute("aria-label") || "";
      if (picture && !label) {
        const state = picture.querySelector(":scope > desc");
        label = picture.getAttribute("aria-label") + (state ? ", " + state.textContent : "");
      }
      if (picture) { picture.setAttribute("aria-hidden", "true"); }
      node.removeAttribute("aria-label");
      const box = node.getBBox();
      const hit = document.createElementNS(SVG_NS, "rect");
      hit.setAttribute("class", "tartli-hit");
      for (const [k, v] of [["x", box.x], ["y", box.y], ["width", box.width], ["height", box.height]]) {
        hit.setAttribute(k, String(v));
      }
      hit.setAttribute("rx", "6");
      hit.setAttribute("fill", "transparent");
      hit.setAttribute("role", "button");
      hit.setAttribute("tabindex", "0");
      hit.setAttribute("aria-label", label);
      node.appendChild(hit);
      node.style.cursor = "pointer";
      node.addEventListener("click", () => { focusIndex = i; send(node); });
      hit.addEventListener("focus", () => { focusIndex = i; });
      hit.addEventListener("keydown", (event) => {
        const all = picks();
        if (event.key === "Enter" || event.key === " ") {
          event.preventDefault();
          focusIndex = i;
          send(node);
        } else if (event.key === "ArrowRight" || event.key === "ArrowDown") {
          event.preventDefault();
          buttonOf(all[(i + 1) % all.length]).focus();
        } else if (event.key === "ArrowLeft" || event.key === "ArrowUp") {
          event.preventDefault();
          buttonOf(all[(i - 1 + all.length) % all.length]).focus();
        }
      });
    });
  }

  function draw() {
    const hadFocus = el.contains(document.activeElement);
    el.innerHTML = model.get("svg");
    wire();
    const nodes = picks();
    if (hadFocus && nodes.length) {
      buttonOf(nodes[Math.max(0, Math.min(focusIndex, nodes.length - 1))]).focus();
    }
  }

  // Progress kept in the browser (survives a reload).
  const key = model.get("storage_key");
  if (key) {
    try {
      const saved = window.localStorage.getItem(key);
      if (saved !== null && saved !== model.get("progress")) {
        model.set("progress", saved);
        model.save_changes();
      }
    } catch (e) { /* storage may be blocked: progress then lasts the session */ }
    model.on("change:progress", () => {
      try { window.localStorage.setItem(key, model.get("progress")); } catch (e) {}
    });
  }

  model.on("change:svg", draw);
  draw();

  // The width the picture has on this screen, so that Python can draw a phone's table upright.
  if (typeof ResizeObserver !== "undefined") {
    let sent = 0;
    const observer = new ResizeObserver(() => {
      // A picture drawn while hidden (Try again's table, before its box is shown) measured its cards as
      // 0 x 0: once it is on screen, draw it again so that each card's button covers the card.
      if (el.clientWidth > 0 && el.querySelector('.tartli-hit[width="0"]')) { draw(); }
      const width = Math.round(el.clientWidth);
      if (width > 0 && Math.abs(width - sent) >= 8) {
        sent = width;
        model.set("client_width", width);
        model.save_changes();
      }
    });
    observer.observe(el);
  }
}
export default { render };
"""

_CSS = """
.tartli-board { line-height: 0; }
.tartli-board svg { max-width: 100%; height: auto; }
.tartli-board > svg.tartli-table { width: auto; max-height: calc(100vh - 16px); }  /* a table fits the screen */
.tartli-board .tartli-hit:focus { outline: none; stroke: #1d4ed8; stroke-width: 4px; }
.tartli-board .tartli-hit:focus:not(:focus-visible) { stroke: none; }
"""


_LIVE_ESM = r"""
function render({ model, el }) {
  // One polite live region that stays in the page: its words change, the element does not (a region
  // made anew with each message is not announced). Read by screen readers only.
  const region = document.createElement("div");
  region.setAttribute("role", "status");
  region.setAttribute("aria-live", "polite");
  region.setAttribute("aria-atomic", "true");
  region.className = "tartli-sr-only tartli-live";
  el.appendChild(region);
  let timer = null;
  function say() {
    // emptied first, then filled a moment later: the same words twice are announced twice
    region.textContent = "";
    if (timer) { clearTimeout(timer); }
    timer = setTimeout(() => { region.textContent = model.get("text"); }, 60);
  }
  model.on("change:said", say);
}
export default { render };
"""


class Announcer(anywidget.AnyWidget):
    """What a screen reader says of the game: :meth:`say` puts a sentence in a polite live region
    (``role="status"``) that sighted learners do not see; each sentence is said once."""

    _esm = _LIVE_ESM
    text = traitlets.Unicode("").tag(sync=True)
    said = traitlets.Int(0).tag(sync=True)
    """Counts the sentences said (a change of it makes the browser say ``text``, even the same words again)."""

    def say(self, text: str) -> None:
        if text:
            self.text = text
            self.said += 1


class SvgBoard(anywidget.AnyWidget):
    """Shows ``svg`` and reports clicks on its ``data-pick`` elements."""

    _esm = _ESM
    _css = _CSS
    svg = traitlets.Unicode("").tag(sync=True)
    storage_key = traitlets.Unicode("").tag(sync=True)
    progress = traitlets.Unicode("{}").tag(sync=True)
    client_width = traitlets.Int(0).tag(sync=True)
    """The picture's width in CSS pixels on the learner's screen (0 until the browser says)."""

    def __init__(self, svg: str = "", **kwargs: Any) -> None:
        super().__init__(svg=svg, **kwargs)
        self._pick_handlers: list[Callable[[str], None]] = []
        self.on_msg(self._on_message)

    def on_pick(self, handler: Callable[[str], None]) -> None:
        """Call ``handler(pick)`` when a ``data-pick`` element is chosen."""
        self._pick_handlers.append(handler)

    def pick(self, value: str) -> None:
        """Act as if the element with ``data-pick=value`` was clicked (for tests and keyboard paths)."""
        for handler in list(self._pick_handlers):
            handler(value)

    def _on_message(self, _widget: Any, content: Any, _buffers: Any) -> None:
        if isinstance(content, dict) and content.get("event") == "pick" and isinstance(content.get("pick"), str):
            try:
                self.pick(content["pick"][:100])
            except Exception:  # a lesson's own handler, or a crafted pick: the page stays alive
                log.exception("a pick handler failed")

    # -- progress kept in localStorage
    def load_progress(self) -> dict[str, Any]:
        text = self.progress or "{}"
        if len(text) > 100_000:  # a few exercises' stars take a few hundred bytes
            log.warning("ignoring saved progress of %d characters", len(text))
            return {}
        try:
            data = json.loads(text)
        except (ValueError, RecursionError):
            log.warning("ignoring unreadable saved progress")
            return {}
        return data if isinstance(data, dict) else {}

    def save_progress(self, data: dict[str, Any]) -> None:
        self.progress = json.dumps(data, sort_keys=True)


_FILE_ESM = r"""
function render({ model, el }) {
  const input = document.createElement("input");
  input.type = "file";
  input.accept = model.get("accept");
  input.style.display = "none";
  const button = document.createElement("button");
  button.className = "jupyter-button widget-button";
  button.type = "button";
  button.textContent = model.get("label");
  button.title = model.get("label");
  button.addEventListener("click", () => input.click());
  input.addEventListener("change", () => {
    const file = input.files && input.files[0];
    input.value = "";
    if (!file) return;
    if (file.size > model.get("max_bytes")) {
      model.send({ event: "too-big", name: file.name, size: file.size });
      return;
    }
    file.arrayBuffer().then((data) => model.send({ event: "file", name: file.name }, undefined, [data]));
  });
  model.on("change:label", () => { button.textContent = model.get("label"); });
  el.append(button, input);
}
export default { render };
"""


def _too_big() -> str:
    """The message for a file over :data:`MAX_SAVED_GAME_BYTES`, in the page's language."""
    limit = grouped(MAX_SAVED_GAME_BYTES)  # 262,144; hu 262 144; de 262.144
    return _("that file is not a tartli/1 record: a record has at most {limit} bytes").format(limit=limit)


class RecordFile(anywidget.AnyWidget):
    """A button that opens a saved game record (a ``tartli/1`` file) from the learner's computer.

    (ipywidgets' FileUpload labels itself "Load record (0)", a count a learner has no use for.)
    The button's ``label`` is in the page's language (the browser shows what Python sends).
    """

    _esm = _FILE_ESM
    label = traitlets.Unicode("Open a saved game").tag(sync=True)
    accept = traitlets.Unicode(".json").tag(sync=True)
    max_bytes = traitlets.Int(MAX_SAVED_GAME_BYTES).tag(sync=True)

    def __init__(self, **kwargs: Any) -> None:
        kwargs.setdefault("label", _("Open a saved game"))
        super().__init__(**kwargs)
        self._handlers: list[Callable[[str], None]] = []
        self._errors: list[Callable[[TartliError], None]] = []
        self.on_msg(self._on_message)

    def on_text(self, handler: Callable[[str], None], on_error: Callable[[TartliError], None]) -> None:
        """``handler(text)`` with the text of each file chosen; ``on_error(err)`` for a file that is no record."""
        self._handlers.append(handler)
        self._errors.append(on_error)

    def receive(self, name: str, content: bytes) -> None:
        """A file arrived (as the browser sends it; tests call this too)."""
        try:
            text = record_text(content)
        except TartliError as err:
            self._fail(err)
            return
        for handler in list(self._handlers):
            handler(text)

    def _fail(self, err: TartliError) -> None:
        for on_error in list(self._errors):
            on_error(err)

    def _on_message(self, _widget: Any, content: Any, buffers: Any) -> None:
        if not isinstance(content, dict):
            return
        try:
            if content.get("event") == "too-big":
                self._fail(TartliError(_too_big()))
            elif content.get("event") == "file" and buffers:
                self.receive(str(content.get("name", "")), bytes(buffers[0]))
        except Exception:  # a crafted message: the page stays alive
            log.exception("a record file could not be read")


def record_text(content: bytes) -> str:
    """The text of a record file; :class:`TartliError` for one too large or not UTF-8 text."""
    if len(content) > MAX_SAVED_GAME_BYTES:  # before any decoding
        raise TartliError(_too_big())
    try:
        return content.decode("utf-8")
    except UnicodeDecodeError:
        raise TartliError(_("that file is not a tartli/1 record (not UTF-8 text)")) from None

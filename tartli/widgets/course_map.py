"""The course map of the index page, with the stars kept in this browser.

Progress lives in the browser's ``localStorage`` under keys starting with
``tartli.`` (each exercise's board writes there, see :mod:`tartli.widgets.board`).
The map reads those keys when it is shown, draws each page's stars beside its
link, and has a button that forgets the progress (after a confirmation).

Progress moves between devices (:mod:`tartli.widgets.progress_code`): *Copy my progress* makes a
short code of the stars and stages this browser holds (copied, and shown in the field), *Load
progress* takes a code pasted in the field and merges it with what the browser holds, the best of
each; a garbled code is refused with a message and changes nothing.
"""

from __future__ import annotations

import logging
from typing import Any

import anywidget
import traitlets

from tartli.course import PAGES, Page, page_url
from tartli.i18n import _
from tartli.widgets.progress_code import ProgressCodeError, merge_code, progress_code, stars

log = logging.getLogger(__name__)
MAX_KEYS = 2_000
"""The most ``localStorage`` keys a page's message about progress is read for (the course has about 200)."""

_ESM = r"""
function best(store) {
  const out = {};
  for (let i = 0; i < store.length; i++) {
    const key = store.key(i);
    if (!key || !key.startsWith("tartli.")) continue;
    let data;
    try { data = JSON.parse(store.getItem(key)); } catch (e) { continue; }
    if (!data || typeof data !== "object") continue;
    for (const [exercise, record] of Object.entries(data)) {
      const stars = record && Number.isInteger(record.best) ? record.best : 0;
      if (!(exercise in out) || stars > out[exercise]) out[exercise] = stars;
    }
  }
  return out;
}

function fill(template, values) {
  return template.replace(/\{(\w+)\}/g, (whole, name) => (name in values ? String(values[name]) : whole));
}

function collect(store) {
  // The progress this browser holds, as Python reads it: the tartli.* keys but the table's kept game.
  const out = {};
  if (!store) return out;
  for (let i = 0; i < store.length; i++) {
    const key = store.key(i);
    if (!key || !key.startsWith("tartli.") || key.startsWith("tartli.table.")) continue;
    const text = store.getItem(key);
    if (text !== null && text.length <= 100000) out[key] = text;
  }
  return out;
}

function render({ model, el }) {
  let store = null;
  try { store = window.localStorage; } catch (e) { store = null; }

  // Copy my progress / Load progress: made once, kept across redraws of the map.
  const panel = document.createElement("div");
  panel.className = "tartli-progress-code";
  panel.style.cssText = "margin-top:10px;display:flex;flex-wrap:wrap;gap:6px;align-items:center";
  const field = document.createElement("input");
  field.type = "text";
  field.className = "tartli-progress-field";
  field.style.cssText = "flex:1 1 16em;min-height:36px;font:inherit;padding:2px 6px";
  const copy = document.createElement("button");
  copy.type = "button";
  copy.className = "tartli-reset tartli-copy-progress";
  const load = document.createElement("button");
  load.type = "button";
  load.className = "tartli-reset tartli-load-progress";
  const said = document.createElement("p");
  said.className = "tartli-progress-said";
  said.setAttribute("role", "status");
  said.style.cssText = "flex-basis:100%;margin:4px 0";
  panel.append(copy, load, field, said);
  function label() {
    const words = model.get("words");
    copy.textContent = words.copy;
    load.textContent = words.load;
    field.setAttribute("aria-label", words.field);
    field.placeholder = words.field;
  }
  function say(text, error) {
    said.textContent = (error ? "⚠ " : "") + text;
    said.style.color = error ? "#a40000" : "#1f4d2b";
  }
  copy.addEventListener("click", () => model.send({ event: "copy", have: collect(store) }));
  load.addEventListener("click", () => model.send({ event: "load", code: field.value, have: collect(store) }));
  model.on("msg:custom", (msg) => {
    if (!msg || typeof msg !== "object") return;
    if (msg.event === "code") {
      field.value = msg.code;
      field.focus();
      field.select();
      const byHand = () => say(msg.by_hand, false);
      if (navigator.clipboard && window.isSecureContext) {
        navigator.clipboard.writeText(msg.code).then(() => say(msg.said, false), byHand);
      } else {
        byHand();
      }
    } else if (msg.event === "apply") {
      if (store) {
        for (const [key, text] of Object.entries(msg.writes || {})) {
          if (key.startsWith("tartli.")) { try { store.setItem(key, text); } catch (e) {} }
        }
      }
      draw();
      say(msg.said, false);
    } else if (msg.event === "said") {
      say(msg.said, !!msg.error);
    }
  });

  function draw() {
    const words = model.get("words");
    const progress = store ? best(store) : {};
    const list = document.createElement("ol");
    list.className = "tartli-map";
    list.style.cssText = "list-style:none;padding-left:0;line-height:1.9;font-size:1.05em";
    let earned = 0, possible = 0;
    model.get("pages").forEach((page, n) => {
      const item = document.createElement("li");
      const link = document.createElement("a");
      link.href = page.href;
      link.textContent = `${n + 1}. ${page.title}`;
      link.style.fontWeight = "600";
      item.appendChild(link);
      item.appendChild(document.createTextNode(` — ${page.summary} `));
      const ids = page.exercises || [];
      if (ids.length) {
        const got = ids.reduce((sum, id) => sum + (progress[id] || 0), 0);
        earned += got; possible += 3 * ids.length;
        const stars = document.createElement("span");
        stars.className = "tartli-stars";
        stars.setAttribute("aria-label", fill(words.stars, { got: got, total: 3 * ids.length }));
        stars.textContent = `★ ${got}/${3 * ids.length}`;
        stars.style.cssText = "color:#8a5a00;font-weight:600;white-space:nowrap";
        item.appendChild(stars);
      }
      list.appendChild(item);
    });
    const total = document.createElement("p");
    total.className = "tartli-total";
    total.textContent = possible ? fill(words.total, { earned: earned, possible: possible }) : "";
    const reset = document.createElement("button");
    reset.textContent = words.reset;
    reset.className = "tartli-reset";
    reset.addEventListener("click", () => {
      if (!store || !window.confirm(words.confirm)) return;
      const keys = [];
      for (let i = 0; i < store.length; i++) {
        const key = store.key(i);
        if (key && key.startsWith("tartli.")) keys.push(key);
      }
      keys.forEach((key) => store.removeItem(key));
      draw();
    });
    label();
    el.replaceChildren(list, total, reset, panel);
  }
  model.on("change:pages", draw);
  model.on("change:words", draw);
  draw();
}
export default { render };
"""


class CourseMap(anywidget.AnyWidget):
    """The list of pages with links and, for pages with exercises, the stars earned in this browser."""

    _esm = _ESM
    pages = traitlets.List(traitlets.Dict()).tag(sync=True)
    words = traitlets.Dict().tag(sync=True)
    """The map's own words in the page's language (``{got}``-style fields filled in by the browser)."""

    @classmethod
    def of(cls, pages: tuple[Page, ...] = PAGES) -> CourseMap:
        """The map of the course (the index page itself left out), in the page's language."""
        return cls(pages=[_entry(p) for p in pages[1:]])

    @traitlets.default("words")
    def _words(self) -> dict[str, str]:
        return map_words()

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.sent: list[dict[str, Any]] = []
        """What was sent to the page about progress codes (the last message last): for tests."""
        self.on_msg(self._on_message)

    def copy_progress(self, have: dict[str, str]) -> dict[str, Any]:
        """The code of the progress the browser holds (``have``: its ``tartli.*`` keys), sent to the page."""
        code = progress_code(have)
        said = _("Your progress code ({stars} stars) is copied: paste it into Load progress on your other device.")
        by_hand = _("Your progress code ({stars} stars) is in the field: copy it, then paste it into Load progress.")
        return self._reply(
            {
                "event": "code",
                "code": code,
                "said": said.format(stars=stars(have)),
                "by_hand": by_hand.format(stars=stars(have)),
            }
        )

    def load_progress(self, code: str, have: dict[str, str]) -> dict[str, Any]:
        """Merge a code into the progress the browser holds: the keys to write are sent to the page
        (a bad code: a message, and nothing written)."""
        if not code.strip():
            return self._reply(
                {"event": "said", "said": _("Paste a progress code into the field first."), "error": True}
            )
        try:
            writes = merge_code(code, have)
        except ProgressCodeError as err:
            return self._reply({"event": "said", "said": str(err), "error": True})
        after = {**have, **writes}
        said = _("Progress loaded: {stars} stars in this browser now (the best of both kept).")
        return self._reply({"event": "apply", "writes": writes, "said": said.format(stars=stars(after))})

    def _reply(self, message: dict[str, Any]) -> dict[str, Any]:
        self.sent.append(message)
        del self.sent[:-5]
        self.send(message)
        return message

    def _on_message(self, _widget: Any, content: Any, _buffers: Any) -> None:
        if not isinstance(content, dict):
            return
        have = content.get("have")
        if not isinstance(have, dict) or len(have) > MAX_KEYS:
            have = {}
        have = {k: v for k, v in have.items() if isinstance(k, str) and isinstance(v, str)}
        try:
            if content.get("event") == "copy":
                self.copy_progress(have)
            elif content.get("event") == "load":
                code = content.get("code")
                self.load_progress(code[:100_000] if isinstance(code, str) else "", have)
        except Exception:  # a crafted message: the page stays alive
            log.exception("a progress code could not be made or read")
            wrong = _("Something went wrong; your progress is unchanged.")
            self._reply({"event": "said", "said": wrong, "error": True})


def map_words() -> dict[str, str]:
    """The course map's words: a page's stars, the total, the reset button and its question."""
    return {
        "stars": _("{got} of {total} stars"),
        "total": _("Stars so far: {earned} of {possible}."),
        "reset": _("Forget my progress"),
        "confirm": _("Forget all stars kept in this browser?"),
        "copy": _("Copy my progress"),
        "load": _("Load progress"),
        "field": _("Progress code"),
    }


def _entry(page: Page) -> dict[str, Any]:
    return {
        "title": _(page.title),
        "summary": _(page.summary),
        "href": page_url(page),
        "exercises": list(page.exercises),
    }

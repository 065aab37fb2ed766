"""The course map of the index page, with the stars kept in this browser.

Progress lives in the browser's ``localStorage`` under keys starting with
``tartli.`` (each exercise's board writes there, see :mod:`tartli.widgets.board`).
The map reads those keys when it is shown, draws each page's stars beside its
link, and has a button that forgets the progress (after a confirmation).
"""

from __future__ import annotations

from typing import Any

import anywidget
import traitlets

from tartli.course import PAGES, Page, page_url
from tartli.i18n import _

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

function render({ model, el }) {
  let store = null;
  try { store = window.localStorage; } catch (e) { store = null; }

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
    el.replaceChildren(list, total, reset);
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


def map_words() -> dict[str, str]:
    """The course map's words: a page's stars, the total, the reset button and its question."""
    return {
        "stars": _("{got} of {total} stars"),
        "total": _("Stars so far: {earned} of {possible}."),
        "reset": _("Forget my progress"),
        "confirm": _("Forget all stars kept in this browser?"),
    }


def _entry(page: Page) -> dict[str, Any]:
    return {
        "title": _(page.title),
        "summary": _(page.summary),
        "href": page_url(page),
        "exercises": list(page.exercises),
    }

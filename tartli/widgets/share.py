"""The *Share* button: copies a link to the position on the page (:mod:`tartli.share`).

Python keeps the link's query (``record=...&move=N&as=S``) up to date in the ``query`` trait; the
browser adds it to the page's own address (its path and ``?lang=``, without an older position or
``#step-``) when the button is pressed, copies the link to the clipboard, and shows it in a text
field as well, selected, so that it can be copied by hand where the clipboard is not available (an
address that is not https, a browser that asks first).
"""

from __future__ import annotations

import logging
import os

import anywidget
import traitlets

from tartli.i18n import _
from tartli.share import SharedPosition, ShareError

log = logging.getLogger(__name__)

_ESM = r"""
function render({ model, el }) {
  el.classList.add("tartli-share");
  const words = () => model.get("words");
  const button = document.createElement("button");
  button.type = "button";
  button.className = "jupyter-button widget-button tartli-share-button";
  const field = document.createElement("input");
  field.type = "text";
  field.readOnly = true;
  field.className = "tartli-share-link";
  field.style.cssText = "display:none;width:min(28em,90vw);font:inherit;padding:2px 6px";
  const said = document.createElement("span");
  said.className = "tartli-share-said";
  said.setAttribute("role", "status");
  said.style.cssText = "margin:0 8px;color:#1f4d2b";
  function label() {
    button.textContent = words().share;
    button.title = words().hint;
    field.setAttribute("aria-label", words().field);
  }
  function link() {
    const url = new URL(window.location.href);
    for (const key of ["record", "move", "as", "tartli_cookie"]) { url.searchParams.delete(key); }
    url.hash = "";
    const base = url.toString();
    return base + (url.search ? "&" : "?") + model.get("query");
  }
  function showField(text) {
    field.value = text;
    field.style.display = "";
    field.focus();
    field.select();
  }
  button.addEventListener("click", () => {
    const text = link();
    showField(text);
    const byHand = () => { said.textContent = words().by_hand; };
    if (navigator.clipboard && window.isSecureContext) {
      navigator.clipboard.writeText(text).then(() => { said.textContent = words().copied; }, byHand);
    } else {
      byHand();
    }
    model.send({ event: "shared", length: text.length });
  });
  model.on("change:words", label);
  label();
  el.append(button, said, field);
}
export default { render };
"""


class ShareButton(anywidget.AnyWidget):
    """A *Share* button; set :attr:`query` to the position's link query (``share_query``)."""

    _esm = _ESM
    query = traitlets.Unicode("").tag(sync=True)
    words = traitlets.Dict().tag(sync=True)

    def __init__(self, **kwargs: object) -> None:
        super().__init__(**kwargs)
        self.shared = 0
        """How many times the link was made in the browser (the page reports each press)."""
        self.on_msg(self._on_message)

    @traitlets.default("words")
    def _words(self) -> dict[str, str]:
        return {
            "share": _("Share"),
            "hint": _("Copy a link to this position, to send or to open on another device"),
            "field": _("Link to this position"),
            "copied": _("Link copied: paste it into a message."),
            "by_hand": _("Copy the link from the field."),
        }

    def _on_message(self, _widget: object, content: object, _buffers: object) -> None:
        if isinstance(content, dict) and content.get("event") == "shared":
            self.shared += 1


def page_query() -> str:
    """The query of this page's address as Voilà gives it to the kernel (``QUERY_STRING``; empty elsewhere)."""
    return os.environ.get("QUERY_STRING", "")


def position_from_address(query: str | None = None) -> tuple[SharedPosition | None, str | None]:
    """The position a page address names and, if its link cannot be opened, why (translated)."""
    try:
        return SharedPosition.from_query(page_query() if query is None else query), None
    except ShareError as err:
        log.info("a link refused: %s (%s)", err.rule, err.field)
        return None, str(err)


__all__ = ["ShareButton", "page_query", "position_from_address"]

"""The *Share* button: copies a link to the position on the page (:mod:`tartli.share`).

Python keeps the link's query (``record=...&move=N&as=S``) up to date in the ``query`` trait; the
browser adds it to the page's own address (its path and ``?lang=``, without an older position or
``#step-``) when the button is pressed, copies the link to the clipboard, and shows it in a text
field as well, selected, so that it can be copied by hand where the clipboard is not available (an
address that is not https, a browser that asks first).

The button also tells Python the page's own address when Python could not know it: Voilà gives a
page's kernel its query (``QUERY_STRING``), but the static edition's kernel runs in the browser
without it. A page that asked for links (``listen_address``) and has not opened one yet gets a
message with the address's query as soon as the button is shown (:meth:`ShareButton.on_address`).
"""

from __future__ import annotations

import logging
import os
from collections.abc import Callable

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
  // The page's own address, for a kernel that was not given it (the static edition's).
  const search = window.location.search || "";
  if (model.get("listen_address") && !model.get("address_handled") && /[?&]record=/.test(search)) {
    model.send({ event: "address", query: search.slice(1, 20000) });
  }
}
export default { render };
"""


class ShareButton(anywidget.AnyWidget):
    """A *Share* button; set :attr:`query` to the position's link query (``share_query``)."""

    _esm = _ESM
    query = traitlets.Unicode("").tag(sync=True)
    words = traitlets.Dict().tag(sync=True)
    listen_address = traitlets.Bool(False).tag(sync=True)
    """The page opens links: send Python the address's query if it names a position."""
    address_handled = traitlets.Bool(False).tag(sync=True)
    """Python has opened (or refused) the link of this page already: nothing to send."""

    def __init__(self, **kwargs: object) -> None:
        super().__init__(**kwargs)
        self.shared = 0
        """How many times the link was made in the browser (the page reports each press)."""
        self._address_handlers: list[Callable[[str], None]] = []
        self.on_msg(self._on_message)

    def on_address(self, handler: Callable[[str], None]) -> None:
        """Call ``handler(query)`` once with the page address's query (see the module notes)."""
        self._address_handlers.append(handler)
        self.listen_address = True

    def address(self, query: str) -> None:
        """The page's address arrived (as the browser sends it; tests call this too): handled once."""
        if self.address_handled:
            return
        self.address_handled = True
        for handler in list(self._address_handlers):
            handler(query)

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
        if not isinstance(content, dict):
            return
        if content.get("event") == "shared":
            self.shared += 1
        elif content.get("event") == "address" and isinstance(content.get("query"), str):
            try:
                self.address(content["query"])
            except Exception:  # a crafted message: the page stays alive
                log.exception("a page address could not be opened")


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


def open_linked(
    query: str | None,
    open_position: Callable[[SharedPosition], object],
    refused: Callable[[str], None],
) -> bool:
    """Open the position the address names with ``open_position``; True if one was opened. A link that
    cannot be opened is told to ``refused`` (the sentence for the page, translated) and opens nothing."""
    position, why = position_from_address(query)
    if why is not None:
        refused(_("This link cannot be opened: {why}. Here is a fresh deal instead.").format(why=why))
        return False
    if position is None:
        return False
    open_position(position)
    return True


__all__ = ["ShareButton", "open_linked", "page_query", "position_from_address"]

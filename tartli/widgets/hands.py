"""The hands a learner played at a table, kept in the browser for a class's teacher (issue 37).

A table that keeps its game in the browser (``keep_in_browser``: the table page, lesson 10) also counts
the hands played there to their end, and the hands reviewed with their accuracy, under
``tartli.hands.<name>`` in ``localStorage``: ``{"played": 7, "reviewed": 3, "accuracy": 241}`` (the sum of
the reviewed hands' accuracies, in whole percent, so that the mean is ``accuracy / reviewed``). A progress
code carries them (:mod:`tartli.widgets.progress_code`) and the teacher's table shows them
(:mod:`tartli.classview`). The counts only grow: what the browser held (``kept``, read when the page
opens) plus what this page added (``added``).
"""

from __future__ import annotations

from typing import Any

import anywidget
import traitlets

FIELDS = ("played", "reviewed", "accuracy")
"""A record's numbers, in the order a progress code writes them."""

_ESM = r"""
function render({ model, el }) {
  el.style.display = "none";
  const key = model.get("key");
  try {
    const kept = JSON.parse(window.localStorage.getItem(key) || "{}");
    const clean = {};
    ["played", "reviewed", "accuracy"].forEach((f) => {
      if (Number.isInteger(kept[f]) && kept[f] >= 0) clean[f] = kept[f];
    });
    model.set("kept", clean);
    model.save_changes();
  } catch (e) { /* storage may be blocked, or hold something else */ }
  const write = () => {
    try { window.localStorage.setItem(key, JSON.stringify(model.get("record"))); } catch (e) { /* blocked */ }
  };
  model.on("change:record", write);
}
export default { render };
"""


class HandsKept(anywidget.AnyWidget):
    """The hands of one table, kept in the browser under :attr:`key`."""

    _esm = _ESM
    key = traitlets.Unicode("").tag(sync=True)
    kept = traitlets.Dict(value_trait=traitlets.Int()).tag(sync=True)
    """What the browser held when the page opened (the page sends it)."""
    record = traitlets.Dict(value_trait=traitlets.Int()).tag(sync=True)
    """What the browser holds now: :attr:`kept` and this page's hands (the page writes it)."""

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.added = dict.fromkeys(FIELDS, 0)
        self.observe(lambda _change: self._sum(), names="kept")

    def _sum(self) -> None:
        record = {f: max(0, int(self.kept.get(f, 0))) + self.added[f] for f in FIELDS}
        if record != self.record:
            self.record = record

    def hand_played(self) -> None:
        """A hand was played to its end."""
        self.added["played"] += 1
        self._sum()

    def hand_reviewed(self, accuracy: float | None) -> None:
        """A played hand was reviewed (``accuracy``: its mean accuracy in percent; None: no decision)."""
        if accuracy is None:
            return
        self.added["reviewed"] += 1
        self.added["accuracy"] += max(0, min(100, round(accuracy)))
        self._sum()


__all__ = ["FIELDS", "HandsKept"]

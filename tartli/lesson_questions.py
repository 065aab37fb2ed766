"""The lessons' questions and their right answers, by lesson and step, for the teacher's page.

The teacher's page lists the questions a class misses most with their right answer
(:mod:`tartli.classview`). The course's server does not run the lessons' notebooks to learn them:
this module does, once, when the course is built (``python -m tartli.lesson_questions`` writes
:data:`QUESTIONS_FILE`, shipped in the package), in each language. A test builds it afresh and compares,
so the file cannot fall behind the lessons.

The questions are the same for every learner (a lesson's examples are fixed deals), so the file names
exactly the question a pupil answered at that step.
"""

from __future__ import annotations

import functools
import json
import os
import sys
from pathlib import Path
from typing import Any

from tartli.course import PAGES, notebooks_dir
from tartli.i18n import language, set_language

QUESTIONS_FILE = Path(__file__).resolve().parent / "lesson_questions.json"
LANGUAGES = ("en", "hu", "de")


def run_lesson(file: str) -> Any:
    """The lesson of notebook ``file``, made by running its code cells (in its folder, as Voilà does)."""
    from tartli.widgets.steps import Lesson  # (the widgets only where a lesson is run)

    folder = notebooks_dir()
    notebook = json.loads((folder / file).read_text(encoding="utf-8"))
    namespace: dict[str, Any] = {}
    here = os.getcwd()
    os.chdir(folder)
    try:
        for cell in notebook["cells"]:
            if cell["cell_type"] == "code":
                exec(compile("".join(cell["source"]), file, "exec"), namespace)
    finally:
        os.chdir(here)
    found = [v for v in namespace.values() if isinstance(v, Lesson)]
    if len(found) != 1:
        raise ValueError(f"{file}: one Lesson a notebook, found {len(found)}")
    return found[0]


def questions_of(file: str, lang: str) -> dict[str, list[str]]:
    """``{step: [question, right answer]}`` (both as HTML) of the lesson ``file`` in ``lang``."""
    from tartli.widgets.steps import Question, _inline

    before = language()
    set_language(lang)
    try:
        lesson = run_lesson(file)
    finally:
        set_language(before)
    return {
        str(number): [_inline(step.task.prompt), _inline(step.task.answer_text)]
        for number, step in enumerate(lesson.steps, 1)
        if isinstance(step.task, Question)
    }


def build() -> dict[str, dict[str, dict[str, list[str]]]]:
    """Every lesson's questions in every language: ``{lang: {lesson: {step: [question, answer]}}}``."""
    lessons = [p.file for p in PAGES if p.steps]
    return {lang: {f.removesuffix(".ipynb"): questions_of(f, lang) for f in lessons} for lang in LANGUAGES}


@functools.cache
def questions(lang: str) -> dict[str, dict[str, list[str]]]:
    """The shipped questions in ``lang`` (English for a language the file does not have)."""
    try:
        every = json.loads(QUESTIONS_FILE.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}
    found: dict[str, dict[str, list[str]]] = every.get(lang) or every.get("en") or {}
    return found


def main() -> None:
    """``python -m tartli.lesson_questions``: write :data:`QUESTIONS_FILE` afresh."""
    import io
    from contextlib import redirect_stdout

    with redirect_stdout(io.StringIO()):  # (a lesson displays its widgets: nothing to print here)
        made = build()
    QUESTIONS_FILE.write_text(json.dumps(made, ensure_ascii=False, indent=1, sort_keys=True) + "\n", encoding="utf-8")
    count = sum(len(q) for q in made["en"].values())
    print(f"{QUESTIONS_FILE.name}: {count} questions in {len(made)} languages", file=sys.stderr)


if __name__ == "__main__":
    main()

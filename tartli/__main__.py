"""Command line: ``tartli`` serves the course; ``tartli replay FILE``; ``tartli review FILE``; ``tartli bench``;
``tartli tournament``; ``tartli worksheet LESSON``.

``tartli`` alone (or ``tartli course``) starts the Voilà app on 127.0.0.1 and
prints the address of the lesson index. ``python -m tartli`` is the same.

``replay`` prints the ``tartli-result/1`` JSON of a ``tartli/1`` record (RECORD.md). ``review``
prints one JSON object per decision of a player (:mod:`tartli.bots.review`: ``index`` in the
record's moves, ``phase``, ``move``, ``best``, ``loss`` in points, ``class``...) and then a summary
object. ``bench --hint-vs medium`` plays the Hint against the computer of a level. ``worksheet 02
--seed 7 --language hu -o sheet.html`` writes a lesson's printable worksheet and its answer key
(:mod:`tartli.worksheets`).
A malformed record, a missing file or an illegal move prints one line on stderr
and exits with status 2; nothing goes to stdout then. The line has at most
:data:`MAX_ERROR_LINE` characters, and what is not printable in it (control and
format characters, e.g. U+202E) is escaped (``\\u202e``). Only a regular file is
read: a FIFO, a folder or a device is refused before it is opened, so that
``replay`` never waits for a writer.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from collections.abc import Callable, Sequence
from typing import NoReturn

from tartli.errors import TartliError, cut, printable
from tartli.record import replay_file

MAX_ERROR_LINE = 300
"""The longest error line ``replay`` prints, in characters (a long line is cut, its length said within them)."""


def error_line(text: str) -> str:
    """``text`` as one line for stderr: whitespace runs made one space, what is not printable
    escaped, at most :data:`MAX_ERROR_LINE` characters in all."""
    return cut(printable(" ".join(text.split())), MAX_ERROR_LINE)


class _ArgumentError(Exception):
    pass


class _Parser(argparse.ArgumentParser):
    """Reports a usage error as one line (main prints it), for sub-commands too."""

    def error(self, message: str) -> NoReturn:
        raise _ArgumentError(message)


def _parser() -> argparse.ArgumentParser:
    parser = _Parser(prog="tartli", description="Tartli: engine tools and the course.")
    sub = parser.add_subparsers(dest="command", parser_class=_Parser)
    rep = sub.add_parser("replay", help="replay a tartli/1 record and print its tartli-result/1 JSON")
    rep.add_argument("file", help="the record file (JSON)")
    rev = sub.add_parser("review", help="judge every decision of a player in a tartli/1 record (one JSON line each)")
    rev.add_argument("file", help="the record file (JSON)")
    rev.add_argument("--player", type=int, choices=(0, 1), default=0, help="the player to review (default 0)")
    rev.add_argument(
        "--samples",
        type=int,
        default=None,
        help="deals of the hidden cards per phase-1 decision (default: the course's, the Hint's; "
        "each position is dealt from itself, so the same record gets the same review)",
    )
    bench = sub.add_parser(
        "bench", help="play random hands and print hands per second; --hint-vs: the Hint against the computer"
    )
    bench.add_argument("--hands", type=int, default=None, help="hands (default 20000; with --hint-vs 200)")
    bench.add_argument("--seed", type=int, default=1)
    bench.add_argument("--rules", default="hungarian")
    bench.add_argument(
        "--hint-vs",
        choices=("medium", "hard", "reference"),
        default=None,
        help="play a player who always follows the Hint against this level (reference: today's Hard, kept fixed)",
    )
    bench.add_argument("--samples", type=int, default=None, help="with --hint-vs: the Hint's deals per position")
    bench.add_argument(
        "--jobs", type=int, default=1, help="with --hint-vs: processes to play the deals in (the same figures)"
    )
    bench.add_argument(
        "--told",
        choices=("hand", "deal"),
        default=None,
        help="with --hint-vs: a ceiling, the Hint told the opponent's hand (deal: and the talon's order)",
    )
    tour = sub.add_parser("tournament", help="play bots against each other (seat-swapped hands or matches)")
    tour.add_argument("--a", default="search", help="bot A: random, heuristic or search (or easy, medium, hard)")
    tour.add_argument("--b", default="heuristic", help="bot B")
    tour.add_argument("--hands", type=int, default=1000, help="hands (each deal is played twice, seats exchanged)")
    tour.add_argument("--matches", type=int, default=0, help="play this many whole matches instead of hands")
    tour.add_argument("--buli", type=int, default=1, help="buli to win a match (1: one game to 501)")
    tour.add_argument("--seed", type=int, default=1)
    tour.add_argument("--rules", default="hungarian")
    tour.add_argument("--budget-ms", type=float, default=120.0, help="the search bot's time per decision")
    tour.add_argument("--jobs", type=int, default=1, help="processes to play the deals in (hands, not matches)")
    tour.add_argument("--samples", type=int, default=None, help="budget the search bot by samples (reproducible)")
    sheet = sub.add_parser(
        "worksheet", help="write a lesson's printable worksheet (A4) and its answer key as one HTML page"
    )
    sheet.add_argument("lesson", help="the lesson: 01, 02, 03, 04, 05, 06, 07, 08, 09, 11 or 12")
    sheet.add_argument(
        "--seed", default="1", help="the sheet's number, 0 to 999999999 (default 1): each number its own tasks"
    )
    sheet.add_argument("--language", default="en", help="en, hu or de (default en)")
    sheet.add_argument("-o", "--output", metavar="FILE", help="write the page to FILE (default: standard output)")
    course = sub.add_parser("course", help="serve the course with Voilà on 127.0.0.1 (the default command)")
    course.add_argument("--port", type=int, default=None, help="port (default 8866)")
    course.add_argument("--ip", default=None, help="address to listen on (default 127.0.0.1)")
    course.add_argument(
        "--allow-host",
        action="append",
        default=[],
        metavar="NAME",
        help="also answer to this host name, e.g. a classroom server's (repeatable; default: 127.0.0.1 and localhost)",
    )
    course.add_argument(
        "--max-kernels",
        type=int,
        default=None,
        metavar="N",
        help="kernels at once, one a page open (default: memory / 64 MiB, at most 50)",
    )
    course.add_argument(
        "--kernels-per-browser",
        type=int,
        default=None,
        metavar="N",
        help="pages one browser may have open at once (default 4)",
    )
    course.add_argument(
        "--language",
        choices=("en", "hu", "de"),
        default=None,
        help="the language the class learns in: a browser that has chosen none gets the course in it, from pages "
        "prepared ahead of time (without it: the browser's own language, else English; a learner's switch wins)",
    )
    course.add_argument(
        "--class-size",
        type=int,
        default=None,
        metavar="N",
        help="pupils who open the course at once: N kernels are kept ready for the index and for each --prepare page "
        "(within --max-kernels and half the memory available), refilled as pupils take them",
    )
    course.add_argument(
        "--prepare",
        action="append",
        default=[],
        metavar="PAGE",
        help='with --class-size, the page the class opens today, e.g. "03" or "03_deal" (repeatable)',
    )
    course.add_argument(
        "--class",
        dest="class_name",
        default=None,
        metavar="NAME",
        help="open a class, e.g. \"7.b\": the pupils' code and the link to the teacher's page are printed (the same "
        "class after a restart; without it, the teacher's page at /tartli/teacher makes one)",
    )
    course.add_argument(
        "--data",
        default=None,
        metavar="DIR",
        help="the folder the classes are kept in (default: ~/.local/share/tartli; first names and progress only)",
    )
    course.add_argument("--verbose", action="store_true", help="log every page and kernel (default: warnings only)")
    return parser


def _print(text: str) -> int:
    """Print to stdout; a reader that stopped early (``tartli replay FILE | head -1``) is no error."""
    try:
        print(text)
        sys.stdout.flush()
    except BrokenPipeError:
        # Python's documented recipe: point stdout at devnull so the flush at exit does not fail again.
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
    return 0


def _on_record(what: str, work: Callable[[], str]) -> int:
    """Print what a command on a record gives, or one line on stderr and status 2 (replay, review)."""
    try:
        text = work()
    except TartliError as err:
        print(error_line(str(err)), file=sys.stderr)
        return 2
    except (RecursionError, MemoryError, ValueError, TypeError, OverflowError) as err:
        # Not expected (the fuzz test looks for it), but the contract holds: one line, status 2.
        print(error_line(f"tartli: cannot {what} this record ({type(err).__name__})"), file=sys.stderr)
        return 2
    return _print(text)


def _review(path: str, player: int, samples: int | None) -> str:
    """``tartli review``: one JSON object per decision of ``player``, then the summary object."""
    from tartli.bots.evaluate import COURSE
    from tartli.bots.review import review
    from tartli.record import Record

    found = review(Record.load(path), player, samples=samples)
    samples = COURSE.deals if samples is None else samples
    lines = [json.dumps(d.to_dict(), ensure_ascii=False) for d in found.decisions]
    errors = sorted(found.sampling_errors)
    summary = {
        "summary": found.summary.to_dict(),
        "samples": samples,
        "loss_se": {
            "mean": round(sum(errors) / len(errors), 1) if errors else None,
            "median": round(errors[len(errors) // 2], 1) if errors else None,
            "losses": len(errors),
        },
        "seconds": round(found.seconds, 2),
    }
    lines.append(json.dumps(summary, ensure_ascii=False))
    return "\n".join(lines)


def _worksheet(lesson: str, seed: str, language: str, output: str | None) -> int:
    """``tartli worksheet``: the page on stdout or in ``output``; a bad lesson, seed or language, or a file
    that cannot be written, is one line on stderr and status 2."""
    from tartli.worksheets import WorksheetError, parse_seed, worksheet

    try:
        page = worksheet(lesson, parse_seed(seed), language)
    except WorksheetError as err:
        print(error_line(f"tartli: {err}"), file=sys.stderr)
        return 2
    if output is None:
        return _print(page.rstrip("\n"))
    try:
        with open(output, "w", encoding="utf-8") as file:
            file.write(page)
    except OSError as err:
        print(error_line(f"tartli: cannot write {output}: {err.strerror or err}"), file=sys.stderr)
        return 2
    return 0


def main(argv: Sequence[str] | None = None) -> int:
    parser = _parser()
    try:
        args = parser.parse_args(argv)
    except _ArgumentError as err:
        print(error_line(f"tartli: {err} (see 'tartli --help')"), file=sys.stderr)
        return 2
    if args.command == "replay":
        return _on_record("replay", lambda: json.dumps(replay_file(args.file), indent=1, ensure_ascii=False))
    if args.command == "review":
        if args.samples is not None and args.samples < 1:
            print(error_line("tartli: --samples must be 1 or more"), file=sys.stderr)
            return 2
        return _on_record("review", lambda: _review(args.file, args.player, args.samples))
    if args.command == "bench":
        if args.hint_vs is not None:
            from tartli.bots.tournament import run_hint_bench

            hands = 200 if args.hands is None else args.hands
            try:
                if hands < 1 or args.jobs < 1 or (args.samples is not None and args.samples < 1):
                    raise ValueError("--hands, --jobs and --samples must be 1 or more")
                run_hint_bench(
                    args.hint_vs, hands, args.seed, args.rules, samples=args.samples, jobs=args.jobs, told=args.told
                )
            except (ValueError, TartliError) as err:
                print(error_line(f"tartli: {err}"), file=sys.stderr)
                return 2
            return 0
        if args.told is not None:
            print(error_line("tartli: --told goes with --hint-vs"), file=sys.stderr)
            return 2
        from tartli.bench import run

        run(20000 if args.hands is None else args.hands, args.seed, args.rules)
        return 0
    if args.command == "tournament":
        from tartli.bots.tournament import run_hands, run_matches

        try:
            budget = {"budget_ms": args.budget_ms, "samples": args.samples}
            if args.matches:
                run_matches(args.a, args.b, args.matches, args.seed, args.rules, buli=args.buli, **budget)
            else:
                run_hands(args.a, args.b, args.hands, args.seed, args.rules, jobs=args.jobs, **budget)
        except (ValueError, TartliError) as err:
            print(error_line(f"tartli: {err}"), file=sys.stderr)
            return 2
        return 0
    if args.command == "worksheet":
        return _worksheet(args.lesson, args.seed, args.language, args.output)
    from tartli.app import main as serve

    if args.command == "course":
        extra = [f"--TartliVoila.allowed_hosts={name}" for name in args.allow_host]
        if args.allow_host:
            extra = ["--TartliVoila.allowed_hosts=127.0.0.1", "--TartliVoila.allowed_hosts=localhost", *extra]
        if args.max_kernels is not None:
            if args.max_kernels < 1:
                print("tartli: --max-kernels must be 1 or more", file=sys.stderr)
                return 2
            extra.append(f"--TartliVoila.max_kernels={args.max_kernels}")
        if args.kernels_per_browser is not None:
            if args.kernels_per_browser < 1:
                print("tartli: --kernels-per-browser must be 1 or more", file=sys.stderr)
                return 2
            extra.append(f"--TartliVoila.kernels_per_visitor={args.kernels_per_browser}")
        if args.language is not None:
            extra.append(f"--TartliVoila.language={args.language}")
        if args.class_size is not None:
            if not 1 <= args.class_size <= 200:
                print("tartli: --class-size is the number of pupils, 1 to 200", file=sys.stderr)
                return 2
            extra.append(f"--TartliVoila.class_size={args.class_size}")
        if args.prepare and args.class_size is None:
            print("tartli: --prepare needs --class-size (how many pupils open the page)", file=sys.stderr)
            return 2
        for asked in (name for value in args.prepare for name in value.split(",") if name.strip()):
            from tartli.course import PAGES, page_named

            found = page_named(asked)
            if found is None:
                known = ", ".join(p.file.removesuffix(".ipynb") for p in PAGES)
                print(f"tartli: --prepare {asked!r} is not a page of the course: {known}", file=sys.stderr)
                return 2
            extra.append(f"--TartliVoila.prepare={found}")
        if args.class_name is not None:
            if not args.class_name.strip():
                print('tartli: --class needs a name, e.g. --class "7.b"', file=sys.stderr)
                return 2
            extra.append(f"--TartliVoila.class_name={args.class_name}")
        if args.data is not None:
            extra.append(f"--TartliVoila.data_dir={args.data}")
        if args.verbose:
            extra.append("--Voila.log_level=INFO")
        return serve(args.port, args.ip, extra)
    return serve()


if __name__ == "__main__":
    sys.exit(main())

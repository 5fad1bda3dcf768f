"""Imported by the fork server of the search processes, and only there: loads the work of a request
and runs a small case of each kind once, so that every process forked from it starts with the
parser built, the backends loaded and their first-use costs paid (a quick puzzle then costs a
process about what it costs a thread).

A module because a fork server's preloading is an import. Nothing is kept but what Python and the
libraries cache; a failure here only leaves the processes colder.
"""

from __future__ import annotations

import contextlib
import gc


def warm_up() -> None:
    from smtcrypt.api import Puzzle
    from smtcrypt.web.jobs import WORK, Job
    from smtcrypt.web.query import Query

    for formula, strategy in (("SEND + MORE = MONEY", "auto"), ("ODD * ODD = FREAKY", "auto"),
                              ("A * B = CD", "z3"), ("AB + CD = EFG", "exhaustive")):
        Puzzle(formula).search(timeout=5, strategy=strategy).run()
    jobs = [Job(kind, 10.0, query=Query("SEND + MORE = MONEY")) for kind in ("check", "explain")]
    jobs.append(Job("play", 10.0, body={"formula": "SEND + MORE = MONEY", "decisions": ["M = 1"]}))
    for job in jobs:
        job.start_clock()
        WORK[job.kind](job)


def leave_main_alone() -> None:
    """Each process forked from here runs `process.run`, which never looks at the server's main module;
    multiprocessing would still run that module again in every process (a script, such as the
    `smtcrypt` command's, a cost on every request: docs/web.md), since Python 3.11's fork server cannot preload
    it. This fork server serves the web's work alone, so here the fix-up does nothing."""
    from multiprocessing import spawn

    spawn._fixup_main_from_path = lambda main_path: None  # type: ignore[attr-defined]
    spawn._fixup_main_from_name = lambda mod_name: None  # type: ignore[attr-defined]


leave_main_alone()
with contextlib.suppress(Exception):
    warm_up()
gc.freeze()  # what is loaded stays where it is: a forked process's collections never touch (copy) it

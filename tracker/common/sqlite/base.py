"""SQLite for several writers at once: Django's backend, with writers taking turns.

Every transaction begins with ``BEGIN IMMEDIATE`` (``transaction_mode`` in the settings), so
writers queue for SQLite's write lock instead of failing half-way. But SQLite's busy handler
waits longer each time it finds the lock taken (1, 2, 5 … up to 100 ms between tries): a
tablet that has waited a while tries every 100 ms, while one that just arrived tries after a
millisecond and wins. Under steady writing the long waiters kept losing, and eight tablets
saving without pause had a p99 of 1.7 s on their own (`bench/import.py`,
`tablet_p99_ms_alone`). So each transaction first takes an exclusive ``flock`` on a file
beside the database: the kernel wakes a waiter the moment the holder is done, newcomers
have no head start, and SQLite's lock is then free when it is asked for.
"""

from __future__ import annotations

import fcntl
import os
from pathlib import Path

from django.db.backends.sqlite3 import base


class DatabaseWrapper(base.DatabaseWrapper):
    _turn: int | None = None  # the open lock file, while this connection holds the turn

    def _start_transaction_under_autocommit(self) -> None:
        self._take_turn()
        try:
            super()._start_transaction_under_autocommit()
        except BaseException:
            self._end_turn()
            raise

    def _commit(self) -> None:
        try:
            super()._commit()
        finally:
            self._end_turn()

    def _rollback(self) -> None:
        try:
            super()._rollback()
        finally:
            self._end_turn()

    def _close(self) -> None:
        try:
            super()._close()
        finally:
            self._end_turn()

    def _take_turn(self) -> None:
        if self._turn is not None or self.is_in_memory_db():
            return
        path = Path(str(self.settings_dict["NAME"]) + ".turn")
        turn = os.open(path, os.O_RDWR | os.O_CREAT, 0o600)
        try:
            fcntl.flock(turn, fcntl.LOCK_EX)
        except BaseException:
            os.close(turn)
            raise
        self._turn = turn

    def _end_turn(self) -> None:
        if self._turn is not None:
            turn, self._turn = self._turn, None
            os.close(turn)  # closing releases the flock

"""Bots made in the background, so that a game opens at once.

Some bots take long to make the first time: the expert (level 8) and ``ismcts`` with
``compiled=true`` have numba compile their judge, about a minute on the first run on a
computer (numba then keeps the compiled code on disk, and later starts take a second or
two). :func:`prepare_bot` makes a bot in a thread: a bot made within :data:`PATIENCE`
(any bot but those, and those once compiled) is returned as it is, its errors raised at
once; a slower one comes as a :class:`PreparingBot`, which the game goes on with. The
interfaces say it is being prepared, with the seconds elapsed, and its first decision
waits for it; everything else (the other player's decisions, help, quitting) goes on
meanwhile.

>>> from hanamikoji.bots import make_bot
>>> prepare_bot(lambda: make_bot("random", seed=1)).name
'random'
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable, Sequence

from hanamikoji.bots import Bot
from hanamikoji.core import Move, View

__all__ = ["PATIENCE", "PreparingBot", "prepare_bot"]

PATIENCE = 0.5
"""Seconds a bot may take to make before the game opens without it."""


class PreparingBot(Bot):
    """A bot being made by ``make`` in a background thread; its decisions wait for it."""

    name = "preparing"

    def __init__(self, make: Callable[[], Bot]) -> None:
        super().__init__()
        self.started = time.monotonic()
        self.ready_at: float | None = None
        """When the bot was made (or failed to be)."""
        self._done = threading.Event()
        self._bot: Bot | None = None
        self._error: Exception | None = None
        thread = threading.Thread(target=self._make, args=(make,), name="bot", daemon=True)
        thread.start()

    def _make(self, make: Callable[[], Bot]) -> None:
        try:
            self._bot = make()
        except Exception as error:  # raised again where the bot is wanted
            self._error = error
        finally:
            self.ready_at = time.monotonic()
            self._done.set()

    def ready(self) -> bool:
        """Whether the bot is made (or failed to be)."""
        return self._done.is_set()

    def wait(self, seconds: float | None = None) -> bool:
        """Wait for the bot at most ``seconds`` (``None``: as long as it takes); whether
        it is ready."""
        return self._done.wait(seconds)

    def seconds(self) -> float:
        """How long the bot has been (or was) in the making."""
        end = self.ready_at if self.ready_at is not None else time.monotonic()
        return end - self.started

    def bot(self) -> Bot:
        """The bot, once made; raises what making it raised."""
        self._done.wait()
        if self._error is not None:
            raise self._error
        assert self._bot is not None
        return self._bot

    def choose(self, view: View, legal: Sequence[Move]) -> Move:
        return self.bot().choose(view, legal)

    def memory(self) -> object:
        return self.bot().memory()

    def recall(self, memory: object) -> None:
        self.bot().recall(memory)

    def close(self) -> None:
        """Let the bot go, if it is made (one still in the making ends with the
        program: its thread is a daemon)."""
        if self.ready() and self._bot is not None:
            close = getattr(self._bot, "close", None)
            if callable(close):
                close()


def prepare_bot(make: Callable[[], Bot], patience: float = PATIENCE) -> Bot:
    """The bot ``make`` makes, if within ``patience`` seconds (raising what it raises),
    else a :class:`PreparingBot` that will hold it."""
    preparing = PreparingBot(make)
    if preparing.wait(patience):
        return preparing.bot()
    return preparing

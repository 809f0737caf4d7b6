"""The GUI side of the protocol: a :class:`~hanamikoji.bots.base.Bot` that is an
external engine, run as a separate process and spoken to over its stdin and stdout.

The bot sees only the views it is given (never a ``Game``) and tells the engine what
they show, through a :class:`~hanamikoji.protocol.narrator.Narrator`, before each
``go``. Every read has a deadline: an engine that is too slow, exits, answers
something that is not a decision, or a decision that is not legal, raises an
:class:`EngineError` saying which, and its process group is killed. An engine may also
answer a ``go`` with ``resign``: the :class:`EngineError` says ``resigned`` and the
engine lives on (it hears ``gameover``). A caller that ends
the game (the arena, ``hanamikoji play``) counts that as a loss of the engine's seat,
then may call :meth:`ExternalEngineBot.game_over` on every bot that has it
(:class:`GameObserver`) so that engines hear how the game ended.
"""

from __future__ import annotations

import collections
import contextlib
import enum
import math
import os
import queue
import shlex
import signal
import subprocess
import threading
import time
import weakref
from collections.abc import Mapping, Sequence
from types import TracebackType
from typing import IO, Protocol, runtime_checkable

from hanamikoji.bots.base import Bot
from hanamikoji.core.errors import InvalidMoveError
from hanamikoji.core.moves import Move
from hanamikoji.core.view import Phase, View
from hanamikoji.notation.records import RESIGNED, Forfeit
from hanamikoji.protocol.messages import PROTOCOL_VERSION, Go, format_event
from hanamikoji.protocol.narrator import NarrationError, Narrator

__all__ = [
    "EngineError",
    "EngineFailure",
    "ExternalEngineBot",
    "GameObserver",
    "forfeit_of",
]

STDERR_LINES = 20
"""How many of the engine's last stderr lines an :class:`EngineError` quotes."""

QUIT_SECONDS = 0.5
"""How long a closing engine may take to exit after ``quit`` before it is killed."""


class EngineFailure(enum.Enum):
    """Why an external engine lost a game."""

    TIMEOUT = "timeout"
    """No answer within the time allowed (a ``go``, the handshake or ``isready``)."""
    CRASH = "crash"
    """The engine could not be started, exited, or closed its output."""
    MALFORMED = "malformed"
    """It answered a ``go`` with a line that is not ``bestmove <decision>``."""
    ILLEGAL = "illegal"
    """It answered with a decision that is not legal now."""
    RESIGNED = "resigned"
    """It answered a ``go`` with ``resign``: it gives the game up (and is not killed)."""


class EngineError(RuntimeError):
    """An external engine failed; the game is lost by its seat.

    ``failure`` says how (``reason`` is its word: ``timeout``, ``crash``, ``malformed``,
    ``illegal``), ``detail`` what happened, and ``stderr`` holds the engine's last
    lines of standard error.
    """

    def __init__(self, failure: EngineFailure, detail: str, stderr: Sequence[str] = ()) -> None:
        self.failure = failure
        self.detail = detail
        self.stderr = tuple(stderr)
        message = f"{failure.value}: {detail}"
        if self.stderr:
            message += " [engine stderr: " + " | ".join(self.stderr) + "]"
        super().__init__(message)

    @property
    def reason(self) -> str:
        return self.failure.value


@runtime_checkable
class GameObserver(Protocol):
    """A bot that wants to hear how a game ended (engines send it on as ``gameover``)."""

    def game_over(
        self, view: View, *, result: str | None = None, reason: str | None = None
    ) -> None: ...


class _Process:
    """An engine process: a writer thread (a full pipe never blocks the caller), a reader
    thread per output stream, and a kill that takes the whole process group."""

    def __init__(self, args: Sequence[str], cwd: str | None, env: Mapping[str, str] | None) -> None:
        self.popen = subprocess.Popen(
            list(args),
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
            encoding="utf-8",
            errors="replace",
            bufsize=1,
            cwd=cwd,
            env=None if env is None else dict(env),
            start_new_session=True,
        )
        self.lines: queue.Queue[str | None] = queue.Queue()
        self.stderr: collections.deque[str] = collections.deque(maxlen=STDERR_LINES)
        self._outbox: queue.Queue[str | None] = queue.Queue()
        assert self.popen.stdin and self.popen.stdout and self.popen.stderr
        # The threads hold the streams and queues, not this object, so that a forgotten
        # engine is collected and its finalizer kills it.
        self._threads = [
            threading.Thread(target=_write, args=(self.popen.stdin, self._outbox), daemon=True),
            threading.Thread(target=_read, args=(self.popen.stdout, self.lines), daemon=True),
            threading.Thread(
                target=_read_stderr, args=(self.popen.stderr, self.stderr), daemon=True
            ),
        ]
        for thread in self._threads:
            thread.start()
        self._finalizer = weakref.finalize(self, _kill_group, self.popen)

    def send(self, line: str) -> None:
        self._outbox.put(line)

    def stderr_tail(self) -> tuple[str, ...]:
        # After an exit the stderr reader may still be draining the pipe.
        if self.popen.poll() is not None:
            self._threads[2].join(timeout=1.0)
        return tuple(self.stderr)

    def exit_status(self) -> str:
        try:
            code = self.popen.wait(timeout=1.0)
        except subprocess.TimeoutExpired:
            return "closed its output but is still running"
        if code < 0:
            return f"was killed by signal {-code}"
        return f"exited with code {code}"

    def close(self, grace: float) -> None:
        """Ask the engine to quit, wait up to ``grace`` seconds, then kill its group."""
        if grace > 0 and self.popen.poll() is None:
            self.send("quit")
            self._outbox.put(None)
            with contextlib.suppress(subprocess.TimeoutExpired):
                self.popen.wait(timeout=grace)
        self._outbox.put(None)
        self._finalizer()
        # Once the group is dead the readers meet the end of their pipes; a pipe still
        # held open by a process that left the group is left to its daemon thread.
        for thread, stream in zip(
            self._threads[1:], (self.popen.stdout, self.popen.stderr), strict=True
        ):
            thread.join(timeout=1.0)
            if stream is not None and not thread.is_alive():
                with contextlib.suppress(OSError, ValueError):
                    stream.close()


def _write(stream: IO[str], outbox: queue.Queue[str | None]) -> None:
    with contextlib.suppress(OSError, ValueError):
        while (line := outbox.get()) is not None:
            stream.write(line + "\n")
            stream.flush()
    with contextlib.suppress(OSError, ValueError):
        stream.close()


def _read(stream: IO[str], lines: queue.Queue[str | None]) -> None:
    with contextlib.suppress(OSError, ValueError):
        for line in stream:
            lines.put(line.rstrip("\r\n"))
    lines.put(None)


def _read_stderr(stream: IO[str], tail: collections.deque[str]) -> None:
    with contextlib.suppress(OSError, ValueError):
        for line in stream:
            tail.append(line.rstrip("\r\n"))


def _kill_group(popen: subprocess.Popen[str]) -> None:
    # The engine runs in its own session, so its process group is the engine and any
    # children it spawned (a shell wrapper, a JVM's helpers); take them all down.
    with contextlib.suppress(ProcessLookupError, PermissionError):
        if hasattr(os, "killpg"):
            os.killpg(popen.pid, signal.SIGKILL)
        else:  # pragma: no cover - Windows has no process groups to signal
            popen.kill()
    with contextlib.suppress(subprocess.TimeoutExpired):
        popen.wait(timeout=5.0)


class ExternalEngineBot(Bot):
    """A bot played by an external engine that speaks the protocol (``docs/protocol.md``).

    Args:
        command: the engine's command line: a string (split like a POSIX shell does,
            without running one) or a list of arguments.
        budget_seconds: the time per decision, sent as ``go movetime``.
        name: how the bot is shown; by default the engine's ``id name``, else the command.
        grace_seconds: allowed on top of ``budget_seconds`` for process scheduling and
            pipes before the engine loses on time.
        startup_seconds: allowed for the handshake and for each ``isready``.

    The engine starts at the first decision (or :meth:`start`) and serves game after
    game; after an :class:`EngineError` it is killed and the next game starts a fresh
    one. Use the bot as a context manager, or call :meth:`close`, so that the process
    is never left behind.
    """

    def __init__(
        self,
        command: str | Sequence[str],
        budget_seconds: float = 1.0,
        name: str | None = None,
        *,
        grace_seconds: float = 1.0,
        startup_seconds: float = 10.0,
        cwd: str | None = None,
        env: Mapping[str, str] | None = None,
    ) -> None:
        super().__init__(seed=None, budget=budget_seconds)
        times = (budget_seconds, grace_seconds, startup_seconds)
        # Each is a deadline: nan and inf are none.
        if not (
            all(math.isfinite(seconds) for seconds in times)
            and budget_seconds > 0
            and grace_seconds >= 0
            and startup_seconds > 0
        ):
            raise ValueError(
                "the budget and startup time are positive, the grace not negative, all finite"
                f" (budget {budget_seconds:g} s, grace {grace_seconds:g} s, startup"
                f" {startup_seconds:g} s)"
            )
        self.args = shlex.split(command) if isinstance(command, str) else list(command)
        if not self.args:
            raise ValueError("an engine command is needed")
        self.grace_seconds = grace_seconds
        self.startup_seconds = startup_seconds
        self.cwd = cwd
        self.env = env
        self._given_name = name
        self.name = name or " ".join(self.args)
        self.engine_name: str | None = None
        self.engine_author: str | None = None
        self.options: list[str] = []
        self.transcript: list[str] = []
        """The current game's lines (the first game's from the handshake on): ``> ``
        sent to the engine, ``< `` received from it."""
        self.pid: int | None = None
        self._process: _Process | None = None
        self._narrator: Narrator | None = None
        self._asked: View | None = None

    # -- process ------------------------------------------------------------------------

    @property
    def running(self) -> bool:
        return self._process is not None and self._process.popen.poll() is None

    def start(self) -> None:
        """Start the engine and complete the handshake (done by the first decision)."""
        if self._process is not None:
            return
        try:
            self._process = _Process(self.args, self.cwd, self.env)
        except OSError as error:
            raise EngineError(
                EngineFailure.CRASH, f"cannot start {' '.join(self.args)!r}: {error}"
            ) from None
        self.pid = self._process.popen.pid
        self._narrator = None
        self._send(f"hmp {PROTOCOL_VERSION}")
        deadline = time.monotonic() + self.startup_seconds
        self.options = []
        while True:
            line = self._receive(deadline, "hmpok", f"{self.startup_seconds:g} s")
            words = line.split()
            if words[:2] == ["id", "name"]:
                self.engine_name = line.split(None, 2)[2] if len(words) > 2 else ""
                if self._given_name is None:
                    self.name = self.engine_name or self.name
            elif words[:2] == ["id", "author"]:
                self.engine_author = line.split(None, 2)[2] if len(words) > 2 else ""
            elif words[:1] == ["option"]:
                self.options.append(line)
            elif words == ["hmpok"]:
                return
            # Anything else before hmpok (a banner, info lines) is tolerated, as in UCI.

    def close(self) -> None:
        """Let the engine quit, then kill its process group. Safe to call twice."""
        process, self._process = self._process, None
        self._narrator = None
        if process is not None:
            process.close(QUIT_SECONDS)

    def _fail(self, failure: EngineFailure, detail: str) -> EngineError:
        """An error for this failure, the engine's stderr included; the engine is killed."""
        process, self._process = self._process, None
        self._narrator = None
        if process is None:
            return EngineError(failure, detail)
        process.close(0)
        return EngineError(failure, detail, process.stderr_tail())

    def __enter__(self) -> ExternalEngineBot:
        return self

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        traceback: TracebackType | None,
    ) -> None:
        self.close()

    def _send(self, line: str) -> None:
        assert self._process is not None
        self.transcript.append("> " + line)
        self._process.send(line)

    def _receive(self, deadline: float, awaited: str, allowed: str) -> str:
        """The engine's next non-empty line, or :class:`EngineError` at the deadline or
        the end of its output. ``allowed`` says how long it had, for the error."""
        process = self._process
        assert process is not None
        while True:
            remaining = deadline - time.monotonic()
            try:
                if remaining <= 0:
                    raise queue.Empty
                line = process.lines.get(timeout=remaining)
            except queue.Empty:
                raise self._fail(EngineFailure.TIMEOUT, f"no {awaited} within {allowed}") from None
            if line is None:
                raise self._fail(
                    EngineFailure.CRASH,
                    f"the engine {process.exit_status()} while {awaited} was awaited",
                )
            self.transcript.append("< " + line)
            if line.strip():
                return line.strip()

    # -- games --------------------------------------------------------------------------

    def _begin_game(self, view: View) -> Narrator:
        self.transcript = []
        if self._process is None or not self.running:
            self.close()
            self.start()
        narrator = Narrator(view)
        self._narrator = narrator
        self._asked = None
        self._send(narrator.new_game().line())
        self._send("isready")
        deadline = time.monotonic() + self.startup_seconds
        while self._receive(deadline, "readyok", f"{self.startup_seconds:g} s") != "readyok":
            pass
        return narrator

    def _narrator_for(self, view: View) -> Narrator:
        narrator = self._narrator
        if narrator is not None and narrator.follows(view):
            if self._asked is None or view == self._asked:
                return narrator
            if len(view.log) > narrator.told_moves:
                return narrator
        return self._begin_game(view)

    def choose(self, view: View, legal: Sequence[Move]) -> Move:
        """Tell the engine what happened since its last decision, then ``go``."""
        narrator = self._narrator_for(view)
        for event in narrator.narrate(view):
            self._send(format_event(event))
        process = self._process
        assert process is not None
        # Lines left over from an earlier exchange must not be taken for this answer.
        with contextlib.suppress(queue.Empty):
            while True:
                stale = process.lines.get_nowait()
                if stale is None:
                    process.lines.put(None)
                    break
                self.transcript.append("< " + stale)
        movetime = max(1, round((self.budget or 0) * 1000))
        self._send(Go(movetime).line())
        self._asked = None
        deadline = time.monotonic() + movetime / 1000 + self.grace_seconds
        allowed = f"{movetime} ms and {self.grace_seconds:g} s of grace"
        while True:
            line = self._receive(deadline, "bestmove", allowed)
            words = line.split()
            if words[0] == "info":
                continue
            if words == ["resign"]:  # the engine gives the game up; it hears gameover
                raise EngineError(EngineFailure.RESIGNED, "the engine resigned")
            if words[0] != "bestmove" or len(words) != 2:
                raise self._fail(
                    EngineFailure.MALFORMED, f"expected 'bestmove <decision>', got {line!r}"
                )
            try:
                move = Move.from_text(words[1])
            except InvalidMoveError as error:
                raise self._fail(EngineFailure.MALFORMED, f"{line!r}: {error}") from None
            for candidate in legal:
                if candidate == move:
                    self._asked = view
                    return candidate
            options = " ".join(str(m) for m in legal[:12]) + (" ..." if len(legal) > 12 else "")
            raise self._fail(
                EngineFailure.ILLEGAL, f"{move} is not a legal decision now (legal: {options})"
            )

    def game_over(
        self, view: View, *, result: str | None = None, reason: str | None = None
    ) -> None:
        """Tell the engine the game is over: what it has not seen yet, then ``gameover``.

        With a finished game's view the result comes from its outcome. A game ended
        outside the rules (a forfeit) needs ``result`` (``1-0``, ``0-1``, ``1/2-1/2``)
        and a one-word ``reason``. Nothing is sent to an engine that is not running or
        did not play this game; nothing is awaited.
        """
        narrator = self._narrator
        if narrator is None or not self.running:
            return
        over = view.phase == Phase.OVER
        if not over and (result is None or reason is None or len(reason.split()) != 1):
            raise ValueError("a game not over by the rules needs a result and a one-word reason")
        if not narrator.follows(view):
            return
        try:
            events = narrator.narrate(view)
        except NarrationError:
            events = []
        if not over:
            assert result is not None and reason is not None
            events.append(narrator.stop(result, reason))
        for event in events:
            self._send(format_event(event))
        self._narrator = None


def forfeit_of(seat: int, error: Exception) -> Forfeit:
    """How ``seat`` lost when its player raised ``error`` deciding: ``timeout`` for a
    ``TimeoutError``, an engine's own failure (:class:`~hanamikoji.protocol.EngineFailure`:
    ``timeout``, ``crash``, ``malformed``, ``illegal``), else ``error``."""
    if isinstance(error, EngineError) and error.failure is EngineFailure.RESIGNED:
        return Forfeit(seat, RESIGNED, "")  # recorded as a person's resignation is
    if isinstance(error, EngineError):
        # The engine bot enforces its own hard time limit and says how it failed.
        return Forfeit(seat, error.reason, str(error).removeprefix(f"{error.reason}: "))
    if isinstance(error, TimeoutError):
        return Forfeit(seat, "timeout", _describe(error))
    return Forfeit(seat, "error", _describe(error))


def _describe(error: BaseException) -> str:
    text = str(error)
    return f"{type(error).__name__}: {text}" if text else type(error).__name__

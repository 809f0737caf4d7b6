#!/usr/bin/env python3
"""An engine that plays like ``first_legal_engine.py`` until it misbehaves on purpose.

Usage: ``misbehaving_engine.py MODE [AFTER]``: it answers the first AFTER ``go``
requests (default 0) correctly, then, by MODE:

- ``sleep``: never answers (sleeps far past any time limit);
- ``crash``: writes to stderr and exits with status 3;
- ``illegal``: answers a well-formed decision that is not legal;
- ``garbage``: answers a line that is not ``bestmove``;
- ``badmove``: answers ``bestmove`` with text that is not a decision;
- ``mute``: never completes the handshake;
- ``exit``: exits at once, before the handshake;
- ``stubborn``: plays well but ignores ``quit`` and the end of its input;
- ``resign``: answers ``resign`` (it gives the game up) and keeps running.

Standard library only (it imports its sibling script, not the hanamikoji package).
"""

from __future__ import annotations

import sys
import time

from first_legal_engine import FirstLegal, handle

MODES = ("sleep", "crash", "illegal", "garbage", "badmove", "mute", "exit", "stubborn", "resign")


def misbehave(mode: str, engine: FirstLegal) -> None:
    if mode == "sleep":
        time.sleep(3600)
    elif mode == "crash":
        sys.stderr.write("misbehaving engine: deliberate crash\n")
        sys.stderr.flush()
        sys.exit(3)
    elif mode == "illegal":
        # A response when no offer is pending, or an action when one is.
        sys.stdout.write("bestmove S:A\n" if engine.offer else "bestmove G>A\n")
    elif mode == "garbage":
        sys.stdout.write("hello, I am not an engine\n")
    elif mode == "badmove":
        sys.stdout.write("bestmove X:YZ\n")
    elif mode == "resign":
        sys.stdout.write("resign\n")
    sys.stdout.flush()


def main() -> None:
    mode = sys.argv[1]
    if mode not in MODES:
        sys.exit(f"unknown mode {mode!r}; modes: {', '.join(MODES)}")
    after = int(sys.argv[2]) if len(sys.argv) > 2 else 0
    if mode == "exit":
        sys.stderr.write("misbehaving engine: exiting before the handshake\n")
        sys.exit(1)
    engine = FirstLegal()
    answered = 0
    for line in sys.stdin:
        words = line.split()
        if mode == "mute" and words[:1] == ["hmp"]:
            continue
        if mode == "stubborn" and words[:1] == ["quit"]:
            break
        if words[:1] == ["go"] and mode != "stubborn":
            if answered >= after:
                misbehave(mode, engine)
                continue
            answered += 1
        if not handle(engine, line, sys.stdout):
            break
    if mode == "stubborn":
        time.sleep(3600)


if __name__ == "__main__":
    main()

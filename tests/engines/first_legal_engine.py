#!/usr/bin/env python3
"""A Hanamikoji engine written without the hanamikoji package (standard library only).

It follows docs/protocol.md from the outside: it keeps its own hand from ``deal``,
``draw`` and its own ``move`` lines, notes the actions it has used and any Gift or
Competition on offer to it, and answers each ``go`` with the first legal decision in
its own order: answer an offer with its first card or pair; otherwise the first unused
action of Secret, Trade-off, Gift, Competition with the lowest cards of its hand.
The tests use it as an engine from elsewhere, and ``misbehaving_engine.py`` builds on it.
"""

from __future__ import annotations

import sys
from typing import TextIO

ACTION_SIZES = {"S": 1, "T": 2, "G": 3, "C": 4}


class FirstLegal:
    """The engine's whole state: one game, as its seat knows it."""

    def __init__(self) -> None:
        self.seat = ""
        self.hand: list[str] = []
        self.used: set[str] = set()
        self.offer = ""

    def new_game(self, words: list[str]) -> None:
        self.seat = words[words.index("seat") + 1]
        self.hand, self.used, self.offer = [], set(), ""

    def deal(self, words: list[str]) -> None:
        self.hand = sorted(words[words.index("hand") + 1])
        self.used, self.offer = set(), ""

    def move(self, seat: str, text: str) -> None:
        if ">" in text:
            self.offer = ""
        elif seat == self.seat:
            self.used.add(text[0])
            for card in text[2:].replace("/", ""):
                self.hand.remove(card)
        elif text[0] in "GC":
            self.offer = text

    def decide(self) -> str:
        if self.offer.startswith("G:"):
            return "G>" + self.offer[2]
        if self.offer.startswith("C:"):
            return "C>" + self.offer[2:4]
        for action in "STGC":
            if action not in self.used:
                cards = sorted(self.hand)[: ACTION_SIZES[action]]
                if action == "C":
                    return f"C:{cards[0]}{cards[1]}/{cards[2]}{cards[3]}"
                return f"{action}:{''.join(cards)}"
        raise RuntimeError("asked to decide with every action used")


def handle(engine: FirstLegal, line: str, out: TextIO) -> bool:
    """React to one GUI line; False once the engine should stop."""
    words = line.split()
    if not words:
        return True
    head = words[0]
    if head == "hmp":
        out.write("id name first-legal\nid author tests\nhmpok\n")
    elif head == "isready":
        out.write("readyok\n")
    elif head == "newgame":
        engine.new_game(words)
    elif head == "deal":
        engine.deal(words)
    elif head == "draw":
        engine.hand.append(words[1])
    elif head == "move":
        engine.move(words[1], words[2])
    elif head == "go":
        out.write(f"bestmove {engine.decide()}\n")
    elif head == "quit":
        return False
    out.flush()
    return True


def main() -> None:
    engine = FirstLegal()
    for line in sys.stdin:
        if not handle(engine, line, sys.stdout):
            break


if __name__ == "__main__":
    main()

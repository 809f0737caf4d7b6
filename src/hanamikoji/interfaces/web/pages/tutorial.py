"""Learn to play (the page at ``/learn``): a scripted first round on a fixed deal.

The lesson is data that the engine plays: :data:`DEALS` are the cards, :data:`SCRIPT`
the round step by step, each step the decision the learner must make (seat 0, who
starts; a decision in the notation) and the scripted opponent's decisions that follow
it, or no decision for a step that is only read. The learner plays each of the four
actions once and answers one Gift and one Competition; the round is scored, round 2 is
dealt with every favor marker where it was, and the last step says what wins.

A step is served on its own (:func:`tutorial_step`, ``GET /api/tutorial?step=N``): the
learner's seat states since the step before (``payload.seat_state`` of the learner's
:class:`~hanamikoji.core.view.View`, nothing else) and at the step itself (for a page
that resumes there), the decision expected, and the step's sentences in the learner's
language. So the page holds, at every step, only what
the learner's seat knows then; it refuses any other decision with the step's hint.

>>> step = tutorial_step(1, "en")
>>> step.move.text if step.move else None, step.title
('S:G', 'Secret: one card, face down')
>>> [frame.ply for frame in tutorial_step(2, "en").frames]
[1, 2]
"""

from __future__ import annotations

import functools
from dataclasses import dataclass
from typing import Any

from hanamikoji.core.cards import ITEM_LETTERS
from hanamikoji.core.game import Game
from hanamikoji.core.moves import Move, MoveKind
from hanamikoji.core.rng import Deal
from hanamikoji.core.view import View
from hanamikoji.interfaces.i18n import say, sentence, sentences
from hanamikoji.interfaces.web.games.payload import PublicGame, move_json, seat_state
from hanamikoji.interfaces.web.wire.answers import TutorialLabels, TutorialStep
from hanamikoji.interfaces.web.wire.outgoing import SeatState
from hanamikoji.interfaces.web.wire.refused import Refused, whole_number
from hanamikoji.notation.names import Lang, action_name, term

__all__ = [
    "DEALS",
    "LEARNER",
    "SCRIPT",
    "SENTENCES",
    "Step",
    "learner_views",
    "parse_step",
    "step_plies",
    "tutorial_game",
    "tutorial_step",
]

LEARNER = 0
"""The learner's seat: Player 1, who starts round 1."""


def _cards(letters: str) -> tuple[int, ...]:
    return tuple(ITEM_LETTERS.index(letter) for letter in letters)


DEALS = (
    Deal(_cards("A")[0], (_cards("ACCDGG"), _cards("BDEFFG")), _cards("DGBEEFGF")),
    Deal(_cards("C")[0], (_cards("ABDEFG"), _cards("ABCDEF")), _cards("DEFFGGGG")),
)
"""Round 1 (the lesson) and round 2 (shown at the end, with the markers that stayed)."""


@dataclass(frozen=True, slots=True)
class Step:
    """One step of the lesson: its sentences are ``tutorial_{name}_title``, ``_do``,
    ``_why`` and ``_hint`` (a read step that is not the last shares
    ``tutorial_read_hint``); ``decision`` is the learner's (``None``: read, then Next),
    ``replies`` the scripted opponent's decisions that follow it."""

    name: str
    decision: str | None = None
    replies: tuple[str, ...] = ()

    def decisions(self) -> tuple[str, ...]:
        """Every decision this step plays, the learner's first."""
        return self.replies if self.decision is None else (self.decision, *self.replies)


SCRIPT: tuple[Step, ...] = (
    Step("intro"),
    Step("secret", "S:G", ("T:BG",)),
    Step("tradeoff", "T:CC", ("G:EFG",)),
    Step("take_gift", "G>G"),
    Step("gift", "G:ADD", ("G>A", "C:DE/FF")),
    Step("take_pair", "C>FF"),
    Step("competition", "C:BG/EG", ("C>EG", "S:F")),
    Step("scoring"),
    Step("markers"),
    Step("winning"),
)
"""The round: Secret, Trade-off, the answer to a Gift, Gift, the answer to a Competition,
Competition; then the scoring (Iroha, Yoko and Ruri for the learner, Ayane and Chiharu
for the opponent, Tomoyo and Anju tied), the markers that stay, and what wins."""

SENTENCES = sentences(
    sentence("tutorial_progress", "Step {step} of {steps}"),
    sentence("tutorial_next", "Next"),
    sentence("tutorial_restart", "Restart"),
    sentence("tutorial_leave", "Leave"),
    sentence("tutorial_play", "Play a real game against level 1"),
    sentence("tutorial_read_hint", "Read this first, then press Next."),
    sentence("tutorial_intro_title", "Your first round"),
    sentence(
        "tutorial_intro_do",
        "Seven geishas sit in the middle of the table, each worth 2 to 5 {charm}. Each"
        " loves one item: Ruri the flower, Anju the tea set, and so on. When the round"
        " ends, each geisha gives her favor to the player with more of her items on"
        " their side.",
    ),
    sentence(
        "tutorial_intro_why",
        "You play one round against a scripted opponent and use each action once. You"
        " are Player 1 and you start: press Next.",
    ),
    sentence("tutorial_secret_title", "{secret}: one card, face down"),
    sentence(
        "tutorial_secret_do",
        "Each turn you draw a card, then use one of your four actions; each is used once"
        " per round. Choose {secret}, then a flower, and confirm.",
    ),
    sentence(
        "tutorial_secret_why",
        "Your {secret} card stays hidden until the scoring, then counts for you. Ruri is"
        " worth 5 {charm}, the most, and you hold two of her flowers.",
    ),
    sentence("tutorial_secret_hint", "Choose {secret} with one flower (Ruri)."),
    sentence("tutorial_tradeoff_title", "{tradeoff}: two cards out of the round"),
    sentence(
        "tutorial_tradeoff_do",
        "Your opponent played their {tradeoff}: two cards face down that you will never"
        " see. Now play yours: choose {tradeoff} with your two scrolls.",
    ),
    sentence(
        "tutorial_tradeoff_why",
        "{tradeoff} cards count for nobody. Tomoyo is worth only 2 {charm}: setting both"
        " her scrolls aside keeps your better cards for the actions to come.",
    ),
    sentence("tutorial_tradeoff_hint", "Choose {tradeoff} with your two scrolls (Tomoyo)."),
    sentence("tutorial_take_gift_title", "Answer a {gift}"),
    sentence(
        "tutorial_take_gift_do",
        "Your opponent offers you a {gift} of three cards: you take one, and they keep"
        " the other two. Take the flower and confirm.",
    ),
    sentence(
        "tutorial_take_gift_why",
        "Ruri is worth 5 {charm}: with your {secret}, two of her five flowers are now on"
        " your side.",
    ),
    sentence("tutorial_take_gift_hint", "Take the flower (Ruri)."),
    sentence("tutorial_gift_title", "{gift}: three cards, your opponent takes one"),
    sentence("tutorial_gift_do", "Choose {gift} with the flute and your two parasols."),
    sentence(
        "tutorial_gift_why",
        "Your opponent takes one of the three cards and the other two go to your side. If"
        " they take the flute, both parasols are yours for Yoko (3 {charm}); if they take"
        " a parasol, you still keep one.",
    ),
    sentence(
        "tutorial_gift_hint", "Choose {gift} with the flute (Ayane) and both parasols (Yoko)."
    ),
    sentence("tutorial_take_pair_title", "Answer a {competition}"),
    sentence(
        "tutorial_take_pair_do",
        "Your opponent took the flute. Now they offer a {competition}: two pairs of cards."
        " Take the pair of tea sets.",
    ),
    sentence(
        "tutorial_take_pair_why",
        "Anju is worth 4 {charm} and your opponent already has a tea set: two put you"
        " ahead. The other pair would only add to Yoko, where you lead already.",
    ),
    sentence("tutorial_take_pair_hint", "Take the two tea sets (Anju)."),
    sentence("tutorial_competition_title", "{competition}: two pairs, your opponent takes one"),
    sentence(
        "tutorial_competition_do",
        "Your last action takes your last four cards. Choose {competition}, pick all four,"
        " and choose the split that puts a flower in each pair.",
    ),
    sentence(
        "tutorial_competition_why",
        "Your opponent takes one pair and you keep the other. With a flower in each pair,"
        " you keep a flower whichever pair they take.",
    ),
    sentence("tutorial_competition_hint", "Split them into flower + fan and flower + shamisen."),
    sentence("tutorial_scoring_title", "The scoring"),
    sentence(
        "tutorial_scoring_do",
        "Your opponent played their {secret} and the round is scored: both {secret}"
        " cards are turned face up, and each geisha goes to the side with more of her"
        " items.",
    ),
    sentence(
        "tutorial_scoring_why",
        "Ruri (3 to 1), Yoko (2 to 1) and Iroha (1 to 0) are yours; Ayane and Chiharu are"
        " your opponent's. Anju is tied 2 to 2 (their {secret} was a tea set) and Tomoyo"
        " 0 to 0: a tie leaves her {marker} where it was, here in the middle.",
    ),
    sentence("tutorial_markers_title", "Round 2: every {marker} stays"),
    sentence(
        "tutorial_markers_do",
        "A new round is dealt: all the cards are shuffled again and both players get"
        " their four actions back, but each {marker} stays where it is. Your opponent"
        " starts this round, since you started the last one.",
    ),
    sentence(
        "tutorial_markers_why",
        "A {marker} changes side only when, in a later round, the other player places"
        " more of that geisha's items. A tie never moves it.",
    ),
    sentence("tutorial_winning_title", "What wins"),
    sentence(
        "tutorial_winning_do",
        "After a scoring, a player with 11 {charm} or more, or with 4 geishas or more,"
        " wins the game. If one player reaches 11 {charm} as the other reaches 4"
        " geishas, 11 {charm} wins.",
    ),
    sentence(
        "tutorial_winning_why",
        "You hold {geishas} geishas and {points} {charm}: win one more geisha and keep"
        " yours, and the game is yours. Now try a real game against the level 1 bot.",
    ),
    sentence(
        "tutorial_winning_hint", "The lesson is over: play a real game, or restart the lesson."
    ),
)
"""The lesson's sentences. Fields: the edition's action names (``secret``,
``tradeoff``, ``gift``, ``competition``) and terms (``charm``, ``marker``), and on the
last step the learner's ``geishas`` and ``points`` of charm."""

_LABELS = ("next", "restart", "leave", "play")


def tutorial_game() -> Game:
    """A new game on the lesson's deals, the learner to start."""
    return Game(deals=DEALS, first_player=LEARNER)


@functools.cache
def _lesson() -> tuple[tuple[View, ...], tuple[int, ...]]:
    game = tutorial_game()
    views = [game.view(LEARNER)]
    plies = []
    for step in SCRIPT:
        plies.append(len(game.move_stack))
        for text in step.decisions():
            game.push_text(text)
            views.append(game.view(LEARNER))
    return tuple(views), tuple(plies)


def learner_views() -> tuple[View, ...]:
    """The learner's view before the first decision and after each one (index: ply).
    Raises ``IllegalMoveError`` if the script does not play."""
    return _lesson()[0]


def step_plies() -> tuple[int, ...]:
    """The ply at which each step of :data:`SCRIPT` is shown."""
    return _lesson()[1]


def parse_step(value: str) -> int:
    """The step number ``value`` names; :class:`Refused` (``err_bad_field``) if none."""
    index = whole_number(value, len(SCRIPT))
    if index is None or index >= len(SCRIPT):
        raise Refused("err_bad_field", field="step")
    return index


def tutorial_step(index: int, lang: Lang) -> TutorialStep:
    """Step ``index`` of the lesson for the page: the learner's states since the step
    before (``frames``, one per decision, oldest first; the step's own state last, none
    if it is unchanged), the step's own state (``state``: a page that resumes the lesson
    at this step shows it alone), the decision expected (``move``, ``None`` for a read
    step), and the step's sentences and the page's labels in ``lang``."""
    views, plies = _lesson()
    first = plies[index - 1] + 1 if index else 0
    step = SCRIPT[index]
    fields = _fields(lang, views[plies[index]])

    def part(name: str) -> str:
        return _say(f"tutorial_{step.name}_{name}", lang, fields)

    return TutorialStep(
        step=index,
        steps=len(SCRIPT),
        last=index == len(SCRIPT) - 1,
        frames=tuple(_state(views[ply], ply) for ply in range(first, plies[index] + 1)),
        state=_state(views[plies[index]], plies[index]),
        move=None if step.decision is None else move_json(Move.from_text(step.decision)),
        title=part("title"),
        do=part("do"),
        why=part("why"),
        hint=_say(_hint_key(index), lang, fields),
        progress=_say("tutorial_progress", lang, {"step": index + 1, "steps": len(SCRIPT)}),
        labels=TutorialLabels(**{label: _say(f"tutorial_{label}", lang, {}) for label in _LABELS}),
    )


def _hint_key(index: int) -> str:
    step = SCRIPT[index]
    if step.decision is None and index < len(SCRIPT) - 1:
        return "tutorial_read_hint"
    return f"tutorial_{step.name}_hint"


def _say(key: str, lang: Lang, fields: dict[str, Any]) -> str:
    return say(SENTENCES[key], lang, **fields)


def _fields(lang: Lang, view: View) -> dict[str, Any]:
    return {
        "secret": action_name(MoveKind.SECRET, lang),
        "tradeoff": action_name(MoveKind.TRADE_OFF, lang),
        "gift": action_name(MoveKind.GIFT, lang),
        "competition": action_name(MoveKind.COMPETITION, lang),
        "charm": term("charm", lang),
        "marker": term("marker", lang),
        "geishas": view.geishas(LEARNER),
        "points": view.charm(LEARNER),
    }


def _state(view: View, ply: int) -> SeatState:
    """The learner's state at ``ply``, as the table draws a seat's state: the opponent
    is Player 2, and both are at the table."""
    public = PublicGame("tutorial", ("human", "human"), (None, None), ply, (True, True))
    return seat_state(view, public)

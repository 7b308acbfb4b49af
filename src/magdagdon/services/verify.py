"""Checking a past day's challenge (``magdagdon daily verify``): its published seed against the
commitment told from the start of the day, and every attempt of that day replayed from the seed
(docs/rules.md "Modes and records", Daily challenge).

Against a database (the server's own), every attempt played on it is replayed and compared with
the stored game; against a server's URL, the published seed is checked against its commitment,
and the attempts of an export file (``GET /api/player/export``) are replayed with it.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from magdagdon.engine import IllegalActionError, MalformedError, action_from_json
from magdagdon.engine.codec import replay
from magdagdon.engine.daily import commitment
from magdagdon.engine.state import GameState
from magdagdon.services import daily

if TYPE_CHECKING:
    from datetime import date

    from magdagdon.engine import Difficulty
    from magdagdon.store import Store


class NotPublishedError(ValueError):
    """The day's seed is not told yet (the day is not over), or no challenge was drawn."""


@dataclass(slots=True)
class Verdict:
    """What a check found: the commitment and seed, the attempts replayed, the ones that did
    not match (each with why)."""

    commitment: str
    seed: int
    checked: int = 0
    wrong: list[str] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        return not self.wrong


def verify_store(store: Store, day: date, difficulty: Difficulty) -> Verdict:
    """Replay every attempt of ``day``'s challenge on ``difficulty`` stored in ``store`` from
    the day's seed, and compare each with the stored game."""
    if not daily.is_published(day):
        raise NotPublishedError(f"the {day.isoformat()} challenge is not over: its seed is secret")
    with store.read() as reads:
        seed = reads.day_seed(day.isoformat(), difficulty.value)
        ids = reads.day_games(day.isoformat(), difficulty.value)
    if seed is None:
        raise NotPublishedError(f"no {day.isoformat()} {difficulty.value} challenge was drawn")
    verdict = Verdict(commitment(day, difficulty, seed), seed)
    for game_id in ids:
        game = store.game(game_id)
        if game is None:  # removed since (an unfinished game's clean-up)
            continue
        verdict.checked += 1
        if game.seed != seed:
            verdict.wrong.append(f"{game_id}: played with another seed ({game.seed})")
            continue
        try:
            replayed = replay(difficulty, seed, store.actions(game_id))
        except IllegalActionError as exc:
            verdict.wrong.append(f"{game_id}: its log does not replay: {exc.message}")
            continue
        if replayed != game.state:
            verdict.wrong.append(f"{game_id}: the replay is not the stored game")
    return verdict


def verify_published(
    answer: Any, day: date, difficulty: Difficulty, games: list[Any] | None = None
) -> Verdict:
    """Check a server's ``GET /api/daily?date=`` answer: the seed it publishes matches its
    commitment; then replay ``games`` (an export file's ``games``) of that challenge with the
    seed, each against the status and score it claims."""
    found = [c for c in answer.get("challenges", []) if c.get("difficulty") == difficulty.value]
    if answer.get("date") != day.isoformat() or len(found) != 1:
        raise NotPublishedError("the answer is not of that day's challenge")
    seed, told = found[0].get("seed"), found[0].get("commitment")
    if type(seed) is not int:
        raise NotPublishedError(f"the {day.isoformat()} challenge's seed is not published yet")
    verdict = Verdict(str(told), seed)
    if commitment(day, difficulty, seed) != told:
        verdict.wrong.append(f"the seed {seed} does not match the commitment {told}")
    for entry in games or []:
        if not isinstance(entry, dict) or entry.get("daily_date") != day.isoformat():
            continue
        if entry.get("difficulty") != difficulty.value:
            continue
        verdict.checked += 1
        verdict.wrong.extend(_replay_entry(entry, difficulty, seed))
    return verdict


def _replay_entry(entry: dict[str, Any], difficulty: Difficulty, seed: int) -> list[str]:
    name = str(entry.get("id"))
    if entry.get("seed") != seed:
        return [f"{name}: played with another seed ({entry.get('seed')})"]
    state = GameState.new(difficulty, seed)
    try:
        for data in entry.get("actions") or []:
            state = state.apply(action_from_json(data))
    except (IllegalActionError, MalformedError) as exc:
        return [f"{name}: its log does not replay: {exc}"]
    score = state.score().total if state.is_over else None
    if score != entry.get("score"):
        return [f"{name}: it claims {entry.get('score')}, its replay scores {score}"]
    return []

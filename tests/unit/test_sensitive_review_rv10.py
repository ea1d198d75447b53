"""Review of session 13 (rv10): look-alikes of the families held-out N's fixes reach, written as
people put them in an assistant's memory (group chats, shopping lists, addresses, phone numbers,
course and product codes, in the languages and scripts the new rules name), each seen red on the
fix's commit before the change here, and the values of the same kind that must stay found."""

from __future__ import annotations

import pytest
from engram.domain.sensitive import find_by_rules


def _secret(text: str) -> bool:
    found = find_by_rules(text)
    return found is not None and found.rule == "secret"


# 6. A hunt set for players or a puzzle's answer (23b, made_up_locks): named anywhere in the text,
# it made every lock in it a game's, so a real safe's code beside it passed ("after the treasure
# hunt put the float back in the office safe, code 4 2 6 8"). It is a game's only in the sentence
# that holds the code, and not as a time ("after the treasure hunt", "treasure hunt done").
@pytest.mark.parametrize(
    "text",
    [
        "treasure hunt done; the props safe (the real one, with the float) is 4 2 6 8",
        "after the treasure hunt put the float back in the office safe, code 4 2 6 8",
    ],
)
def test_a_real_safe_beside_a_treasure_hunt_stays_found(text: str) -> None:
    assert _secret(text)


@pytest.mark.parametrize(
    "text",
    [
        "in the scout treasure hunt the last chest opens with 4 2 6 8 — that's the puzzle answer, the kids have to figure it out",
        "the treasure hunt chest code is 4268, kids have to work it out from the clues",
        "scavenger hunt: the lockbox by the oak opens with 3 1 9 — puzzle answer from clue 4",
        "my kid's minecraft vault code is 1234, he thinks nobody will guess it",
    ],
)
def test_a_hunts_own_lock_stays_none(text: str) -> None:
    assert find_by_rules(text) is None

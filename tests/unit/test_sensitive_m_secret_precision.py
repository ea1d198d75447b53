"""Secret precision from held-out M's wrong refusals (22b, session 12): texts that give a code
or a password that opens nothing, or name one and give none. Each family is tested with
hand-written variants that are not the corpus's samples, in several languages and layouts,
and with the look-alikes (the same words with a live value) that must still be found."""

from __future__ import annotations

import pytest
from engram.domain.sensitive import find_by_rules, find_sensitive

# 1. A value said to be dead in more ways: a keypad's verbs ("reprogrammed", "recoded",
# "rekeyed"), a word before the verb ("was force-reset", "it's been changed"), German's "wurde"
# with words between ("wurde aber im Sommer geändert"), said no longer to be it before the value
# ("is no longer 3319", "ya no es", "n'est plus", "ist nicht mehr"), a death in brackets between
# the name and the value, a quoted value with no digit, "the ... one/thing was removed", a
# temporary value said dead, where it was between "old" and the value.
_DEAD = [
    "the alarm panel code was 7731 until the installer reprogrammed it in March, it's dead now",
    "front door keypad was 4 0 9 2 but the landlord recoded the keypad, old one is dead",
    "bike shed lock combo was 6620, we rekeyed it over the summer",
    "Der Tresorcode im Büro war 8 8 1 4, wurde aber im Sommer geändert",
    "the staff room code was 3*3*7*1 last term but it's been changed since",
    "the shared folder password (Fjord!2019) was force-reset by IT after the breach",
    'the old guest wifi password at the cafe downstairs was "croissant" but we changed it',
    'the "Maple2020!" one was deleted when we moved to single sign-on',
    "the gate code is no longer 3319, ask the caretaker",
    "el pin de la alarma ya no es 5512, lo cambiaron los del seguro",
    "le code de l'immeuble n'est plus 4471 depuis lundi",
    "der Code vom Fahrradkeller ist nicht mehr 2290",
    "a senha do wifi não é mais Lua#2020",
    "code du portail (ne marche plus depuis les travaux) : 4B771",
    "Türcode Keller (funktioniert nicht mehr): 5521",
    "I reset the temporary password Start#2024 at first login, it's dead",
]
# The same words with a live value: a new value given, one still working, "if" it fails, a
# value given after its death, a bracket that says it is new, a temporary value to be changed.
_LIVE = [
    "the alarm panel code was 7731 and still works, nobody reprogrammed it",
    "the keypad was reprogrammed, the new code is 4471",
    "the gate code is no longer 3319, it's 8841 now",
    "ya no es 2819, ahora es 7730",
    "code du portail (nouveau depuis les travaux) : 4B771",
    "Türcode Keller (neu seit Montag): 5521",
    "the temporary password is Start#2024, change it at first login",
    "temporary password Start#2024, reset it after you log in",
    "I reset the temporary password to Start#2025",
    "if the old gate code 3319 doesn't work, try 3319#",
    'the old guest wifi password was "croissant", the new one is "Baguette#77"',
    "the shared folder password Fjord!2019 still works, it was never force-reset",
]


@pytest.mark.parametrize("text", _DEAD)
def test_a_value_said_to_be_dead_passes(text: str) -> None:
    assert find_by_rules(text) is None
    assert find_sensitive(text) is None


@pytest.mark.parametrize("text", _LIVE)
def test_a_live_value_beside_the_same_words_is_found(text: str) -> None:
    found = find_sensitive(text)
    assert found is not None and found.rule == "secret"

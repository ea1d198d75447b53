"""What the learned stage is trained on (session 20d): the text as the filter gives it to the
model, in training as in use. These hold whatever the trained weights are."""

from __future__ import annotations

import pytest
from engram.domain.sensitive.filter import learned_reading
from engram.domain.sensitive.learned_model import model_text, tokens
from engram.domain.sensitive.reading_view import reading_view

from bench.sensitive_train import read


@pytest.mark.parametrize(
    ("text", "key"),
    [
        ("my pin is four five eight seven", ""),
        ("la boîte à clés c'est 1 0 3 3, merci", ""),
        ("the area code for the office is 415", ""),
        ("password=[REDACTED] in the log", ""),
        ("vier null neun zwei", "alarm_code"),
    ],
)
def test_training_reads_the_text_as_the_filter_gives_it_to_the_model(text: str, key: str) -> None:
    # (red before 20d: the model was trained on the text as written, "four five eight seven",
    # and used on the filter's reading, "4587")
    assert read(text, key) == model_text(learned_reading(text, reading_view(text)), key)
    assert read(text, key, as_filter=False) == model_text(text, key)


def test_spelled_digits_reach_training_as_digits() -> None:
    assert read("my pin is four five eight seven", "") == "my pin is 4587"


@pytest.mark.parametrize(
    ("key", "words"),
    [
        ("wifiPassword", ["wifi", "password"]),
        ("identity.nationalId", ["identity", "national", "id"]),
        ("doorCode2", ["door", "code"]),
        ("venn_estate_bitwarden", ["venn", "estate", "bitwarden"]),
        ("Tür-Code", ["tür", "code"]),
        ("MY_API_KEY", ["my", "api", "key"]),
    ],
)
def test_a_key_is_read_as_its_words_in_any_case_style(key: str, words: list[str]) -> None:
    # (red before 21d for camelCase: "wifiPassword" was read as one value shaped "<v:Aa>", so
    # the model saw a value and no word naming it; found by 20d, landed with weights trained on it)
    toks = tokens(model_text("1234", key))
    assert [t.norm for t in toks if t.word] == words
    assert [t.norm for t in toks if t.value][-1] == "<d4>"

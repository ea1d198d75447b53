"""Semantic dedup thresholds per embedder, measured on labelled write pairs (issue #17, item 6).

Each pair is a stored fact and a later write under a key the user has no entry for:
``duplicate`` (the same fact in other words: it should reinforce), ``contradiction``
(the same subject, another value: it should supersede) or ``new`` (another fact: it
should be created). The decision is ``SemanticDedup``'s own rule (``decide`` below uses
the same similarities: the whole fact for a duplicate, the key as words for a
contradiction). For each embedder it prints how the configured thresholds classify the
pairs, and the best thresholds on this set by a grid search that never allows a wrong
merge (a ``new`` pair reinforcing or superseding something is data loss; a missed
duplicate only costs a second entry, which dream's merge catches later).

    python -m bench.dedup_calibration            # hash and MiniLM
    python -m bench.dedup_calibration --embedder hash

Writes bench/results/dedup_calibration.json. The set is small and hand-written; it checks
the thresholds' order of magnitude and their failure modes, it is not a benchmark of
embedders.
"""

from __future__ import annotations

import argparse
from collections import Counter
from typing import Any

from engram.domain.policies import same_value
from engram.domain.subjects import distinct_subjects
from engram.ports import Embedder
from engram.service.dedup import DedupThresholds, classify, fact_text, subject_of, thresholds_for

from bench.common import write_results

Fact = tuple[str, str]
# (stored, written, label)
PAIRS: list[tuple[Fact, Fact, str]] = [
    # The same fact in other words: reinforce.
    (("favorite_food", "pizza"), ("favorite_meal", "pizza"), "duplicate"),
    (("favorite_food", "pizza"), ("favourite_meal", "pizza"), "duplicate"),
    (("favorite_food", "pizza"), ("favorite_foods", "Pizza"), "duplicate"),
    (("favorite_color", "blue"), ("favourite_colour", "blue"), "duplicate"),
    (("employer", "Acme Corp"), ("workplace", "Acme Corp"), "duplicate"),
    (("employer", "Acme Corp"), ("works_at", "Acme Corp"), "duplicate"),
    (("home_city", "Lisbon"), ("city_of_residence", "Lisbon"), "duplicate"),
    (("home_city", "Lisbon"), ("lives_in", "Lisbon"), "duplicate"),
    (("pet", "a dog named Rex"), ("pet_dog", "Rex, a dog"), "duplicate"),
    (("diet", "vegetarian"), ("dietary_preference", "vegetarian"), "duplicate"),
    (("preferred_language", "Python"), ("favorite_programming_language", "Python"), "duplicate"),
    (("likes:coffee", "coffee"), ("likes:coffees", "coffee"), "duplicate"),
    (("spouse_name", "Maria"), ("wife_name", "Maria"), "duplicate"),
    (("birthday", "12 March"), ("date_of_birth", "12 March"), "duplicate"),
    # The same subject, another value: supersede.
    (("favorite_food", "pizza"), ("favorite_meal", "sushi"), "contradiction"),
    (("favorite_food", "pizza"), ("favourite_food", "ramen"), "contradiction"),
    (("favorite_food", "pizza"), ("favorite_foods", "sushi"), "contradiction"),
    (("favorite_color", "blue"), ("favourite_colour", "green"), "contradiction"),
    (("home_city", "Lisbon"), ("home_town", "Porto"), "contradiction"),
    (("employer", "Acme Corp"), ("employer_name", "Globex"), "contradiction"),
    (("phone_model", "iPhone 12"), ("phone", "Pixel 8"), "contradiction"),
    (("diet", "vegetarian"), ("diet_type", "vegan"), "contradiction"),
    (("preferred_language", "Python"), ("preferred_programming_language", "Rust"), "contradiction"),
    (("car", "a red Fiat"), ("car_model", "Tesla Model 3"), "contradiction"),
    # Another fact: create.
    (("favorite_food", "pizza"), ("employer", "Acme Corp"), "new"),
    (("favorite_food", "pizza"), ("favorite_color", "blue"), "new"),
    (("favorite_food", "pizza"), ("favorite_drink", "coffee"), "new"),
    (("favorite_color", "blue"), ("favorite_movie", "Alien"), "new"),
    (("home_city", "Lisbon"), ("birth_city", "Porto"), "new"),
    (("home_city", "Lisbon"), ("travel_destination", "Lisbon"), "new"),
    (("employer", "Acme Corp"), ("previous_employer", "Globex"), "new"),
    (("pet", "a dog named Rex"), ("allergy", "cats"), "new"),
    (("diet", "vegetarian"), ("favorite_sport", "tennis"), "new"),
    (("spouse_name", "Maria"), ("daughter_name", "Ana"), "new"),
    (("birthday", "12 March"), ("anniversary", "3 June"), "new"),
    (("likes:coffee", "coffee"), ("likes:tea", "tea"), "new"),
    (("preferred_language", "Python"), ("spoken_language", "Portuguese"), "new"),
    (("car", "a red Fiat"), ("bike", "a red Trek"), "new"),
    # Minimal pairs: keys that embed close but name another subject (a negation, a
    # qualifier, another relative or place). Reinforcing or superseding would invert or
    # misattribute the fact.
    (("favorite_food", "sushi"), ("least_favorite_food", "sushi"), "new"),
    (("favorite_food", "sushi"), ("least_favourite_food", "pizza"), "new"),
    (("brother_name", "Anna"), ("sister_name", "Anna"), "new"),
    (("brother_name", "Tom"), ("sister_name", "Anna"), "new"),
    (("wife_name", "Maria"), ("ex_wife_name", "Maria"), "new"),
    (("daughter_school", "Hillside"), ("son_school", "Hillside"), "new"),
    (("mom_birthday", "12 March"), ("dad_birthday", "12 March"), "new"),
    (("home_address", "1 Main St"), ("work_address", "9 Dock Rd"), "new"),
    (("first_car", "a red Fiat"), ("current_car", "a Tesla"), "new"),
    (("favorite_season", "summer"), ("worst_season", "summer"), "new"),
    (("likes", "cilantro"), ("dislikes", "cilantro"), "new"),
    # Numbered slots and identifiers: other facts, however alike their words.
    (("child_1", "Ana"), ("child_2", "Ana"), "new"),
    (("note_4", "call mum on Sunday"), ("note_5", "call dad on Sunday"), "new"),
    (("own-3-4", "note 3 4"), ("own-3-5", "note 3 5"), "new"),
    (("own-1-12", "note 1 12"), ("own-12-1", "note 12 1"), "new"),
    (("iso012-b-r495", "value iso012-b-r495"), ("iso012-b-r496", "value iso012-b-r496"), "new"),
    (("address_line_1", "Rua Augusta 10"), ("address_line_2", "Rua Augusta 10"), "new"),
    # A number that changed is a contradiction of the same subject.
    (("phone", "555-1234"), ("phone_number", "555-1235"), "contradiction"),
]


def _dot(a: list[float], b: list[float]) -> float:
    return float(sum(x * y for x, y in zip(a, b, strict=True)))


def similarities(embedder: Embedder) -> list[dict[str, Any]]:
    rows = []
    for (k1, v1), (k2, v2), label in PAIRS:
        w1, s1, w2, s2 = embedder.embed([fact_text(k1, v1), subject_of(k1), fact_text(k2, v2), subject_of(k2)])
        rows.append(
            {
                "stored": f"{k1}={v1}",
                "written": f"{k2}={v2}",
                "keys": (k1, k2),
                "values": (v1, v2),
                "label": label,
                "whole": round(_dot(w1, w2), 4),
                "subject": round(_dot(s1, s2), 4),
                "sameValue": same_value(v1, v2),
                "distinctSubjects": distinct_subjects(k1, k2),
            }
        )
    return rows


def decide(row: dict[str, Any], t: DedupThresholds) -> str:
    """``SemanticDedup.match``'s own rule for one candidate."""
    (stored_key, key), (stored_value, value) = row["keys"], row["values"]
    return classify(key, value, stored_key, stored_value, row["whole"], row["subject"], t) or "new"


def score(rows: list[dict[str, Any]], t: DedupThresholds) -> dict[str, Any]:
    confusion: Counter[str] = Counter(f"{r['label']}->{decide(r, t)}" for r in rows)
    right = sum(n for k, n in confusion.items() if k.split("->")[0] == k.split("->")[1])
    # A wrong merge: anything decided as duplicate/contradiction that is not exactly that.
    wrong_merges = sum(
        n for k, n in confusion.items() if not k.endswith("->new") and k.split("->")[0] != k.split("->")[1]
    )
    return {
        "correct": right,
        "of": len(rows),
        "wrongMerges": wrong_merges,
        "confusion": dict(sorted(confusion.items())),
    }


def best(rows: list[dict[str, Any]]) -> tuple[DedupThresholds, dict[str, Any]]:
    """The most pairs right with no wrong merge; ties go to the stricter thresholds."""
    grid = [round(0.5 + i / 100, 2) for i in range(50)]
    found: tuple[tuple[int, float, float], DedupThresholds, dict[str, Any]] | None = None
    for d in grid:
        for c in grid:
            t = DedupThresholds(d, c)
            s = score(rows, t)
            if s["wrongMerges"]:
                continue
            rank = (s["correct"], d, c)
            if found is None or rank > found[0]:
                found = (rank, t, s)
    assert found is not None  # 0.99 / 0.99 merges nothing
    return found[1], found[2]


def _embedder(name: str) -> Embedder:
    if name == "hash":
        from engram.adapters.hashing_embedder import HashingEmbedder

        return HashingEmbedder()
    from engram.adapters.minilm_embedder import MiniLMEmbedder

    return MiniLMEmbedder(threads=1)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--embedder", choices=("hash", "minilm"), action="append")
    args = parser.parse_args()
    results: dict[str, Any] = {}
    for name in args.embedder or ["hash", "minilm"]:
        embedder = _embedder(name)
        rows = similarities(embedder)
        configured = thresholds_for(embedder)
        tuned, tuned_score = best(rows)
        now = score(rows, configured)
        results[name] = {
            "model": embedder.model_id,
            "configured": {"duplicate": configured.duplicate, "supersede": configured.contradiction, **now},
            "bestOnThisSet": {"duplicate": tuned.duplicate, "supersede": tuned.contradiction, **tuned_score},
            "pairs": rows,
        }
        print(
            f"{name:6} configured {configured.duplicate:.2f}/{configured.contradiction:.2f}: "
            f"{now['correct']}/{now['of']} right, {now['wrongMerges']} wrong merges"
            f"   best here {tuned.duplicate:.2f}/{tuned.contradiction:.2f}: {tuned_score['correct']}/{tuned_score['of']}"
        )
        print("       ", now["confusion"])
    path = write_results("dedup_calibration", {"pairs": len(PAIRS), "embedders": results})
    print(f"wrote {path}")


if __name__ == "__main__":
    main()

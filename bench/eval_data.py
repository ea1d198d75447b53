"""A deterministic synthetic evaluation for recall: users, facts, queries, traps.

Each user holds a random subset of topics (one fact each) plus filler notes. Every
topic has three queries of rising difficulty: ``lexical`` (shares the key's words),
``paraphrase`` (shares a word or two), ``noshare`` (shares no word with the fact at all,
checked below), and a ``value`` query that names the remembered thing itself (a name,
a brand: rare words). The traps:

- distractors: facts that share the queries' words but answer something else;
- contradictions: an older value written first, then superseded by the current one;
  the old value must never be returned;
- expired: ephemeral entries past their TTL that match queries; never returned;
- rumours: an older, low-confidence, low-importance fact under another key that reads
  like the real one; the prior (importance, recency, confidence) should rank it lower;
- unanswerable queries: topics this user never mentioned (nothing should pass the
  minimum score).

The same seed gives the same data on every machine: ``random.Random(seed)`` only.
Users are split into train and test by a stable hash of their id, so weights tuned
on train are reported on users they never saw.
"""

from __future__ import annotations

import hashlib
import random
import re
from dataclasses import dataclass, field

# key, values, (lexical, paraphrase, noshare) queries
TOPICS: list[tuple[str, list[str], tuple[str, str, str]]] = [
    (
        "favorite_food",
        ["pizza", "sushi", "tacos", "ramen", "lasagna"],
        ("what is my favorite food?", "which food do I like best?", "what dish do I enjoy eating most?"),
    ),
    (
        "dog_name",
        ["Rex", "Biscuit", "Luna", "Max", "Pepper"],
        ("what is my dog's name?", "what did I name my dog?", "what is my puppy called?"),
    ),
    (
        "employer",
        ["Acme Corp", "Globex", "Initech", "Umbrella Labs", "Stark Industries"],
        ("who is my employer?", "which employer pays my salary?", "which company do I work for?"),
    ),
    (
        "home_city",
        ["Lisbon", "Denver", "Osaka", "Nairobi", "Toronto"],
        ("what is my home city?", "which city is home for me?", "where do I live?"),
    ),
    (
        "birthday",
        ["March 3", "July 19", "October 30", "January 8", "May 25"],
        ("when is my birthday?", "what day is my birthday on?", "when was I born?"),
    ),
    (
        "spouse_name",
        ["Maria", "David", "Aisha", "Kenji", "Sofia"],
        ("what is my spouse's name?", "what is the name of my spouse?", "who am I married to?"),
    ),
    (
        "allergy",
        ["peanuts", "shellfish", "penicillin", "pollen", "gluten"],
        ("do I have an allergy?", "what allergy should you know about?", "what makes me sick if I eat it?"),
    ),
    (
        "favorite_music",
        ["jazz", "heavy metal", "k-pop", "classical", "hip hop"],
        ("what is my favorite music?", "which music do I enjoy?", "which songs do I like listening to?"),
    ),
    (
        "hobby",
        ["rock climbing", "knitting", "chess", "birdwatching", "pottery"],
        ("what is my hobby?", "which hobby do I spend time on?", "what do I do for fun on weekends?"),
    ),
    (
        "car",
        ["Toyota Corolla", "Tesla Model 3", "Ford F-150", "Honda Civic", "Volvo XC60"],
        ("what car do I have?", "which car do I own?", "what vehicle do I drive?"),
    ),
    (
        "native_language",
        ["Portuguese", "Tagalog", "Polish", "Swahili", "Korean"],
        ("what is my native language?", "which language did I learn first?", "what did I speak as a kid?"),
    ),
    (
        "job_title",
        ["nurse", "software engineer", "architect", "teacher", "electrician"],
        ("what is my job title?", "what job do I have?", "what is my occupation?"),
    ),
    (
        "diet",
        ["vegetarian", "vegan", "keto", "pescatarian", "halal"],
        ("what diet do I follow?", "am I on a special diet?", "do I avoid meat?"),
    ),
    (
        "number_of_children",
        ["two", "one", "three", "four", "none yet"],
        ("what number of children do I have?", "how many children are in my family?", "how many kids do I have?"),
    ),
    (
        "coffee_order",
        ["oat milk latte", "double espresso", "flat white", "cold brew", "cappuccino"],
        ("what is my usual coffee order?", "how do I order my coffee?", "how do I take my morning cup at the cafe?"),
    ),
    (
        "upcoming_trip",
        ["Japan in April", "Iceland in June", "Peru in September", "Italy at Easter", "Kenya next winter"],
        ("where is my upcoming trip?", "when is my next trip?", "where am I going on holiday?"),
    ),
    (
        "favorite_book",
        ["Dune", "Beloved", "Middlemarch", "The Hobbit", "Neuromancer"],
        ("what is my favorite book?", "which book do I love?", "which novel did I enjoy reading most?"),
    ),
    (
        "workout_routine",
        ["running every morning", "yoga twice a week", "swimming laps", "weightlifting", "cycling to work"],
        ("what is my workout routine?", "how often do I work out?", "how do I exercise and stay fit?"),
    ),
    (
        "bedtime",
        ["11pm", "midnight", "10pm", "9:30pm", "1am"],
        ("what is my usual bedtime?", "what bedtime do I keep?", "when do I go to sleep at night?"),
    ),
    (
        "cat_name",
        ["Mochi", "Whiskers", "Nala", "Oliver", "Ziggy"],
        ("what is my cat's name?", "what did I name my cat?", "what is my kitten called?"),
    ),
    (
        "alma_mater",
        ["MIT", "University of Porto", "Stanford", "Kyoto University", "McGill"],
        ("what is my alma mater?", "which alma mater did I graduate from?", "where did I go to college?"),
    ),
    (
        "favorite_color",
        ["green", "purple", "teal", "orange", "crimson"],
        ("what is my favorite color?", "which color do I like most?", "which hue do I prefer?"),
    ),
    (
        "phone_model",
        ["Pixel 8", "iPhone 15", "Galaxy S24", "Fairphone 5", "OnePlus 12"],
        ("what phone model do I use?", "which phone do I have?", "which mobile device do I carry?"),
    ),
    (
        "favorite_movie",
        ["Inception", "Amelie", "Spirited Away", "The Matrix", "Casablanca"],
        ("what is my favorite movie?", "which movie do I love?", "which film could I watch again and again?"),
    ),
    (
        "medication",
        ["insulin", "metformin", "levothyroxine", "an inhaler", "statins"],
        ("what medication do I take?", "am I on any medication?", "which medicine am I prescribed?"),
    ),
    (
        "brother_name",
        ["Tom", "Ravi", "Lukas", "Omar", "Pedro"],
        ("what is my brother's name?", "what is my brother called?", "who is my male sibling?"),
    ),
    (
        "instrument",
        ["violin", "drums", "piano", "cello", "ukulele"],
        ("what instrument do I play?", "which instrument am I learning?", "what do I perform music on?"),
    ),
    (
        "favorite_season",
        ["autumn", "winter", "spring", "summer", "monsoon"],
        ("what is my favorite season?", "which season do I enjoy most?", "what time of year do I love?"),
    ),
    (
        "hometown",
        ["Porto", "Leeds", "Cebu", "Lyon", "Austin"],
        ("what is my hometown?", "which town is my hometown?", "where did I grow up?"),
    ),
    (
        "favorite_sports_team",
        ["Lakers", "Benfica", "Yankees", "Arsenal", "All Blacks"],
        ("what is my favorite sports team?", "which team do I cheer for?", "which club do I support?"),
    ),
]

# Facts that share words with the queries above but answer none of them.
DISTRACTORS: list[tuple[str, str]] = [
    ("dog_food_brand", "Acana"),
    ("favorite_food_truck", "the taco stand on 5th"),
    ("car_insurance", "renews in May"),
    ("home_wifi_name", "NETGEAR-42"),
    ("birthday_gift_idea_for_mom", "a scarf"),
    ("music_teacher", "Mr. Olsen"),
    ("book_club", "meets on Thursdays"),
    ("phone_bill", "due on the 1st"),
    ("team_meeting", "every Monday at 9"),
    ("coffee_machine", "needs descaling"),
    ("trip_budget", "2000 dollars"),
    ("cat_food", "salmon pate"),
    ("color_of_my_bike", "red"),
    ("movie_night", "Fridays with friends"),
    ("language_app", "Duolingo streak of 200 days"),
    ("work_laptop", "ThinkPad X1"),
]

FILLER = [
    "prefers window seats on flights",
    "keeps a journal",
    "is learning to cook Thai curries",
    "has a balcony garden with tomatoes",
    "volunteers at the library",
    "collects vinyl records",
    "dislikes loud restaurants",
    "recently repainted the kitchen",
    "follows a podcast about history",
    "owns a bread maker",
    "takes the train to the office",
    "writes letters to a pen pal",
]

EXPIRED: list[tuple[str, str, str]] = [
    # key, value, category (ephemeral): match queries' words, must never come back
    ("feeling_about_trip", "nervous about the flight", "feeling"),
    ("dog_vet_visit", "went to the vet yesterday", "event"),
    ("coffee_today", "skipped coffee this morning", "event"),
    ("music_mood", "listening to sad songs today", "feeling"),
]

_WORD = re.compile(r"[a-z0-9]+")


def words(text: str) -> set[str]:
    return set(_WORD.findall(text.casefold()))


def fact_text(key: str, value: str) -> str:
    """Exactly what the index sees for an entry without a statement (MemoryEntry.text)."""
    return f"{key.replace('_', ' ').replace('-', ' ')}: {value}"


@dataclass(frozen=True, slots=True)
class Fact:
    key: str
    value: str
    category: str = "fact"
    importance: int = 50
    confidence: float = 1.0
    age_days: float = 0.0  # how long before "now" it was written
    expired: bool = False
    superseded_by_next: bool = False  # an older value; the next fact of the same key replaces it
    role: str = "target"  # target | distractor | filler | rumour | old | expired


@dataclass(frozen=True, slots=True)
class Query:
    user_id: str
    text: str
    style: str  # lexical | paraphrase | noshare | unanswerable
    target_key: str | None  # None: unanswerable


@dataclass
class UserData:
    user_id: str
    facts: list[Fact] = field(default_factory=list)
    queries: list[Query] = field(default_factory=list)

    @property
    def split(self) -> str:
        return "test" if int(hashlib.sha256(self.user_id.encode()).hexdigest(), 16) % 10 < 3 else "train"


def generate(users: int = 60, seed: int = 7, topics_per_user: int = 22, filler_per_user: int = 10) -> list[UserData]:
    rng = random.Random(seed)
    out: list[UserData] = []
    for n in range(users):
        u = UserData(f"user-{n:03d}")
        chosen = rng.sample(range(len(TOPICS)), topics_per_user)
        missing = [i for i in range(len(TOPICS)) if i not in chosen]
        for i in chosen:
            key, values, queries = TOPICS[i]
            current, old, rumour = rng.sample(values, 3)
            category = "preference" if key.startswith("favorite") or key in {"coffee_order", "diet"} else "fact"
            age = rng.uniform(0, 120)
            if rng.random() < 0.3:
                u.facts.append(
                    Fact(key, old, category, 50, 0.9, age + rng.uniform(30, 120), superseded_by_next=True, role="old")
                )
            u.facts.append(Fact(key, current, category, rng.randint(40, 90), round(rng.uniform(0.8, 1.0), 2), age))
            if rng.random() < 0.25:
                u.facts.append(
                    Fact(
                        f"maybe_{key}",
                        rumour,
                        category,
                        rng.randint(5, 25),
                        round(rng.uniform(0.3, 0.5), 2),
                        rng.uniform(150, 400),
                        role="rumour",
                    )
                )
            for style, text in zip(("lexical", "paraphrase", "noshare"), queries, strict=True):
                u.queries.append(Query(u.user_id, text, style, key))
            # Naming the thing itself (a name, a brand): rare words are BM25's strength.
            u.queries.append(Query(u.user_id, f"anything I told you about {current}?", "value", key))
        for key, value in rng.sample(DISTRACTORS, 6):
            u.facts.append(Fact(key, value, "fact", rng.randint(20, 70), 0.9, rng.uniform(0, 200), role="distractor"))
        for j, note in enumerate(rng.sample(FILLER, min(filler_per_user, len(FILLER)))):
            u.facts.append(Fact(f"note_{j}", note, "fact", 30, 0.8, rng.uniform(0, 300), role="filler"))
        for key, value, category in rng.sample(EXPIRED, 2):
            u.facts.append(Fact(key, value, category, 60, 1.0, age_days=10, expired=True, role="expired"))
        for i in rng.sample(missing, 3):
            u.queries.append(Query(u.user_id, TOPICS[i][2][2], "unanswerable", None))
        out.append(u)
    return out


def check(data: list[UserData]) -> None:
    """The promises above hold: a noshare query shares no word with its fact."""
    for u in data:
        current = {f.key: f for f in u.facts if f.role == "target"}
        for q in u.queries:
            if q.style == "noshare" and q.target_key is not None:
                f = current[q.target_key]
                shared = words(q.text) & words(fact_text(f.key, f.value))
                if shared:
                    raise AssertionError(f"noshare query {q.text!r} shares {shared} with {f.key}")


def scale(users: int, entries_per_user: int, seed: int = 11) -> list[list[Fact]]:
    """Bigger synthetic users for the latency benchmark: topics, distractors and filler
    recombined with numbered keys until each user has ``entries_per_user`` facts."""
    rng = random.Random(seed)
    pool: list[tuple[str, str]] = [(k, v) for k, vs, _ in TOPICS for v in vs] + DISTRACTORS
    pool += [(f"note_{i}", n) for i, n in enumerate(FILLER)]
    out: list[list[Fact]] = []
    for _ in range(users):
        facts = []
        for i in range(entries_per_user):
            key, value = rng.choice(pool)
            facts.append(
                Fact(
                    f"{key}_{i}",
                    value,
                    rng.choice(["fact", "preference"]),
                    rng.randint(1, 100),
                    1.0,
                    rng.uniform(0, 365),
                )
            )
        out.append(facts)
    return out


if __name__ == "__main__":
    data = generate()
    check(data)
    facts = sum(len(u.facts) for u in data)
    queries = [q for u in data for q in u.queries]
    styles: dict[str, int] = {}
    for q in queries:
        styles[q.style] = styles.get(q.style, 0) + 1
    split = {s: sum(1 for u in data if u.split == s) for s in ("train", "test")}
    print(f"users {len(data)} (train {split['train']}, test {split['test']}), facts {facts}, queries {len(queries)}")
    print("queries by style:", styles)

"""A deterministic multi-session conversation evaluation: what an agent must recall.

Harder than ``bench/eval_data.py`` on purpose, and shaped like real long-term chat:

- each conversation is between two people (speaker A is the user, speaker B the
  other side) over 20 to 28 dated sessions a few days to weeks apart, about 400 to
  600 turns in all, most of them small talk, reactions and follow-ups;
- life events are told in passing, in varied first-person wording, often with a
  relative time ("last weekend") that only the session date resolves; later sessions
  refer back to them without naming them again ("Biscuit chewed my sneakers");
- both speakers talk about overlapping subjects (two people with pets, jobs, trips),
  so shared words are a trap, not a gift;
- questions are asked in the third person, as a reader of the conversation would:
  ``single`` (one turn, reworded), ``multi`` (two or three turns to connect),
  ``temporal`` ("when did ...", and "what did ... in June 2023" that only a session
  date answers) and ``open`` (an inference, with few words in common);
- every question names the turns that hold its answer (turn-level evidence).

Version 3 (the default; ``--data 1`` and ``--data 2`` reproduce the earlier data byte for
byte) changes what made versions 1 and 2 unlike real conversation benchmarks, where plain
BM25 finds more evidence than plain MiniLM cosine (the issue's table: R@10 0.56 against
0.44; here, version 2, 0.21 against 0.48, bench/conv_refs.py):

- questions reuse the conversation's own words for the names, objects, places and
  events they are about, as people do (bench/conv_questions.py), and keep paraphrase,
  multi-hop, temporal and inference questions;
- people come back to their subjects between the news and the update (``CHATTER``):
  turns about the subject that answer nothing, for keywords and for meaning alike;
- the other person's events share four of their six topics with the user's;
- more turns run to two or three sentences (a lead-in, a tail, or a line about another
  part of the speaker's life).

Same seed, but not the same conversations as version 2: the other person's topics and
the added turns change what the generator draws after them (sessions, turn order).

Held out: conversations are split 70/30 into ``train`` and ``test`` by a stable hash,
and the test conversations are asked with question wordings train never uses (one
template of each list, chosen by a stable hash; version 1 held out the last), so tuning
on train cannot learn the test phrasings.
Same seed, same data on every machine (``random.Random`` only).
"""

from __future__ import annotations

import hashlib
import random
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta

from bench.conv_questions import CHATTER, QUESTIONS, SUBJECTS

DATA_VERSION = 3

NAMES = [
    ("Maya", "she", "her"),
    ("Leo", "he", "his"),
    ("Priya", "she", "her"),
    ("Tom", "he", "his"),
    ("Grace", "she", "her"),
    ("Omar", "he", "his"),
    ("Hannah", "she", "her"),
    ("Diego", "he", "his"),
    ("Nora", "she", "her"),
    ("Sam", "he", "his"),
    ("Ines", "she", "her"),
    ("Kofi", "he", "his"),
    ("Lena", "she", "her"),
    ("Yuki", "she", "her"),
    ("Marcus", "he", "his"),
    ("Chloe", "she", "her"),
    ("Ravi", "he", "his"),
    ("Sofia", "she", "her"),
    ("Ben", "he", "his"),
    ("Amara", "she", "her"),
]

# Relative times as people say them, with how many days back they point.
RELATIVE = [
    ("yesterday", 1),
    ("last weekend", 6),
    ("last week", 7),
    ("two days ago", 2),
    ("this morning", 0),
    ("a few days ago", 3),
    ("last Saturday", 5),
    ("", 0),
    ("", 0),
]


@dataclass(frozen=True)
class Topic:
    """One kind of life event. Templates use {slots}, {rel} (a relative time), and for
    questions {name}, {pron}, {poss}. ``questions``: (kind, templates, evidence parts)."""

    name: str
    slots: dict[str, list[str]]
    intro: list[str]
    detail: list[str]
    later: list[str]
    reaction: list[str]
    questions: list[tuple[str, list[str], tuple[str, ...]]]
    subject: str  # how a time-anchored question names it ("her pet")


TOPICS: list[Topic] = [
    Topic(
        "pet",
        {
            "animal": ["puppy", "kitten", "rescue dog", "tabby cat"],
            "pet": ["Biscuit", "Luna", "Pepper", "Milo", "Mochi"],
            "place": ["the shelter", "a rescue group", "a farm upstate"],
            "mischief": [
                "chewed through my sneakers",
                "knocked a plant off the shelf",
                "stole a whole sandwich off the counter",
            ],
        },
        [
            "We finally brought home a little {animal} from {place} {rel}!",
            "Big news, I adopted a {animal} {rel}. It came from {place}.",
            "So {rel} I went to {place} just to look and came home with a {animal}, oops",
        ],
        [
            "I named it {pet}, it just felt right.",
            "{pet} is the name, after much debate.",
            "We went with {pet} for the name.",
            "I named the {animal} {pet}, after my grandma's old dog.",
        ],
        [
            "{pet} {mischief} this week, I could not even be mad.",
            "Ugh, {pet} {mischief}. Chaos as usual.",
            "Quick update: {pet} {mischief} yesterday haha",
            "The {animal} from {place}, {pet}, {mischief}. Chaos.",
        ],
        ["Aww that is adorable!", "No way, congrats on the new family member!", "I need pictures immediately"],
        [
            (
                "single",
                [
                    "What kind of animal did {name} adopt?",
                    "Which animal did {name} bring home?",
                    "What type of pet joined {name}'s household?",
                ],
                ("intro",),
            ),
            (
                "single",
                [
                    "What is the name of {name}'s pet?",
                    "What did {name} call the new pet?",
                    "What name did {name} give the animal?",
                ],
                ("detail",),
            ),
            (
                "temporal",
                [
                    "When did {name} adopt a pet?",
                    "When did {name} get the {animal}?",
                    "When did the {animal} arrive at {name}'s home?",
                ],
                ("intro",),
            ),
            (
                "multi",
                [
                    "What mischief did the animal {name} adopted from {place} get up to?",
                    "What trouble did the pet from {place} cause {name}?",
                    "What did {name}'s pet from {place} do that was naughty?",
                ],
                ("intro", "detail", "later"),
            ),
            (
                "open",
                [
                    "Is {name} likely to be an animal lover?",
                    "Would {name} enjoy volunteering at an animal shelter?",
                    "Does {name} seem like someone who cares for animals?",
                ],
                ("intro",),
            ),
        ],
        "{poss} pet",
    ),
    Topic(
        "pottery",
        {
            "craft": ["pottery", "ceramics", "wheel throwing"],
            "piece": ["a lopsided mug", "a small vase", "a set of bowls"],
            "studio": ["a studio downtown", "the community center", "an old warehouse space"],
        },
        [
            "I signed up for a {craft} class {rel}, first session was messy but fun.",
            "{rel} I started taking {craft} lessons at {studio}!",
            "Guess who has clay under their nails: I joined a {craft} course {rel}",
        ],
        [
            "It is at {studio}, Thursday evenings.",
            "I made {piece} on the first try, kind of proud.",
            "The class meets at {studio}, tiny place but lovely.",
            "The {craft} class is at {studio}, I go every Thursday.",
        ],
        [
            "I finally glazed {piece}, it came out of the kiln today!",
            "Fired {piece} last night, the glaze turned out blue-green.",
            "My teacher said {piece} was my best work so far.",
            "In {craft} class I finished {piece} and glazed it blue.",
        ],
        ["That sounds so relaxing", "Oh I have always wanted to try that!", "Show me what you make!"],
        [
            (
                "single",
                [
                    "What class did {name} start taking?",
                    "What hands-on hobby did {name} pick up?",
                    "Which artsy course did {name} enroll in?",
                ],
                ("intro",),
            ),
            (
                "single",
                [
                    "What did {name} make in class?",
                    "Which piece did {name} create?",
                    "What object did {name} produce at the studio?",
                ],
                ("later",),
            ),
            (
                "temporal",
                [
                    "When did {name} start the {craft} class?",
                    "When did {name} begin learning {craft}?",
                    "When was {name}'s first clay lesson?",
                ],
                ("intro",),
            ),
            (
                "multi",
                [
                    "Where does {name} go for the class {pron} started, and what did {pron} make there?",
                    "At which place did {name} make {piece}?",
                    "Where is the course in which {name} created {piece}?",
                ],
                ("intro", "detail", "later"),
            ),
            (
                "open",
                [
                    "Would {name} appreciate a handmade gift?",
                    "Is {name} a creative person?",
                    "Might {name} like visiting an art fair?",
                ],
                ("intro",),
            ),
        ],
        "{poss} class",
    ),
    Topic(
        "marathon",
        {
            "race": ["half marathon", "marathon", "10k trail race"],
            "city": ["Chicago", "Portland", "Lisbon", "Boston"],
            "time": ["just under two hours", "four hours and ten minutes", "fifty-eight minutes"],
        },
        [
            "I ran the {race} in {city} {rel}! My legs are dead.",
            "{rel} I finished my first {race}, in {city} of all places.",
            "Crossed the finish line of the {city} {race} {rel}, still buzzing",
        ],
        [
            "My time was {time}, better than I hoped.",
            "Finished in {time}, not bad for a first go.",
            "Clock said {time}, I'll take it.",
            "My {race} time in {city} was {time}.",
        ],
        [
            "Signed up for another race already, apparently I never learn.",
            "My knees are finally recovered from the {city} run.",
            "Went for my first run since the race, felt slow but good.",
            "Since the {race} I signed up for another one, apparently I never learn.",
        ],
        ["Whoa, that is impressive!", "You are a machine", "Congrats!! How do you feel?"],
        [
            (
                "single",
                [
                    "What race did {name} complete?",
                    "Which running event did {name} finish?",
                    "What athletic event did {name} take part in?",
                ],
                ("intro",),
            ),
            (
                "single",
                [
                    "What was {name}'s finishing time?",
                    "How long did it take {name} to finish the race?",
                    "How fast did {name} run the {race}?",
                ],
                ("detail",),
            ),
            (
                "temporal",
                [
                    "When did {name} run the {race}?",
                    "When did {name} race in {city}?",
                    "When did {name} cross the finish line in {city}?",
                ],
                ("intro",),
            ),
            (
                "multi",
                [
                    "In which city did {name} run, and how long did it take?",
                    "How long did {name} take in the {city} event?",
                    "What time did {name} post in the race in {city}?",
                ],
                ("intro", "detail"),
            ),
            (
                "open",
                [
                    "Is {name} into fitness?",
                    "Would {name} enjoy a sporty weekend?",
                    "Does {name} care about staying active?",
                ],
                ("intro",),
            ),
        ],
        "{poss} race",
    ),
    Topic(
        "job",
        {
            "role": ["a nurse", "a data analyst", "a teacher", "a sous chef", "an architect"],
            "company": [
                "a hospital in town",
                "a small startup",
                "the city school board",
                "a bistro on Main Street",
                "a design firm",
            ],
            "boss": ["Linda", "Rafael", "Mr. Okafor", "Janet"],
        },
        [
            "I got the job!! I start as {role} at {company} next month.",
            "{rel} I accepted an offer to work as {role}, at {company}.",
            "Some news: I am leaving my old job to be {role} at {company}",
        ],
        [
            "My new manager is {boss}, seems nice so far.",
            "{boss} will be my boss, we clicked in the interview.",
            "I report to {boss}, who hired me.",
            "At the new job my manager is {boss}.",
        ],
        [
            "First week at the new place was a blur, {boss} threw me in the deep end.",
            "Work is intense but I like my team a lot.",
            "Had my first review with {boss}, went well!",
            "My first review at the new job with {boss} went really well!",
        ],
        ["That is huge, congratulations!", "So proud of you", "They are lucky to have you"],
        [
            (
                "single",
                [
                    "What new job did {name} take?",
                    "What position did {name} accept?",
                    "What is {name}'s new role at work?",
                ],
                ("intro",),
            ),
            (
                "single",
                ["Who is {name}'s manager?", "Who does {name} report to?", "What is the name of {name}'s boss?"],
                ("detail",),
            ),
            (
                "temporal",
                [
                    "When did {name} accept the new job?",
                    "When did {name} get the job offer?",
                    "When did {name} say yes to the position?",
                ],
                ("intro",),
            ),
            (
                "multi",
                [
                    "How did {name}'s review with the manager at {company} go?",
                    "What happened at {name}'s first review with {boss}?",
                    "How is {name} getting on with the boss at the new employer?",
                ],
                ("intro", "detail", "later"),
            ),
            (
                "open",
                [
                    "Is {name} ambitious about career?",
                    "Would {name} want advice on workplace growth?",
                    "Is {name} going through a career change?",
                ],
                ("intro",),
            ),
        ],
        "{poss} work",
    ),
    Topic(
        "move",
        {
            "city": ["Denver", "Seattle", "Austin", "Montreal", "Edinburgh"],
            "home": ["a tiny apartment", "a house with a yard", "a loft near the river"],
            "reason": ["to be closer to family", "for a fresh start", "because rent here got crazy"],
        },
        [
            "We are moving to {city}! Decided {rel}, {reason}.",
            "{rel} we signed the lease, we are off to {city} {reason}",
            "So it is official, I am relocating to {city} {reason}",
        ],
        [
            "We found {home}, boxes everywhere now.",
            "The new place is {home}, I love it.",
            "Got {home}, smaller than I wanted but cozy.",
            "In {city} we found {home} for the move.",
        ],
        [
            "Still unpacking, I cannot find a single spoon.",
            "The neighbors in the new building brought us cookies.",
            "Finally hung pictures up, it feels like home now.",
            "Still unpacking after the move to {city}, I cannot find a single spoon.",
        ],
        ["A big move, wow!", "Exciting and terrifying", "I will miss having you nearby"],
        [
            (
                "single",
                ["Which city did {name} move to?", "Where did {name} relocate?", "To what city did {name} move house?"],
                ("intro",),
            ),
            (
                "single",
                [
                    "Why did {name} decide to move?",
                    "What was {name}'s reason for relocating?",
                    "What motivated {name}'s move?",
                ],
                ("intro",),
            ),
            (
                "temporal",
                [
                    "When did {name} decide to move to {city}?",
                    "When did {name} sign the lease for the move?",
                    "When did {name} commit to relocating?",
                ],
                ("intro",),
            ),
            (
                "multi",
                [
                    "What kind of place did {name} find in {city}?",
                    "What home did {name} get after relocating to {city}?",
                    "Describe the dwelling {name} lives in after the relocation.",
                ],
                ("intro", "detail"),
            ),
            (
                "open",
                [
                    "Is {name} settling into a new place?",
                    "Would {name} need tips on unpacking?",
                    "Is {name} new to {poss} neighborhood?",
                ],
                ("intro", "later"),
            ),
        ],
        "{poss} move",
    ),
    Topic(
        "trip",
        {
            "place": ["Japan", "Iceland", "Peru", "Morocco", "Greece"],
            "highlight": [
                "a hot spring at sunrise",
                "the glaciers",
                "a hike to an old ruin",
                "the night market",
                "swimming in a cove",
            ],
            "companion": ["my sister", "my best friend", "my partner", "my college roommate"],
        },
        [
            "Just got back from {place}! We left {rel} and it went by too fast.",
            "{rel} I flew home from two weeks in {place}, I miss it already",
            "Back from {place} with {companion}, jet lag is brutal",
        ],
        [
            "The best part was {highlight}, unreal.",
            "Honestly {highlight} was the highlight.",
            "Nothing beat {highlight}.",
            "The best part of the trip to {place} was {highlight}.",
        ],
        [
            "I printed the photos from the trip and made an album.",
            "Still dreaming about {highlight}.",
            "Already planning to go back someday.",
            "I made a photo album from the {place} trip with {companion}.",
        ],
        ["Jealous!!", "That sounds like a dream", "Tell me everything"],
        [
            (
                "single",
                [
                    "Which country did {name} visit?",
                    "Where did {name} travel?",
                    "Which country was {name}'s holiday destination?",
                ],
                ("intro",),
            ),
            (
                "single",
                [
                    "What was the highlight of {name}'s trip?",
                    "What did {name} enjoy most abroad?",
                    "Which moment of the vacation did {name} love best?",
                ],
                ("detail",),
            ),
            (
                "temporal",
                [
                    "When did {name} return from {place}?",
                    "When did {name} get back from the trip?",
                    "When did {name} come home from vacation?",
                ],
                ("intro",),
            ),
            (
                "multi",
                [
                    "Who did {name} travel to {place} with, and what was the best part?",
                    "What did {name} and {poss} travel companion love in {place}?",
                    "What stood out on the journey {name} took with {companion}?",
                ],
                ("intro", "detail"),
            ),
            (
                "open",
                [
                    "Does {name} enjoy travel?",
                    "Would {name} be interested in an international vacation?",
                    "Is {name} an adventurous traveler?",
                ],
                ("intro",),
            ),
        ],
        "{poss} trip",
    ),
    Topic(
        "garden",
        {"plant": ["tomatoes", "basil", "sunflowers", "strawberries"], "pest": ["aphids", "a squirrel", "slugs"]},
        [
            "I started a little garden on the balcony {rel}, planted {plant}.",
            "{rel} I finally put {plant} in the raised bed out back",
            "New hobby alert: growing {plant} in pots",
        ],
        [
            "Fingers crossed they survive, I have a black thumb.",
            "Watering them every morning before work.",
            "I bought a fancy watering can for them, no regrets.",
            "The {plant} in my garden need watering every morning.",
        ],
        [
            "Something is eating my {plant}, I think it is {pest}.",
            "First harvest of {plant} today! Tiny but mine.",
            "Lost half the {plant} to {pest}, so frustrating.",
            "My garden update: {pest} got into the {plant}.",
        ],
        ["Love that", "Fresh produce is the best", "Good luck with it!"],
        [
            (
                "single",
                ["What is {name} growing?", "What did {name} plant?", "Which plants is {name} growing in the garden?"],
                ("intro",),
            ),
            (
                "single",
                [
                    "What is attacking {name}'s plants?",
                    "What pest troubled {name}'s garden?",
                    "Which critter has been damaging {name}'s crops?",
                ],
                ("later",),
            ),
            (
                "temporal",
                [
                    "When did {name} start gardening?",
                    "When did {name} plant the {plant}?",
                    "When did {name} begin the balcony garden?",
                ],
                ("intro",),
            ),
            (
                "multi",
                [
                    "What happened to the {plant} {name} planted?",
                    "How did {name}'s {plant} turn out?",
                    "What became of the seedlings {name} put in?",
                ],
                ("intro", "later"),
            ),
            (
                "open",
                [
                    "Does {name} enjoy spending time outdoors with plants?",
                    "Would {name} like a gift card for a nursery?",
                    "Is {name} interested in homegrown food?",
                ],
                ("intro",),
            ),
        ],
        "{poss} garden",
    ),
    Topic(
        "book",
        {
            "book": [
                "a novel about lighthouse keepers",
                "a memoir by a chef",
                "a sci-fi book about generation ships",
                "a history of the Silk Road",
            ],
            "club": ["my book club", "a reading group at the library"],
        },
        [
            "I could not put down {book}, stayed up until 2am {rel}.",
            "{rel} I finished {book} and I am still thinking about it",
            "Reading {book} right now and it is wrecking me",
        ],
        [
            "It is for {club}, we meet next week.",
            "{club} picked it, good choice for once.",
            "We are discussing it at {club}.",
            "The book is for {club}, we meet next week to discuss it.",
        ],
        [
            "The discussion at {club} got heated, in a good way.",
            "Half of {club} hated the ending, I loved it.",
            "Recommended it to my mom too.",
            "{club} argued about the ending of the book, I loved it.",
        ],
        ["Ooh what is it about?", "Adding it to my list", "I need a new read, thanks"],
        [
            (
                "single",
                [
                    "What book has {name} been reading?",
                    "What was {name} reading recently?",
                    "Which title kept {name} up all night?",
                ],
                ("intro",),
            ),
            (
                "single",
                [
                    "What group does {name} discuss books with?",
                    "Where does {name} talk about what {pron} reads?",
                    "Who does {name} share reading with?",
                ],
                ("detail",),
            ),
            (
                "temporal",
                [
                    "When did {name} finish the book?",
                    "When did {name} stay up late reading?",
                    "When did {name} complete {poss} latest read?",
                ],
                ("intro",),
            ),
            (
                "multi",
                [
                    "How did {name}'s group react to the book {pron} read?",
                    "What did the club think of the book {name} could not put down?",
                    "How was the discussion of the title {name} was absorbed by?",
                ],
                ("intro", "later"),
            ),
            (
                "open",
                ["Is {name} a reader?", "Would {name} like a bookstore voucher?", "Does {name} enjoy literature?"],
                ("intro",),
            ),
        ],
        "{poss} reading",
    ),
    Topic(
        "health",
        {
            "injury": ["sprained my ankle", "hurt my back", "broke my wrist"],
            "cause": ["playing soccer", "moving furniture", "slipping on ice"],
            "therapy": ["physical therapy", "a physio twice a week", "daily stretches"],
        },
        [
            "Ugh, I {injury} {rel}, {cause}.",
            "{rel} I {injury} {cause}, so I am stuck on the couch",
            "Small disaster: {injury} {cause}",
        ],
        [
            "Doctor says {therapy} for a month.",
            "Starting {therapy}, fun times.",
            "I have to do {therapy} now.",
            "For my injury the doctor says {therapy} for a month.",
        ],
        [
            "Feeling a lot better, {therapy} is working.",
            "Almost back to normal, no more limping.",
            "Still sore but improving.",
            "My recovery is going well, {therapy} is working.",
        ],
        ["Oh no, take care!", "Ouch, feel better", "That sounds painful"],
        [
            (
                "single",
                ["What injury did {name} get {cause}?", "How did {name} get hurt?", "What happened to {name}'s body?"],
                ("intro",),
            ),
            (
                "single",
                [
                    "What therapy is {name} doing for the injury?",
                    "What recovery plan is {name} following?",
                    "What did the doctor prescribe to {name}?",
                ],
                ("detail",),
            ),
            (
                "temporal",
                [
                    "When did {name} get injured?",
                    "When did {name} hurt {poss}self?",
                    "When did {name}'s accident happen?",
                ],
                ("intro",),
            ),
            (
                "multi",
                [
                    "Is {name} recovering from the injury {pron} got {cause}?",
                    "How is {name} doing after the accident?",
                    "How did {name}'s recovery progress?",
                ],
                ("intro", "later"),
            ),
            (
                "open",
                [
                    "Should {name} avoid strenuous activity for now?",
                    "Would {name} be up for a hike this month?",
                    "Is {name} fit for heavy lifting right now?",
                ],
                ("intro",),
            ),
        ],
        "{poss} health",
    ),
    Topic(
        "music",
        {
            "instrument": ["guitar", "piano", "violin", "drums"],
            "song": ["a Beatles song", "a jazz standard", "a lullaby for my niece"],
            "teacher": ["an old friend", "YouTube videos", "a teacher named Ruth"],
        },
        [
            "I bought a {instrument} {rel}, always wanted to learn.",
            "{rel} I picked up the {instrument} again after ten years",
            "Started {instrument} lessons, my fingers hurt",
        ],
        [
            "I am learning from {teacher}.",
            "{teacher} is teaching me the basics.",
            "Mostly following {teacher}.",
            "I am learning {instrument} from {teacher}.",
        ],
        [
            "I can finally play {song} all the way through!",
            "Practiced {song} for an hour tonight.",
            "Played {song} for my family, nobody left the room haha",
            "On the {instrument} I can finally play {song}!",
        ],
        ["That is so cool", "Play something for me next time!", "Music is the best hobby"],
        [
            (
                "single",
                [
                    "What instrument is {name} learning?",
                    "Which instrument did {name} take up?",
                    "What does {name} practice musically?",
                ],
                ("intro",),
            ),
            (
                "single",
                [
                    "What song can {name} play?",
                    "Which piece has {name} mastered?",
                    "What tune did {name} perform for family?",
                ],
                ("later",),
            ),
            (
                "temporal",
                [
                    "When did {name} get the {instrument}?",
                    "When did {name} begin playing {instrument}?",
                    "When did {name} start music again?",
                ],
                ("intro",),
            ),
            (
                "multi",
                [
                    "Who teaches {name} the {instrument}, and what can {pron} play now?",
                    "What piece did {name} learn with {teacher}?",
                    "Which tune did {name} manage after lessons from {teacher}?",
                ],
                ("detail", "later"),
            ),
            (
                "open",
                ["Would {name} enjoy a concert?", "Is {name} musical?", "Might {name} like sheet music as a present?"],
                ("intro",),
            ),
        ],
        "{poss} music",
    ),
    Topic(
        "family",
        {
            "relative": ["my sister", "my brother", "my cousin"],
            "event": ["had a baby girl", "got engaged", "graduated from nursing school"],
            "gift": ["a knitted blanket", "a photo album", "a fancy pen"],
        },
        [
            "Family news: {relative} {event} {rel}!",
            "{rel} {relative} {event}, we are all over the moon",
            "So {relative} {event}, I cried",
        ],
        [
            "I got them {gift}, hope they like it.",
            "Gave them {gift} as a present.",
            "My gift was {gift}.",
            "For {relative} I got {gift} as a present.",
        ],
        [
            "We all had dinner to celebrate, it was lovely.",
            "Visited {relative} again, everyone is doing well.",
            "The whole family is still talking about it.",
            "Visited {relative} again after the big news, everyone is well.",
        ],
        ["Congratulations to them!", "Such happy news", "Aww that is wonderful"],
        [
            (
                "single",
                [
                    "What family news did {name} share about {relative}?",
                    "What family milestone did {name} share?",
                    "What news did {name} have about a relative?",
                ],
                ("intro",),
            ),
            (
                "single",
                [
                    "What present did {name} give?",
                    "What did {name} buy for the relative?",
                    "Which gift did {name} choose?",
                ],
                ("detail",),
            ),
            (
                "temporal",
                [
                    "When did {name}'s relative {event}?",
                    "When did the family news happen for {name}?",
                    "When did {name}'s {relative} have the big event?",
                ],
                ("intro",),
            ),
            (
                "multi",
                [
                    "What gift did {name} give to the relative who {event}?",
                    "What did {name} give {relative} to celebrate?",
                    "Which present marked the occasion for {name}'s relative?",
                ],
                ("intro", "detail"),
            ),
            (
                "open",
                [
                    "Is {name} close to {poss} family?",
                    "Does {name} value family events?",
                    "Would {name} travel for a family gathering?",
                ],
                ("intro", "later"),
            ),
        ],
        "{poss} family",
    ),
    Topic(
        "cooking",
        {
            "dish": ["homemade ramen", "sourdough bread", "a Thai green curry", "lasagna from scratch"],
            "result": ["it was actually edible", "the smoke alarm went off", "my roommate asked for seconds"],
        },
        [
            "I tried making {dish} {rel}, and {result}.",
            "{rel} I spent the whole afternoon on {dish}, {result}",
            "Kitchen experiment: {dish}. Verdict: {result}",
        ],
        [
            "Found the recipe on an old blog.",
            "Took about four hours start to finish.",
            "I want to make it again but better.",
            "The {dish} recipe took four hours start to finish.",
        ],
        [
            "Made the {dish} again, second attempt was way better.",
            "Now everyone wants me to cook {dish} for them.",
            "I think I am getting the hang of {dish}.",
            "Second attempt at {dish} was way better!",
        ],
        ["Yum", "Save me some next time", "You are becoming a chef"],
        [
            (
                "single",
                [
                    "What dish did {name} cook?",
                    "What food did {name} attempt to make?",
                    "Which recipe did {name} try in the kitchen?",
                ],
                ("intro",),
            ),
            (
                "single",
                [
                    "How did {name}'s cooking attempt go?",
                    "What was the outcome of {name}'s recipe?",
                    "How did the kitchen experiment of {name} end?",
                ],
                ("intro",),
            ),
            (
                "temporal",
                [
                    "When did {name} make {dish}?",
                    "When did {name} first try the recipe?",
                    "When was {name}'s cooking experiment?",
                ],
                ("intro",),
            ),
            (
                "multi",
                [
                    "Did {name} improve at making {dish}?",
                    "How did the second attempt at the dish go for {name}?",
                    "Has {name} gotten better at the recipe since?",
                ],
                ("intro", "later"),
            ),
            (
                "open",
                [
                    "Does {name} enjoy cooking?",
                    "Would {name} like a cookbook?",
                    "Is {name} adventurous in the kitchen?",
                ],
                ("intro",),
            ),
        ],
        "{poss} cooking",
    ),
    Topic(
        "volunteer",
        {
            "cause|task": [
                "a food bank|sorting donations",
                "an animal rescue|walking dogs",
                "a literacy program for kids|reading with second graders",
                "a beach cleanup group|picking up plastic",
            ]
        },
        [
            "I started volunteering at {cause} {rel}.",
            "{rel} I did my first shift at {cause}",
            "Signed up to help out at {cause}, felt good",
        ],
        [
            "Mostly {task}, it is really rewarding.",
            "I spend Saturdays {task}.",
            "My job there is {task}.",
            "Volunteering at {cause} means {task} most Saturdays.",
        ],
        [
            "Did another shift {task}, met some great people.",
            "The coordinator asked me to lead a team now!",
            "Volunteering has become the best part of my week.",
            "At {cause} the coordinator asked me to lead a volunteer team!",
        ],
        ["That is really kind of you", "Love that", "The world needs more of that"],
        [
            (
                "single",
                [
                    "Where does {name} volunteer?",
                    "Which organization does {name} help?",
                    "What charity work does {name} do?",
                ],
                ("intro",),
            ),
            (
                "single",
                [
                    "What does {name} do as a volunteer?",
                    "What tasks does {name} handle when helping out?",
                    "How does {name} spend volunteer shifts?",
                ],
                ("detail",),
            ),
            (
                "temporal",
                [
                    "When did {name} start volunteering?",
                    "When was {name}'s first volunteer shift?",
                    "When did {name} sign up to help at {cause}?",
                ],
                ("intro",),
            ),
            (
                "multi",
                [
                    "What responsibility was {name} offered at {cause}?",
                    "Did {name} get a new role at the place {pron} volunteers?",
                    "What did the coordinator at {cause} ask of {name}?",
                ],
                ("intro", "later"),
            ),
            (
                "open",
                [
                    "Is {name} community-minded?",
                    "Would {name} join a charity event?",
                    "Does {name} care about giving back?",
                ],
                ("intro",),
            ),
        ],
        "{poss} volunteering",
    ),
    Topic(
        "car",
        {
            "car": ["a used hatchback", "an electric car", "an old pickup truck"],
            "color": ["red", "dark green", "silver"],
            "issue": ["a flat tire", "a dead battery", "a weird rattle"],
        },
        [
            "I bought {car} {rel}, it is {color}.",
            "{rel} I finally got {car}, a {color} one",
            "New wheels: {car}, {color}, slightly dented",
        ],
        [
            "Paid it off in cash, so no loan at least.",
            "Got a decent deal from a neighbor.",
            "It has high mileage but runs great.",
            "The {color} car was a decent deal from a neighbor.",
        ],
        [
            "Of course the car had {issue} this morning.",
            "Dealing with {issue} on the car, yay.",
            "Mechanic fixed {issue}, wallet crying.",
            "My {color} car had {issue}, mechanic fixed it.",
        ],
        ["Road trip time!", "Nice, congrats", "Finally no more buses"],
        [
            (
                "single",
                [
                    "What car did {name} buy?",
                    "What did {name} get for driving?",
                    "Which automobile does {name} own now?",
                ],
                ("intro",),
            ),
            (
                "single",
                [
                    "What problem did {name}'s car have?",
                    "What went wrong with {name}'s vehicle?",
                    "What repair did {name}'s car need?",
                ],
                ("later",),
            ),
            (
                "temporal",
                ["When did {name} buy the car?", "When did {name} get {car}?", "When did {name} acquire the vehicle?"],
                ("intro",),
            ),
            (
                "multi",
                [
                    "What trouble did {name}'s {color} car give {poss} owner?",
                    "What went wrong with the {color} vehicle {name} bought?",
                    "What issue did the automobile {name} purchased develop?",
                ],
                ("intro", "later"),
            ),
            (
                "open",
                [
                    "Can {name} drive to a meetup out of town?",
                    "Does {name} have {poss} own transportation?",
                    "Could {name} give someone a ride?",
                ],
                ("intro",),
            ),
        ],
        "{poss} car",
    ),
    Topic(
        "concert",
        {
            "band": ["an indie folk band", "a symphony orchestra", "a punk band from the 90s", "a jazz trio"],
            "venue": ["an outdoor amphitheater", "a tiny bar", "the old opera house"],
        },
        [
            "I saw {band} live {rel} at {venue}.",
            "{rel} we went to see {band} at {venue}, goosebumps",
            "Concert report: {band}, {venue}, best night in ages",
        ],
        [
            "They played for almost three hours.",
            "I bought a tour shirt, obviously.",
            "The crowd sang along to everything.",
            "At the concert {band} played for almost three hours.",
        ],
        [
            "I cannot stop listening to {band} since the show.",
            "Bought tickets to see them again in the fall.",
            "My ears are still ringing from that gig haha",
            "After seeing {band} I bought tickets to see them again.",
        ],
        ["So fun", "Was it loud?", "Wish I had been there"],
        [
            (
                "single",
                [
                    "What band did {name} see live?",
                    "Who did {name} see in concert?",
                    "Which act did {name} watch live?",
                ],
                ("intro",),
            ),
            (
                "single",
                [
                    "Where did {name} see {band}?",
                    "At what venue did {name} see the band?",
                    "Which place hosted the gig {name} attended?",
                ],
                ("intro",),
            ),
            (
                "temporal",
                [
                    "When did {name} go to the concert?",
                    "When did {name} see {band}?",
                    "When was the live show {name} attended?",
                ],
                ("intro",),
            ),
            (
                "multi",
                [
                    "Is {name} going to see the act {pron} saw at {venue} again?",
                    "What did {name} buy after seeing {band}?",
                    "What plans did {name} make after the gig at {venue}?",
                ],
                ("intro", "later"),
            ),
            (
                "open",
                ["Does {name} like live music?", "Would {name} enjoy festival tickets?", "Is {name} a music fan?"],
                ("intro",),
            ),
        ],
        "{poss} night out",
    ),
    Topic(
        "study",
        {
            "course": [
                "an online course in Spanish",
                "a night class in accounting",
                "a coding bootcamp",
                "a photography workshop",
            ],
            "exam": ["passed the midterm", "aced the final project", "got a certificate"],
        },
        [
            "I enrolled in {course} {rel}, back to school!",
            "{rel} I started {course}, homework again ugh",
            "Doing {course} on the side now",
        ],
        [
            "It is three evenings a week after work.",
            "The instructor is tough but fair.",
            "Classes are online, so I can do them in pajamas.",
            "The {course} is three evenings a week after work.",
        ],
        [
            "Guess what, I {exam}!",
            "Just {exam} in the course, huge relief.",
            "So I {exam}, all those late nights paid off.",
            "In {course} I {exam}!",
        ],
        ["Go you!", "Learning is never a waste", "That takes discipline"],
        [
            (
                "single",
                [
                    "What course did {name} enroll in?",
                    "What is {name} studying?",
                    "Which program did {name} sign up for?",
                ],
                ("intro",),
            ),
            (
                "single",
                [
                    "What did {name} achieve in the course?",
                    "How did {name} do on {poss} exam?",
                    "What academic win did {name} share?",
                ],
                ("later",),
            ),
            (
                "temporal",
                [
                    "When did {name} enroll in {course}?",
                    "When did {name} go back to school?",
                    "When did {name} begin the classes?",
                ],
                ("intro",),
            ),
            (
                "multi",
                [
                    "How did {name} do in the program {pron} started?",
                    "What result did {name} get in {course}?",
                    "What did {name} accomplish in the studies {pron} began?",
                ],
                ("intro", "later"),
            ),
            (
                "open",
                [
                    "Is {name} committed to self-improvement?",
                    "Would {name} enjoy more learning opportunities?",
                    "Does {name} like to learn new skills?",
                ],
                ("intro",),
            ),
        ],
        "{poss} studies",
    ),
]

# Small talk and reactions that carry no memory worth recalling (most of a real chat).
GREETINGS = [
    "Hey! How have you been?",
    "Hi! Long time no talk.",
    "Good morning! How is your week going?",
    "Hey you! What is up?",
]
ANSWERS = [
    "Pretty good, busy but good.",
    "Honestly exhausted, work has been nonstop.",
    "Not bad, just the usual.",
    "Good! Glad you texted.",
]
REACTIONS = [
    "Haha yes exactly",
    "That is so true",
    "Right??",
    "Lol",
    "I know what you mean",
    "Same here honestly",
    "That sounds lovely",
    "You deserve it",
    "Fair enough",
    "Ha, classic",
    "Oh no",
    "Yikes",
    "Wait really?",
]
CHAT = [
    "Anyway, enough about me, what is new with you?",
    "Oh that reminds me of something.",
    "It has been raining all week here.",
    "The weather finally turned nice.",
    "I have been binge watching a cooking show.",
    "I need a vacation so badly.",
    "Did you see the game on Sunday?",
    "My coffee maker broke, tragic.",
    "I have been trying to sleep earlier, not going well.",
    "Traffic was insane today.",
    "We should catch up in person soon.",
    "Totally, let us plan something.",
    "Speaking of which, did you ever try that new cafe?",
    "I went grocery shopping and forgot half the list.",
    "My phone is acting up again.",
    "I think I am catching a cold.",
    "Weekend plans?",
    "Nothing much planned, maybe relax.",
]
# Version 2: what people add to a message around the point they make (real turns run to
# a sentence or three; one-line turns made meaning-based search too easy).
TAILS = [
    "Anyway, how are things with you?",
    "Work has been a lot this week though.",
    "Hope you are doing well!",
    "I really need a proper weekend soon.",
    "Sorry for the slow reply, my day was chaos.",
    "It was a long day but a good one.",
    "Tell me everything when you have time.",
    "Honestly I am still thinking about it.",
    "My sister thinks I am crazy, haha.",
    "Can you believe it?",
    "I will send you a photo later.",
    "It made my whole week, to be honest.",
]
TAIL_SHARE = 0.5
# Version 3: more of the turns run to two or three sentences, as real chat turns do (the
# point in the middle, small talk around it).
TAIL_SHARE_V3 = 0.8
LEADS = [
    "Oh my gosh, hi!",
    "Okay so, quick thing.",
    "Sorry, I was in meetings all day.",
    "Ha, I was just about to text you.",
    "Morning! Still on my first coffee.",
    "So much to tell you.",
    "Honestly, what a week.",
    "Hey, good to hear from you.",
    "Wait, I forgot to tell you.",
    "Ugh, today was long.",
]
LEAD_SHARE = 0.4
B_SHARED = 4
CHATTER_SHARE = 0.5
MIX_SHARE = 0.3
CLOSINGS = ["Talk soon!", "Okay I have to run, bye!", "Take care!", "Bye! Good chatting.", "Night!"]
# Things the other speaker says that share words with the user's topics (traps).
DISTRACTORS = [
    "My neighbor's dog barked all night again.",
    "I have a friend who adopted a cat and it hides all day.",
    "My cousin runs marathons, I get tired watching.",
    "I hate running, honestly.",
    "I killed every plant I ever owned.",
    "My mom keeps sending me recipes I will never cook.",
    "I have not read a book in months.",
    "Our office is moving floors, so much drama.",
    "I tried pottery once and made a blob.",
    "My car needs new tires too.",
    "I have always wanted to visit Japan someday.",
    "My brother is moving to Seattle next year.",
    "Concert tickets are so expensive now.",
    "I was thinking of taking a class too, maybe cooking.",
    "My back has been sore from my desk chair.",
    "I used to play piano as a kid but quit.",
    "We volunteered at a food drive at work once.",
    "My sister is studying accounting, poor thing.",
    "I went to a wedding last weekend, so much dancing.",
    "My boss is on vacation so it is quiet at work.",
]


@dataclass(frozen=True)
class Turn:
    id: str
    session: int
    speaker: str
    role: str  # "user" for speaker A (whose memory it is), "assistant" for speaker B
    text: str
    at: datetime


@dataclass(frozen=True)
class Question:
    id: str
    kind: str  # single | multi | temporal | open
    text: str
    evidence: tuple[str, ...]  # turn ids
    asked_at: datetime


@dataclass
class Conversation:
    user_id: str
    speaker_a: str
    speaker_b: str
    split: str
    sessions: list[tuple[int, datetime]] = field(default_factory=list)
    turns: list[Turn] = field(default_factory=list)
    questions: list[Question] = field(default_factory=list)


def split_of(user_id: str) -> str:
    return "train" if int(hashlib.sha256(user_id.encode()).hexdigest(), 16) % 10 < 7 else "test"


def _fill(template: str, slots: dict[str, str]) -> str:
    out = template.format(**slots)
    out = " ".join(out.split())
    return out[0].upper() + out[1:]


@dataclass
class _Event:
    speaker: int  # 0 = A, 1 = B
    topic: Topic
    slots: dict[str, str]
    intro_session: int
    later_session: int
    turn_ids: dict[str, str] = field(default_factory=dict)


def generate(conversations: int = 12, seed: int = 19, version: int = DATA_VERSION) -> list[Conversation]:
    """``version`` 1 is the data of the first evaluation, 2 that of the second (both kept
    so their figures stay reproducible); 3 (the default) asks the same conversations'
    questions in the conversations' own words (bench/conv_questions.py)."""
    out = []
    for c in range(conversations):
        rng = random.Random(seed * 1000 + c)
        # Version 2's additions draw from their own generator: the conversation itself
        # (sessions, events, turns) is the same as version 1's.
        extra = random.Random(seed * 1000 + c + 500_000)
        (a, a_pron, a_poss), (b, b_pron, b_poss) = rng.sample(NAMES, 2)
        user_id = f"conv-{c:02d}"
        conv = Conversation(user_id, a, b, split_of(user_id))
        n_sessions = rng.randint(20, 28)
        day = datetime(2023, 1, 9, tzinfo=UTC) + timedelta(days=rng.randint(0, 120))
        for s in range(n_sessions):
            conv.sessions.append((s + 1, day.replace(hour=rng.choice([9, 13, 18, 20]), minute=rng.randint(0, 59))))
            day += timedelta(days=rng.randint(3, 19))
        # Both speakers live through events; only A's are asked about (A is the user),
        # B's sit in the same conversation with the same vocabulary.
        events: list[_Event] = []
        a_topics = rng.sample(TOPICS, 12)
        b_topics = rng.sample([t for t in TOPICS], 6)
        if version >= 3:
            # Two friends talk about the same parts of life (both have pets, jobs, trips):
            # the other person's events are drawn from the same topics as the user's.
            b_topics = extra.sample(a_topics, B_SHARED) + extra.sample(
                [t for t in TOPICS if t not in a_topics], 6 - B_SHARED
            )
        for speaker, topics in ((0, a_topics), (1, b_topics)):
            for t in topics:
                slots: dict[str, str] = {}
                for k, v in t.slots.items():
                    # "a|b" keys pair their values ("a food bank|sorting donations").
                    slots.update(zip(k.split("|"), rng.choice(v).split("|"), strict=True))
                first = rng.randint(1, n_sessions - 3)
                later = rng.randint(first + 1, min(n_sessions, first + 8))
                events.append(_Event(speaker, t, slots, first, later))
        for s, at in conv.sessions:
            add = _adder(conv, (a, b))
            first, other = rng.choice(((0, 1), (1, 0)))
            add(s, at, first, rng.choice(GREETINGS))
            add(s, at, other, rng.choice(ANSWERS))
            blocks: list[list[tuple[int, str, str | None, _Event | None]]] = []
            for e in events:
                sp, ot = e.speaker, 1 - e.speaker
                if e.intro_session == s:
                    rel, _ = rng.choice(RELATIVE)
                    slots = {**e.slots, "rel": rel}
                    block = [(sp, _fill(rng.choice(e.topic.intro), slots), "intro", e)]
                    block.append((ot, rng.choice(e.topic.reaction), None, None))
                    if rng.random() < 0.5:
                        block.append((ot, rng.choice(REACTIONS), None, None))
                    block.append((sp, _fill(rng.choice(e.topic.detail), slots), "detail", e))
                    blocks.append(block)
                if e.later_session == s:
                    slots = {**e.slots, "rel": ""}
                    blocks.append(
                        [
                            (
                                ot,
                                rng.choice(["How is everything going?", "Any updates on your end?", "So what is new?"]),
                                None,
                                None,
                            ),
                            (sp, _fill(rng.choice(e.topic.later), slots), "later", e),
                            (ot, rng.choice(REACTIONS), None, None),
                        ]
                    )
            if version >= 3:
                # Both people come back to their subjects between the news and well after
                # the update (bench/conv_questions.py CHATTER).
                for e in events:
                    if e.intro_session < s <= e.later_session + 6 and extra.random() < CHATTER_SHARE:
                        slots = {**e.slots, "rel": ""}
                        line = _fill(extra.choice(CHATTER[e.topic.name]), slots)
                        blocks.append(
                            [(e.speaker, line, None, None), (1 - e.speaker, extra.choice(REACTIONS), None, None)]
                        )
            for _ in range(rng.randint(4, 8)):
                chat = [
                    (rng.randint(0, 1), rng.choice(CHAT), None, None),
                    (rng.randint(0, 1), rng.choice(REACTIONS), None, None),
                ]
                if rng.random() < 0.5:
                    chat.append((1, rng.choice(DISTRACTORS), None, None))
                blocks.append(chat)
            rng.shuffle(blocks)
            for block in blocks:
                for sp, text, part, ev in block:
                    if version >= 3 and extra.random() < LEAD_SHARE:
                        text = f"{extra.choice(LEADS)} {text}"
                    if version >= 2 and extra.random() < (TAIL_SHARE if version == 2 else TAIL_SHARE_V3):
                        text = f"{text} {extra.choice(TAILS)}"
                    if version >= 3 and extra.random() < MIX_SHARE:
                        # A turn often carries a second subject of the same
                        # person's life ("... Also, walking Biscuit is my new routine.").
                        others = [o for o in events if o.speaker == sp and o is not ev and o.intro_session <= s]
                        if others:
                            o = extra.choice(others)
                            text = f"{text} {_fill(extra.choice(CHATTER[o.topic.name]), {**o.slots, 'rel': ''})}"
                    tid = add(s, at, sp, text)
                    if ev is not None and part is not None:
                        ev.turn_ids[part] = tid
            add(s, at, first, rng.choice(CLOSINGS))
            add(s, at, other, rng.choice(CLOSINGS))
        _ask(conv, events, 0, (conv.speaker_a, a_pron, a_poss), rng, version)
        if version >= 2:
            # Both people are asked about, as a reader of the conversation would ask.
            _ask(conv, events, 1, (conv.speaker_b, b_pron, b_poss), extra, version)
        out.append(conv)
    return out


def _adder(conv: Conversation, names: tuple[str, str]) -> Callable[[int, datetime, int, str], str]:
    """Appends the turns of one session, numbered from 1 (turn ids "D{session}:{n}")."""
    n = 0

    def add(session: int, at: datetime, speaker: int, text: str) -> str:
        nonlocal n
        n += 1
        tid = f"D{session}:{n}"
        role = ("user", "assistant")[speaker]
        conv.turns.append(Turn(tid, session, names[speaker], role, text, at + timedelta(minutes=n % 60)))
        return tid

    return add


def _held_out(templates: list[str], key: str, version: int) -> int:
    """Which wording of a question only the test conversations use. Version 1 held out the
    last of each list, which was always the most reworded one, so test questions were
    systematically harder than train ones; version 2 picks it by a stable hash."""
    if version < 2:
        return len(templates) - 1
    return int(hashlib.sha256(key.encode()).hexdigest(), 16) % len(templates)


def _pool(templates: list[str], key: str, split: str, version: int) -> list[str]:
    held = _held_out(templates, key, version)
    if split == "test":
        return [templates[held]]
    return [t for i, t in enumerate(templates) if i != held]


def _ask(
    conv: Conversation,
    events: list[_Event],
    speaker: int,
    person: tuple[str, str, str],
    rng: random.Random,
    version: int = DATA_VERSION,
) -> None:
    name, pron, poss = person
    end = conv.sessions[-1][1] + timedelta(days=2)
    q = len(conv.questions)
    for e in events:
        if e.speaker != speaker:
            continue
        slots = {**e.slots, "name": name, "pron": pron, "poss": poss}
        for n, (kind, templates, parts) in enumerate(e.topic.questions):
            if version >= 3:
                templates = QUESTIONS[e.topic.name][n]
            pool = _pool(templates, f"{e.topic.name}/{n}", conv.split, version)
            evidence = tuple(e.turn_ids[p] for p in parts if p in e.turn_ids)
            q += 1
            conv.questions.append(Question(f"{conv.user_id}-q{q}", kind, _fill(rng.choice(pool), slots), evidence, end))
        # Time-anchored: the month is the only pointer to which of the later turns is meant.
        later_at = next(at for s, at in conv.sessions if s == e.later_session)
        subject = (SUBJECTS[e.topic.name] if version >= 3 else e.topic.subject).format(**slots)
        asks = [
            "What did {name} say about {subject} in {month}?",
            "What update did {name} give on {subject} in {month}?",
            "In {month}, what did {name} mention regarding {subject}?",
        ]
        pool = _pool(asks, f"{e.topic.name}/month", conv.split, version)
        text = rng.choice(pool).format(name=name, subject=subject, month=later_at.strftime("%B %Y"))
        q += 1
        conv.questions.append(Question(f"{conv.user_id}-q{q}", "temporal", text, (e.turn_ids["later"],), end))


def summary(convs: list[Conversation]) -> dict[str, object]:
    kinds: dict[str, int] = {}
    for c in convs:
        for q in c.questions:
            kinds[q.kind] = kinds.get(q.kind, 0) + 1
    return {
        "conversations": len(convs),
        "train": sum(c.split == "train" for c in convs),
        "test": sum(c.split == "test" for c in convs),
        "sessions": sum(len(c.sessions) for c in convs),
        "turns": sum(len(c.turns) for c in convs),
        "questions": sum(len(c.questions) for c in convs),
        "by_kind": kinds,
    }


if __name__ == "__main__":
    data = generate()
    print(summary(data))
    c = data[0]
    for t in c.turns[:30]:
        print(t.id, t.at.date(), t.speaker, "|", t.text)
    for q in c.questions[:12]:
        print(q.kind, q.text, q.evidence)

"""Version 3 question wordings of bench/conv_data.py: asked the way people ask about a
conversation they had.

People who ask about a chat reuse its own words for the names, objects, places and
events in it ("When did Maya adopt the puppy from the shelter?") and ask in their own
words only for what they want to know. Version 2's questions described the event in
other words throughout ("Which animal did Maya bring home?" for "I adopted a puppy"),
so keyword search scored far below what it scores on real conversation benchmarks,
while meaning-based search scored above: the evaluation favoured the wrong signal.

Each list keeps three wordings of one question (one of them is held out for the test
conversations by a stable hash, bench/conv_data.py ``_held_out``). The kinds stay:
``single`` (one turn), ``multi`` (two or three turns to connect), ``temporal`` and
``open`` (an inference: it names the event, not the answer, and some of them name
neither). The wordings were written from the turns of this module's own conversations,
not from any other data set.

``SUBJECTS``: how the month-anchored temporal question names the event ("What did Maya
say about Biscuit in June 2023?"), again in the conversation's words.
"""

from __future__ import annotations

# topic name -> five lists of wordings, in the order of Topic.questions (kind and evidence
# parts stay those of the topic).
QUESTIONS: dict[str, list[list[str]]] = {
    "pet": [
        [
            "What kind of animal did {name} adopt from {place}?",
            "What did {name} bring home from {place}?",
            "Which animal did {name} come home with from {place}?",
        ],
        [
            "What did {name} name the {animal}?",
            "What name did {name} go with for the {animal}?",
            "What is the name of the {animal} {name} adopted?",
        ],
        [
            "When did {name} adopt the {animal}?",
            "When did {name} bring home the {animal} from {place}?",
            "When did {name} get a {animal}?",
        ],
        [
            "What mischief did the {animal} {name} adopted from {place} get up to?",
            "What chaos did {name}'s {animal} from {place} cause?",
            "What did the {animal} {name} brought home do this week?",
        ],
        [
            "Would {name} go back to {place} to adopt another animal?",
            "Is {name} likely to be an animal lover?",
            "Would {name} enjoy volunteering at {place}?",
        ],
    ],
    "pottery": [
        [
            "What class did {name} sign up for?",
            "What lessons did {name} start taking?",
            "Which course did {name} join that left clay under {poss} nails?",
        ],
        [
            "What did {name} glaze in {craft} class?",
            "What did {name} fire in the kiln?",
            "What piece did {name} finish in {poss} {craft} class?",
        ],
        [
            "When did {name} sign up for the {craft} class?",
            "When did {name} start taking {craft} lessons?",
            "When was {name}'s first {craft} session?",
        ],
        [
            "Where is the {craft} class in which {name} made {piece}?",
            "At which place did {name} make {piece}?",
            "Where does {name} go for {craft}, and what did {pron} make there?",
        ],
        [
            "Would {name} appreciate a handmade gift like a mug or a vase?",
            "Is {name} a creative person?",
            "Would {name} like to try another {craft} course?",
        ],
    ],
    "marathon": [
        [
            "What race did {name} run in {city}?",
            "Which race did {name} finish in {city}?",
            "What did {name} cross the finish line of in {city}?",
        ],
        [
            "What was {name}'s time in the {race}?",
            "How long did it take {name} to finish the {race}?",
            "What did the clock say when {name} finished the {race}?",
        ],
        [
            "When did {name} run the {race} in {city}?",
            "When did {name} run in {city}?",
            "When did {name} finish {poss} first {race}?",
        ],
        [
            "In which city did {name} run the {race}, and what was {poss} time?",
            "What was {name}'s time in {city}?",
            "How long did the {city} {race} take {name}?",
        ],
        [
            "Is {name} into running and fitness?",
            "Would {name} sign up for another race?",
            "Would {name} enjoy a sporty weekend in {city}?",
        ],
    ],
    "job": [
        [
            "What job did {name} get at {company}?",
            "What offer did {name} accept at {company}?",
            "What is {name}'s new job at {company}?",
        ],
        [
            "Who is {name}'s new manager?",
            "Who does {name} report to at the new job?",
            "Who will be {name}'s boss at {company}?",
        ],
        [
            "When did {name} accept the offer from {company}?",
            "When did {name} get the job at {company}?",
            "When did {name} accept the job as {role}?",
        ],
        [
            "How did {name}'s first review with the manager at {company} go?",
            "How did {name}'s first review with {boss} go?",
            "How is {name}'s first week at {company} with {boss} going?",
        ],
        [
            "Is {name} ambitious about {poss} career?",
            "Would {name} want advice on starting a new job?",
            "Is {name} going through a career change, leaving {poss} old job?",
        ],
    ],
    "move": [
        [
            "Which city is {name} moving to?",
            "Where is {name} relocating?",
            "To what city did {name} decide to move?",
        ],
        [
            "Why is {name} moving to {city}?",
            "What was {name}'s reason for relocating to {city}?",
            "Why did {name} decide to move?",
        ],
        [
            "When did {name} decide to move to {city}?",
            "When did {name} sign the lease for {city}?",
            "When did {name} say {pron} was relocating to {city}?",
        ],
        [
            "What kind of place did {name} find in {city}?",
            "What is {name}'s new place in {city} like?",
            "What home did {name} get after moving to {city}?",
        ],
        [
            "Is {name} settling into the new place in {city}?",
            "Would {name} need help unpacking?",
            "Is {name} new to {poss} neighbors in {city}?",
        ],
    ],
    "trip": [
        [
            "Which country did {name} just get back from?",
            "Where did {name} fly home from?",
            "Where was {name}'s trip with {companion}?",
        ],
        [
            "What was the best part of {name}'s trip to {place}?",
            "What was the highlight of {name}'s trip?",
            "What did {name} love most in {place}?",
        ],
        [
            "When did {name} get back from {place}?",
            "When did {name} fly home from {place}?",
            "When did {name} come back from the trip?",
        ],
        [
            "Who did {name} go to {place} with, and what was the best part?",
            "What was the best part of the trip {name} took with {companion}?",
            "What did {name} and {companion} love in {place}?",
        ],
        [
            "Does {name} enjoy travel?",
            "Would {name} go back to {place} someday?",
            "Is {name} planning another trip abroad?",
        ],
    ],
    "garden": [
        [
            "What did {name} plant in {poss} garden?",
            "What is {name} growing?",
            "What did {name} put in the garden?",
        ],
        [
            "What is eating {name}'s {plant}?",
            "What got into {name}'s {plant}?",
            "Which pest is in {name}'s garden?",
        ],
        [
            "When did {name} start {poss} garden?",
            "When did {name} plant the {plant}?",
            "When did {name} start growing {plant}?",
        ],
        [
            "What happened to the {plant} {name} planted?",
            "How did {name}'s {plant} turn out?",
            "What became of the {plant} in {name}'s garden?",
        ],
        [
            "Does {name} enjoy gardening?",
            "Would {name} like a gift card for a plant nursery?",
            "Is {name} interested in growing {poss} own food?",
        ],
    ],
    "book": [
        [
            "What book could {name} not put down?",
            "What has {name} been reading?",
            "What book did {name} finish recently?",
        ],
        [
            "Who is {name} reading the book for?",
            "Where is {name} discussing the book?",
            "Which group picked the book {name} is reading?",
        ],
        [
            "When did {name} finish the book?",
            "When did {name} stay up late reading {book}?",
            "When was {name} reading {book}?",
        ],
        [
            "How did the discussion of {book} go at {club}?",
            "What did {club} think of the ending of the book {name} read?",
            "How did {name}'s group react to {book}?",
        ],
        [
            "Is {name} a reader?",
            "Would {name} like a book recommendation?",
            "Would {name} join another book club?",
        ],
    ],
    "health": [
        [
            "What injury did {name} get {cause}?",
            "How did {name} get hurt?",
            "What happened to {name} {cause}?",
        ],
        [
            "What did the doctor say {name} has to do for the injury?",
            "What therapy is {name} doing?",
            "What is {name} doing for {poss} recovery?",
        ],
        [
            "When did {name} get hurt {cause}?",
            "When did {name} get injured?",
            "When was {name}'s accident {cause}?",
        ],
        [
            "Is {name} recovering from the injury {pron} got {cause}?",
            "How is {name}'s recovery going?",
            "Is {name} feeling better after getting hurt {cause}?",
        ],
        [
            "Should {name} avoid strenuous activity for now?",
            "Would {name} be up for a hike this month?",
            "Is {name} stuck on the couch for a while?",
        ],
    ],
    "music": [
        [
            "What instrument is {name} learning?",
            "What instrument did {name} buy?",
            "Which instrument did {name} pick up again?",
        ],
        [
            "What song can {name} play on the {instrument}?",
            "What did {name} practice on the {instrument}?",
            "What song did {name} play for the family?",
        ],
        [
            "When did {name} buy the {instrument}?",
            "When did {name} pick up the {instrument} again?",
            "When did {name} start the {instrument}?",
        ],
        [
            "Who is teaching {name} the {instrument}, and what song can {pron} play?",
            "What song did {name} learn with {teacher}?",
            "What can {name} play after learning from {teacher}?",
        ],
        [
            "Would {name} enjoy a concert?",
            "Is {name} musical?",
            "Would {name} like sheet music for the {instrument}?",
        ],
    ],
    "family": [
        [
            "What family news did {name} share?",
            "What news did {name} have about {relative}?",
            "What did {name}'s {relative} do?",
        ],
        [
            "What gift did {name} get them?",
            "What did {name} give as a present?",
            "What present did {name} get for {relative}?",
        ],
        [
            "When did {name}'s {relative} {event}?",
            "When did {name} share the family news?",
            "When did {name}'s family get the big news?",
        ],
        [
            "What gift did {name} give to the relative who {event}?",
            "What did {name} give {relative} as a present?",
            "What present did {name} get after {relative} {event}?",
        ],
        [
            "Is {name} close to {poss} family?",
            "Does {name} value family events?",
            "Would {name} travel to visit {relative}?",
        ],
    ],
    "cooking": [
        [
            "What dish did {name} try making?",
            "What did {name} spend the afternoon cooking?",
            "What was {name}'s kitchen experiment?",
        ],
        [
            "How did {name}'s {dish} turn out?",
            "What was the verdict on {name}'s {dish}?",
            "How did it go when {name} tried making {dish}?",
        ],
        [
            "When did {name} try making {dish}?",
            "When did {name} first make {dish}?",
            "When was {name}'s kitchen experiment?",
        ],
        [
            "Did {name} get better at making {dish}?",
            "How did {name}'s second attempt at {dish} go?",
            "Has {name} got the hang of {dish}?",
        ],
        [
            "Does {name} enjoy cooking?",
            "Would {name} like a cookbook?",
            "Would {name} cook {dish} for friends?",
        ],
    ],
    "volunteer": [
        [
            "Where did {name} start volunteering?",
            "Where did {name} do {poss} first shift?",
            "Where is {name} helping out?",
        ],
        [
            "What does {name} do when volunteering at {cause}?",
            "How does {name} spend Saturdays at {cause}?",
            "What is {name}'s job at {cause}?",
        ],
        [
            "When did {name} start volunteering at {cause}?",
            "When did {name} do {poss} first shift at {cause}?",
            "When did {name} sign up to help out at {cause}?",
        ],
        [
            "What did the coordinator at {cause} ask {name} to do?",
            "Was {name} asked to lead a team at {cause}?",
            "What new role did {name} get volunteering at {cause}?",
        ],
        [
            "Is {name} community-minded?",
            "Would {name} join a charity event?",
            "Would {name} volunteer more often?",
        ],
    ],
    "car": [
        [
            "What car did {name} buy?",
            "What did {name} finally get?",
            "What are {name}'s new wheels?",
        ],
        [
            "What problem did {name}'s {color} car have?",
            "What did the mechanic fix on {name}'s car?",
            "What went wrong with {name}'s car?",
        ],
        [
            "When did {name} buy {car}?",
            "When did {name} get the {color} car?",
            "When did {name} buy the car?",
        ],
        [
            "What trouble did the {color} car {name} bought give {poss} owner?",
            "What issue did {name}'s {color} car have?",
            "What went wrong with the car {name} bought?",
        ],
        [
            "Can {name} drive to a meetup out of town?",
            "Does {name} have {poss} own car now?",
            "Could {name} give someone a ride?",
        ],
    ],
    "concert": [
        [
            "Which band did {name} see live?",
            "Who did {name} see at {venue}?",
            "What concert did {name} go to?",
        ],
        [
            "Where did {name} see {band}?",
            "At what venue did {name} see the band live?",
            "Where was the concert {name} went to?",
        ],
        [
            "When did {name} see {band} live?",
            "When did {name} go to the concert at {venue}?",
            "When did {name} see {band}?",
        ],
        [
            "Is {name} going to see {band} again?",
            "What tickets did {name} buy after seeing {band}?",
            "Did {name} buy tickets to see them again after the concert at {venue}?",
        ],
        [
            "Does {name} like live music?",
            "Would {name} enjoy festival tickets?",
            "Is {name} a fan of {band}?",
        ],
    ],
    "study": [
        [
            "What course did {name} enroll in?",
            "What is {name} doing on the side?",
            "What did {name} start that means homework again?",
        ],
        [
            "What did {name} achieve in the course?",
            "What did {name} pass or ace in {course}?",
            "How did the late nights in {course} pay off for {name}?",
        ],
        [
            "When did {name} enroll in {course}?",
            "When did {name} start {course}?",
            "When did {name} go back to school?",
        ],
        [
            "How did {name} do in {course}?",
            "What result did {name} get in {course}?",
            "What did {name} accomplish in the course {pron} started?",
        ],
        [
            "Is {name} committed to learning new skills?",
            "Would {name} enjoy more classes after work?",
            "Would {name} take another course?",
        ],
    ],
}

SUBJECTS: dict[str, str] = {
    "pet": "{pet}",
    "pottery": "the {craft} class",
    "marathon": "the race",
    "job": "the new job",
    "move": "the move",
    "trip": "the trip",
    "garden": "the {plant}",
    "book": "the book",
    "health": "{poss} recovery",
    "music": "the {instrument}",
    "family": "{relative}",
    "cooking": "{dish}",
    "volunteer": "volunteering",
    "car": "the car",
    "concert": "{band}",
    "study": "{course}",
}

# Version 3: what people keep saying about a part of their life between the news and the
# update (real conversations come back to the same subjects again and again). These turns
# answer none of the questions; they crowd the neighbourhood of every question about the
# subject, for words and for meaning alike.
CHATTER: dict[str, list[str]] = {
    "pet": [
        "{pet} is asleep on my feet right now, so cute.",
        "Do you know a good vet? {pet} needs shots soon.",
        "I spend way too much money on toys for the {animal}.",
        "Walking {pet} is my new morning routine.",
        "Having a pet changes everything, my whole schedule revolves around {pet}.",
    ],
    "pottery": [
        "My hands are so dry from the clay.",
        "Thinking of buying my own wheel someday.",
        "The {craft} class is the best part of my week.",
        "Everything I make in {craft} comes out a bit crooked.",
        "I watched {craft} videos for two hours last night.",
    ],
    "marathon": [
        "Did a long run this morning, ten miles.",
        "I need new running shoes, these are falling apart.",
        "Running really clears my head.",
        "Training plans are harder than they look.",
        "My running group meets at 6am, insane.",
    ],
    "job": [
        "Work is keeping me busy, lots of meetings.",
        "Still learning how everything works at the job.",
        "My commute is long but I listen to podcasts.",
        "The team had lunch together, nice people.",
        "I stayed late at work again, deadlines.",
    ],
    "move": [
        "Moving is so stressful, I never want to do it again.",
        "Packing up my whole life into boxes is exhausting.",
        "The moving truck costs a fortune.",
        "I am still figuring out where the good coffee is in {city}.",
        "Changing my address everywhere is a nightmare.",
    ],
    "trip": [
        "I keep looking at the photos from {place}.",
        "Travel really recharges me.",
        "Jet lag is finally gone.",
        "I want to learn more about the culture in {place}.",
        "Flights are so expensive lately.",
    ],
    "garden": [
        "The garden needs so much water in this heat.",
        "I bought more soil and some pots today.",
        "Gardening is so calming after work.",
        "The {plant} are growing like crazy.",
        "Reading up on composting, nerd alert.",
    ],
    "book": [
        "I have a stack of books I still need to read.",
        "Reading before bed helps me sleep.",
        "The library had a huge sale, I went wild.",
        "I keep thinking about that book.",
        "Do you have any book recommendations?",
    ],
    "health": [
        "Doing my exercises every day, boring but needed.",
        "The doctor appointment took forever.",
        "I miss being active so much.",
        "Ice packs are my best friend now.",
        "Healing takes so long, patience is hard.",
    ],
    "music": [
        "Practicing the {instrument} every night now.",
        "My neighbors probably hate my {instrument} practice.",
        "Music is such a good way to unwind.",
        "I learned a new chord today.",
        "Watching so many music videos for tips.",
    ],
    "family": [
        "Family group chat is going crazy.",
        "My mom calls me every day now.",
        "Planning a family get-together soon.",
        "{relative} sent me a photo, so sweet.",
        "Family is everything to me honestly.",
    ],
    "cooking": [
        "I bought a new pan for cooking.",
        "Cooking at home saves so much money.",
        "I watched a cooking video for tips on {dish}.",
        "My kitchen is a mess after cooking all day.",
        "Trying to cook something new every week.",
    ],
    "volunteer": [
        "Volunteering really puts things in perspective.",
        "We had a big volunteer shift this weekend.",
        "The other volunteers are so kind.",
        "I want to get more friends to volunteer.",
        "Giving back feels so good.",
    ],
    "car": [
        "Gas prices are insane right now.",
        "I drove to the coast on a whim, love having the car.",
        "Need to get the car washed, it is filthy.",
        "Car insurance is such a rip-off.",
        "Parking downtown is impossible.",
    ],
    "concert": [
        "I have been listening to live albums all week.",
        "Concert tickets are getting so expensive.",
        "Live music just hits different.",
        "I keep watching videos from the show.",
        "We should go to a concert together sometime.",
    ],
    "study": [
        "So much homework this week.",
        "Studying after work is exhausting.",
        "I have a big assignment due Friday.",
        "My classmates are really nice.",
        "Learning something new keeps me sharp.",
    ],
}

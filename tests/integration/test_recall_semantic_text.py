"""What the embedder sees on the recall path (#19, second session).

A past message is embedded as its content alone (the speaker and the resolved dates
stay in the keyword text), and recall embeds the question without the names of the
user and of what the user calls the agent. Both were measured on the conversation
evaluation (docs/recall.md); these tests pin the behaviour with a recording embedder.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest
from engram.adapters.hashing_embedder import HashingEmbedder
from engram.container import Engram, build
from engram.domain.conversation import MessageRole, NewMessage
from engram.domain.models import Principal, Role
from engram.domain.policies import VisibilityScope
from engram.domain.ranking import semantic_query, weights_for
from engram.ports import DocKind
from engram.service.recall import RecallRequest
from engram.service.retrieval import Ask
from engram.settings import Settings

from tests.support import ManualClock

P = Principal("acme", "alpha", frozenset({Role.WRITER}))
ANY = VisibilityScope("alpha", ())
NOW = datetime(2024, 1, 1, tzinfo=UTC)


class Recording(HashingEmbedder):
    """The suite's hashing embedder, remembering every text it was asked to embed."""

    def __init__(self) -> None:
        super().__init__()
        self.seen: list[str] = []

    def embed(self, texts: Sequence[str]) -> list[list[float]]:
        self.seen.extend(texts)
        return super().embed(texts)


@pytest.fixture
def setup(tmp_path: Path) -> tuple[Engram, Recording]:
    embedder = Recording()
    engram = build(Settings(data_dir=tmp_path, extraction_worker="inline"), embedder=embedder, clock=ManualClock())
    return engram, embedder


def say(engram: Engram, message_id: str, speaker: str, text: str) -> None:
    assert engram.conversation is not None
    role = MessageRole.USER if speaker == "Maya" else MessageRole.ASSISTANT
    at = datetime(2023, 5, 7, 18, 0, tzinfo=UTC)
    msg = NewMessage(message_id, role, text, at, {"speaker": speaker})
    engram.conversation.conversations.append(P, "maya", "session-1", [msg])


def test_a_message_is_embedded_as_its_content_alone_and_searched_by_speaker_and_date(
    setup: tuple[Engram, Recording],
) -> None:
    engram, embedder = setup
    # Given a message said by Maya with a relative time in it
    say(engram, "m1", "Maya", "We adopted a puppy yesterday!")
    # Then the embedder saw the words she said, not "Maya: ..." nor the resolved date
    assert "We adopted a puppy yesterday!" in embedder.seen
    assert not [t for t in embedder.seen if t.startswith("Maya:") or "2023-05-06" in t]
    # And the keyword side still finds it by her name and by the date "yesterday" meant
    assert engram.conversation is not None
    for q in ("Maya", "2023-05-06"):
        hits = engram.conversation.conversations.search(P, "maya", q, limit=5, min_score=0.0)
        assert [h.message.id for h in hits] == ["m1"], q


def test_recall_embeds_the_question_without_the_names_of_the_people_talking(
    setup: tuple[Engram, Recording],
) -> None:
    engram, embedder = setup
    # Given a user whose name the app knows, who calls the agent Leo
    engram.users.update_profile(P, "maya", name="Maya Lopez")
    engram.users.set_agent_name(P, "maya", "Leo")
    say(engram, "m1", "Maya", "We adopted a puppy yesterday!")
    embedder.seen.clear()
    # When the agent recalls for a question that names both
    result = engram.recall.recall(
        P, "maya", RecallRequest("What did Maya's friend Leo say about the puppy?", min_score=0.0)
    )
    # Then the question was embedded without the names, and the turn still comes back
    assert embedder.seen == ["What did friend say about the puppy?"]
    assert [e.message.id for e in result.episodes] == ["m1"]


def test_semantic_query_keeps_a_question_that_is_only_a_name() -> None:
    assert semantic_query("Who is Maya?", ["Maya"]) == "Who is Maya?"
    assert semantic_query("Mayan ruins near Maya's house", ["Maya"]) == "Mayan ruins near house"
    assert semantic_query("What did MAYA’s dog eat?", ["maya"]) == "What did dog eat?"
    assert semantic_query("What did Maya eat?", []) == "What did Maya eat?"


def test_a_past_message_said_by_whom_the_question_names_ranks_above_the_same_words_from_the_other_speaker(
    setup: tuple[Engram, Recording],
) -> None:
    engram, _ = setup
    # (the suite's hashing embedder keeps the first session's weights; MiniLM's lift)
    engram.recall.weights = replace(engram.recall.weights, speaker_boost=weights_for("all-MiniLM-L6-v2").speaker_boost)
    assert engram.recall.weights.speaker_boost > 0
    # Given the friend saying nearly the same thing as Maya, in more of the question's words
    say(engram, "m1", "Leo", "A puppy! My neighbor adopted a puppy too, a tiny puppy.")
    say(engram, "m2", "Maya", "We adopted a puppy yesterday!")
    # When the agent asks what Maya did
    result = engram.recall.recall(P, "maya", RecallRequest("Maya adopted a puppy?", min_score=0.0))
    # Then Maya's own turn comes first, and says why
    top, other = result.episodes[0], result.episodes[1]
    assert (top.message.id, top.parts.speaker, other.parts.speaker) == ("m2", 1.0, 0.0)
    assert "said by whom it names" in top.why


def tell(engram: Engram, at: datetime, turns: list[tuple[str, str, str, int]]) -> None:
    """Maya (the user) and Leo (the assistant) in one session: (id, speaker, text, seconds after at)."""
    assert engram.conversation is not None
    for mid, speaker, text, seconds in turns:
        role = MessageRole.USER if speaker == "Maya" else MessageRole.ASSISTANT
        msg = NewMessage(mid, role, text, at + timedelta(seconds=seconds), {"speaker": speaker})
        engram.conversation.conversations.append(P, "maya", "session-1", [msg])


def test_news_told_over_two_turns_is_recalled_as_a_whole(setup: tuple[Engram, Recording]) -> None:
    # (#19, third session: MiniLM's context lift, on the suite's hashing embedder)
    engram, _ = setup
    assert engram.conversation is not None
    at = datetime(2023, 5, 7, 18, 0, tzinfo=UTC)
    # Given Maya telling her news over two turns, the second without the question's words,
    # and Leo's turn about a puppy in between
    turns = [
        ("m1", "Maya", "We adopted a puppy yesterday!", 0),
        ("l1", "Leo", "My neighbor has a puppy too, so loud.", 30),
        ("m2", "Maya", "I named her Biscuit after my grandma's dog.", 60),
        ("m3", "Maya", "Work has been a lot this week.", 3600),
    ]
    tell(engram, at, turns)
    question = RecallRequest("What did Maya call the puppy she adopted?", min_score=0.0)

    def order(boost: float) -> list[str]:
        engram.recall.weights = replace(weights_for(engram.embedder.model_id), context_boost=boost)
        return [e.message.id for e in engram.recall.recall(P, "maya", question).episodes]

    # When recalled without the lift, Leo's turn outranks Maya's second turn
    plain = order(0.0)
    assert plain.index("l1") < plain.index("m2")
    # Then with the lift, the turn said a minute after the one that matches comes next to
    # it and says why; the turn an hour later is not lifted
    engram.recall.weights = replace(weights_for(engram.embedder.model_id), context_boost=0.5)
    result = engram.recall.recall(P, "maya", question)
    ids = [e.message.id for e in result.episodes]
    assert ids[:2] == ["m1", "m2"]
    lifted = {e.message.id: e for e in result.episodes}
    assert lifted["m2"].parts.context > 0 and "by the same speaker's turns around it" in lifted["m2"].why
    assert "m3" not in lifted or lifted["m3"].parts.context == 0


def test_an_as_of_recall_is_not_lifted_by_a_turn_said_after_as_of(setup: tuple[Engram, Recording]) -> None:
    # (review of #19's context lift) A message said after asOf is never shown by an as-of
    # recall; it must not change that recall's ranking either (its lift showed in
    # parts.context and why, telling that a later turn exists).
    engram, _ = setup
    assert engram.conversation is not None
    at = datetime(2023, 5, 7, 18, 0, tzinfo=UTC)
    # Given Maya's news, told at 18:00, and its second turn a minute later
    for mid, text, seconds in [("m1", "We adopted a puppy yesterday!", 0), ("m2", "We adopted a puppy, Biscuit.", 60)]:
        msg = NewMessage(mid, MessageRole.USER, text, at + timedelta(seconds=seconds), {"speaker": "Maya"})
        engram.conversation.conversations.append(P, "maya", "session-1", [msg])
    engram.recall.weights = replace(weights_for(engram.embedder.model_id), context_boost=0.5)
    # When recalled as of 18:00:30, one episode asked for
    question = RecallRequest("Maya adopted a puppy", min_score=0.0, top_k=1, as_of=at + timedelta(seconds=30))
    result = engram.recall.recall(P, "maya", question)
    # Then the first turn is shown as it scores alone: the later turn neither shows nor lifts it
    assert [e.message.id for e in result.episodes] == ["m1"]
    assert result.episodes[0].parts.context == 0.0
    assert "turns around it" not in result.episodes[0].why


def test_message_search_and_recall_rank_the_same_conversation_alike(tmp_path: Path) -> None:
    """#19 item 4, one ranking: message search embedded the question with the people's
    names (recall leaves them out) and had no context lift, so on the same messages it
    scored and ordered them otherwise than recall (with MiniLM, whose weights use both)."""
    from tests.semantic import minilm

    engram = build(Settings(data_dir=tmp_path, extraction_worker="inline"), embedder=minilm(), clock=ManualClock())
    assert engram.conversation is not None
    engram.users.update_profile(P, "maya", name="Maya")
    at = datetime(2023, 5, 7, 18, 0, tzinfo=UTC)
    turns = [
        ("m1", "Maya", "We adopted a puppy yesterday!", 0),
        ("l1", "Leo", "My neighbor has a puppy too, so loud.", 30),
        ("m2", "Maya", "I named her Biscuit after my grandma's dog.", 60),
        ("m3", "Maya", "Work has been a lot this week.", 3600),
        ("l2", "Leo", "Did you see the game on Sunday?", 3660),
    ]
    tell(engram, at, turns)
    question = "What did Maya call the puppy she adopted?"

    episodes = engram.recall.recall(P, "maya", RecallRequest(question, top_k=10)).episodes
    found = engram.conversation.conversations.search(P, "maya", question, limit=10)

    assert [e.message.id for e in episodes][:2] == ["m1", "m2"]
    assert [h.message.id for h in found] == [e.message.id for e in episodes]
    for hit, episode in zip(found, episodes, strict=True):
        assert hit.parts is not None and episode.parts is not None
        assert hit.parts.semantic == pytest.approx(episode.parts.semantic, abs=1e-6)
        assert hit.parts.context == pytest.approx(episode.parts.context, abs=1e-6)
        assert hit.score == pytest.approx(episode.parts.total, abs=1e-6)


def test_the_keyword_query_for_past_messages_leaves_out_the_names_the_speaker_part_counts(
    setup: tuple[Engram, Recording],
) -> None:
    # (#19, fourth session) A message is indexed as "Maya: ...", so "Maya" in the question
    # matched every turn of hers, counting the speaker a second time beside the speaker
    # part; in a store of many users her name is a rare word and outweighed the words that
    # say what happened (docs/recall.md: +0.02 of R@10 and R@20 on the evaluation).
    engram, _ = setup
    assert engram.conversation is not None
    engram.users.update_profile(P, "maya", name="Maya")
    engram.recall.weights = replace(engram.recall.weights, speaker_boost=weights_for("all-MiniLM-L6-v2").speaker_boost)
    # Given Maya's turn that answers, and one of hers that shares no word with the question
    say(engram, "m1", "Maya", "Ha, totally.")
    say(engram, "m2", "Maya", "The shelter let us take the little dog home!")
    question = "What did Maya bring home from the shelter?"
    # When the agent recalls, and searches its messages
    result = engram.recall.recall(P, "maya", RecallRequest(question, min_score=1e-6))
    found = engram.conversation.conversations.search(P, "maya", question, limit=5, min_score=1e-6)
    # Then her turn that answers matched by its words, and the other one by nothing but
    # her name no more: the speaker part alone says who said them
    parts = {e.message.id: e.parts for e in result.episodes}
    assert parts["m2"].keyword > 0 and parts["m2"].speaker == 1.0
    assert "m1" not in parts or parts["m1"].keyword == 0.0
    assert [h.message.id for h in found][:1] == ["m2"]
    assert all(h.message.id != "m1" or (h.parts is not None and h.parts.keyword == 0.0) for h in found)
    # And only past messages are searched without the name: entries have no speaker part
    text = engram.recall.message_keywords(P, "maya", question)
    assert text == "What did bring home from the shelter?"
    ask = Ask("acme", "maya", NOW, question, ANY, (DocKind.MEMORY, DocKind.MESSAGE), 20, message_text=text)
    assert ask.keyword_groups() == [((DocKind.MEMORY,), question), ((DocKind.MESSAGE,), text)]
    # A question that is only a name keeps it, and the hash embedder's weights (no
    # speaker part) keep every name
    assert engram.recall.message_keywords(P, "maya", "Who is Maya?") is None
    engram.recall.weights = weights_for(engram.embedder.model_id)
    assert engram.recall.message_keywords(P, "maya", question) is None


@pytest.mark.parametrize("embedder_name", ["hash", "minilm"])
def test_default_min_score_answers_the_story_and_not_an_off_topic_question(tmp_path: Path, embedder_name: str) -> None:
    """#19 item 2, thresholds per embedder: on the conversation story (tests/e2e), each
    embedder's default minimum lets through what the story says about the question and
    nothing for a question the story never touches, in recall and message search alike."""
    from tests.e2e.test_conversation_story import STORY
    from tests.semantic import minilm

    embedder = minilm() if embedder_name == "minilm" else HashingEmbedder()
    engram = build(Settings(data_dir=tmp_path, extraction_worker="inline"), embedder=embedder, clock=ManualClock())
    assert engram.conversation is not None
    at = datetime(2026, 1, 15, 10, 30, tzinfo=UTC)
    for i, text in enumerate(STORY):
        msg = NewMessage(f"turn-{i}", MessageRole.USER, text, at + timedelta(minutes=i))
        engram.conversation.conversations.append(P, "alice", "chat-1", [msg])
    search = engram.conversation.conversations.search

    answer = engram.recall.recall(P, "alice", RecallRequest("What is my favorite food?"))
    assert any("ramen" in e.message.content for e in answer.episodes)
    assert any("ramen" in h.message.content for h in search(P, "alice", "What is my favorite food?"))
    for off_topic in (
        "What is the boiling point of tungsten?",
        "medieval siege engine trebuchet counterweight",
        "zebra",
    ):
        nothing = engram.recall.recall(P, "alice", RecallRequest(off_topic))
        assert (nothing.memories, nothing.episodes) == ([], []), off_topic
        assert search(P, "alice", off_topic) == [], off_topic


def test_recall_knows_the_people_talking_from_who_said_the_messages_without_a_profile(
    setup: tuple[Engram, Recording],
) -> None:
    # (#19, fourth session) An app that never sets the profile still has the speakers on
    # its messages: recall leaves their names out of the embedded question and of the
    # messages' keyword query, as it does with the profile's names.
    engram, embedder = setup
    assert engram.conversation is not None
    engram.recall.weights = replace(engram.recall.weights, speaker_boost=weights_for("all-MiniLM-L6-v2").speaker_boost)
    # Given Maya's and Leo's turns, one turn without a speaker, and no profile at all
    say(engram, "m1", "Maya", "We adopted a puppy yesterday!")
    say(engram, "l1", "Leo", "A puppy, how lovely.")
    at = datetime(2023, 5, 7, 18, 5, tzinfo=UTC)
    plain = NewMessage("u1", MessageRole.USER, "The user manual for the crate is useless.", at)
    engram.conversation.conversations.append(P, "maya", "session-1", [plain])
    assert engram.users.profile(P, "maya").name is None
    embedder.seen.clear()
    # When the agent recalls for a question that names both
    question = "What did Maya's friend Leo say about the puppy?"
    result = engram.recall.recall(P, "maya", RecallRequest(question, min_score=0.0))
    # Then the question was embedded without their names, and searched for without them
    assert embedder.seen == ["What did friend say about the puppy?"]
    assert engram.recall.message_keywords(P, "maya", question) == "What did friend say about the puppy?"
    assert engram.recall.message_keywords(P, "maya", "What did the user say about the crate?") is None
    assert {e.message.id for e in result.episodes} >= {"m1", "l1"}
    # (the index knows who said them; the role a turn without a speaker is indexed under
    # is not a person)
    assert engram.index.speakers("acme", "maya") >= {"Maya", "Leo"}
    # And with the hash embedder's weights (no speaker part) the question stays as asked
    engram.recall.weights = weights_for(engram.embedder.model_id)
    embedder.seen.clear()
    engram.recall.recall(P, "maya", RecallRequest(question + " ", min_score=0.0))
    assert embedder.seen == [question + " "]


def test_another_agents_conversation_partners_do_not_change_this_agents_recall(
    setup: tuple[Engram, Recording],
) -> None:
    # (review of #19's speakers) The people talking with one agent are that agent's: its
    # threads are its own ("self"), as the name the user gave it in the profile is. A
    # person named Jordan talking in agent alpha's thread took "Jordan" out of agent
    # beta's question, so what beta found for a trip to Jordan changed with what alpha's
    # conversation held (and beta could probe who speaks in alpha's threads).
    engram, _ = setup
    assert engram.conversation is not None
    engram.recall.weights = replace(engram.recall.weights, speaker_boost=weights_for("all-MiniLM-L6-v2").speaker_boost)
    beta = Principal("acme", "beta", frozenset({Role.WRITER}))
    at = datetime(2023, 5, 7, 18, 0, tzinfo=UTC)
    # Given the user's plans, told to agent beta
    for mid, text in [("b1", "We are planning a trip to Jordan in March."), ("b2", "We are planning a trip to Peru.")]:
        msg = NewMessage(mid, MessageRole.USER, text, at, {"speaker": "Sam"})
        engram.conversation.conversations.append(beta, "maya", "trips", [msg])
    question = "When is the trip to Jordan?"

    def seen_by_beta() -> list[tuple[str, float, float]]:
        assert engram.conversation is not None
        recalled = engram.recall.recall(beta, "maya", RecallRequest(question, min_score=0.0)).episodes
        found = engram.conversation.conversations.search(beta, "maya", question, limit=5, min_score=0.0)
        parts = [(e.message.id, e.parts) for e in recalled] + [(h.message.id, h.parts) for h in found]
        return [(mid, p.semantic, p.keyword) for mid, p in parts if p is not None]

    before = seen_by_beta()
    assert before[0][0] == "b1" and before[0][2] > 0
    # When a person named Jordan talks with agent alpha
    say(engram, "j1", "Jordan", "Hi, Jordan here, I look after Maya's garden.")
    # Then beta asks, and finds, as before (the keyword part up to BM25's store-wide
    # statistics, which any new document moves)
    assert engram.recall.message_keywords(beta, "maya", question) is None
    # (an admin key recalls with its own agent's view too)
    beta_admin = Principal("acme", "beta", frozenset({Role.ADMIN}))
    assert engram.recall.message_keywords(beta_admin, "maya", question) is None
    after = seen_by_beta()
    assert [(mid, sem) for mid, sem, _ in after] == [(mid, sem) for mid, sem, _ in before]
    assert [kw for _, _, kw in after] == pytest.approx([kw for _, _, kw in before], abs=1e-6)
    # And alpha, who talks with Jordan, still leaves the name out of its own question
    assert engram.recall.message_keywords(P, "maya", question) == "When is the trip to ?"

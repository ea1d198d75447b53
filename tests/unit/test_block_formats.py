"""Memory block forms: compact for prompts, Markdown for people, TOML/JSON for machines."""

from __future__ import annotations

import pytest
from engram.domain.block_format import (
    from_json,
    from_markdown,
    from_toml,
    to_compact,
    to_json,
    to_markdown,
    to_toml,
)
from engram.domain.block_schema import HUMAN_SCHEMA, PERSONA_PRESETS, PERSONA_SCHEMA, BlockField, BlockSchema, FieldKind
from engram.domain.blocks import BlockEdit, apply_edit, canonical, complete_task, enforce_list_limits
from engram.domain.errors import GuardrailViolation, ValidationFailed
from hypothesis import given, settings
from hypothesis import strategies as st

ALICE = {
    "name": "Alice",
    "role": "High school senior",
    "current_task": "Brainstorm essay topics about identity",
    "session_state": "active_task",
    "preferences": ["Prefers Socratic questions", "Likes detailed feedback"],
    "facts": ["Planning to study CS", "Has published poetry"],
    "context_notes": ["Discussed identity", "Explored challenges", "Wants curiosity"],
}


class TestCompact:
    def test_given_the_youlab_human_block_when_serialised_then_it_is_the_documented_compact_form(self) -> None:
        text = to_compact(HUMAN_SCHEMA, canonical(HUMAN_SCHEMA, ALICE))
        assert text == (
            "[USER] Alice | High school senior\n"
            "[TASK] Brainstorm essay topics about identity\n"
            "[STATE] active_task\n"
            "[PREFS] Prefers Socratic questions; Likes detailed feedback\n"
            "[FACTS] Planning to study CS; Has published poetry\n"
            "[CONTEXT] Discussed identity; Explored challenges; Wants curiosity"
        )

    def test_given_a_persona_when_serialised_then_enumerations_use_commas_and_constraints_semicolons(self) -> None:
        values = canonical(
            PERSONA_SCHEMA,
            {
                "name": "YouLab Essay Coach",
                "role": "AI tutor for college essays",
                "capabilities": ["Guide self-discovery", "Brainstorm topics", "Provide feedback"],
                "expertise": ["College admissions", "Personal narrative", "Reflective writing"],
                "tone": "warm",
                "verbosity": "adaptive",
                "constraints": ["Never write essays", "Ask clarifying questions first"],
            },
        )
        assert to_compact(PERSONA_SCHEMA, values) == (
            "[IDENTITY] YouLab Essay Coach | AI tutor for college essays\n"
            "[CAPABILITIES] Guide self-discovery, Brainstorm topics, Provide feedback\n"
            "[EXPERTISE] College admissions, Personal narrative, Reflective writing\n"
            "[STYLE] warm, adaptive\n"
            "[CONSTRAINTS] Never write essays; Ask clarifying questions first"
        )

    def test_given_empty_fields_when_serialised_then_they_leave_no_line(self) -> None:
        assert to_compact(HUMAN_SCHEMA, canonical(HUMAN_SCHEMA, {"name": "Bo"})) == "[USER] Bo\n[STATE] idle"

    @pytest.mark.parametrize("preset", sorted(PERSONA_PRESETS))
    def test_given_each_persona_preset_when_validated_then_it_fits_the_persona_schema(self, preset: str) -> None:
        values = canonical(PERSONA_SCHEMA, PERSONA_PRESETS[preset])
        kept, overflow = enforce_list_limits(PERSONA_SCHEMA, values)
        assert kept == values and overflow == []
        assert to_compact(PERSONA_SCHEMA, values).startswith(f"[IDENTITY] {values['name']} | ")


class TestMarkdown:
    def test_given_a_block_when_rendered_then_it_reads_like_the_youlab_editing_form(self) -> None:
        md = to_markdown(HUMAN_SCHEMA, canonical(HUMAN_SCHEMA, {"name": "Alice", "preferences": ["Tea"]}), 3)
        assert md.startswith("---\nblock: human\nversion: 3\n---\n\n## Name\nAlice\n\n## Role\n\n")
        assert "## Preferences\n- Tea\n" in md

    def test_given_a_person_edits_the_markdown_when_parsed_then_exactly_their_edits_apply(self) -> None:
        values = canonical(HUMAN_SCHEMA, ALICE)
        md = to_markdown(HUMAN_SCHEMA, values, 7)
        edited = (
            md.replace("Alice", "Alice Smith")
            .replace("- Likes detailed feedback\n", "")
            .replace("## Facts\n", "## Facts\n- Plays the cello\n")
        )
        parsed, version = from_markdown(HUMAN_SCHEMA, edited)
        assert version == 7
        expected = dict(values)
        expected["name"] = "Alice Smith"
        expected["preferences"] = ("Prefers Socratic questions",)
        expected["facts"] = ("Plays the cello", "Planning to study CS", "Has published poetry")
        assert parsed == expected
        # And the edited block renders back to the edited document, byte for byte.
        assert to_markdown(HUMAN_SCHEMA, parsed, 7) == edited

    def test_given_text_lines_that_look_like_headings_when_round_tripped_then_they_stay_text(self) -> None:
        schema = BlockSchema(name="notes", fields=(BlockField(name="body"), BlockField(name="tags", kind="list")))
        values = canonical(schema, {"body": "## not a heading\n\\ backslash\n#hashtag", "tags": ["## x", "- y"]})
        assert from_markdown(schema, to_markdown(schema, values)) == (values, None)

    @pytest.mark.parametrize(
        ("text", "fragment"),
        [
            ("## Hobbies\n- chess\n", "no section 'Hobbies'"),
            ("## Preferences\nTea\n", "is a list"),
            ("---\nblock: persona\n---\n## Name\nA\n", "block 'persona', not 'human'"),
            ("intro\n## Name\nA\n", "before the first"),
            ("## Name\nA\n## Name\nB\n", "appears twice"),
            ("---\nblock: human\n", "never closed"),
            ("---\nversion: two\n---\n", "whole number"),
            ("## Session state\nasleep\n", "must be one of"),
        ],
    )
    def test_given_a_broken_document_when_parsed_then_the_error_says_what_is_wrong(
        self, text: str, fragment: str
    ) -> None:
        with pytest.raises(ValidationFailed) as err:
            from_markdown(HUMAN_SCHEMA, text)
        assert fragment in err.value.message

    def test_given_a_missing_section_when_parsed_then_that_field_is_empty(self) -> None:
        values, _ = from_markdown(HUMAN_SCHEMA, "## Name\nAlice\n")
        assert values == {"name": "Alice", "session_state": "idle"}


class TestMachineForms:
    def test_given_the_youlab_toml_when_parsed_then_it_matches_the_documented_block(self) -> None:
        schema = BlockSchema(
            name="student",
            fields=(BlockField(name="name"), BlockField(name="background"), BlockField(name="strengths", kind="list")),
        )
        text = 'name = "Alice"\nbackground = "Computer science student"\nstrengths = ["Creativity", "Communication"]\n'
        values = from_toml(schema, text)
        assert values == {
            "name": "Alice",
            "background": "Computer science student",
            "strengths": ("Creativity", "Communication"),
        }
        assert from_toml(schema, to_toml(values)) == values

    def test_given_invalid_toml_or_json_when_parsed_then_a_validation_error_names_it(self) -> None:
        with pytest.raises(ValidationFailed, match="TOML"):
            from_toml(HUMAN_SCHEMA, "name = ")
        with pytest.raises(ValidationFailed, match="JSON"):
            from_json(HUMAN_SCHEMA, "{")
        with pytest.raises(ValidationFailed, match="no field 'age'"):
            from_json(HUMAN_SCHEMA, '{"age": 3}')


# -- round trips over arbitrary values ------------------------------------------------------------

_CHARS = st.characters(blacklist_categories=("Cs", "Cc"), blacklist_characters="\r")
_line = st.text(_CHARS, min_size=1, max_size=40).map(str.strip).filter(bool)
_text = st.lists(st.text(_CHARS, max_size=30), min_size=1, max_size=4).map("\n".join).map(str.strip).filter(bool)
_state = st.sampled_from(HUMAN_SCHEMA.field("session_state").choices)
human_values = st.fixed_dictionaries(
    {},
    optional={
        "name": _line,
        "role": _line,
        "current_task": _text,
        "session_state": _state,
        "preferences": st.lists(_line, min_size=1, max_size=5),
        "facts": st.lists(_line, min_size=1, max_size=5),
        "context_notes": st.lists(_line, min_size=1, max_size=5),
    },
).map(lambda raw: canonical(HUMAN_SCHEMA, raw))


@settings(max_examples=300, deadline=None)
@given(human_values, st.one_of(st.none(), st.integers(0, 10**6)))
def test_given_any_block_when_rendered_as_markdown_and_parsed_then_nothing_is_lost(
    values: dict, version: int | None
) -> None:
    assert from_markdown(HUMAN_SCHEMA, to_markdown(HUMAN_SCHEMA, values, version)) == (values, version)


@settings(max_examples=300, deadline=None)
@given(human_values)
def test_given_any_block_when_rendered_as_toml_or_json_and_parsed_then_nothing_is_lost(values: dict) -> None:
    assert from_toml(HUMAN_SCHEMA, to_toml(values)) == values
    assert from_json(HUMAN_SCHEMA, to_json(values)) == values


class TestEdits:
    def test_given_set_append_remove_when_applied_then_lists_keep_order_and_refresh_duplicates(self) -> None:
        values = canonical(HUMAN_SCHEMA, {"preferences": ["A", "B", "C"]})
        out = apply_edit(
            HUMAN_SCHEMA,
            values,
            BlockEdit(set={"role": "Student"}, remove={"preferences": ("b",)}, append={"preferences": ("a", "D")}),
        )
        assert out["preferences"] == ("C", "a", "D")
        assert out["role"] == "Student"

    def test_given_a_task_is_set_when_applied_then_the_session_becomes_active(self) -> None:
        out = apply_edit(HUMAN_SCHEMA, {}, BlockEdit(set={"current_task": "Write intro"}))
        assert out["session_state"] == "active_task"

    def test_given_a_text_edit_to_a_list_field_when_applied_then_it_is_refused(self) -> None:
        with pytest.raises(ValidationFailed, match="list of text items"):
            apply_edit(HUMAN_SCHEMA, {}, BlockEdit(set={"facts": "one"}))
        with pytest.raises(ValidationFailed, match="Only list fields"):
            apply_edit(HUMAN_SCHEMA, {}, BlockEdit(append={"name": ("x",)}))

    def test_given_a_persona_list_past_its_limit_when_enforced_then_the_write_is_refused(self) -> None:
        values = canonical(PERSONA_SCHEMA, {"constraints": ["a", "b", "c", "d"]})
        with pytest.raises(GuardrailViolation) as err:
            enforce_list_limits(PERSONA_SCHEMA, values)
        assert err.value.code == "block_list_too_long"

    def test_given_a_rolling_list_past_its_limit_when_enforced_then_the_oldest_items_leave(self) -> None:
        values = canonical(HUMAN_SCHEMA, {"context_notes": ["1", "2", "3", "4", "5"]})
        kept, overflow = enforce_list_limits(HUMAN_SCHEMA, values)
        assert kept["context_notes"] == ("3", "4", "5")
        assert [(o.field, o.items) for o in overflow] == [("context_notes", ("1", "2"))]

    def test_given_a_current_task_when_completed_then_it_leaves_with_its_context_and_the_block_idles(self) -> None:
        values = canonical(HUMAN_SCHEMA, ALICE)
        out, done = complete_task(HUMAN_SCHEMA, values, "Picked topic 2", keep_context=False)
        assert done.task == ALICE["current_task"] and done.context == tuple(ALICE["context_notes"])
        assert "current_task" not in out and "context_notes" not in out
        assert out["session_state"] == "idle"
        with pytest.raises(GuardrailViolation) as err:
            complete_task(HUMAN_SCHEMA, out, None, keep_context=False)
        assert err.value.code == "no_current_task"


class TestSchemas:
    def test_given_a_schema_with_a_bad_layout_when_built_then_it_is_refused(self) -> None:
        with pytest.raises(ValueError, match="unknown field"):
            BlockSchema(name="x", fields=(BlockField(name="a"),), lines=({"tag": "A", "fields": ("b",)},))
        with pytest.raises(ValueError, match="needs choices"):
            BlockField(name="mood", kind=FieldKind.CHOICE)
        with pytest.raises(ValueError, match="twice"):
            BlockSchema(name="x", fields=(BlockField(name="a"), BlockField(name="a")))

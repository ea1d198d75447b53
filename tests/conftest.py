import os

import pytest

# jsii (the CDK's bridge to Node) warns on every import about Node's support window.
os.environ.setdefault("JSII_SILENCE_WARNING_END_OF_LIFE_NODE_VERSION", "20")
os.environ.setdefault("POWERTOOLS_TRACE_DISABLED", "true")
# The default embedder is MiniLM (semantic, offline); the suite asks for the hashing one
# explicitly to stay fast and deterministic, servers it starts included. Tests of MiniLM
# and of the default build their own settings.
os.environ.setdefault("ENGRAM_EMBEDDER", "hash")
os.environ.setdefault("POWERTOOLS_METRICS_NAMESPACE", "EngramTest")

# Scheduling on xdist workers (pyproject runs them with `--dist loadscope
# --no-loadscope-reorder`): each test module (or class) is a unit of work, kept on one
# worker so that its module-wide fixtures (an `engram serve`) are built once, and handed to
# the next free worker in collection order; the longest units go first. With `--dist load`
# the suite was handed out in long consecutive runs, so most e2e tests piled up on one
# worker, which ran for twice as long as the others. (`--dist loadgroup` would allow finer
# groups, but its groups are lost on pytest 9, which no longer lets xdist rename a test.)
# Seconds each test takes on an idle 2-core machine, roughly (`--durations`), by node id
# prefix; a new slow test can be added here, and until then it counts SLOW_DEFAULT.
EXPECTED_SECONDS = {  # the first matching prefix counts
    "tests/integration/test_lambda_artefacts.py": 90,  # the host layer build included
    "tests/integration/test_isolation_property.py::test_no_response_crosses_tenant_or_visibility[dynamodb]": 90,
    "tests/e2e/test_crash_safety.py": 75,
    "tests/e2e/test_fuzz.py": 75,
    "tests/e2e/test_isolation_under_load.py": 70,  # each server: one process, two workers
    "tests/e2e/test_user_story.py::test_given_a_served_engram_when_a_user_story_runs_then_everything_behaves_and_survives_restart[aws]": 37,
    "tests/contract/test_store_contract.py::TestThroughTheService::test_fifty_concurrent_writers": 31,
    "tests/infra/test_stack.py::test_given_the_template_then_cfn_lint": 26,
    "tests/e2e/test_client_distribution.py": 24,
    "tests/e2e/test_workers.py": 23,
    "tests/e2e/test_memory_semantics_e2e.py::test_erasure_wins_over_queued_and_in_flight_extraction_repeatedly[aws]": 20,
    "tests/e2e/test_user_story.py": 19,
    "tests/integration/test_dream_dynamodb.py::test_given_quiet_users": 11,
    "tests/e2e/test_memory_semantics_e2e.py": 8,
    "tests/e2e/test_cli.py": 10,
    "tests/e2e/test_thread_oracle_http.py": 9,
    "tests/e2e/test_rate_limit_workers.py": 9,
    "tests/unit/test_rendering.py::test_the_token_budget_is_never_exceeded": 9,
    "tests/unit/test_sensitive_alternatives.py::TestPhrasesOnTheCorpus": 20,  # (one case, a quarter of the corpus)
    "tests/integration/test_thread_oracle.py": 6,
    "tests/e2e/test_conversation_story.py": 6,
    "tests/integration/test_dynamodb_costs.py::test_given_random_changes": 6,
    "tests/unit/test_handler_tracing.py": 4,
    "tests/infra/": 1,  # the synth they share (about 10 s) is made once, under a file lock
}
SLOW_DEFAULT = 5  # an unlisted test marked slow or e2e


def _expected_seconds(item: pytest.Item) -> float:
    for prefix, seconds in EXPECTED_SECONDS.items():
        if item.nodeid.startswith(prefix):
            return seconds
    return SLOW_DEFAULT if item.get_closest_marker("slow") or item.get_closest_marker("e2e") else 0


def _unit(item: pytest.Item) -> str:
    """The unit of work xdist's loadscope scheduler makes of the test: its module or class."""
    return item.nodeid.rsplit("::", 1)[0]


@pytest.hookimpl(trylast=True)  # after pytest has ordered the tests by their fixtures
def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    units: dict[str, list[pytest.Item]] = {}
    for item in items:
        units.setdefault(_unit(item), []).append(item)
    # A unit's tests stay together and in pytest's order; the longest units go first
    # (sorted() is stable: the rest keep collection order).
    ordered = sorted(units.values(), key=lambda unit: -sum(_expected_seconds(i) for i in unit))
    items[:] = [item for unit in ordered for item in unit]

"""The synthesised Engram template: each resource and the properties that make it right."""

from __future__ import annotations

import importlib
import importlib.util
import json
import re
from pathlib import Path
from typing import Any

import pytest
from engram.settings import Settings

from tests.infra.conftest import Synth

pytestmark = pytest.mark.slow  # the shared synth takes ~10 s once per worker

HANDLERS = {
    "Api": "engram.handlers.api.handler",
    "Authorizer": "engram.handlers.authorizer.handler",
    "Mcp": "engram.handlers.mcp.handler",
    "Indexer": "engram.handlers.indexer.handler",
    "Extraction": "engram.handlers.extraction.handler",
    "DreamPlanner": "engram.handlers.dream.planner_handler",
    "DreamWorker": "engram.handlers.dream.worker_handler",
    "Reindex": "engram.handlers.reindex.handler",
}
DATA_SERVICES = ("dynamodb:", "es:", "sqs:", "bedrock:", "s3:", "sns:")


def ref(logical_id: str) -> dict[str, str]:
    return {"Ref": logical_id}


def arn(logical_id: str, attribute: str = "Arn") -> dict[str, list[str]]:
    return {"Fn::GetAtt": [logical_id, attribute]}


def functions(synth: Synth) -> dict[str, dict[str, Any]]:
    """Functions by their construct name (Api, Indexer, ...)."""
    out = {}
    for logical_id, resource in synth.of_type("AWS::Lambda::Function").items():
        name = next(n for n in HANDLERS if re.fullmatch(rf"EngramFunctions{n}[0-9A-F]{{8}}", logical_id))
        out[name] = resource
    return out


def role_statements(synth: Synth, function: str) -> list[dict[str, Any]]:
    role = functions(synth)[function]["Properties"]["Role"]["Fn::GetAtt"][0]
    statements = []
    for policy in synth.of_type("AWS::IAM::Policy").values():
        if ref(role) in policy["Properties"]["Roles"]:
            statements.extend(policy["Properties"]["PolicyDocument"]["Statement"])
    return statements


def actions_of(statements: list[dict[str, Any]]) -> set[str]:
    out: set[str] = set()
    for statement in statements:
        actions = statement["Action"]
        out.update([actions] if isinstance(actions, str) else actions)
    return out


def as_list(value: Any) -> list[Any]:
    return value if isinstance(value, list) else [value]


# --- storage -------------------------------------------------------------------------------


def test_given_the_stack_then_the_table_is_an_on_demand_pk_sk_table_encrypted_with_the_customer_key(
    synth: Synth,
) -> None:
    table = synth.resources[synth.logical_id("AWS::DynamoDB::Table", "StorageTable")]["Properties"]
    key = synth.logical_id("AWS::KMS::Key", "StorageKey")

    assert table["KeySchema"] == [
        {"AttributeName": "PK", "KeyType": "HASH"},
        {"AttributeName": "SK", "KeyType": "RANGE"},
    ]
    assert {"AttributeName": "PK", "AttributeType": "S"} in table["AttributeDefinitions"]
    assert {"AttributeName": "SK", "AttributeType": "S"} in table["AttributeDefinitions"]
    assert table["BillingMode"] == "PAY_PER_REQUEST"
    assert table["SSESpecification"] == {"KMSMasterKeyId": arn(key), "SSEEnabled": True, "SSEType": "KMS"}
    assert table["PointInTimeRecoverySpecification"] == {"PointInTimeRecoveryEnabled": True}
    assert table["StreamSpecification"] == {"StreamViewType": "NEW_AND_OLD_IMAGES"}
    assert table["TimeToLiveSpecification"] == {"AttributeName": "ttl", "Enabled": True}


def test_given_the_dynamodb_adapter_then_the_table_has_exactly_its_indexes(synth: Synth) -> None:
    from engram.adapters.dynamodb.table import table_definition

    table = synth.resources[synth.logical_id("AWS::DynamoDB::Table", "StorageTable")]["Properties"]
    adapter = table_definition("engram")

    assert table["KeySchema"] == adapter["KeySchema"]
    assert sorted(table["AttributeDefinitions"], key=json.dumps) == sorted(
        adapter["AttributeDefinitions"], key=json.dumps
    )
    assert table["LocalSecondaryIndexes"] == adapter["LocalSecondaryIndexes"]
    assert table["GlobalSecondaryIndexes"] == adapter["GlobalSecondaryIndexes"]
    assert table["StreamSpecification"]["StreamViewType"] == adapter["StreamSpecification"]["StreamViewType"]


def test_given_the_stack_then_idempotency_records_live_in_their_own_encrypted_expiring_table(synth: Synth) -> None:
    table = synth.resources[synth.logical_id("AWS::DynamoDB::Table", "StorageIdempotencyTable")]["Properties"]
    key = synth.logical_id("AWS::KMS::Key", "StorageKey")

    assert table["KeySchema"] == [{"AttributeName": "id", "KeyType": "HASH"}]
    assert table["TimeToLiveSpecification"] == {"AttributeName": "expiration", "Enabled": True}
    assert table["SSESpecification"]["KMSMasterKeyId"] == arn(key)
    assert table["PointInTimeRecoverySpecification"] == {"PointInTimeRecoveryEnabled": True}
    for function in ("Api", "Mcp", "Extraction"):
        env = functions(synth)[function]["Properties"]["Environment"]["Variables"]
        assert env["ENGRAM_IDEMPOTENCY_TABLE"] == ref(
            synth.logical_id("AWS::DynamoDB::Table", "StorageIdempotencyTable")
        )


def test_given_the_dev_stage_then_the_table_can_be_deleted_with_the_stack(synth: Synth) -> None:
    table = synth.resources[synth.logical_id("AWS::DynamoDB::Table", "StorageTable")]

    assert table["Properties"]["DeletionProtectionEnabled"] is False
    assert table["DeletionPolicy"] == "Delete"


def test_given_the_stack_then_the_key_rotates_and_lets_cloudwatch_publish_to_the_encrypted_topic(
    synth: Synth,
) -> None:
    key = synth.one("AWS::KMS::Key")["Properties"]

    assert key["EnableKeyRotation"] is True
    cloudwatch = [
        s for s in key["KeyPolicy"]["Statement"] if s.get("Principal") == {"Service": "cloudwatch.amazonaws.com"}
    ]
    assert len(cloudwatch) == 1
    assert set(cloudwatch[0]["Action"]) == {"kms:Decrypt", "kms:GenerateDataKey"}


# --- search --------------------------------------------------------------------------------


def test_given_the_stack_then_the_domain_is_encrypted_https_only_and_sized_from_context(synth: Synth) -> None:
    domain = synth.one("AWS::OpenSearchService::Domain")["Properties"]
    key = synth.logical_id("AWS::KMS::Key", "StorageKey")

    assert domain["EngineVersion"] == "OpenSearch_2.19"
    assert domain["EncryptionAtRestOptions"] == {"Enabled": True, "KmsKeyId": ref(key)}
    assert domain["NodeToNodeEncryptionOptions"] == {"Enabled": True}
    assert domain["DomainEndpointOptions"]["EnforceHTTPS"] is True
    assert domain["DomainEndpointOptions"]["TLSSecurityPolicy"].startswith("Policy-Min-TLS-1-2")
    assert domain["ClusterConfig"]["InstanceType"] == "t3.medium.search"
    assert domain["ClusterConfig"]["InstanceCount"] == 1
    assert domain["EBSOptions"] == {"EBSEnabled": True, "VolumeSize": 20, "VolumeType": "gp3"}
    assert set(domain["LogPublishingOptions"]) == {"ES_APPLICATION_LOGS", "SEARCH_SLOW_LOGS", "INDEX_SLOW_LOGS"}


def test_given_the_stack_then_only_the_roles_that_use_the_index_may_call_the_domain(synth: Synth) -> None:
    domain = synth.one("AWS::OpenSearchService::Domain")["Properties"]
    statements = {s["Sid"]: s for s in domain["AccessPolicies"]["Statement"]}
    roles = {fn: f["Properties"]["Role"] for fn, f in functions(synth).items()}

    def principals(sid: str) -> list[Any]:
        return sorted(as_list(statements[sid]["Principal"]["AWS"]), key=json.dumps)

    assert set(statements) == {"QueryingRoles", "IndexingRoles"}
    assert all(s["Effect"] == "Allow" for s in statements.values())
    # Only the functions that index documents may write; the dream worker only searches.
    assert principals("IndexingRoles") == sorted(
        [roles[n] for n in ("Api", "Mcp", "Indexer", "Extraction", "Reindex")], key=json.dumps
    )
    assert principals("QueryingRoles") == [roles["DreamWorker"]]
    for statement in statements.values():
        assert all(action.startswith("es:ESHttp") and "*" not in action for action in statement["Action"])
    assert f"domain/{domain['DomainName']}/*" in json.dumps(statements["IndexingRoles"]["Resource"])
    # The querying roles reach the search paths of the index and nothing else (not _bulk).
    paths = json.dumps(statements["QueryingRoles"]["Resource"])
    assert "/_msearch" in paths and "/engram-memory/_search" in paths
    assert "/*" not in paths and "_bulk" not in paths


# --- functions -----------------------------------------------------------------------------


def test_given_the_stack_then_every_function_is_python312_on_arm64_traced_with_the_layer(synth: Synth) -> None:
    fns = functions(synth)
    core_layer = synth.logical_id("AWS::Lambda::LayerVersion", "FunctionsDependencies")
    mcp_layer = synth.logical_id("AWS::Lambda::LayerVersion", "FunctionsMcpDependencies")

    assert set(fns) == set(HANDLERS)
    for name, function in fns.items():
        props = function["Properties"]
        assert props["Handler"] == HANDLERS[name]
        assert props["Runtime"] == "python3.12"
        assert props["Architectures"] == ["arm64"]
        assert props["TracingConfig"] == {"Mode": "Active"}
        expected_layers = [ref(core_layer), ref(mcp_layer)] if name == "Mcp" else [ref(core_layer)]
        assert props["Layers"] == expected_layers
        assert "LogGroup" in props["LoggingConfig"]


def test_given_the_stack_then_functions_carry_powertools_and_engram_settings(synth: Synth) -> None:
    for name, function in functions(synth).items():
        env = function["Properties"]["Environment"]["Variables"]
        assert env["POWERTOOLS_SERVICE_NAME"] == "engram", name
        assert env["POWERTOOLS_METRICS_NAMESPACE"] == "Engram", name
        assert env["LOG_LEVEL"] == "INFO", name
        assert env["ENGRAM_BACKEND"] == "aws", name
        assert env["ENGRAM_TABLE_NAME"] == ref(synth.logical_id("AWS::DynamoDB::Table", "StorageTable")), name
        assert "DomainEndpoint" in json.dumps(env["ENGRAM_OPENSEARCH_URL"]), name

    fns = functions(synth)
    extraction_queue = ref(synth.logical_id("AWS::SQS::Queue", "QueuesExtraction"))
    dream_queue = ref(synth.logical_id("AWS::SQS::Queue", "QueuesDream"))
    assert fns["Api"]["Properties"]["Environment"]["Variables"]["ENGRAM_EXTRACTION_QUEUE_URL"] == extraction_queue
    assert fns["DreamPlanner"]["Properties"]["Environment"]["Variables"]["ENGRAM_DREAM_QUEUE_URL"] == dream_queue


def test_given_the_engram_variables_then_the_settings_model_reads_every_one_of_them(
    synth: Synth, monkeypatch: pytest.MonkeyPatch
) -> None:
    for name, function in functions(synth).items():
        env = function["Properties"]["Environment"]["Variables"]
        engram = {k: v for k, v in env.items() if k.startswith("ENGRAM_")}
        unknown = {k for k in engram if k.removeprefix("ENGRAM_").lower() not in Settings.model_fields}
        assert not unknown, f"{name} sets variables engram/settings.py does not read: {unknown}"
        # Through the environment, as a cold start reads them; values only known at deploy
        # time stand in as plausible strings, the rest must validate exactly as given.
        with monkeypatch.context() as patched:
            for key, value in engram.items():
                patched.setenv(key, value if isinstance(value, str) else "https://resolved-at-deploy.example")
            settings = Settings()
        assert settings.backend == "aws", name
        assert settings.embedder == "bedrock", name
        assert settings.bedrock_embedding_dimension == 512, name
        assert settings.max_body_bytes == 65_536, name


@pytest.mark.parametrize("function", sorted(HANDLERS))
def test_given_a_function_then_its_handler_names_a_callable_in_the_package(function: str) -> None:
    module_name, _, attribute = HANDLERS[function].rpartition(".")
    if importlib.util.find_spec(module_name) is None:
        pytest.skip(f"{module_name} is not written yet; the stack already points at it")
    module = importlib.import_module(module_name)

    assert callable(getattr(module, attribute))


# --- queues, event sources, schedule -------------------------------------------------------


def test_given_the_stack_then_the_work_queues_have_encrypted_dead_letter_queues(synth: Synth) -> None:
    key = arn(synth.logical_id("AWS::KMS::Key", "StorageKey"))
    for queue_name, dlq_name, timeout in (
        ("Extraction", "ExtractionDlq", 120),
        ("Dream", "DreamDlq", 300),
        ("Reindex", "ReindexDlq", 300),
    ):
        queue = synth.resources[synth.logical_id("AWS::SQS::Queue", f"Queues{queue_name}")]["Properties"]
        dlq = synth.logical_id("AWS::SQS::Queue", f"Queues{dlq_name}")
        assert queue["RedrivePolicy"] == {"deadLetterTargetArn": arn(dlq), "maxReceiveCount": 5}
        assert queue["KmsMasterKeyId"] == key
        assert queue["VisibilityTimeout"] == 6 * timeout
        assert synth.resources[dlq]["Properties"]["KmsMasterKeyId"] == key


def test_given_the_stack_then_every_queue_is_encrypted_and_refuses_plain_http(synth: Synth) -> None:
    queues = synth.of_type("AWS::SQS::Queue")
    tls_only = set()
    for policy in synth.of_type("AWS::SQS::QueuePolicy").values():
        for statement in policy["Properties"]["PolicyDocument"]["Statement"]:
            if (
                statement.get("Condition") == {"Bool": {"aws:SecureTransport": "false"}}
                and statement["Effect"] == "Deny"
            ):
                tls_only.update(q["Ref"] for q in policy["Properties"]["Queues"])

    assert len(queues) == 8
    assert tls_only == set(queues)
    for queue in queues.values():
        props = queue["Properties"]
        assert props.get("KmsMasterKeyId") or props.get("SqsManagedSseEnabled")


def test_given_the_stack_then_the_indexer_reads_the_stream_with_bisect_and_partial_batch_responses(
    synth: Synth,
) -> None:
    indexer = synth.logical_id("AWS::Lambda::Function", "FunctionsIndexer")
    mapping = synth.one("AWS::Lambda::EventSourceMapping", lambda r: r["Properties"]["FunctionName"] == ref(indexer))
    props = mapping["Properties"]

    assert props["EventSourceArn"] == arn(synth.logical_id("AWS::DynamoDB::Table", "StorageTable"), "StreamArn")
    assert props["StartingPosition"] == "TRIM_HORIZON"
    assert props["BisectBatchOnFunctionError"] is True
    assert props["FunctionResponseTypes"] == ["ReportBatchItemFailures"]
    assert props["MaximumRetryAttempts"] == 10
    failures = synth.logical_id("AWS::SQS::Queue", "QueuesIndexerFailures")
    assert props["DestinationConfig"] == {"OnFailure": {"Destination": arn(failures)}}


@pytest.mark.parametrize(("function", "queue"), [("Extraction", "QueuesExtraction"), ("DreamWorker", "QueuesDream")])
def test_given_the_stack_then_queue_consumers_report_partial_batch_failures(
    synth: Synth, function: str, queue: str
) -> None:
    fn = synth.logical_id("AWS::Lambda::Function", f"Functions{function}")
    mapping = synth.one("AWS::Lambda::EventSourceMapping", lambda r: r["Properties"]["FunctionName"] == ref(fn))

    assert mapping["Properties"]["EventSourceArn"] == arn(synth.logical_id("AWS::SQS::Queue", queue))
    assert mapping["Properties"]["FunctionResponseTypes"] == ["ReportBatchItemFailures"]
    if function == "DreamWorker":
        assert mapping["Properties"]["ScalingConfig"] == {"MaximumConcurrency": 10}


def test_given_the_stack_then_a_nightly_rule_invokes_the_dream_planner_with_retries_and_a_dlq(synth: Synth) -> None:
    rule = synth.one("AWS::Events::Rule")["Properties"]
    planner = synth.logical_id("AWS::Lambda::Function", "FunctionsDreamPlanner")
    (target,) = rule["Targets"]

    assert rule["ScheduleExpression"] == "cron(0 3 * * ? *)"
    assert rule["State"] == "ENABLED"
    assert target["Arn"] == arn(planner)
    assert target["RetryPolicy"]["MaximumRetryAttempts"] == 2
    assert target["DeadLetterConfig"] == {"Arn": arn(synth.logical_id("AWS::SQS::Queue", "QueuesScheduleDlq"))}


# --- API -----------------------------------------------------------------------------------


def methods(synth: Synth) -> dict[str, dict[str, Any]]:
    """Methods by '<HTTP method> <path part>' (the path part of their resource)."""
    resources = synth.of_type("AWS::ApiGateway::Resource")
    out = {}
    for method in synth.of_type("AWS::ApiGateway::Method").values():
        props = method["Properties"]
        path = resources[props["ResourceId"]["Ref"]]["Properties"]["PathPart"]
        out[f"{props['HttpMethod']} {path}"] = props
    return out


def test_given_the_stack_then_only_health_and_docs_are_public(synth: Synth) -> None:
    authorizer = synth.logical_id("AWS::ApiGateway::Authorizer", "KeyAuthorizer")
    found = methods(synth)

    assert set(found) == {"GET health", "GET docs", "ANY {proxy+}", "POST mcp", "GET mcp", "DELETE mcp"}
    for public in ("GET health", "GET docs"):
        assert found[public]["AuthorizationType"] == "NONE"
    for keyed in ("ANY {proxy+}", "POST mcp", "GET mcp", "DELETE mcp"):
        assert found[keyed]["AuthorizationType"] == "CUSTOM"
        assert found[keyed]["AuthorizerId"] == ref(authorizer)
        assert found[keyed]["RequestParameters"] == {"method.request.header.Authorization": True}
        assert "RequestValidatorId" in found[keyed]
    assert "Mcp" in json.dumps(found["POST mcp"]["Integration"]["Uri"])
    assert "FunctionsApi" in json.dumps(found["ANY {proxy+}"]["Integration"]["Uri"])


def test_given_the_stack_then_the_authorizer_reads_the_authorization_header_and_caches_its_answer(
    synth: Synth,
) -> None:
    authorizer = synth.one("AWS::ApiGateway::Authorizer")["Properties"]

    assert authorizer["Type"] == "TOKEN"
    assert authorizer["IdentitySource"] == "method.request.header.Authorization"
    assert authorizer["AuthorizerResultTtlInSeconds"] == 300
    assert "FunctionsAuthorizer" in json.dumps(authorizer["AuthorizerUri"])


def test_given_a_key_the_service_issues_then_the_gateway_pattern_lets_it_through_and_junk_not(
    synth: Synth, tmp_path: Path
) -> None:
    from engram.domain.models import Role

    from tests.support import engram_for

    pattern = re.compile(synth.one("AWS::ApiGateway::Authorizer")["Properties"]["IdentityValidationExpression"])
    _, key = engram_for(tmp_path).keys.create("acme", "agent", frozenset({Role.WRITER}))

    assert pattern.match(f"Bearer {key}")
    assert pattern.match(key)
    assert not pattern.match("Bearer ")
    assert not pattern.match(f"Basic {key}")
    assert not pattern.match("Bearer egm_zz_" + "A" * 43)


def test_given_the_stage_then_it_throttles_traces_and_logs_access_without_bodies(synth: Synth) -> None:
    stage = synth.one("AWS::ApiGateway::Stage")["Properties"]
    (settings,) = stage["MethodSettings"]
    access_format = json.loads(stage["AccessLogSetting"]["Format"])

    assert stage["TracingEnabled"] is True
    assert settings["ThrottlingRateLimit"] == 100
    assert settings["ThrottlingBurstLimit"] == 200
    assert settings["DataTraceEnabled"] is False
    assert settings["LoggingLevel"] == "ERROR"
    assert access_format["requestId"] == "$context.requestId"
    assert access_format["principal"] == "$context.authorizer.principalId"
    assert stage["AccessLogSetting"]["DestinationArn"] == arn(synth.logical_id("AWS::Logs::LogGroup", "ApiAccessLogs"))


def test_given_the_stack_then_request_validation_checks_parameters_and_the_mcp_body(synth: Synth) -> None:
    validators = {
        v["Properties"]["ValidateRequestBody"]: v["Properties"]["ValidateRequestParameters"]
        for v in synth.of_type("AWS::ApiGateway::RequestValidator").values()
    }
    model = synth.one("AWS::ApiGateway::Model")["Properties"]

    assert validators == {False: True, True: True}
    assert model["Schema"]["required"] == ["jsonrpc"]
    assert methods(synth)["POST mcp"]["RequestModels"] == {
        "application/json": ref(next(iter(synth.of_type("AWS::ApiGateway::Model"))))
    }


def test_given_the_web_acl_then_bodies_over_the_limit_get_a_413_in_the_service_error_shape(synth: Synth) -> None:
    acl = synth.one("AWS::WAFv2::WebACL")["Properties"]
    association = synth.one("AWS::WAFv2::WebACLAssociation")["Properties"]
    rule = next(r for r in acl["Rules"] if r["Name"] == "BodySizeLimit")
    size = rule["Statement"]["SizeConstraintStatement"]
    body = json.loads(acl["CustomResponseBodies"]["PayloadTooLarge"]["Content"])

    assert acl["Scope"] == "REGIONAL"
    assert acl["AssociationConfig"]["RequestBody"]["API_GATEWAY"]["DefaultSizeInspectionLimit"] == "KB_64"
    assert size["ComparisonOperator"] == "GT"
    assert size["Size"] == 65_536
    assert size["FieldToMatch"]["Body"]["OversizeHandling"] == "MATCH"
    assert rule["Action"]["Block"]["CustomResponse"]["ResponseCode"] == 413
    assert body["code"] == "payload_too_large"
    assert association["WebACLArn"] == arn(synth.logical_id("AWS::WAFv2::WebACL", "WebAcl"))
    assert "Stage" in json.dumps(association["ResourceArn"]) or "restapis" in json.dumps(association["ResourceArn"])


def test_given_gateway_refusals_then_they_answer_in_the_service_error_shape(synth: Synth) -> None:
    responses = {
        r["Properties"]["ResponseType"]: r["Properties"]
        for r in synth.of_type("AWS::ApiGateway::GatewayResponse").values()
    }

    assert responses["UNAUTHORIZED"]["StatusCode"] == "401"
    assert '"code":"unauthenticated"' in responses["UNAUTHORIZED"]["ResponseTemplates"]["application/json"]
    assert responses["MISSING_AUTHENTICATION_TOKEN"]["StatusCode"] == "404"
    assert responses["THROTTLED"]["StatusCode"] == "429"
    # Each family keeps its own status: a timeout is a 504, an unknown path a 404, a body
    # of the wrong type a 415; the catch-alls keep whatever status the gateway chose.
    assert responses["INTEGRATION_TIMEOUT"]["StatusCode"] == "504"
    assert responses["RESOURCE_NOT_FOUND"]["StatusCode"] == "404"
    assert responses["UNSUPPORTED_MEDIA_TYPE"]["StatusCode"] == "415"
    assert "StatusCode" not in responses["DEFAULT_4XX"] and "StatusCode" not in responses["DEFAULT_5XX"]
    assert all("$context.requestId" in r["ResponseTemplates"]["application/json"] for r in responses.values())


# --- least privilege -----------------------------------------------------------------------


def test_given_every_role_then_no_data_action_is_a_wildcard_and_no_data_resource_is_star(synth: Synth) -> None:
    for policy in synth.of_type("AWS::IAM::Policy").values():
        for statement in policy["Properties"]["PolicyDocument"]["Statement"]:
            actions = as_list(statement["Action"])
            data_actions = [a for a in actions if a.startswith(DATA_SERVICES)]
            assert not [a for a in data_actions if "*" in a], statement
            if "*" in as_list(statement["Resource"]):
                # Only actions with no resource-level permissions may name "*".
                assert set(actions) <= {"xray:PutTraceSegments", "xray:PutTelemetryRecords", "dynamodb:ListStreams"}
            if any(a.startswith("kms:") for a in actions):
                assert as_list(statement["Resource"]) == [arn(synth.logical_id("AWS::KMS::Key", "StorageKey"))]


def test_given_the_authorizer_then_it_may_only_get_api_key_items_from_the_table(synth: Synth) -> None:
    from engram.adapters.dynamodb.keys import api_key_pk, tenant_pk

    statements = role_statements(synth, "Authorizer")
    table = arn(synth.logical_id("AWS::DynamoDB::Table", "StorageTable"))
    (get_item,) = [s for s in statements if "dynamodb:GetItem" in as_list(s["Action"])]

    assert {a for a in actions_of(statements) if a.startswith("dynamodb:")} == {"dynamodb:GetItem"}
    assert as_list(get_item["Resource"]) == [table]
    (prefix,) = get_item["Condition"]["ForAllValues:StringLike"]["dynamodb:LeadingKeys"]
    assert re.fullmatch(prefix.replace("*", ".*"), api_key_pk("0123456789abcdef"))
    assert not re.fullmatch(prefix.replace("*", ".*"), tenant_pk("acme"))
    assert not [a for a in actions_of(statements) if a.startswith(("es:", "sqs:", "bedrock:"))]


def test_given_the_api_then_it_reads_and_writes_the_table_and_calls_only_the_domain(synth: Synth) -> None:
    statements = role_statements(synth, "Api")
    domain = synth.logical_id("AWS::OpenSearchService::Domain", "SearchDomain")
    es = [s for s in statements if any(a.startswith("es:") for a in as_list(s["Action"]))]

    assert {"dynamodb:GetItem", "dynamodb:PutItem", "dynamodb:UpdateItem", "dynamodb:Query"} <= actions_of(statements)
    assert {"kms:Decrypt", "kms:Encrypt"} <= actions_of(statements)
    assert "sqs:SendMessage" in actions_of(statements)
    (statement,) = es
    assert statement["Resource"] == [arn(domain), {"Fn::Join": ["", [arn(domain), "/*"]]}]


def test_given_the_indexer_then_it_reads_the_stream_writes_the_index_and_not_the_table(synth: Synth) -> None:
    statements = role_statements(synth, "Indexer")
    actions = actions_of(statements)

    assert {"dynamodb:GetRecords", "dynamodb:GetShardIterator", "dynamodb:DescribeStream"} <= actions
    assert {"es:ESHttpPost", "es:ESHttpPut", "es:ESHttpDelete"} <= actions
    assert not actions & {"dynamodb:PutItem", "dynamodb:UpdateItem", "dynamodb:DeleteItem", "dynamodb:BatchWriteItem"}


def test_given_query_only_functions_then_they_cannot_change_the_index(synth: Synth) -> None:
    statements = [s for s in role_statements(synth, "DreamWorker") if "es:ESHttpPost" in as_list(s["Action"])]
    (search,) = statements
    assert set(as_list(search["Action"])) == {"es:ESHttpGet", "es:ESHttpHead", "es:ESHttpPost"}
    resources = json.dumps(search["Resource"])
    assert "_search" in resources and "/*" not in resources and "_bulk" not in resources
    planner = actions_of(role_statements(synth, "DreamPlanner"))
    assert not [a for a in planner if a.startswith(("es:", "bedrock:"))]
    assert "sqs:SendMessage" in planner


def test_given_the_queue_consumers_then_their_concurrency_is_capped_below_the_api_headroom(synth: Synth) -> None:
    mappings = synth.of_type("AWS::Lambda::EventSourceMapping").values()
    sqs = [m["Properties"] for m in mappings if "Queue" in json.dumps(m["Properties"]["EventSourceArn"])]
    caps = [m.get("ScalingConfig", {}).get("MaximumConcurrency") for m in sqs]
    assert caps and all(isinstance(c, int) and c <= 10 for c in caps), caps
    # Together they leave most of an account's default 1,000 to the request path.
    assert sum(caps) <= 100


def test_given_bedrock_embeddings_then_invoke_is_granted_on_the_one_model(synth: Synth) -> None:
    for function in ("Api", "Mcp", "Indexer", "Extraction", "DreamWorker"):
        statements = [s for s in role_statements(synth, function) if "bedrock:InvokeModel" in as_list(s["Action"])]
        assert len(statements) == 1, function
        assert "foundation-model/amazon.titan-embed-text-v2:0" in json.dumps(statements[0]["Resource"])


def test_given_the_roles_then_none_uses_a_managed_policy_but_the_api_gateway_logging_role(synth: Synth) -> None:
    managed = {k: r["Properties"].get("ManagedPolicyArns") for k, r in synth.of_type("AWS::IAM::Role").items()}

    assert [k for k, v in managed.items() if v] == [synth.logical_id("AWS::IAM::Role", "CloudWatchRole")]


# --- observability -------------------------------------------------------------------------


def alarms_on(synth: Synth, metric: str) -> list[dict[str, Any]]:
    return [
        a["Properties"]
        for a in synth.of_type("AWS::CloudWatch::Alarm").values()
        if a["Properties"].get("MetricName") == metric
    ]


def test_given_the_stack_then_each_function_has_error_and_throttle_alarms(synth: Synth) -> None:
    fns = {
        logical_id: name
        for name in HANDLERS
        for logical_id in [synth.logical_id("AWS::Lambda::Function", f"Functions{name}")]
    }

    def watched(metric: str) -> set[str]:
        return {
            fns[d["Value"]["Ref"]]
            for a in alarms_on(synth, metric)
            for d in a["Dimensions"]
            if d["Name"] == "FunctionName"
        }

    assert watched("Throttles") == set(HANDLERS)
    # The authorizer's Errors count rejected keys by API Gateway's contract; its faults have their own metric.
    assert watched("Errors") == set(HANDLERS) - {"Authorizer"}
    (faults,) = alarms_on(synth, "AuthorizerFaults")
    assert faults["Namespace"] == "Engram"


def test_given_the_stack_then_every_dead_letter_queue_depth_is_alarmed(synth: Synth) -> None:
    dlqs = {
        synth.logical_id("AWS::SQS::Queue", n)
        for n in ("ExtractionDlq", "DreamDlq", "IndexerFailures", "ScheduleDlq", "ReindexDlq")
    }
    watched = {
        d["Value"]["Fn::GetAtt"][0]
        for a in alarms_on(synth, "ApproximateNumberOfMessagesVisible")
        for d in a["Dimensions"]
    }

    assert watched == dlqs


def test_given_the_stack_then_stream_lag_api_errors_and_latency_are_alarmed(synth: Synth) -> None:
    (iterator_age,) = alarms_on(synth, "IteratorAge")
    (server_errors,) = alarms_on(synth, "5XXError")
    (latency,) = alarms_on(synth, "Latency")

    assert iterator_age["Threshold"] == 60_000
    assert server_errors["Threshold"] == 5
    assert latency["ExtendedStatistic"] == "p99"
    assert latency["Threshold"] == 2000


def test_given_the_alarms_then_all_notify_the_encrypted_topic_and_a_dashboard_exists(synth: Synth) -> None:
    topic = synth.logical_id("AWS::SNS::Topic", "AlarmTopic")
    alarms = synth.of_type("AWS::CloudWatch::Alarm").values()

    assert synth.one("AWS::SNS::Topic")["Properties"]["KmsMasterKeyId"]
    assert all(a["Properties"]["AlarmActions"] == [ref(topic)] for a in alarms)
    assert alarms_on(synth, "ClusterStatus.red")
    body = json.dumps(synth.one("AWS::CloudWatch::Dashboard")["Properties"]["DashboardBody"])
    for metric in ("IteratorAge", "Latency", "dream.users.processed", "FreeStorageSpace"):
        assert metric in body


def test_given_the_stack_then_it_outputs_what_an_operator_needs(synth: Synth) -> None:
    assert {"ApiUrl", "TableName", "SearchEndpoint", "AlarmTopicArn", "DashboardName"} <= set(synth.template["Outputs"])


# --- gates ---------------------------------------------------------------------------------


def test_given_the_aws_solutions_pack_then_no_finding_is_left_unacknowledged(synth: Synth) -> None:
    if synth.nag_failure:
        report = json.loads(synth.nag_failure)
        findings = [
            f"{v['ruleName']} at {c['constructPath']}"
            for plugin in report["pluginReports"]
            for v in plugin["violations"]
            for c in v["violatingConstructs"]
        ]
        pytest.fail("cdk-nag AwsSolutions findings:\n" + "\n".join(findings))


def test_given_the_acknowledgments_then_each_carries_its_reason(synth: Synth) -> None:
    acknowledged = {
        rule: reason
        for entries in synth.metadata.values()
        for entry in entries
        if entry["type"] == "aws:cdk:acknowledged-rules"
        for rule, reason in entry["data"].items()
    }

    assert acknowledged, "the stack has known, deliberate exceptions; they must be recorded"
    for rule, reason in acknowledged.items():
        assert rule.startswith("AwsSolutions::AwsSolutions-"), rule
        assert len(reason) >= 40 and reason.endswith((".", ")")), (rule, reason)


def test_given_the_template_then_cfn_lint_finds_no_errors_nor_warnings_but_cdk_dependson(synth: Synth) -> None:
    from cfnlint.api import lint_all

    matches = lint_all((synth.outdir / "Engram.template.json").read_text())
    # W3005: CDK adds an explicit DependsOn on each function's role policy on purpose.
    problems = [f"{m.rule.id} {m.message}" for m in matches if m.rule.id[0] in "EW" and m.rule.id != "W3005"]

    assert not problems, "\n".join(problems)


def test_given_the_reindex_function_then_it_scans_the_table_reads_the_stream_and_writes_the_index(
    synth: Synth,
) -> None:
    statements = role_statements(synth, "Reindex")
    actions = actions_of(statements)

    assert {"dynamodb:Scan", "dynamodb:BatchGetItem", "dynamodb:GetRecords", "dynamodb:GetShardIterator"} <= actions
    assert not actions & {"dynamodb:PutItem", "dynamodb:UpdateItem", "dynamodb:DeleteItem", "dynamodb:BatchWriteItem"}
    assert {"es:ESHttpPost", "es:ESHttpPut", "es:ESHttpDelete"} <= actions
    assert {"sqs:SendMessage", "sqs:ReceiveMessage", "sqs:DeleteMessage"} <= actions
    reindex = functions(synth)["Reindex"]["Properties"]
    assert reindex["Handler"] == "engram.handlers.reindex.handler"
    assert {"ENGRAM_REINDEX_QUEUE_URL", "ENGRAM_INDEXER_FAILURES_QUEUE_URL"} <= set(reindex["Environment"]["Variables"])

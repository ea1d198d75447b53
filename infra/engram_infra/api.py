"""API: the REST API in front of the ``api`` and ``mcp`` functions.

Every route but ``/health`` and ``/docs`` goes through the Lambda authorizer, whose
answer API Gateway caches per ``Authorization`` header. The stage throttles, traces
and writes JSON access logs (never bodies). A WAF web ACL enforces the body size limit
before anything runs, and gateway errors answer with the same ``{code, message,
details}`` body as the service's own errors.
"""

from __future__ import annotations

import json

from aws_cdk import Duration, RemovalPolicy
from aws_cdk import aws_apigateway as apigw
from aws_cdk import aws_lambda as lambda_
from aws_cdk import aws_logs as logs
from aws_cdk import aws_wafv2 as wafv2
from constructs import Construct

from engram_infra.config import EngramConfig
from engram_infra.nag import acknowledge

# What engram.service.keys accepts, so malformed keys are refused without invoking the authorizer.
API_KEY_PATTERN = r"^(Bearer )?egm_[0-9a-f]{16}_[A-Za-z0-9_\-]{43}$"
AUTHORIZATION_HEADER = "method.request.header.Authorization"

# API Gateway's own refusals, in the service's error shape (code, message, details).
GATEWAY_ERRORS: dict[apigw.ResponseType, tuple[str | None, str]] = {
    apigw.ResponseType.UNAUTHORIZED: ("401", "unauthenticated"),
    apigw.ResponseType.ACCESS_DENIED: ("403", "forbidden"),
    apigw.ResponseType.MISSING_AUTHENTICATION_TOKEN: ("404", "route_not_found"),
    apigw.ResponseType.THROTTLED: ("429", "rate_limited"),
    apigw.ResponseType.QUOTA_EXCEEDED: ("429", "rate_limited"),
    apigw.ResponseType.REQUEST_TOO_LARGE: ("413", "payload_too_large"),
    apigw.ResponseType.BAD_REQUEST_PARAMETERS: ("400", "validation_error"),
    apigw.ResponseType.BAD_REQUEST_BODY: ("400", "validation_error"),
    apigw.ResponseType.WAF_FILTERED: ("403", "forbidden"),
    apigw.ResponseType.RESOURCE_NOT_FOUND: ("404", "route_not_found"),
    apigw.ResponseType.UNSUPPORTED_MEDIA_TYPE: ("415", "unsupported_media_type"),
    apigw.ResponseType.INVALID_API_KEY: ("403", "forbidden"),
    apigw.ResponseType.EXPIRED_TOKEN: ("403", "forbidden"),
    apigw.ResponseType.INTEGRATION_TIMEOUT: ("504", "upstream_timeout"),
    apigw.ResponseType.INTEGRATION_FAILURE: ("502", "upstream_failed"),
    apigw.ResponseType.AUTHORIZER_FAILURE: ("500", "authorizer_failed"),
    apigw.ResponseType.AUTHORIZER_CONFIGURATION_ERROR: ("500", "authorizer_failed"),
    apigw.ResponseType.API_CONFIGURATION_ERROR: ("500", "gateway_error"),
    # The catch-alls keep the status API Gateway chose (None): a 4xx or 5xx without a
    # response of its own above is answered with its real code, never flattened.
    apigw.ResponseType.DEFAULT_4_XX: (None, "client_error"),
    apigw.ResponseType.DEFAULT_5_XX: (None, "gateway_error"),
}

ACCESS_LOG_FIELDS = {
    "requestId": "$context.requestId",
    "time": "$context.requestTimeEpoch",
    "ip": "$context.identity.sourceIp",
    "method": "$context.httpMethod",
    "resource": "$context.resourcePath",
    "status": "$context.status",
    "responseLength": "$context.responseLength",
    "latencyMs": "$context.responseLatency",
    "integrationLatencyMs": "$context.integration.latency",
    "principal": "$context.authorizer.principalId",
    "tenant": "$context.authorizer.tenantId",
    "authorizerStatus": "$context.authorizer.status",
    "authorizerLatencyMs": "$context.authorizer.latency",
    "wafStatus": "$context.waf.status",
    "error": "$context.error.responseType",
    "integrationError": "$context.integration.error",
    "xrayTraceId": "$context.xrayTraceId",
}


class Api(Construct):
    def __init__(
        self,
        scope: Construct,
        construct_id: str,
        *,
        config: EngramConfig,
        api_function: lambda_.IFunction,
        mcp_function: lambda_.IFunction,
        authorizer_function: lambda_.IFunction,
    ) -> None:
        super().__init__(scope, construct_id)
        keep = RemovalPolicy.RETAIN if config.is_production else RemovalPolicy.DESTROY
        self.access_logs = logs.LogGroup(self, "AccessLogs", retention=config.log_retention, removal_policy=keep)

        self.rest_api = apigw.RestApi(
            self,
            "RestApi",
            description="Engram: persistent memory for AI agents",
            endpoint_types=[apigw.EndpointType.REGIONAL],
            cloud_watch_role=config.api_gateway_cloud_watch_role,
            deploy_options=apigw.StageOptions(
                stage_name=config.stage,
                tracing_enabled=True,
                metrics_enabled=True,
                # Errors only, and never request or response bodies: they hold memory values.
                logging_level=apigw.MethodLoggingLevel.ERROR,
                data_trace_enabled=False,
                throttling_rate_limit=config.throttle_rate_limit,
                throttling_burst_limit=config.throttle_burst_limit,
                access_log_destination=apigw.LogGroupLogDestination(self.access_logs),
                access_log_format=apigw.AccessLogFormat.custom(json.dumps(ACCESS_LOG_FIELDS)),
            ),
        )
        for response_type, (status, code) in GATEWAY_ERRORS.items():
            self.rest_api.add_gateway_response(
                response_type.response_type,
                type=response_type,
                status_code=status,
                templates={
                    "application/json": (
                        f'{{"code":"{code}","message":$context.error.messageString,'
                        '"details":{"requestId":"$context.requestId"}}'
                    )
                },
            )

        self.authorizer = apigw.TokenAuthorizer(
            self,
            "KeyAuthorizer",
            handler=authorizer_function,
            identity_source=apigw.IdentitySource.header("Authorization"),
            validation_regex=API_KEY_PATTERN,
            results_cache_ttl=Duration.seconds(config.authorizer_cache_seconds),
        )
        params_validator = self.rest_api.add_request_validator(
            "ParametersValidator", validate_request_parameters=True, validate_request_body=False
        )
        body_validator = self.rest_api.add_request_validator(
            "BodyValidator", validate_request_parameters=True, validate_request_body=True
        )

        api = apigw.LambdaIntegration(api_function, proxy=True, allow_test_invoke=False)
        mcp = apigw.LambdaIntegration(mcp_function, proxy=True, allow_test_invoke=False)
        keyed = {
            "authorizer": self.authorizer,
            "authorization_type": apigw.AuthorizationType.CUSTOM,
            "request_parameters": {AUTHORIZATION_HEADER: True},
        }

        # Public: liveness and the API documentation.
        self.public_methods = [
            self.rest_api.root.add_resource("health").add_method(
                "GET", api, authorization_type=apigw.AuthorizationType.NONE, request_validator=params_validator
            ),
            self.rest_api.root.add_resource("docs").add_method(
                "GET", api, authorization_type=apigw.AuthorizationType.NONE, request_validator=params_validator
            ),
        ]
        for method in self.public_methods:
            acknowledge(
                method,
                "APIG4",
                "Liveness (/health) and the OpenAPI documentation (/docs) are public by design; "
                "they return no memory data.",
            )
            acknowledge(
                method,
                "COG4",
                "Public route: no authorizer of any kind, on purpose (liveness and documentation).",
            )

        # Everything under /v1 is the memory API; the resolver in the api function routes it
        # and validates bodies with pydantic, answering with stable error codes.
        proxy = self.rest_api.root.add_resource("v1").add_resource("{proxy+}")
        proxy.add_method("ANY", api, request_validator=params_validator, **keyed)  # type: ignore[arg-type]

        # MCP over streamable HTTP, stateless JSON-RPC: a POSTed body must be a JSON-RPC message.
        jsonrpc = self.rest_api.add_model(
            "JsonRpcMessage",
            content_type="application/json",
            schema=apigw.JsonSchema(
                schema=apigw.JsonSchemaVersion.DRAFT4,
                title="JsonRpcMessage",
                type=apigw.JsonSchemaType.OBJECT,
                required=["jsonrpc"],
                properties={"jsonrpc": apigw.JsonSchema(type=apigw.JsonSchemaType.STRING, enum=["2.0"])},
            ),
        )
        mcp_resource = self.rest_api.root.add_resource("mcp")
        mcp_resource.add_method(
            "POST",
            mcp,
            request_validator=body_validator,
            request_models={"application/json": jsonrpc},
            **keyed,  # type: ignore[arg-type]
        )
        # A stateless server answers GET (no SSE stream) and DELETE (no session) with 405
        # itself, as the MCP transport expects; the gateway would say 404.
        for verb in ("GET", "DELETE"):
            mcp_resource.add_method(verb, mcp, request_validator=params_validator, **keyed)  # type: ignore[arg-type]
        acknowledge(
            self.rest_api,
            "COG4",
            "Agents authenticate with Engram API keys (hashed, per tenant and agent) through the "
            "Lambda authorizer, not with Cognito user pools.",
        )
        if config.api_gateway_cloud_watch_role:
            acknowledge(
                self.rest_api,
                "IAM4[Policy::arn:<AWS::Partition>:iam::aws:policy/service-role/AmazonAPIGatewayPushToCloudWatchLogs]",
                "API Gateway's account-level logging role; AWS's managed policy is the documented way to grant it.",
            )

        self.web_acl = self._waf(config)
        self.url = self.rest_api.url

    def _waf(self, config: EngramConfig) -> wafv2.CfnWebACL:
        too_large = json.dumps(
            {
                "code": "payload_too_large",
                "message": f"The request body exceeds {config.max_body_bytes} bytes.",
                "details": {"maxBodyBytes": config.max_body_bytes},
            }
        )
        # WAF sees a REST API body in 16 KB steps up to 64 KB; inspect enough to see the limit.
        inspect_kb = min(64, -(-config.max_body_bytes // 16384) * 16)
        acl = wafv2.CfnWebACL(
            self,
            "WebAcl",
            scope="REGIONAL",
            default_action=wafv2.CfnWebACL.DefaultActionProperty(allow={}),
            visibility_config=_visibility("engram-api"),
            association_config=wafv2.CfnWebACL.AssociationConfigProperty(
                request_body={
                    "API_GATEWAY": wafv2.CfnWebACL.RequestBodyAssociatedResourceTypeConfigProperty(
                        default_size_inspection_limit=f"KB_{inspect_kb}"
                    )
                }
            ),
            custom_response_bodies={
                "PayloadTooLarge": wafv2.CfnWebACL.CustomResponseBodyProperty(
                    content_type="APPLICATION_JSON", content=too_large
                )
            },
            rules=[
                wafv2.CfnWebACL.RuleProperty(
                    name="BodySizeLimit",
                    priority=0,
                    action=wafv2.CfnWebACL.RuleActionProperty(
                        block=wafv2.CfnWebACL.BlockActionProperty(
                            custom_response=wafv2.CfnWebACL.CustomResponseProperty(
                                response_code=413, custom_response_body_key="PayloadTooLarge"
                            )
                        )
                    ),
                    statement=wafv2.CfnWebACL.StatementProperty(
                        size_constraint_statement=wafv2.CfnWebACL.SizeConstraintStatementProperty(
                            field_to_match=wafv2.CfnWebACL.FieldToMatchProperty(
                                # Bodies past what WAF can see are over the limit by construction.
                                body=wafv2.CfnWebACL.BodyProperty(oversize_handling="MATCH")
                            ),
                            comparison_operator="GT",
                            size=config.max_body_bytes,
                            text_transformations=[wafv2.CfnWebACL.TextTransformationProperty(priority=0, type="NONE")],
                        )
                    ),
                    visibility_config=_visibility("engram-body-size"),
                ),
                wafv2.CfnWebACL.RuleProperty(
                    name="PerIpRateLimit",
                    priority=1,
                    action=wafv2.CfnWebACL.RuleActionProperty(
                        block=wafv2.CfnWebACL.BlockActionProperty(
                            custom_response=wafv2.CfnWebACL.CustomResponseProperty(response_code=429)
                        )
                    ),
                    statement=wafv2.CfnWebACL.StatementProperty(
                        rate_based_statement=wafv2.CfnWebACL.RateBasedStatementProperty(
                            aggregate_key_type="IP", limit=config.waf_ip_rate_limit, evaluation_window_sec=300
                        )
                    ),
                    visibility_config=_visibility("engram-ip-rate"),
                ),
                # Log4Shell-style exploit payloads; the content rule sets are left out on purpose
                # because memory values are free text and would trip their XSS/SQLi patterns.
                wafv2.CfnWebACL.RuleProperty(
                    name="KnownBadInputs",
                    priority=2,
                    override_action=wafv2.CfnWebACL.OverrideActionProperty(none={}),
                    statement=wafv2.CfnWebACL.StatementProperty(
                        managed_rule_group_statement=wafv2.CfnWebACL.ManagedRuleGroupStatementProperty(
                            vendor_name="AWS", name="AWSManagedRulesKnownBadInputsRuleSet"
                        )
                    ),
                    visibility_config=_visibility("engram-known-bad-inputs"),
                ),
            ],
        )
        wafv2.CfnWebACLAssociation(
            self,
            "WebAclAssociation",
            resource_arn=self.rest_api.deployment_stage.stage_arn,
            web_acl_arn=acl.attr_arn,
        )
        return acl


def _visibility(metric: str) -> wafv2.CfnWebACL.VisibilityConfigProperty:
    return wafv2.CfnWebACL.VisibilityConfigProperty(
        cloud_watch_metrics_enabled=True, metric_name=metric, sampled_requests_enabled=False
    )

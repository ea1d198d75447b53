"""Search: the Amazon OpenSearch Service domain holding the k-NN + BM25 index.

Access is IAM only: the domain's resource policy names the functions' roles (and an
optional operator role) per kind of access, and each role's own policy grants the same:
a role that only queries may call the index's search paths and nothing else, a role
that writes documents may call every path. k-NN needs no domain switch on the managed service; the indexer creates the
index with ``index.knn: true``.
"""

from __future__ import annotations

import jsii
from aws_cdk import Names, RemovalPolicy, Stack
from aws_cdk import aws_ec2 as ec2
from aws_cdk import aws_iam as iam
from aws_cdk import aws_kms as kms
from aws_cdk import aws_logs as logs
from aws_cdk import aws_opensearchservice as opensearch
from constructs import Construct, IValidation

from engram_infra.config import EngramConfig
from engram_infra.nag import acknowledge

# What a role that only queries needs: searches are POSTs to _search.
QUERY_ACTIONS = ("es:ESHttpGet", "es:ESHttpHead", "es:ESHttpPost")
# What a role that also writes needs: index creation, bulk indexing, deletes.
WRITE_ACTIONS = (*QUERY_ACTIONS, "es:ESHttpPut", "es:ESHttpDelete", "es:ESHttpPatch")


class Search(Construct):
    def __init__(
        self,
        scope: Construct,
        construct_id: str,
        *,
        config: EngramConfig,
        key: kms.IKey,
    ) -> None:
        super().__init__(scope, construct_id)
        keep = RemovalPolicy.RETAIN if config.is_production else RemovalPolicy.DESTROY
        stack = Stack.of(self)

        log_groups = {
            name: logs.LogGroup(self, f"{name}Logs", retention=config.log_retention, removal_policy=keep)
            for name in ("App", "SlowSearch", "SlowIndex")
        }
        # Our own resource policy instead of the L2's custom resource (a Lambda) that writes one.
        logs_policy = logs.ResourcePolicy(
            self,
            "LogsPolicy",
            policy_statements=[
                iam.PolicyStatement(
                    principals=[iam.ServicePrincipal("es.amazonaws.com")],
                    actions=["logs:CreateLogStream", "logs:PutLogEvents"],
                    resources=[group.log_group_arn for group in log_groups.values()],
                    conditions={"StringEquals": {"aws:SourceAccount": stack.account}},
                )
            ],
        )

        count = config.search_instance_count
        zone_awareness = opensearch.ZoneAwarenessConfig(
            enabled=count > 1, availability_zone_count=(3 if count % 3 == 0 else 2) if count > 1 else None
        )
        # Known before deployment, so the resource policy can name the domain without a cycle.
        self.domain_name = Names.unique_resource_name(self, max_length=28, separator="-").lower()
        self.domain = opensearch.Domain(
            self,
            "Domain",
            domain_name=self.domain_name,
            version=opensearch.EngineVersion.open_search(config.search_engine_version),
            capacity=opensearch.CapacityConfig(
                data_nodes=count,
                data_node_instance_type=config.search_instance_type,
                master_nodes=config.search_master_count or None,
                master_node_instance_type=config.search_master_instance_type if config.search_master_count else None,
                multi_az_with_standby_enabled=False,
            ),
            ebs=opensearch.EbsOptions(
                enabled=True, volume_size=config.search_volume_gb, volume_type=ec2.EbsDeviceVolumeType.GP3
            ),
            zone_awareness=zone_awareness,
            encryption_at_rest=opensearch.EncryptionAtRestOptions(enabled=True, kms_key=key),
            node_to_node_encryption=True,
            enforce_https=True,
            tls_security_policy=opensearch.TLSSecurityPolicy.TLS_1_2,
            logging=opensearch.LoggingOptions(
                app_log_enabled=True,
                app_log_group=log_groups["App"],
                slow_search_log_enabled=True,
                slow_search_log_group=log_groups["SlowSearch"],
                slow_index_log_enabled=True,
                slow_index_log_group=log_groups["SlowIndex"],
            ),
            suppress_logs_resource_policy=True,
            enable_auto_software_update=True,
            off_peak_window_enabled=True,
            removal_policy=keep,
        )
        self.domain.node.add_dependency(logs_policy)
        self.endpoint_url = f"https://{self.domain.domain_endpoint}"

        # The domain's resource policy, one statement per kind of access: roles that only
        # query may call the search paths of Engram's index and nothing else (POST alone
        # would also let them _bulk); roles that write documents get every path. Grants
        # made later land in the statements, which are rendered at synth.
        domain_arn = stack.format_arn(service="es", resource="domain", resource_name=self.domain_name)
        self._query_paths = query_paths(domain_arn, config.opensearch_index)
        self._readers = iam.PolicyStatement(
            sid="QueryingRoles", actions=list(QUERY_ACTIONS), resources=list(self._query_paths)
        )
        self._writers = iam.PolicyStatement(
            sid="IndexingRoles", actions=list(WRITE_ACTIONS), resources=[f"{domain_arn}/*"]
        )
        # A statement goes in with its first principal: one without any fails the deployment.
        self._policy = iam.PolicyDocument()
        self._named: set[str] = set()
        if config.search_operator_role_arn:
            self._name(self._writers, config.search_operator_role_arn)
        self.node.add_validation(_NamesSomeone(self._readers, self._writers))
        cfn_domain = self.domain.node.default_child
        assert isinstance(cfn_domain, opensearch.CfnDomain)
        cfn_domain.access_policies = self._policy
        self._cfn_domain = cfn_domain

        acknowledge(
            self.domain,
            "OS1",
            "The functions run outside a VPC (no NAT gateway to pay for); the domain answers only "
            "SigV4-signed requests from the roles its resource policy names.",
        )
        acknowledge(
            self.domain,
            "OS3",
            "Access is restricted by IAM principal (the functions' roles), not by IP: Lambda has no fixed IPs.",
        )
        if not config.search_master_count:
            acknowledge(
                self.domain,
                "OS4",
                "Dedicated master nodes triple the fixed cost of a small deployment; set "
                "searchMasterCount=3 for production clusters of three or more data nodes.",
            )
        if count < 2:
            acknowledge(
                self.domain,
                "OS7",
                "A single data node cannot span zones; set searchInstanceCount>=2 and zone awareness "
                "turns on. The index can be rebuilt from the table, the source of truth.",
            )

    def grant_query(self, grantee: iam.IGrantable) -> iam.Grant:
        """Search the index: the search paths only, so no document can be written."""
        self._name(self._readers, self._role_arn(grantee))
        return iam.Grant.add_to_principal(
            grantee=grantee, actions=list(QUERY_ACTIONS), resource_arns=list(self._query_paths)
        )

    def grant_write(self, grantee: iam.IGrantable) -> iam.Grant:
        """Query, and create, index and delete documents."""
        self._name(self._writers, self._role_arn(grantee))
        grant = iam.Grant.add_to_principal(
            grantee=grantee,
            actions=list(WRITE_ACTIONS),
            resource_arns=[self.domain.domain_arn, f"{self.domain.domain_arn}/*"],
        )
        acknowledge(
            grantee.grant_principal,  # type: ignore[arg-type]  # a role, checked above
            f"IAM5[Resource::<{Stack.of(self).get_logical_id(self._cfn_domain)}.Arn>/*]",
            "The paths below the domain are its indices and APIs (_bulk, _search); the domain "
            "serves Engram alone, and the HTTP verbs are the restriction that matters.",
        )
        return grant

    def _name(self, statement: iam.PolicyStatement, role_arn: str) -> None:
        if statement.sid not in self._named:
            self._named.add(str(statement.sid))
            self._policy.add_statements(statement)
        statement.add_arn_principal(role_arn)

    @staticmethod
    def _role_arn(grantee: iam.IGrantable) -> str:
        role_arn = getattr(grantee.grant_principal, "role_arn", None)
        if role_arn is None:
            raise TypeError("Only roles can be named in the domain's resource policy.")
        return str(role_arn)


def query_paths(domain_arn: str, index: str) -> tuple[str, ...]:
    """What the adapter's searches call: ``_msearch`` (at the root, the index named in the
    body) and the index's ``_search``, and nothing that writes."""
    return (f"{domain_arn}/_msearch", f"{domain_arn}/{index}/_search", f"{domain_arn}/{index}/_msearch")


@jsii.implements(IValidation)
class _NamesSomeone:
    """A resource policy without a principal fails at deploy time; fail the synth instead."""

    def __init__(self, *statements: iam.PolicyStatement) -> None:
        self._statements = statements

    def validate(self) -> list[str]:
        if any(s.has_principal for s in self._statements):
            return []
        return [
            "No role may call the search domain: grant one with grant_query/grant_write, or set searchOperatorRoleArn."
        ]

"""Schedule: the EventBridge rule that starts a dream run (the planner fans users out to SQS)."""

from __future__ import annotations

from aws_cdk import Duration
from aws_cdk import aws_events as events
from aws_cdk import aws_events_targets as targets
from aws_cdk import aws_lambda as lambda_
from aws_cdk import aws_sqs as sqs
from constructs import Construct

from engram_infra.config import EngramConfig


class DreamSchedule(Construct):
    def __init__(
        self,
        scope: Construct,
        construct_id: str,
        *,
        config: EngramConfig,
        planner: lambda_.IFunction,
        dead_letter_queue: sqs.IQueue,
    ) -> None:
        super().__init__(scope, construct_id)
        self.rule = events.Rule(
            self,
            "Rule",
            description="Engram: start the nightly dream run",
            schedule=events.Schedule.expression(config.dream_schedule),
            targets=[
                targets.LambdaFunction(
                    planner,
                    # The planner is idempotent per run (the event id), so retrying is safe;
                    # a tick that still fails lands in the queue and the alarm fires.
                    retry_attempts=2,
                    max_event_age=Duration.hours(2),
                    dead_letter_queue=dead_letter_queue,
                )
            ],
        )

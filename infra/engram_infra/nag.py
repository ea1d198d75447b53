"""cdk-nag acknowledgments, recorded next to the resource they are about, each with its reason."""

from __future__ import annotations

from aws_cdk import Acknowledgment, Validations
from constructs import IConstruct

PACK = "AwsSolutions"


def acknowledge(scope: IConstruct, rule: str, reason: str) -> None:
    """Acknowledge ``rule`` (e.g. ``IAM5[Resource::*]``) on ``scope`` and everything below it."""
    if len(reason) < 40:
        raise ValueError(f"An acknowledgment of {rule} needs a real reason, not {reason!r}.")
    Validations.of(scope).acknowledge(Acknowledgment(id=f"{PACK}::{PACK}-{rule}", reason=reason))

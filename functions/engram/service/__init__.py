"""Use cases, composed from ports. No boto3, no SQL, no HTTP here."""

"""Pure domain: entities, policies and rules. No I/O, no clock, no environment."""

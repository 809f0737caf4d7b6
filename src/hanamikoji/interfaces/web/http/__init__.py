"""HTTP plumbing shared by every feature: refusals, guards, connections, health, headers."""

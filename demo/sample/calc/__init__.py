"""A tiny calculator package used by the agent-evidence demo."""

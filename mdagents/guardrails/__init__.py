"""Patient-safety guardrails: input triage, output checks (regex, llm, hybrid), messages, the `ask` assistant."""

"""The three MDAgents pipelines (basic, intermediate, advanced) and the difficulty router."""

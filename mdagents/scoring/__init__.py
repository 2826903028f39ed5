"""Grading by contract: the option a reply committed to, or the named reason it committed to none."""

from mdagents.scoring.reading import (
    GRADER_VERSION,
    REASONS,
    Grade,
    Reading,
    grade,
    grade_reading,
    read_answer,
)

__all__ = ["GRADER_VERSION", "REASONS", "Grade", "Reading", "grade", "grade_reading", "read_answer"]

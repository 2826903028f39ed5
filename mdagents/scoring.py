"""Answer extraction and grading (being written: see issue 2)."""

"""Batch mode: calls queued and sent through the providers' batch APIs at half the live price.

The `LLM` client above still does caching, accounting and retries; a `BatchProvider` stands in
for the live provider and hands each call to a `BatchScheduler`, which gathers the queued calls
of every question in flight into one batch per model (a wave), submits it, polls it, and wakes
each call with its reply.
"""

"""Loopback batch APIs, driven through the real SDKs: OpenAI's Files + Batches, Anthropic's Message
Batches, Gemini's batch mode with inline requests.

    with FakeBatchServer(responder, turnaround=0.2) as server:              # OpenAI wire
    with FakeBatchServer(responder, wire="anthropic", turnaround=0.2) as server:
        ...  # batches created here complete 0.2 s after they were created

A batch's requests are answered (by the same responder and usage rules as live calls) when a
poll finds its turnaround has passed. `server.submitted_ids` lists every custom_id of every
batch in order, so a test can see that nothing was submitted twice. `expire_next`,
`fail_in_batch` and `hold_after` give the faults and delays a real batch can have.
"""

from __future__ import annotations

import datetime as dt
import json
import threading
import time
from collections import deque
from typing import Any

from tests.fakes.servers import FakeServer, Responder, Wire, _NoRoute

# How one request of a batch ended: answered (the reply body), failed (an HTTP status), or never run.
_Outcome = tuple[str, Any]


class FakeBatchServer(FakeServer):
    def __init__(self, responder: Responder | None = None, *, wire: Wire = "openai", turnaround: float = 0.0,
                 latency: float = 0.0) -> None:
        if wire not in ("openai", "anthropic", "gemini"):
            raise ValueError(f"no fake batch API for {wire!r}")
        super().__init__(wire, responder, latency=latency)
        self.turnaround = turnaround
        self.files: dict[str, bytes] = {}
        self.batches: dict[str, dict[str, Any]] = {}
        self.submitted_ids: list[str] = []
        self.hold_after: int | None = None  # batches created after this many stay in progress (see finish_all)
        self._inputs: dict[str, list[tuple[str, dict[str, Any]]]] = {}  # batch id -> (custom_id, request body)
        self._expire: deque[int] = deque()
        self._failures: deque[int] = deque()
        self._gemini_model = ""
        self.processing_s = 0.0  # the fake's own time answering batch requests (not the harness's)
        self._batch_lock = threading.RLock()

    # -- test controls -------------------------------------------------------------------

    def expire_next(self, done: int = 0) -> None:
        """The next batch created expires after answering only its first `done` requests."""
        with self._batch_lock:
            self._expire.append(done)

    def fail_in_batch(self, status: int = 500, *, times: int = 1) -> None:
        """The next `times` requests run inside batches come back with HTTP `status`."""
        with self._batch_lock:
            self._failures.extend([status] * times)

    def finish_all(self) -> None:
        """Let every batch out (held ones too) complete at its next poll, whatever its turnaround."""
        with self._batch_lock:
            self.hold_after = None
            for batch in self.batches.values():
                batch["_held"] = False

    # -- routes ---------------------------------------------------------------------------

    def _route(self, path: str, body: dict[str, Any]) -> dict[str, Any] | bytes:
        path = path.split("?", 1)[0]
        parts = path.strip("/").split("/")
        get = body.get("_method") == "GET"
        with self._batch_lock:
            if self.wire == "openai":
                if path == "/v1/files" and "_raw" in body:
                    return self._upload(body["_raw"])
                if parts[:2] == ["v1", "files"] and parts[3:] == ["content"]:
                    return self.files[parts[2]]
                if path == "/v1/batches" and not get:
                    lines = [json.loads(line) for line in self.files[body["input_file_id"]].decode().splitlines()
                             if line]
                    return self._create([(str(line["custom_id"]), line["body"]) for line in lines], body)
                if parts[:2] == ["v1", "batches"] and len(parts) >= 3:
                    return self._batch_route(parts[2], parts[3:])
            elif self.wire == "gemini":
                if path.endswith(":batchGenerateContent"):
                    model = path.rsplit("/", 1)[-1].split(":", 1)[0]
                    items = body["batch"]["inputConfig"]["requests"]["requests"]
                    self._gemini_model = model
                    return self._create([(str(i["metadata"]["key"]), i["request"]) for i in items], body)
                if parts[0] in ("v1", "v1beta") and parts[1:2] == ["batches"] and len(parts) == 3:
                    name, _, action = parts[2].partition(":")
                    return self._batch_route(f"batches/{name}", [action] if action else [])
            else:
                if path == "/v1/messages/batches" and not get:
                    return self._create([(str(r["custom_id"]), r["params"]) for r in body["requests"]], body)
                if parts[:3] == ["v1", "messages", "batches"] and len(parts) >= 4:
                    return self._batch_route(parts[3], parts[4:])
        return super()._route(path, body)

    def _batch_route(self, batch_id: str, rest: list[str]) -> dict[str, Any] | bytes:
        if batch_id not in self.batches:
            raise _NoRoute(batch_id)  # 404, as for a batch the provider no longer holds
        batch = self.batches[batch_id]
        if rest == ["cancel"]:
            if batch["status"] == "in_progress":
                self._finish(batch, "cancelled", answered=0)
        elif rest == ["results"]:
            return batch["_results"]
        elif batch["status"] == "in_progress" and not batch["_held"] and \
                time.time() - batch["_created"] >= self.turnaround:
            limit = batch["_expire_after"]
            self._finish(batch, "completed" if limit is None else "expired",
                         answered=len(self._inputs[batch_id]) if limit is None else limit)
        return self._public(batch)

    def _upload(self, raw: str) -> dict[str, Any]:
        """The `file` part of a multipart upload, stored as a file."""
        boundary = raw.split("\r\n", 1)[0]
        content = next(part for part in raw.split(boundary) if 'name="file"' in part)
        data = content.split("\r\n\r\n", 1)[1].removesuffix("\r\n").encode()
        file_id = self._store(data)
        return {"id": file_id, "object": "file", "bytes": len(data), "created_at": int(time.time()),
                "filename": "requests.jsonl", "purpose": "batch", "status": "processed"}

    def _store(self, data: bytes) -> str:
        file_id = f"file-{len(self.files) + 1}"
        self.files[file_id] = data
        return file_id

    def _create(self, requests: list[tuple[str, dict[str, Any]]], body: dict[str, Any]) -> dict[str, Any]:
        ids = [cid for cid, _ in requests]
        if len(set(ids)) != len(ids):
            raise ValueError("duplicate custom_id in one batch")
        prefix = {"openai": "batch_", "anthropic": "msgbatch_", "gemini": "batches/"}[self.wire]
        batch_id = f"{prefix}fake{len(self.batches) + 1}"
        self.submitted_ids.extend(ids)
        self._inputs[batch_id] = requests
        self.batches[batch_id] = {
            "id": batch_id, "status": "in_progress", "endpoint": body.get("endpoint"),
            "input_file_id": body.get("input_file_id"), "metadata": body.get("metadata"),
            "request_counts": {"total": len(ids), "completed": 0, "failed": 0},
            "_created": time.time(), "_results": b"",
            "_expire_after": self._expire.popleft() if self._expire else None,
            "_held": self.hold_after is not None and len(self.batches) >= self.hold_after,
        }
        return self._public(self.batches[batch_id])

    def _finish(self, batch: dict[str, Any], status: str, *, answered: int) -> None:
        """Answer the first `answered` requests; the rest were never run (the batch expired or was cancelled)."""
        started = time.perf_counter()
        outcomes: list[tuple[str, _Outcome]] = []
        for i, (cid, body) in enumerate(self._inputs[batch["id"]]):
            if i >= answered:
                outcomes.append((cid, ("not_run", status)))
            elif self._failures:
                outcomes.append((cid, ("failed", self._failures.popleft())))
            elif self.wire == "openai":
                outcomes.append((cid, ("ok", self._openai_chat(body))))
            elif self.wire == "gemini":
                outcomes.append((cid, ("ok", self._gemini_generate(self._gemini_model, body))))
            else:
                outcomes.append((cid, ("ok", self._anthropic_messages(body))))
        self.processing_s += time.perf_counter() - started
        batch["status"] = status
        ok = sum(kind == "ok" for _, (kind, _) in outcomes)
        batch["request_counts"] = {"total": len(outcomes), "completed": ok, "failed": len(outcomes) - ok}
        if self.wire == "openai":
            self._openai_files(batch, outcomes)
        elif self.wire == "gemini":
            batch["_inlined"] = [self._gemini_item(cid, o) for cid, o in outcomes if o[0] != "not_run"]
        else:
            batch["_results"] = "".join(json.dumps(self._anthropic_line(cid, o)) + "\n" for cid, o in outcomes).encode()
            batch["_counts"] = {
                "processing": 0, "succeeded": ok,
                "errored": sum(kind == "failed" for _, (kind, _) in outcomes),
                "canceled": sum(kind == "not_run" for _, (kind, _) in outcomes) if status == "cancelled" else 0,
                "expired": sum(kind == "not_run" for _, (kind, _) in outcomes) if status == "expired" else 0}

    # -- wire formats ---------------------------------------------------------------------

    def _openai_files(self, batch: dict[str, Any], outcomes: list[tuple[str, _Outcome]]) -> None:
        output: list[str] = []
        errors: list[str] = []
        for i, (cid, (kind, value)) in enumerate(outcomes):
            line: dict[str, Any] = {"id": f"req_{i}", "custom_id": cid, "error": None, "response": None}
            if kind == "ok":
                line["response"] = {"status_code": 200, "request_id": f"r{i}", "body": value}
            elif kind == "failed":
                line["response"] = {"status_code": value, "request_id": f"r{i}", "body": self._error_body(value)}
            else:
                line["error"] = {"code": f"batch_{value}", "message": f"This request was not executed: batch {value}."}
            (output if kind == "ok" else errors).append(json.dumps(line))
        for kind, lines in (("output_file_id", output), ("error_file_id", errors)):
            if lines:
                batch[kind] = self._store(("\n".join(lines) + "\n").encode())

    def _anthropic_line(self, cid: str, outcome: _Outcome) -> dict[str, Any]:
        kind, value = outcome
        if kind == "ok":
            return {"custom_id": cid, "result": {"type": "succeeded", "message": value}}
        if kind == "failed":
            return {"custom_id": cid, "result": {"type": "errored", "error": self._error_body(value)}}
        return {"custom_id": cid, "result": {"type": "canceled" if value == "cancelled" else "expired"}}

    def _gemini_item(self, cid: str, outcome: _Outcome) -> dict[str, Any]:
        kind, value = outcome
        if kind == "ok":
            return {"response": value, "metadata": {"key": cid}}
        return {"error": {"code": value, "message": f"fake server error {value}"}, "metadata": {"key": cid}}

    def _public(self, batch: dict[str, Any]) -> dict[str, Any]:
        created = batch["_created"]
        if self.wire == "gemini":
            state = {"in_progress": "BATCH_STATE_RUNNING", "completed": "BATCH_STATE_SUCCEEDED",
                     "expired": "BATCH_STATE_EXPIRED", "cancelled": "BATCH_STATE_CANCELLED"}[batch["status"]]
            metadata: dict[str, Any] = {"@type": "type.googleapis.com/google.ai.generativelanguage.v1main."
                                                 "GenerateContentBatch", "name": batch["id"], "state": state,
                                        "model": f"models/{self._gemini_model}", "displayName": "fake"}
            if "_inlined" in batch:
                metadata["output"] = {"inlinedResponses": {"inlinedResponses": batch["_inlined"]}}
            return {"name": batch["id"], "metadata": metadata, "done": batch["status"] != "in_progress"}
        if self.wire == "openai":
            return {"object": "batch", "completion_window": "24h", "created_at": int(created), "errors": None,
                    "output_file_id": batch.get("output_file_id"), "error_file_id": batch.get("error_file_id"),
                    **{k: v for k, v in batch.items() if not k.startswith("_")}}
        iso = dt.datetime.fromtimestamp(created, dt.UTC).isoformat()
        ended = batch["status"] != "in_progress"
        counts = batch.get("_counts") or {"processing": batch["request_counts"]["total"], "succeeded": 0,
                                          "errored": 0, "canceled": 0, "expired": 0}
        return {"id": batch["id"], "type": "message_batch", "processing_status": "ended" if ended else "in_progress",
                "request_counts": counts, "created_at": iso, "expires_at": iso, "archived_at": None,
                "cancel_initiated_at": None, "ended_at": iso if ended else None,
                "results_url": f"{self.base_url}/v1/messages/batches/{batch['id']}/results" if ended else None}

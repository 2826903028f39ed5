"""A loopback OpenAI server with the Files and Batches endpoints, driven through the real SDK.

    with FakeBatchServer(responder, turnaround=0.2) as server:
        ...  # batches created here complete 0.2 s after they were created

A batch's requests are answered (by the same responder and usage rules as live chat calls)
when a poll finds its turnaround has passed. `server.submitted_ids` lists every custom_id of
every batch in order, so a test can see that nothing was submitted twice. `expire_next` and
`fail_in_batch` inject the faults a real batch can have.
"""

from __future__ import annotations

import json
import threading
import time
from collections import deque
from typing import Any

from tests.fakes.servers import FakeServer, Responder


class FakeBatchServer(FakeServer):
    def __init__(self, responder: Responder | None = None, *, turnaround: float = 0.0, latency: float = 0.0) -> None:
        super().__init__("openai", responder, latency=latency)
        self.turnaround = turnaround
        self.files: dict[str, bytes] = {}
        self.batches: dict[str, dict[str, Any]] = {}
        self.submitted_ids: list[str] = []
        self._inputs: dict[str, list[dict[str, Any]]] = {}
        self._expire: deque[int] = deque()
        self._failures: deque[int] = deque()
        self.hold_after: int | None = None  # batches created after this many stay in progress (see finish_all)
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
                batch["created_at"] = 0

    # -- routes ---------------------------------------------------------------------------

    def _route(self, path: str, body: dict[str, Any]) -> dict[str, Any] | bytes:
        path = path.split("?", 1)[0]
        parts = path.strip("/").split("/")
        with self._batch_lock:
            if path == "/v1/files" and "_raw" in body:
                return self._upload(body["_raw"])
            if parts[:2] == ["v1", "files"] and len(parts) == 4 and parts[3] == "content":
                return self.files[parts[2]]
            if path == "/v1/batches" and body.get("_method") != "GET":
                return self._create(body)
            if parts[:2] == ["v1", "batches"] and len(parts) == 3:
                return self._advance(self.batches[parts[2]])
            if parts[:2] == ["v1", "batches"] and len(parts) == 4 and parts[3] == "cancel":
                batch = self.batches[parts[2]]
                if batch["status"] == "in_progress":
                    self._finish(batch, "cancelled", answered=0)
                return batch
        return super()._route(path, body)

    def _upload(self, raw: str) -> dict[str, Any]:
        """The `file` part of a multipart upload, stored as a file."""
        boundary = raw.split("\r\n", 1)[0]
        content = next(part for part in raw.split(boundary) if 'name="file"' in part)
        data = content.split("\r\n\r\n", 1)[1].removesuffix("\r\n").encode()
        file_id = f"file-{len(self.files) + 1}"
        self.files[file_id] = data
        return {"id": file_id, "object": "file", "bytes": len(data), "created_at": int(time.time()),
                "filename": "requests.jsonl", "purpose": "batch", "status": "processed"}

    def _create(self, body: dict[str, Any]) -> dict[str, Any]:
        lines = [json.loads(line) for line in self.files[body["input_file_id"]].decode().splitlines() if line]
        ids = [str(line["custom_id"]) for line in lines]
        if len(set(ids)) != len(ids):
            raise ValueError("duplicate custom_id in one batch")
        batch_id = f"batch_fake{len(self.batches) + 1}"
        self.submitted_ids.extend(ids)
        self._inputs[batch_id] = lines
        batch = self.batches[batch_id] = {
            "id": batch_id, "object": "batch", "endpoint": body["endpoint"], "errors": None,
            "input_file_id": body["input_file_id"], "completion_window": body["completion_window"],
            "status": "in_progress", "output_file_id": None, "error_file_id": None,
            "created_at": time.time(), "in_progress_at": int(time.time()), "metadata": body.get("metadata"),
            "request_counts": {"total": len(lines), "completed": 0, "failed": 0},
            "_expire_after": self._expire.popleft() if self._expire else None,
            "_held": self.hold_after is not None and len(self.batches) >= self.hold_after,
        }
        return self._public(batch)

    def _advance(self, batch: dict[str, Any]) -> dict[str, Any]:
        if batch["status"] == "in_progress" and not batch["_held"] and time.time() - batch["created_at"] >= self.turnaround:
            limit = batch["_expire_after"]
            self._finish(batch, "completed" if limit is None else "expired",
                         answered=len(self._inputs[batch["id"]]) if limit is None else limit)
        return self._public(batch)

    def _finish(self, batch: dict[str, Any], status: str, *, answered: int) -> None:
        """Answer the first `answered` requests; the rest end as `batch_<status>` errors."""
        output: list[str] = []
        errors: list[str] = []
        for i, line in enumerate(self._inputs[batch["id"]]):
            cid = line["custom_id"]
            if i >= answered:
                errors.append(json.dumps({"id": f"req_{i}", "custom_id": cid, "response": None,
                                          "error": {"code": f"batch_{status}",
                                                    "message": f"This request was not executed: batch {status}."}}))
            elif self._failures:
                code = self._failures.popleft()
                errors.append(json.dumps({"id": f"req_{i}", "custom_id": cid, "error": None, "response": {
                    "status_code": code, "request_id": f"r{i}", "body": self._error_body(code)}}))
            else:
                reply = self._openai_chat(line["body"])
                output.append(json.dumps({"id": f"req_{i}", "custom_id": cid, "error": None, "response": {
                    "status_code": 200, "request_id": f"r{i}", "body": reply}}))
        for kind, lines in (("output_file_id", output), ("error_file_id", errors)):
            if lines:
                file_id = f"file-{len(self.files) + 1}"
                self.files[file_id] = ("\n".join(lines) + "\n").encode()
                batch[kind] = file_id
        batch["status"] = status
        batch["request_counts"] = {"total": len(self._inputs[batch["id"]]), "completed": len(output),
                                   "failed": len(errors)}

    @staticmethod
    def _public(batch: dict[str, Any]) -> dict[str, Any]:
        return {k: (int(v) if k == "created_at" else v) for k, v in batch.items() if not k.startswith("_")}

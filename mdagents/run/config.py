"""RunConfig: every setting of a run, from flags and .env, validated into clear errors."""

from __future__ import annotations

import math
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

from mdagents.errors import ConfigError
from mdagents.llm.endpoint import endpoint_source
from mdagents.llm.models import ModelSpec, parse_model, split_urls
from mdagents.pipelines.base import LEVELS, PipelineSettings
from mdagents.redact import redact_url

DIFFICULTIES = ("adaptive", *LEVELS)
TRANSCRIPT_FORMATS = ("json", "gzip", "none")  # --transcripts
# --batch: questions in flight unless --concurrency says otherwise (all of a run's questions share each wave).
BATCH_CONCURRENCY = 5000

# Upper bounds of the numeric flags: a value past them is a typo or a unit mistake, refused before any
# work starts (a run of 10^20 repeats would never end, and every value here sizes memory or processes).
MAX_REPEATS = 1000
MAX_CONCURRENCY = 10_000  # --batch runs 5000 questions at once by default
MAX_CONNECTIONS = 4096
MAX_RETRIES = 50
MAX_TOKENS = 1_000_000
MAX_AGENTS = 50  # experts, teams, team members
MAX_ROUNDS = 100  # debate rounds and turns, critic attempts
MAX_EXEMPLARS = 100
MAX_RAG_K = 100
MAX_TIMEOUT_S = 86_400.0


def allowed(low: float, high: float | None) -> str:
    """`allowed: 1 to 1000` (or `at least 1`) for a flag's range in an error."""
    def shown(x: float) -> str:
        return f"{x:g}" if isinstance(x, float) else str(x)

    return f"allowed: at least {shown(low)}" if high is None else f"allowed: {shown(low)} to {shown(high)}"


def load_dotenv_file(path: str | Path | None = None) -> None:
    """Load keys from .env (never overriding variables already set in the environment)."""
    from dotenv import load_dotenv

    load_dotenv(dotenv_path=path or Path.cwd() / ".env", override=False)


@dataclass(frozen=True)
class Shard:
    index: int  # 1-based
    count: int

    @classmethod
    def parse(cls, text: str) -> Shard:
        try:
            i, n = (int(p) for p in text.split("/"))
        except ValueError:
            raise ConfigError(f"--shard takes i/n, e.g. 1/4; got {text!r}") from None
        if n < 1 or not 1 <= i <= n:
            raise ConfigError(f"--shard {text}: need 1 <= i <= n")
        return cls(i, n)

    def owns(self, position: int) -> bool:
        """Deterministic slice: the question at 0-based dataset position p belongs to shard (p % n) + 1."""
        return position % self.count == self.index - 1

    def __str__(self) -> str:
        return f"{self.index}-of-{self.count}"


@dataclass
class RunConfig:
    dataset: str = "medqa"
    split: str = "test"
    data_dir: str = "data"
    num_samples: int | None = 100
    model: str | None = None
    base_url: str | None = None
    difficulty: str = "adaptive"
    seed: int = 0
    shuffle: bool = True
    output_dir: str = "output"
    fresh: bool = False
    retry_failed: bool = False
    use_cache: bool = True
    cache_path: str | None = None
    concurrency: int = 8
    max_connections: int | None = None  # None: in_flight_cap() sizes it from --concurrency
    timeout: float | None = None
    max_retries: int = 4
    max_tokens: int | None = None  # cap on each reply (None: the provider's default)
    max_cost: float | None = None
    price_file: str | None = None
    price_in: float | None = None  # USD per million input tokens of --model (with price_out)
    price_out: float | None = None
    dry_run: bool = False
    shard: Shard | None = None
    verbose: bool = False
    settings: PipelineSettings = field(default_factory=PipelineSettings)
    rag: bool = False
    rag_k: int = 5
    db_url: str | None = None
    critic: bool = False
    critic_model: str | None = None
    critic_attempts: int = 2
    critic_abstain: bool = False
    transcripts: str = "json"
    repeats: int = 1
    wait: bool = False  # wait for another process that holds the run directory, instead of exit 2
    new_run: bool = False  # a separate run directory when the existing one holds another configuration
    extractor: str | None = None  # None, "llm" (the run's model) or "llm:provider/model"
    method: str = "mdagents"  # --method: the adaptive levels, a baseline (mdagents/methods/) or a plugin
    prompts_dir: str | None = None  # --prompts-dir: templates that override the shipped ones by name
    batch: bool = False  # calls go through the providers' batch APIs, in waves, at the batch price
    batch_poll: float = 5.0  # seconds before the first poll of a batch (then backing off)

    model_args: dict[str, Any] = field(default_factory=dict)  # -M/--model-args, for --model's calls

    def in_flight_cap(self) -> int:
        """Requests in flight per provider endpoint: --max-connections, or by default enough for every
        question in flight to make its widest stage of calls at once (all experts' opinions, all teams'
        members), so the cap never slows a debate down before the provider itself asks for less (a 429)."""
        if self.max_connections is not None:
            return self.max_connections
        widest = max(self.settings.num_experts, self.settings.num_teams * self.settings.team_size)
        return self.concurrency * widest

    @property
    def model_spec(self) -> ModelSpec:
        return parse_model(self.model, self.base_url)

    def validate(self) -> RunConfig:
        if self.difficulty not in DIFFICULTIES:
            raise ConfigError(f"--difficulty must be one of {', '.join(DIFFICULTIES)}; got {self.difficulty!r}")
        ranges = {  # flag: (value, lowest, highest); the highest bounds what one machine can run, not taste
            "--num_samples": (self.num_samples, 1, None),
            "--seed": (self.seed, -(2**63), 2**63 - 1),  # providers take a 64-bit seed
            "--concurrency": (self.concurrency, 1, MAX_CONCURRENCY),
            "--max-connections": (self.max_connections, 1, MAX_CONNECTIONS),
            "--max-retries": (self.max_retries, 0, MAX_RETRIES),
            "--max-tokens": (self.max_tokens, 16, MAX_TOKENS),
            "--num-experts": (self.settings.num_experts, 2, MAX_AGENTS),
            "--rounds": (self.settings.rounds, 1, MAX_ROUNDS),
            "--turns": (self.settings.turns, 1, MAX_ROUNDS),
            "--num-teams": (self.settings.num_teams, 2, MAX_AGENTS),
            "--team-size": (self.settings.team_size, 1, MAX_AGENTS),
            "--num-exemplars": (self.settings.num_exemplars, 0, MAX_EXEMPLARS),
            "--critic-attempts": (self.critic_attempts, 1, MAX_ROUNDS),
            "--rag-k": (self.rag_k, 1, MAX_RAG_K),
            "--repeats": (self.repeats, 1, MAX_REPEATS),
        }
        bad = [f"{name} {value} ({allowed(low, high)})" for name, (value, low, high) in ranges.items()
               if value is not None and not (low <= value and (high is None or value <= high))]
        if bad:
            raise ConfigError(f"invalid value for {'; '.join(bad)}")
        for flag, value in (("--timeout", self.timeout), ("--max-cost", self.max_cost)):
            if value is not None and not (math.isfinite(value) and value > 0):
                raise ConfigError(f"{flag} must be a finite positive number; got {value}")
        if self.timeout is not None and self.timeout > MAX_TIMEOUT_S:
            raise ConfigError(f"--timeout {self.timeout:g} is over a day ({allowed(0, MAX_TIMEOUT_S)} seconds)")
        if self.base_url is not None:
            for url in split_urls(self.base_url):
                check_url(url, "--base-url")
        spec = self.model_spec
        if spec.base_url is not None and spec.base_url != self.base_url:
            for url in split_urls(spec.base_url):
                check_url(url, endpoint_source(spec.provider, self.base_url))
        if self.extractor is not None and self.extractor != "llm" and not self.extractor.startswith("llm:"):
            raise ConfigError(f"--extractor must be llm or llm:provider/model; got {self.extractor!r}")
        if self.extractor and self.extractor.startswith("llm:"):
            parse_model(self.extractor.removeprefix("llm:"), self.base_url)
        if not (math.isfinite(self.batch_poll) and self.batch_poll > 0):
            raise ConfigError(f"--batch-poll must be a positive number of seconds; got {self.batch_poll}")
        if not 0.0 <= self.settings.temperature <= 2.0:
            raise ConfigError("--temperature must be between 0 and 2")
        self._validate_method()
        if self.fresh and self.retry_failed:
            raise ConfigError("--fresh and --retry-failed contradict each other")
        from mdagents.llm.prices import resolve_price

        # Raises ConfigError for an unknown model name, a half-given price or an unreadable price file.
        resolve_price(self.model_spec, price_file=self.price_file, price_in=self.price_in, price_out=self.price_out)
        return self

    def _validate_method(self) -> None:
        """Canonical --method name (defaults filled in); the options that only the default method has."""
        from mdagents.methods import DEFAULT_METHOD, resolve
        from mdagents.prompts import override_hashes

        method = resolve(self.method)
        self.method = method.name
        if method.name != DEFAULT_METHOD:
            if self.difficulty != "adaptive":
                raise ConfigError(f"--difficulty chooses a level of the mdagents method; --method {self.method} "
                                  "has no levels")
            if self.settings.answer_format != "text":
                raise ConfigError(f"--answer-format json asks the mdagents method's final decisions for a structured "
                                  f"answer; --method {self.method} answers in text")
            if (self.rag or self.critic) and not method.one_final_call:
                raise ConfigError(f"--rag and --critic wrap a method's single final call; --method {self.method} "
                                  "decides by a vote (use mdagents, zero-shot, few-shot, cot or medagents)")
        if self.prompts_dir is not None:
            override_hashes(self.prompts_dir)

    @property
    def run_label(self) -> str:
        """The method part of the run name: the difficulty mode of the default method, else the method."""
        from mdagents.methods import DEFAULT_METHOD, slug

        return self.difficulty if self.method == DEFAULT_METHOD else slug(self.method)

    def check_batch(self) -> None:
        """--batch needs models whose provider has a batch API (checked once the whole configuration is known)."""
        if not self.batch:
            return
        from mdagents.llm.batch.provider import BATCH_PROVIDERS

        models = [self.model_spec, *(parse_model(m, self.base_url) for m in (self.critic_model,) if m)]
        if self.extractor_model:
            models.append(parse_model(self.extractor_model, self.base_url))
        for spec in models:
            if spec.provider not in BATCH_PROVIDERS:
                raise ConfigError(f"--batch works with {', '.join(p + '/...' for p in BATCH_PROVIDERS)} models; "
                                  f"{spec.name} has no batch API (run it without --batch)")

    @property
    def extractor_model(self) -> str | None:
        """The model of the LLM extraction step, when it is on."""
        if self.extractor is None:
            return None
        return self.extractor.removeprefix("llm:") if self.extractor.startswith("llm:") else self.model_spec.name

    def to_dict(self) -> dict[str, Any]:
        data = asdict(self)
        data["shard"] = str(self.shard) if self.shard else None
        spec = self.model_spec
        data["model"] = spec.name
        data["base_url"] = redact_url(spec.base_url)  # the effective endpoint, credentials hidden
        if not data["model_args"]:
            del data["model_args"]  # none given: as runs before model arguments existed (same fingerprint)
        return data


def check_url(url: str, flag: str) -> None:
    """An http(s) URL with a host, or a ConfigError naming the flag."""
    parts = urlsplit(url)
    if parts.scheme not in ("http", "https") or not parts.hostname:
        raise ConfigError(f"{flag} must be an http:// or https:// URL with a host, e.g. http://localhost:8000/v1; "
                          f"got {url!r}")
    try:
        parts.port  # noqa: B018 - raises ValueError for a port that is not a number
    except ValueError:
        raise ConfigError(f"{flag} has an invalid port: {url!r}") from None


def cache_path_for(config: RunConfig) -> Path | None:
    if not config.use_cache:
        return None
    if config.cache_path:
        return Path(config.cache_path)
    from mdagents.paths import cache_dir

    return cache_dir() / "responses.sqlite"

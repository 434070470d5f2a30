"""Check a config.json: what the data says about a model that is not on the Hub (a private model, a local
fine-tune), from its architecture and its parameter count estimated from the config.

The estimate counts the weight matrices a decoder config implies: embeddings (once when tied, twice
when not), attention with grouped key/value heads (or DeepSeek's low-rank attention), the MLP (gated or
not), the experts of a mixture-of-experts config with its shared experts and router, and the norms;
a config with `text_config` / `vision_config` adds its parts. Biases, rotary tables and patch embeddings
are left out: they are a small fraction. It is an estimate, and is labelled so wherever it is shown.
"""

from __future__ import annotations

import json
import re
import sys
from collections.abc import Mapping
from itertools import accumulate

from components.queries import evidence
from components.queries.answers import ConfigCheckAnswer
from components.queries.errors import ConfigError
from components.queries.expectation import UNKNOWN, expectation
from components.runtime import settings
from components.sources.records import ModelRecord, Records, empty_records
from components.sources.snapshot import Snapshot, Stack

# The model id a suggested script loads: the person's own checkpoint folder.
LOCAL_PATH = "/path/to/your/model"
# Configs whose MLP is two matrices (up, down) rather than a gated three (gate, up, down).
PLAIN_MLP = frozenset(
    {"gpt2", "gpt_neox", "gptj", "gpt_bigcode", "opt", "bloom", "falcon", "phi", "starcoder2", "bert", "roberta"}
)
# A JSON string, or an unterminated one to the end of the text. Possessive, and it matches at every quote it
# starts from, so each character is read once: `"(?:[^"\\]|\\.)*"` retried the rest of the text from every
# escaped quote of an unterminated string (quadratic: 256 KB of `\"` held the app for four minutes).
_STRINGS = re.compile(r'"(?:[^"\\]++|\\.?)*+(?:"|\Z)', re.DOTALL)
_NOT_BRACKETS = re.compile(r"[^\[\]{}]++")
_NESTING = {"[": 1, "{": 1, "]": -1, "}": -1}
# Python refuses to read an integer of more digits than this (CPython's int_max_str_digits): JSON's own error
INT_DIGITS = sys.get_int_max_str_digits() if hasattr(sys, "get_int_max_str_digits") else 4300


def parse_config(text: object) -> dict:
    """The config as a dict. Raises ConfigError for text over REQUEST_BODY, nested deeper than CONFIG_DEPTH,
    not JSON, or JSON that is not an object."""
    if not isinstance(text, str) or not text.strip():
        raise ConfigError("paste the text of a config.json (a JSON object)")
    size = len(text.encode("utf-8", "surrogatepass"))
    if size > settings.REQUEST_BODY.value:
        raise ConfigError(
            f"the config is {size:,} bytes, over the limit of {settings.REQUEST_BODY.value // 1024 // 1024} MB"
        )
    if _depth(text) > settings.CONFIG_DEPTH.value:
        raise ConfigError(f"the config nests deeper than {settings.CONFIG_DEPTH.value} levels: not a config.json")
    try:
        config = json.loads(text)
    except (ValueError, RecursionError) as exc:
        where = f" (line {exc.lineno}, column {exc.colno})" if isinstance(exc, json.JSONDecodeError) else ""
        message = getattr(exc, "msg", str(exc))
        if "integer string conversion" in message:
            message = f"a number of more than {INT_DIGITS:,} digits"
        raise ConfigError(f"not valid JSON{where}: {message}") from None
    if not isinstance(config, dict):
        raise ConfigError(f"a config.json is a JSON object, this is a JSON {type(config).__name__}")
    return config


def _depth(text: str) -> int:
    """How deep brackets nest, strings left out (so json.loads never recurses on hostile input). Linear in
    the text: two regex passes that never backtrack, then a running sum in C."""
    brackets = _NOT_BRACKETS.sub("", _STRINGS.sub("", text))
    return max(accumulate(map(_NESTING.__getitem__, brackets)), default=0)


def _number(config: Mapping, *names: str) -> int | None:
    """The first of `names` the config gives as a positive whole number."""
    for name in names:
        value = config.get(name)
        if isinstance(value, bool):
            continue
        if isinstance(value, (int, float)) and 0 < value <= settings.CONFIG_COUNT.value and float(value).is_integer():
            return int(value)
    return None


def estimate_parameters(config: Mapping) -> int | None:
    """The parameter count the config implies (see the module's docstring); None when it lacks the sizes."""
    parts = [config.get(k) for k in ("text_config", "vision_config", "audio_config")]
    nested = [p for p in parts if isinstance(p, Mapping)]
    if nested:
        counts = [_decoder(p, embeddings=p is parts[0]) for p in nested]
        known = [c for c in counts if c]
        return sum(known) if known else None
    return _decoder(config, embeddings=True)


def _decoder(config: Mapping, embeddings: bool) -> int | None:
    hidden = _number(config, "hidden_size", "n_embd", "d_model", "dim")
    layers = _number(config, "num_hidden_layers", "n_layer", "num_layers", "depth")
    heads = _number(config, "num_attention_heads", "n_head", "num_heads")
    if not hidden or not layers or not heads:
        return None
    kv_heads = 1 if config.get("multi_query") is True else _number(config, "num_key_value_heads", "num_kv_heads")
    kv_heads = kv_heads or heads
    head_dim = _number(config, "head_dim") or hidden // heads
    attention = _low_rank_attention(config, hidden, heads)
    if attention is None:
        attention = 2 * hidden * heads * head_dim + 2 * hidden * kv_heads * head_dim
    intermediate = _number(config, "intermediate_size", "n_inner", "ffn_dim", "mlp_dim") or 4 * hidden
    matrices = 2 if config.get("model_type") in PLAIN_MLP else 3
    dense_mlp = matrices * hidden * intermediate
    experts = _number(config, "num_local_experts", "n_routed_experts", "num_experts")
    if experts:
        expert_size = _number(config, "moe_intermediate_size") or intermediate
        shared = (_number(config, "n_shared_experts") or 0) * expert_size
        shared += _number(config, "shared_expert_intermediate_size") or 0
        moe_mlp = matrices * hidden * (experts * expert_size + shared) + hidden * experts  # the router too
        dense_layers = min(layers, _number(config, "first_k_dense_replace") or 0)
        mlp = dense_layers * dense_mlp + (layers - dense_layers) * moe_mlp
    else:
        mlp = layers * dense_mlp
    total = layers * (attention + 2 * hidden) + mlp + hidden
    if embeddings:
        vocab = _number(config, "vocab_size", "n_vocab") or 0
        tied = config.get("tie_word_embeddings", True) is not False  # transformers ties unless told not to
        total += vocab * hidden * (1 if tied else 2)
    return total


def _low_rank_attention(config: Mapping, hidden: int, heads: int) -> int | None:
    """DeepSeek's multi-head latent attention (kv_lora_rank), per layer; None for any other attention."""
    kv_rank = _number(config, "kv_lora_rank")
    if not kv_rank:
        return None
    nope, rope = _number(config, "qk_nope_head_dim") or 0, _number(config, "qk_rope_head_dim") or 0
    value = _number(config, "v_head_dim") or nope
    q_rank = _number(config, "q_lora_rank")
    query = hidden * q_rank + q_rank * heads * (nope + rope) if q_rank else hidden * heads * (nope + rope)
    return query + hidden * (kv_rank + rope) + kv_rank * heads * (nope + value) + heads * value * hidden


def _architecture(config: Mapping) -> str | None:
    """The model class the config names, as a Hub record's would be read."""
    names = config.get("architectures")
    if isinstance(names, list):
        for name in names:
            if isinstance(name, str) and re.fullmatch(r"[A-Za-z_][A-Za-z0-9_]{0,99}", name.strip()):
                return name.strip()
    return None


def check_config(
    snapshot: Snapshot, stack: Stack | None, text: object, records: Records | None = None
) -> ConfigCheckAnswer:
    """What to expect on `stack` from the model a config.json describes: {architecture, model_type,
    num_parameters (estimated), expectation {verdict, reason, basis}, similar (tested models of the
    architecture, closest in size first), suggested_run_py, suggested_from}. Raises ConfigError for text
    that is not a readable config (see parse_config)."""
    config = parse_config(text)
    architecture = _architecture(config)
    model_type = config.get("model_type")
    model_type = (
        model_type.strip()[: settings.CONFIG_MODEL_TYPE.value]
        if isinstance(model_type, str) and model_type.strip()
        else None
    )
    size = estimate_parameters(config)
    answer: ConfigCheckAnswer = {
        "architecture": architecture,
        "model_type": model_type,
        "num_parameters": size,
        "expectation": {"verdict": UNKNOWN, "basis": "none", "reason": "no stack to check against"},
        "similar": [],
        "suggested_run_py": None,
        "suggested_from": None,
    }
    if stack is None:
        return answer
    records = records if records is not None else empty_records()
    record = ModelRecord(LOCAL_PATH, architecture=architecture, model_type=model_type, num_parameters=size)
    found = evidence.architecture_evidence(snapshot, records, stack, record)
    verdict = expectation(snapshot, records, stack, record, {"base_model": None, "architecture": found})
    if not architecture and verdict["basis"] != "size":
        verdict = {**verdict, "reason": "the config names no architecture (its `architectures` list is missing)"}
    else:  # a config names no base model: the expectation's clause about one says nothing here
        verdict = {**verdict, "reason": verdict["reason"].removeprefix("no base model has a run on this stack; ")}
    answer["expectation"] = verdict
    answer["similar"] = found["closest"] if found else []
    suggestion = evidence.suggest_run_py(snapshot, records, stack, LOCAL_PATH, record)
    answer["suggested_run_py"] = suggestion.get("suggested_run_py")
    answer["suggested_from"] = suggestion.get("suggested_from")
    return answer

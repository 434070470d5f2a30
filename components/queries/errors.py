"""The queries' errors: what an endpoint or a query refuses, each message written for the caller to read.

`components/web/errors.py` maps each to its HTTP status and to how the Gradio half raises it.
"""

from __future__ import annotations


class ArgumentRefused(ValueError):
    """A value an endpoint does not take (a view, a task, a model id, a wrong type, text that cannot be encoded);
    the message names it and what is taken."""


class MalformedId(ValueError):
    """The model asked for cannot be a Hub model id."""


class ConfigError(ValueError):
    """The text is not a config.json this check can read; the message says why."""

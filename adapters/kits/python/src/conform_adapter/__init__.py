"""conform_adapter: serve a Python harness to conform (adapter protocol v1).

Register one function per op and call :meth:`Adapter.serve`; the kit does
the protocol and reads and writes JSON exactly as JavaScript does
(:mod:`conform_adapter.jsonjs`). The pytest plugin
(:mod:`conform_adapter.pytest_plugin`) shows conform's cases as test items.
"""

from .jsonjs import JSONError, Number, number_to_string, parse, stringify
from .server import OPS, Adapter, Skip, serve

__all__ = ["OPS", "Adapter", "JSONError", "Number", "Skip", "number_to_string", "parse", "serve", "stringify"]
__version__ = "0.1.0"

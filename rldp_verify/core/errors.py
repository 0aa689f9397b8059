"""Errors of the public API.

Every validation failure raises :class:`InputError` with a one-line message that names the bad
value; the CLI prints it as ``rldp-verify: error: <message>`` and exits with code 2.
"""


class InputError(ValueError):
    """Bad input: the message is one line and names the offending value."""

    def __init__(self, message: str):
        super().__init__(" ".join(str(message).split()))


class CertificationError(RuntimeError):
    """A solver or root finder returned a result that failed its re-check."""


class ExecutionError(RuntimeError):
    """The execution machinery failed (a Dask worker or a worker process died, the scheduler went
    away): no verdict can be drawn from the interrupted work. The message is one line naming the cause."""

    def __init__(self, message: str):
        super().__init__(" ".join(str(message).split()))

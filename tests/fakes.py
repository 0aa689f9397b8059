"""Small stand-ins shared by the tests."""


class FakeStream:
    """A text stream that records what is written and says whether it is a terminal (``tty``)."""

    def __init__(self, tty):
        self.tty, self.parts = tty, []

    def isatty(self):
        return self.tty

    def write(self, s):
        self.parts.append(s)

    def flush(self):
        pass

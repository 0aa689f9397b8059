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


class ProgressRecorder:
    """A progress reporter (core.progress.reporting) that records every step and update it is given."""

    def __init__(self):
        self.steps, self.updates = [], []

    def step(self, name, total, unit):
        self.steps.append((name, total, unit))

    def update(self, done, info):
        self.updates.append((done, info))

"""Spying on a function a test must see called (how many times, with what)."""


def recorded_calls(monkeypatch, owner, name):
    """`owner.name` replaced, for the test, by itself recording each first argument it gets: the
    list of them, in order."""
    calls = []
    real = getattr(owner, name)

    def recording(first, *args, **kwargs):
        calls.append(first)
        return real(first, *args, **kwargs)

    monkeypatch.setattr(owner, name, recording)
    return calls

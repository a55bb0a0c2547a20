"""News of the federation posted to its group chat: a webhook per chat (Discord, Slack, Matrix
hookshot or plain JSON), an outbox written in the act's transaction, delivered after commit, to
public addresses only (docs/exploitation.md, « Annonces dans la discussion de groupe » and « Où
un webhook peut poster »)."""

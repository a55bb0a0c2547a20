"""Reminders by e-mail (issue 24): the nights not answered yet, the comptes-rendus soon due and
overdue, each sent once (docs/calendrier.md); the members' choices and the account page."""

"""What the competition tells the rest of the site, sent inside the act's transaction: a receiver
that writes (the webhooks' outbox, `webhooks.receivers`) writes in the same transaction, so that
nothing is announced of an act rolled back. The competition never imports its listeners.

- `round_submitted(round)`: a round has just been submitted for homologation (its sheet now
  waits for the signatures of its players, at its new version);
- `round_homologated(round)`: a round has just been homologated;
- `report_published(report)`: a compte-rendu was filed for the first time on a homologated round
  (one filed earlier becomes public with its round's homologation, which the first signal says).
"""

from django.dispatch import Signal

round_submitted = Signal()
round_homologated = Signal()
report_published = Signal()

"""What the calendar tells the rest of the site, sent inside the act's transaction (see
`championship.signals`):

- `table_confirmed(night)`: an answer has just brought the night to its quorum (4 who come);
- `night_changed(night, change)`: a night moved (`change` = "moved": its date, time or place
  changed) or was cancelled (`change` = "cancelled").
"""

from django.dispatch import Signal

MOVED, CANCELLED = "moved", "cancelled"

table_confirmed = Signal()
night_changed = Signal()

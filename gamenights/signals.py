"""What the calendar tells the rest of the site, sent inside the act's transaction (see
`championship.signals`):

- `table_confirmed(night)`: an answer has just brought the night to its quorum (4 who come);
- `night_changed(night, change)`: a night moved (`change` = "moved": its date, time or place
  changed) or was cancelled (`change` = "cancelled");
- `seating_changed(night, promoted, demoted)`: an answer has moved players between the seats and
  the waiting list (`schedule.seating`): `promoted` waited and now have a seat (a « je ne viens
  plus » freed it), `demoted` had one and now wait (8 who come seated at two tables of 4, 7
  left). The members' news tell each of them (`notifications.receivers`).
"""

from django.dispatch import Signal

MOVED, CANCELLED = "moved", "cancelled"

table_confirmed = Signal()
night_changed = Signal()
seating_changed = Signal()

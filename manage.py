#!/usr/bin/env python
"""Django's command-line utility.

On a developer's machine the commands run with DEBUG on unless DEBUG is set: production sets
DEBUG=0 (or leaves it unset for the WSGI server, which never defaults to DEBUG) and SECRET_KEY.
"""

import os
import sys


def main():
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "federation.settings")
    os.environ.setdefault("DEBUG", "1")
    from django.core.management import execute_from_command_line

    execute_from_command_line(sys.argv)


if __name__ == "__main__":
    main()

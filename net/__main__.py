"""``python -m partyhost.net``: run a host (see :func:`partyhost.net.host.main`)."""

from __future__ import annotations

import sys

from partyhost.net.host import main

sys.exit(main())

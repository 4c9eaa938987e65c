#!/bin/sh
# Starts the Chromium that $SUITE_CHROMIUM names, with the arguments given, at the priority it is
# started with. Chromium sets its main, IO and compositor threads to nice -8 wherever the system
# lets it, which it does for root: six times the weight of a default process, whatever priority
# the suite runs at, so in CI (root) the browser suites took the cores from the container suites
# beside them. Without the capability to raise a priority (CAP_SYS_NICE, which no other user has
# either) those calls fail and Chromium runs on as any user's does.
if [ "$(id -u)" = 0 ] && command -v setpriv >/dev/null 2>&1; then
  exec setpriv --inh-caps=-sys_nice --bounding-set=-sys_nice -- "$SUITE_CHROMIUM" "$@"
fi
exec "$SUITE_CHROMIUM" "$@"

#!/usr/bin/env bash
# Makes sure systemd-analyze (Debian's systemd package) is there for tests/integration/systemd-unit.test.ts, which
# rates deploy/systemd/campaign.service offline; installs it with apt when it can. Nothing is started.
set -euo pipefail
exec bash "$(dirname "$0")/ensure-package.sh" "${SYSTEMD_ANALYZE_PATH:-/usr/bin/systemd-analyze}" systemd "the systemd unit's test (or set SYSTEMD_ANALYZE_PATH)"

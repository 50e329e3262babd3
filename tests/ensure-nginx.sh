#!/usr/bin/env bash
# Makes sure Debian's nginx is there for the deployment test (tests/e2e/deploy-nginx.spec.ts); installs it
# with apt when it can. Only the binary is used: the test runs it with its own configuration, never as a service.
set -euo pipefail
exec bash "$(dirname "$0")/ensure-package.sh" "${NGINX_PATH:-/usr/sbin/nginx}" nginx "the deployment test (or set NGINX_PATH)"

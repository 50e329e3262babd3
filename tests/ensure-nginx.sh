#!/usr/bin/env bash
# Makes sure Debian's nginx is there for the deployment test (tests/e2e/deploy-nginx.spec.ts); installs it
# with apt when it can. Only the binary is used: the test runs it with its own configuration, never as a service.
set -euo pipefail
NGINX="${NGINX_PATH:-/usr/sbin/nginx}"
if [ -x "$NGINX" ]; then exit 0; fi
install() {
  $1 apt-get update -qq
  # policy-rc.d 101: the package's own service is not started (the test starts nginx itself).
  $1 sh -c 'printf "#!/bin/sh\nexit 101\n" > /usr/sbin/policy-rc.d && chmod +x /usr/sbin/policy-rc.d'
  $1 env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq nginx >/dev/null
  $1 rm -f /usr/sbin/policy-rc.d
}
if [ "$(id -u)" = "0" ] && command -v apt-get >/dev/null; then
  echo "Installing Debian's nginx for the deployment test..."
  install ""
elif command -v sudo >/dev/null && command -v apt-get >/dev/null; then
  install sudo
else
  echo "nginx is missing at $NGINX: install it (apt-get install nginx) or set NGINX_PATH." >&2
  exit 1
fi

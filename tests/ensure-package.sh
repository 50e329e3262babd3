#!/usr/bin/env bash
# Makes sure a program from a Debian package is there for a test: ensure-package.sh PATH PACKAGE PURPOSE.
# Installs the package with apt when it can (as root, or with sudo). Only the program is used: a service the
# package brings is not started (policy-rc.d 101).
set -euo pipefail
program="$1" package="$2" purpose="$3"
if [ -x "$program" ]; then exit 0; fi
install() {
  $1 apt-get update -qq
  $1 sh -c 'printf "#!/bin/sh\nexit 101\n" > /usr/sbin/policy-rc.d && chmod +x /usr/sbin/policy-rc.d'
  $1 env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "$package" >/dev/null
  $1 rm -f /usr/sbin/policy-rc.d
}
if [ "$(id -u)" = "0" ] && command -v apt-get >/dev/null; then
  echo "Installing Debian's $package for $purpose..."
  install ""
elif command -v sudo >/dev/null && command -v apt-get >/dev/null; then
  install sudo
else
  echo "$program is missing: install it (apt-get install $package) for $purpose." >&2
  exit 1
fi

#!/usr/bin/env bash
# System packages the test suite needs: Debian's Chromium for the candidate page's browser test.
set -euo pipefail
if ! command -v chromium >/dev/null 2>&1 && [ ! -x /usr/bin/chromium ]; then
	echo "Installing Debian's chromium for the browser test"
	export DEBIAN_FRONTEND=noninteractive
	SUDO=""
	if [ "$(id -u)" -ne 0 ]; then SUDO="sudo"; fi
	$SUDO apt-get update -qq
	$SUDO apt-get install -y -qq chromium >/dev/null
fi
chromium --version || true

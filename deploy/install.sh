#!/usr/bin/env bash
# Installs the Chocolatl companion as a system service (Raspberry Pi OS / Debian):
#   sudo deploy/install.sh
# creates the unprivileged user `chocolatl`, the data directory /var/lib/chocolatl, a virtual
# environment in /opt/chocolatl/venv with the companion, the unit chocolatl.service and the
# settings file /etc/chocolatl/companion.env (kept when it exists), then enables and
# (re)starts the service. Running it again upgrades in place; the data and settings stay.
#
# DESTDIR=/some/dir deploy/install.sh installs into a scratch root instead: the user goes into
# DESTDIR/etc/passwd, the unit is enabled there with `systemctl --root`, nothing is started.
set -euo pipefail

SRC="$(cd "$(dirname "$0")/.." && pwd)"
DESTDIR="${DESTDIR:-}"
DESTDIR="${DESTDIR%/}"
PREFIX=/opt/chocolatl
DATA=/var/lib/chocolatl
PYTHON="${PYTHON:-python3}"
SERVICE_USER=chocolatl

say() { printf 'install: %s\n' "$*"; }
die() { printf 'install: %s\n' "$*" >&2; exit 1; }

if [ -z "$DESTDIR" ] && [ "$(id -u)" != 0 ]; then
  die "run as root (sudo deploy/install.sh), or set DESTDIR to install into a scratch root"
fi
"$PYTHON" -c 'import sys; sys.exit(sys.version_info < (3, 11))' \
  || die "$PYTHON is older than 3.11 (Raspberry Pi OS Bookworm has 3.11)"
"$PYTHON" -c 'import venv, ensurepip' 2>/dev/null \
  || die "$PYTHON cannot make virtual environments: apt-get install python3-venv"

# 1. The service user: a system user without a login shell or home of its own.
say "user $SERVICE_USER"
mkdir -p "$DESTDIR/usr/lib/sysusers.d" "$DESTDIR/etc"
printf 'u %s - "Chocolatl companion" %s /usr/sbin/nologin\n' "$SERVICE_USER" "$DATA" \
  > "$DESTDIR/usr/lib/sysusers.d/chocolatl.conf"
if command -v systemd-sysusers >/dev/null 2>&1; then
  if [ -n "$DESTDIR" ]; then
    systemd-sysusers --root="$DESTDIR" "$DESTDIR/usr/lib/sysusers.d/chocolatl.conf"
  else
    systemd-sysusers /usr/lib/sysusers.d/chocolatl.conf
  fi
elif [ -z "$DESTDIR" ]; then
  id "$SERVICE_USER" >/dev/null 2>&1 || useradd --system --home-dir "$DATA" --no-create-home \
    --shell /usr/sbin/nologin --comment "Chocolatl companion" "$SERVICE_USER"
else
  die "systemd-sysusers is needed to create the user in a scratch root"
fi
if [ -z "$DESTDIR" ]; then
  usermod -a -G dialout "$SERVICE_USER" 2>/dev/null || true  # the LED board's serial port
fi
[ -f "$DESTDIR/etc/passwd" ] || die "no $DESTDIR/etc/passwd after creating the user"
uid="$(awk -F: -v u="$SERVICE_USER" '$1 == u {print $3}' "$DESTDIR/etc/passwd")"
gid="$(awk -F: -v u="$SERVICE_USER" '$1 == u {print $4}' "$DESTDIR/etc/passwd")"
[ -n "$uid" ] || die "user $SERVICE_USER was not created"

# 2. The data directory (systemd's StateDirectory= keeps the same owner and mode).
say "data directory $DATA"
install -d -m 0750 -o "$uid" -g "$gid" "$DESTDIR$DATA"

# 3. The program: a copy of the source and a virtual environment with its dependencies.
say "program in $PREFIX"
install -d -m 0755 "$DESTDIR$PREFIX" "$DESTDIR$PREFIX/src"
rm -rf "$DESTDIR$PREFIX/src.new"
install -d -m 0755 "$DESTDIR$PREFIX/src.new"
(cd "$SRC" && tar -cf - --exclude=__pycache__ --exclude='*.pyc' \
    pyproject.toml README.md companion firmware hardware deploy) \
  | tar -xf - -C "$DESTDIR$PREFIX/src.new"
rm -rf "$DESTDIR$PREFIX/src"
mv "$DESTDIR$PREFIX/src.new" "$DESTDIR$PREFIX/src"
[ -x "$DESTDIR$PREFIX/venv/bin/python" ] || "$PYTHON" -m venv "$DESTDIR$PREFIX/venv"
# Editable: the simulated LED board and `companion flash` read firmware/ beside the package;
# [flash] brings mpremote, so the Pi can flash its own LED board.
"$DESTDIR$PREFIX/venv/bin/python" -m pip install -q --disable-pip-version-check \
  -e "$DESTDIR$PREFIX/src[flash]"

# 4. Settings (kept on upgrade) and the unit.
say "settings /etc/chocolatl/companion.env, unit chocolatl.service"
install -d -m 0755 "$DESTDIR/etc/chocolatl"
if [ ! -e "$DESTDIR/etc/chocolatl/companion.env" ]; then
  install -m 0640 -o 0 -g "$gid" "$SRC/deploy/companion.env" \
    "$DESTDIR/etc/chocolatl/companion.env"
fi
install -d -m 0755 "$DESTDIR/etc/systemd/system"
install -m 0644 "$SRC/deploy/chocolatl.service" "$DESTDIR/etc/systemd/system/chocolatl.service"

# 5. Enable (start at boot) and start.
if [ -n "$DESTDIR" ]; then
  systemctl --root="$DESTDIR" enable chocolatl.service
  say "installed into $DESTDIR (nothing started)"
else
  systemctl daemon-reload
  systemctl enable chocolatl.service
  systemctl restart chocolatl.service
  say "started; its addresses and admin token: journalctl -u chocolatl -b | grep -A8 companion"
fi

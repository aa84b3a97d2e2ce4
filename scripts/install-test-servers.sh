#!/usr/bin/env bash
# Install the real servers the test suite runs on loopback (bot/testing/):
# Dovecot IMAP (Debian dovecot-imapd) and PostgreSQL (Debian postgresql).
#
# Idempotent and quick when everything is present: it only looks for
# binaries and accounts, and runs apt (one `apt-get update`, then one
# `apt-get install`) only for what is missing.  It never starts a system
# service: the tests run private instances of their own.  Run it as root
# (or with sudo available); CI runs it on a fresh machine before pytest.
set -euo pipefail

readonly APT_LOCK_WAIT_SECONDS=600
readonly POSTGRES_DIRS="/usr/local/bin /usr/lib/postgresql/*/bin"
POLICY_RC=/usr/sbin/policy-rc.d

say() { printf 'install-test-servers: %s\n' "$*"; }
die() { say "error: $*" >&2; exit 1; }

as_root() {
    if [ "$(id -u)" -eq 0 ]; then
        "$@"
    elif command -v sudo >/dev/null 2>&1; then
        sudo "$@"
    else
        die "must run as root (or with sudo) to install packages: $*"
    fi
}

have_dovecot_imap() {
    local dovecot
    dovecot=$(PATH="$PATH:/usr/sbin:/usr/local/sbin" command -v dovecot) || return 1
    [ -x "$dovecot" ] || return 1
    [ -x /usr/lib/dovecot/imap ] || [ -x /usr/libexec/dovecot/imap ]
}

# A PostgreSQL build counts if one directory (after resolving symbolic links,
# as bot/testing/postgres.py does) holds initdb, pg_ctl and postgres.
postgres_bin_dir() {
    local initdb dir
    for initdb in $(command -v initdb || true) $(for dir in $POSTGRES_DIRS; do echo "$dir/initdb"; done); do
        [ -x "$initdb" ] || continue
        dir=$(dirname "$(readlink -f "$initdb")")
        if [ -x "$dir/pg_ctl" ] && [ -x "$dir/postgres" ]; then
            echo "$dir"
            return 0
        fi
    done
    return 1
}

# `apt-get update` cannot wait for the lists lock (DPkg::Lock::Timeout only
# covers dpkg's lock), so retry while another apt holds it.
apt_update() {
    local waited=0 output
    while ! output=$(as_root env DEBIAN_FRONTEND=noninteractive apt-get update -q 2>&1); do
        if ! grep -q 'Could not get lock' <<<"$output" || [ "$waited" -ge "$APT_LOCK_WAIT_SECONDS" ]; then
            printf '%s\n' "$output" >&2
            die "apt-get update failed"
        fi
        [ "$waited" -eq 0 ] && say "another apt process holds the lock; waiting"
        sleep 5
        waited=$((waited + 5))
    done
}

# invoke-rc.d and deb-systemd-invoke ask policy-rc.d before starting a
# service; exit status 101 forbids it.  Keep an existing denying policy,
# otherwise install ours for the duration of the install and restore after.
policy_denies_starts() {
    local status=0
    [ -x "$POLICY_RC" ] || return 1
    "$POLICY_RC" dovecot start >/dev/null 2>&1 || status=$?
    [ "$status" -eq 101 ]
}

forbid_service_starts() {
    if policy_denies_starts; then
        say "$POLICY_RC already forbids service starts"
        return 0
    fi
    if [ -e "$POLICY_RC" ]; then
        as_root mv "$POLICY_RC" "$POLICY_RC.install-test-servers"
    fi
    trap restore_service_policy EXIT
    printf '#!/bin/sh\n# Temporary, from scripts/install-test-servers.sh\nexit 101\n' |
        as_root tee "$POLICY_RC" >/dev/null
    as_root chmod 755 "$POLICY_RC"
    say "installed a temporary $POLICY_RC so that no service starts"
}

restore_service_policy() {
    as_root rm -f "$POLICY_RC"
    if [ -e "$POLICY_RC.install-test-servers" ]; then
        as_root mv "$POLICY_RC.install-test-servers" "$POLICY_RC"
    fi
}

apt_install() {
    say "installing with apt: $*"
    apt_update
    forbid_service_starts
    as_root env DEBIAN_FRONTEND=noninteractive apt-get install -y -q \
        --no-install-recommends -o DPkg::Lock::Timeout="$APT_LOCK_WAIT_SECONDS" "$@"
}

# The servers drop root to these accounts (Dovecot's login and internal
# processes, the PostgreSQL cluster).  The Debian packages create them; a
# PostgreSQL built from source does not.
ensure_system_user() {
    local name=$1
    if id -u "$name" >/dev/null 2>&1; then
        return 0
    fi
    as_root useradd --system --user-group --no-create-home \
        --home-dir /nonexistent --shell /usr/sbin/nologin "$name"
    say "created system user $name"
}

report_dovecot_version() {
    local version
    version=$(PATH="$PATH:/usr/sbin:/usr/local/sbin" dovecot --version | cut -d' ' -f1)
    case $version in
        2.3.*) say "Dovecot $version present" ;;
        *) say "warning: Dovecot $version present, but bot/testing/dovecot.py supports 2.3 only" ;;
    esac
}

main() {
    local missing=()
    have_dovecot_imap || missing+=(dovecot-imapd)
    postgres_bin_dir >/dev/null || missing+=(postgresql)
    if [ "${#missing[@]}" -gt 0 ]; then
        apt_install "${missing[@]}"
    fi
    have_dovecot_imap || die "Dovecot IMAP is still missing after installing dovecot-imapd"
    report_dovecot_version
    local postgres_dir
    postgres_dir=$(postgres_bin_dir) || die "PostgreSQL is still missing after installing postgresql"
    say "PostgreSQL present in $postgres_dir"
    for name in dovecot dovenull postgres; do
        ensure_system_user "$name"
    done
    if [ "${#missing[@]}" -eq 0 ]; then
        say "nothing to install"
    fi
}

# Sourcing the file (to try one function) must not run it.
if [ "${BASH_SOURCE[0]}" = "$0" ]; then
    main "$@"
fi

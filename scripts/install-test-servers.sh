#!/usr/bin/env bash
# Install the real servers the test suite runs on loopback (bot/testing/):
# Dovecot IMAP and LMTP (Debian dovecot-imapd, dovecot-lmtpd), PostgreSQL
# (Debian postgresql), Postfix (Debian postfix, "No configuration") and GNU
# Mailman 3 (PyPI mailman, in a virtualenv of its own: it pins its own
# SQLAlchemy and alembic, so it stays out of the bot's .venv).
#
# Idempotent and quick when everything is present: it only looks for
# binaries, accounts and the Mailman venv's stamp, and runs apt (one
# `apt-get update`, then one `apt-get install`) and pip only for what is
# missing.  It never starts a system service: the tests run private
# instances of their own.  Run it as root (or with sudo available); CI runs
# it on a fresh machine before pytest.
set -euo pipefail

readonly APT_LOCK_WAIT_SECONDS=600
readonly POSTGRES_DIRS="/usr/local/bin /usr/lib/postgresql/*/bin"
POLICY_RC=/usr/sbin/policy-rc.d
# bot/testing/mailman.py looks here (or in $NOMICBOT_MAILMAN_VENV): outside the
# git tree, so a fresh clone or `git clean` does not cost a reinstall.
readonly MAILMAN_VENV="${NOMICBOT_MAILMAN_VENV:-/opt/nomicbot-test/mailman-venv}"
# Debian's interpreter, not a pyenv one under /root: Mailman runs as the
# unprivileged `list` account, which cannot enter /root (mode 0700).
readonly MAILMAN_PYTHON=/usr/bin/python3
# Mailman 3.3.10 and every package it pulls in, at the versions the tests
# passed with here: a newer SQLAlchemy or falcon release must not change the
# list under the tests' feet.  Changing this list reinstalls the venv.
readonly MAILMAN_REQUIREMENTS="
mailman==3.3.10
aiosmtpd==1.4.6
alembic==1.20.1
atpublic==9.0.0
attrs==26.1.0
authheaders==0.16.3
authres==1.2.0
certifi==2026.10.19.post1
charset-normalizer==3.5.2
click==8.5.1
dkimpy==1.1.8
dnspython==2.9.2
falcon==4.4.0
flufl.bounce==6.0.0
flufl.i18n==8.0.0
flufl.lock==10.0.0
gunicorn==27.0.1
idna==3.20
lazr.config==4.0.0
lazr.delegates==4.0.0
Mako==1.4.3
MarkupSafe==3.0.4
passlib==1.7.4
psutil==7.2.2
publicsuffix2==2.20191221
python-dateutil==4.0.0
requests==2.34.2
SQLAlchemy==2.1.9
typing_extensions==4.16.0
tzdata==2026.6
urllib3==2.8.0
zope.component==7.1
zope.configuration==7.1
zope.event==6.2
zope.hookable==8.4
zope.i18nmessageid==8.4
zope.interface==8.7
zope.schema==8.1
"

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

# Dovecot's LMTP service, which the private Postfix delivers to
# (bot/testing/dovecot.py with lmtp=True).
have_dovecot_lmtp() {
    [ -x /usr/lib/dovecot/lmtp ] || [ -x /usr/libexec/dovecot/lmtp ]
}

have_postfix() {
    [ -x /usr/sbin/postfix ] && [ -x /usr/sbin/postmap ] && [ -x /usr/lib/postfix/sbin/master ]
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

# Postfix's debconf question would stop a noninteractive install on a
# dialog; "No configuration" leaves /etc/postfix/main.cf unwritten, which is
# what the tests want: they run a private instance with `postfix -c DIR`.
preseed_postfix() {
    printf '%s\n' \
        'postfix postfix/main_mailer_type select No configuration' \
        'postfix postfix/mailname string localhost' |
        as_root debconf-set-selections
}

apt_install() {
    say "installing with apt: $*"
    apt_update
    forbid_service_starts
    case " $* " in *" postfix "*) preseed_postfix ;; esac
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

have_chromium() {
    [ -x /usr/bin/chromium ] && [ -x /usr/bin/chromedriver ]
}

mailman_requirements_stamp() {
    printf '%s' "$MAILMAN_REQUIREMENTS" | sha256sum | cut -d' ' -f1
}

have_mailman_venv() {
    [ -x "$MAILMAN_VENV/bin/mailman" ] &&
        [ "$(cat "$MAILMAN_VENV/.nomicbot-requirements" 2>/dev/null)" = "$(mailman_requirements_stamp)" ]
}

have_venv_module() {
    [ -x "$MAILMAN_PYTHON" ] && "$MAILMAN_PYTHON" -c 'import ensurepip, venv' >/dev/null 2>&1
}

# A new venv each time the requirements change (pip would otherwise keep
# packages that left the list); the stamp is written last, so an
# interrupted install is redone on the next run.
install_mailman_venv() {
    local requirements
    say "installing GNU Mailman 3 into $MAILMAN_VENV"
    as_root rm -rf "$MAILMAN_VENV"
    [ -d "$(dirname "$MAILMAN_VENV")" ] || as_root install -d -m 0755 "$(dirname "$MAILMAN_VENV")"
    as_root "$MAILMAN_PYTHON" -m venv "$MAILMAN_VENV"
    requirements=$(mktemp)
    printf '%s' "$MAILMAN_REQUIREMENTS" >"$requirements"
    as_root "$MAILMAN_VENV/bin/pip" install --quiet --disable-pip-version-check \
        --no-cache-dir --requirement "$requirements"
    rm -f "$requirements"
    mailman_requirements_stamp | as_root tee "$MAILMAN_VENV/.nomicbot-requirements" >/dev/null
    # Read and run by the unprivileged `list` account.
    as_root chmod -R go+rX "$MAILMAN_VENV"
}

main() {
    local missing=()
    have_dovecot_imap || missing+=(dovecot-imapd)
    have_dovecot_lmtp || missing+=(dovecot-lmtpd)
    postgres_bin_dir >/dev/null || missing+=(postgresql)
    have_postfix || missing+=(postfix)
    have_venv_module || missing+=(python3-venv)
    # The site's browser test (tests/site) drives Debian's Chromium through
    # its ChromeDriver.
    have_chromium || missing+=(chromium chromium-driver)
    if [ "${#missing[@]}" -gt 0 ]; then
        apt_install "${missing[@]}"
    fi
    have_dovecot_imap || die "Dovecot IMAP is still missing after installing dovecot-imapd"
    have_dovecot_lmtp || die "Dovecot LMTP is still missing after installing dovecot-lmtpd"
    report_dovecot_version
    local postgres_dir
    postgres_dir=$(postgres_bin_dir) || die "PostgreSQL is still missing after installing postgresql"
    say "PostgreSQL present in $postgres_dir"
    have_postfix || die "Postfix is still missing after installing postfix"
    say "Postfix $(/usr/sbin/postconf -h -d mail_version 2>/dev/null) present"
    have_chromium || die "Chromium or ChromeDriver is still missing after installing chromium"
    have_venv_module || die "$MAILMAN_PYTHON cannot create virtualenvs after installing python3-venv"
    # postfix and postdrop come with the Debian package; list is Debian's
    # mailing-list account (base-passwd), which runs Mailman in the tests.
    for name in dovecot dovenull postgres postfix list; do
        ensure_system_user "$name"
    done
    if ! getent group postdrop >/dev/null; then
        as_root groupadd --system postdrop
    fi
    if have_mailman_venv; then
        say "GNU Mailman $("$MAILMAN_VENV/bin/python" -c 'import mailman.version as v; print(v.VERSION)') present in $MAILMAN_VENV"
    else
        install_mailman_venv
        missing+=(mailman)
    fi
    if [ "${#missing[@]}" -eq 0 ]; then
        say "nothing to install"
    fi
}

# Sourcing the file (to try one function) must not run it.
if [ "${BASH_SOURCE[0]}" = "$0" ]; then
    main "$@"
fi

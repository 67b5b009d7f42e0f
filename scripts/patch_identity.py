"""Who the generated patches of the project are from (imported by
gen-perf-events-patch and gen-libpfm4-tables).

Written anew, the patches carry the identity of whoever runs the script:
git config's user.name and user.email, so that a submitter's regenerated
series is theirs to sign off; the project's where git has none.  Checked
against the committed patches (or made from them), they carry the
identity those patches name, so that a check does not depend on the git
configuration of whoever runs it.
"""
import email
import email.header
import email.utils
import subprocess

PROJECT = ('Seed d81d985e maintainers',
           'maintainers@users.noreply.a-seed-d81d985e.example')


def from_git(top):
    """(name, email) of git config in the tree `top`, or the project's."""
    def get(key):
        r = subprocess.run(['git', '-C', top, 'config', key],
                           capture_output=True, text=True)
        return r.stdout.strip() if r.returncode == 0 else ''
    name, addr = get('user.name'), get('user.email')
    return (name, addr) if name and addr else PROJECT


def from_patch(path):
    """(name, email) of the From: header of a git format-patch file, or
    None when the file has none (or does not exist)."""
    try:
        text = open(path).read()
    except OSError:
        return None
    # The mbox "From <commit> <date>" line, then the mail headers.
    head = text.split('\n', 1)[1] if text.startswith('From ') else text
    msg = email.message_from_string(head.split('\n\n', 1)[0] + '\n\n')
    if not msg['From']:
        return None
    name, addr = email.utils.parseaddr(str(msg['From']).replace('\n', ''))
    name = str(email.header.make_header(email.header.decode_header(name)))
    return (name, addr) if name and addr else None

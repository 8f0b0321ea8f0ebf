/*
 * Writes the sandbox's seccomp filter to stdout as a classic BPF program, the form bwrap's
 * `--seccomp FD` loads. Built with libseccomp (Debian's libseccomp-dev), which knows every
 * architecture's syscall numbers and emits the architecture check: a syscall of another ABI
 * than the native one (i386 or x32 on x86_64) kills the thread, libseccomp's default.
 *
 * Everything is allowed but the calls below, which fail with EPERM (ENOSYS for clone3) so the
 * code sees an error it can report rather than a dead process. Most of them also need a
 * capability the sandbox does not hold; the filter keeps the kernel code behind them out of
 * reach all the same, since that is where sandbox escapes are found.
 */
#define _GNU_SOURCE /* the CLONE_NEW* flags */
#include <errno.h>
#include <sched.h>
#include <seccomp.h>
#include <stdio.h>
#include <string.h>
#include <sys/personality.h>
#include <sys/socket.h>
#include <unistd.h>

#ifndef AF_VSOCK
#define AF_VSOCK 40
#endif

/* Denied whatever their arguments. */
static const char *const denied[] = {
    /* Reading or writing other processes. */
    "ptrace", "process_vm_readv", "process_vm_writev", "pidfd_getfd", "process_madvise", "kcmp",
    /* Large kernel surfaces a test never needs. */
    "bpf", "perf_event_open", "userfaultfd", "io_uring_setup", "io_uring_enter", "io_uring_register",
    "fanotify_init", "lookup_dcookie", "open_by_handle_at", "name_to_handle_at",
    /* The kernel keyring. */
    "keyctl", "add_key", "request_key",
    /* Namespaces and mounts, old and new API. */
    "unshare", "setns", "mount", "umount", "umount2", "pivot_root", "chroot", "mount_setattr",
    "move_mount", "open_tree", "fsopen", "fsconfig", "fsmount", "fspick",
    /* The machine itself. */
    "kexec_load", "kexec_file_load", "init_module", "finit_module", "delete_module", "reboot",
    "swapon", "swapoff", "acct", "quotactl", "quotactl_fd", "syslog", "uselib", "nfsservctl",
    "iopl", "ioperm", "settimeofday", "clock_settime", "clock_adjtime", "adjtimex",
    "sethostname", "setdomainname", "vhangup",
};

/* clone() with any of these makes a namespace. CLONE_NEWTIME is left out: in clone()'s flags
 * that bit is part of the exit signal (only unshare and clone3 take it, both refused). */
static const unsigned long namespace_flags[] = {
    CLONE_NEWNS, CLONE_NEWCGROUP, CLONE_NEWUTS, CLONE_NEWIPC, CLONE_NEWUSER, CLONE_NEWPID, CLONE_NEWNET,
};

/* personality() flags that weaken memory protection. Bit 31 is never set in a persona, only in
 * the query 0xffffffff, so each rule also asks for it to be clear: the query still works. */
static const unsigned long personality_flags[] = { ADDR_NO_RANDOMIZE, READ_IMPLIES_EXEC, MMAP_PAGE_ZERO, ADDR_LIMIT_3GB };

static int fail(const char *what, int rc) {
    fprintf(stderr, "seccomp filter: %s: %s\n", what, strerror(-rc));
    return 1;
}

int main(void) {
    scmp_filter_ctx ctx = seccomp_init(SCMP_ACT_ALLOW);
    if (ctx == NULL) return fail("seccomp_init", -ENOMEM);
    int rc;
    for (size_t i = 0; i < sizeof denied / sizeof *denied; i++) {
        int nr = seccomp_syscall_resolve_name(denied[i]);
        if (nr == __NR_SCMP_ERROR) continue; /* not a syscall on this architecture */
        if ((rc = seccomp_rule_add(ctx, SCMP_ACT_ERRNO(EPERM), nr, 0)) < 0) return fail(denied[i], rc);
    }
    /* Refused as unknown, so glibc falls back to clone(), whose flags a filter can read (clone3's
     * are behind a pointer). */
    if ((rc = seccomp_rule_add(ctx, SCMP_ACT_ERRNO(ENOSYS), SCMP_SYS(clone3), 0)) < 0) return fail("clone3", rc);
    /* The flags are clone()'s first argument on x86_64 and aarch64 (the second on s390). */
    for (size_t i = 0; i < sizeof namespace_flags / sizeof *namespace_flags; i++) {
        unsigned long f = namespace_flags[i];
        if ((rc = seccomp_rule_add(ctx, SCMP_ACT_ERRNO(EPERM), SCMP_SYS(clone), 1, SCMP_A0(SCMP_CMP_MASKED_EQ, f, f))) < 0) return fail("clone", rc);
    }
    for (size_t i = 0; i < sizeof personality_flags / sizeof *personality_flags; i++) {
        unsigned long f = personality_flags[i];
        if ((rc = seccomp_rule_add(ctx, SCMP_ACT_ERRNO(EPERM), SCMP_SYS(personality), 1, SCMP_A0(SCMP_CMP_MASKED_EQ, f | 0x80000000UL, f))) < 0) return fail("personality", rc);
    }
    /* vsock reaches the hypervisor's host whatever the network namespace says. */
    if ((rc = seccomp_rule_add(ctx, SCMP_ACT_ERRNO(EPERM), SCMP_SYS(socket), 1, SCMP_A0(SCMP_CMP_EQ, AF_VSOCK))) < 0) return fail("socket", rc);
    if ((rc = seccomp_export_bpf(ctx, STDOUT_FILENO)) < 0) return fail("seccomp_export_bpf", rc);
    seccomp_release(ctx);
    return 0;
}

/**
 * The sandbox's `/etc`: an allowlist of host entries that interpreters and their libraries
 * read (the dynamic linker's cache, `alternatives` links, time zone, protocol tables), and
 * small files written for the sandbox itself (its one user, localhost, name lookup from files
 * only). Never the host's users, groups, shadow files, keys, or anything else.
 */
import { closeSync, constants, lstatSync, openSync, readdirSync, readlinkSync } from 'node:fs';

/** The uid and gid the command runs as inside the sandbox. */
export const SANDBOX_UID = 1000;
/** See `SANDBOX_UID`. */
export const SANDBOX_GID = 1000;
/** The sandbox user's name in its `/etc/passwd`. */
export const SANDBOX_USER = 'sandbox';
/** The sandbox's host name (its own UTS namespace). */
export const SANDBOX_HOSTNAME = 'sandbox';

/**
 * Host `/etc` entries shown read-only when they exist, plus `python3` and `python3.N` (Debian's
 * interpreter configuration). Symlinks are recreated as symlinks.
 */
export const ETC_ALLOWLIST: readonly string[] = Object.freeze([
  'alternatives',
  'fonts',
  'ld.so.cache',
  'localtime',
  'mime.types',
  'os-release',
  'protocols',
  'services',
]);

/** Host paths shown read-only when a run asks for certificates (`RunSpec.certificates`); never `/etc/ssl/private`. */
export const CERTIFICATE_PATHS: readonly string[] = Object.freeze(['/etc/ssl/certs', '/etc/ssl/openssl.cnf']);

const PYTHON_CONFIG = /^python3(?:\.\d+)?$/;

/** One host entry of the sandbox's `/etc`, at `inside`: a symlink to recreate, a file to copy, or a folder to bind read-only. */
export type EtcEntry =
  | { inside: string; symlink: string }
  | { inside: string; host: string; kind: 'file'; mode: number; size: number }
  | { inside: string; host: string; kind: 'dir' };

/** The allowlisted host `/etc` entries that exist, read once (`etcDir` is `/etc` but for tests). */
export function hostEtcEntries(etcDir = '/etc', certificates = false): EtcEntry[] {
  let names: string[];
  try {
    names = readdirSync(etcDir);
  } catch {
    return [];
  }
  const wanted = names.filter((name) => ETC_ALLOWLIST.includes(name) || PYTHON_CONFIG.test(name)).sort();
  const paths = [
    ...wanted.map((name) => ({ host: `${etcDir}/${name}`, inside: `/etc/${name}` })),
    ...(certificates ? CERTIFICATE_PATHS.map((path) => ({ host: path, inside: path })) : []),
  ];
  const entries: EtcEntry[] = [];
  for (const { host, inside } of paths) {
    try {
      const st = lstatSync(host);
      if (st.isSymbolicLink()) entries.push({ inside, symlink: readlinkSync(host) });
      else if (st.isFile()) entries.push({ inside, host, kind: 'file', mode: st.mode & 0o777, size: st.size });
      else if (st.isDirectory()) entries.push({ inside, host, kind: 'dir' });
    } catch {
      // Not on this host.
    }
  }
  return entries;
}

/** The bwrap operations that make `/etc`, and what they read. */
export interface EtcPlan {
  /** bwrap arguments, in order. */
  args: string[];
  /** The sandbox's own files' text, for pipes at the child's descriptors `firstFd`, `firstFd + 1`, ... */
  data: string[];
  /** Host descriptors of the copied host files, for the child's descriptors right after the pipes. */
  fds: number[];
  /** Close the host descriptors. */
  close(): void;
}

/**
 * `/etc` as a small tmpfs of its own, read-only once made: the sandbox's own files and the
 * allowlisted host files copied in (no mount each, which is what a run pays for), the host
 * folders (`alternatives`, `python3`, ...) bound read-only, symlinks recreated. Returns an error
 * message when a host file cannot be opened.
 */
export function planEtc(entries: readonly EtcEntry[], firstFd: number): EtcPlan | string {
  const own = Object.entries(sandboxEtcFiles());
  const fds: number[] = [];
  const close = () => {
    for (const fd of fds.splice(0)) {
      try {
        closeSync(fd);
      } catch {
        // Already closed.
      }
    }
  };
  let bytes = 0;
  const body: string[] = [];
  own.forEach(([path, text], i) => {
    bytes += Math.ceil(Buffer.byteLength(text) / 4096) * 4096;
    body.push('--perms', '0644', '--file', String(firstFd + i), path);
  });
  for (const entry of entries) {
    if ('symlink' in entry) body.push('--symlink', entry.symlink, entry.inside);
    else if (entry.kind === 'dir') body.push('--ro-bind', entry.host, entry.inside);
    else {
      try {
        fds.push(openSync(entry.host, constants.O_RDONLY | constants.O_NOFOLLOW));
      } catch (error) {
        close();
        return `could not read ${entry.host} for the sandbox's /etc: ${(error as Error).message}`;
      }
      bytes += Math.ceil(entry.size / 4096) * 4096;
      body.push('--perms', entry.mode.toString(8).padStart(4, '0'), '--file', String(firstFd + own.length + fds.length - 1), entry.inside);
    }
  }
  const args = ['--perms', '0755', '--size', String(bytes + 256 * 1024), '--tmpfs', '/etc', ...body, '--remount-ro', '/etc'];
  return { args, data: own.map(([, text]) => text), fds, close };
}

/** Files written for the sandbox, by path: its user and group, localhost, lookups from files only. */
export function sandboxEtcFiles(): Record<string, string> {
  return {
    '/etc/passwd': `${SANDBOX_USER}:x:${SANDBOX_UID}:${SANDBOX_GID}:packet-kit sandbox:/workspace:/bin/sh\nnobody:x:65534:65534:nobody:/nonexistent:/usr/sbin/nologin\n`,
    '/etc/group': `${SANDBOX_USER}:x:${SANDBOX_GID}:\nnogroup:x:65534:\n`,
    '/etc/hosts': `127.0.0.1\tlocalhost\n::1\tlocalhost ip6-localhost ip6-loopback\n127.0.1.1\t${SANDBOX_HOSTNAME}\n`,
    '/etc/hostname': `${SANDBOX_HOSTNAME}\n`,
    '/etc/nsswitch.conf': ['passwd', 'group', 'shadow', 'hosts', 'networks', 'protocols', 'services', 'ethers', 'rpc', 'netgroup']
      .map((db) => `${db}: files\n`)
      .join(''),
  };
}

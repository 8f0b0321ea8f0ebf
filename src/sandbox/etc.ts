/**
 * The sandbox's `/etc`: an allowlist of host entries that interpreters and their libraries
 * read (the dynamic linker's cache, `alternatives` links, time zone, protocol tables), and
 * small files written for the sandbox itself (its one user, localhost, name lookup from files
 * only). Never the host's users, groups, shadow files, keys, or anything else.
 */
import { lstatSync, readdirSync, readlinkSync } from 'node:fs';

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

/** One host entry of the sandbox's `/etc`: a symlink to recreate or a path to bind read-only. */
export type EtcEntry = { path: string; symlink: string } | { path: string; bind: true };

/** The allowlisted host `/etc` entries that exist, read once (`etcDir` is `/etc` but for tests). */
export function hostEtcEntries(etcDir = '/etc', certificates = false): EtcEntry[] {
  let names: string[];
  try {
    names = readdirSync(etcDir);
  } catch {
    return [];
  }
  const wanted = names.filter((name) => ETC_ALLOWLIST.includes(name) || PYTHON_CONFIG.test(name)).sort();
  const paths = [...wanted.map((name) => `${etcDir}/${name}`), ...(certificates ? CERTIFICATE_PATHS : [])];
  const entries: EtcEntry[] = [];
  for (const path of paths) {
    try {
      const st = lstatSync(path);
      if (st.isSymbolicLink()) entries.push({ path, symlink: readlinkSync(path) });
      else if (st.isFile() || st.isDirectory()) entries.push({ path, bind: true });
    } catch {
      // Not on this host.
    }
  }
  return entries;
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

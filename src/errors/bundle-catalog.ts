import { entry } from './entry.ts';

/** The bundle and build catalog (PK3xx). Never renumber or rename an entry. */
export const BundleErrors = {
  ZipAbsolutePath: entry<{ path: string }>({
    code: 'PK301',
    name: 'ZipAbsolutePath',
    title: 'Absolute path in a zip',
    severity: 'error',
    message: ({ path }) =>
      `The zip entry "${path}" is an absolute path. Unzipping it would write outside the folder the candidate unzips into, so the zip is not written.`,
    hint: () => 'Give every entry a path relative to the zip root, with forward slashes.',
  }),
  ZipParentSegment: entry<{ path: string }>({
    code: 'PK302',
    name: 'ZipParentSegment',
    title: '".." in a zip path',
    severity: 'error',
    message: ({ path }) =>
      `The zip entry "${path}" has a ".." segment. Unzipping it would climb out of the target folder (a "zip slip"), so the zip is not written.`,
    hint: () => 'Remove the ".." segment; every entry must stay inside the zip root.',
  }),
  ZipBadPath: entry<{ path: string; reason: string }>({
    code: 'PK303',
    name: 'ZipBadPath',
    title: 'Malformed zip path',
    severity: 'error',
    message: ({ path, reason }) => `The zip entry "${path}" ${reason}, so the zip is not written.`,
    hint: () => 'Use a relative path of non-empty segments separated by forward slashes, each entry once.',
  }),
  ZipSymlink: entry<{ path: string; kind: string }>({
    code: 'PK304',
    name: 'ZipSymlink',
    title: 'Link or special file in a zip',
    severity: 'error',
    message: ({ path, kind }) =>
      `"${path}" is a ${kind}, not a regular file. A link can point anywhere on the author's disk, so the zip is not written rather than follow it.`,
    hint: () => 'Replace it with a copy of the file it points to, or delete it.',
  }),
  ZipGitMetadata: entry<{ path: string }>({
    code: 'PK305',
    name: 'ZipGitMetadata',
    title: '.git in a zip',
    severity: 'error',
    message: ({ path }) =>
      `"${path}" is inside a .git folder. Git metadata carries history (deleted answers, author names, remotes) that must never ship, so the zip is not written.`,
    hint: () => 'Remove the .git folder from the packet; the packet lives in the project\'s repository, not in its own.',
  }),
  ZipEnvFile: entry<{ path: string }>({
    code: 'PK306',
    name: 'ZipEnvFile',
    title: '.env file in a zip',
    severity: 'error',
    message: ({ path }) =>
      `"${path}" is a .env file. Environment files are where keys and endpoints live, so any file whose name starts with ".env" is refused and the zip is not written.`,
    hint: () => 'Delete it; if the candidate needs an example, ship "env.example" with placeholder values and say so in the prompt.',
  }),
  ZipKeyFile: entry<{ path: string }>({
    code: 'PK307',
    name: 'ZipKeyFile',
    title: 'Key or credential file in a zip',
    severity: 'error',
    message: ({ path }) =>
      `"${path}" is named like a private key or credential file (*.pem, *.key, id_rsa, .netrc, ...). It is refused whatever it holds, and the zip is not written.`,
    hint: () => 'Delete it. A test that needs a key should generate a throwaway one at run time.',
  }),
  ZipSecret: entry<{ kind: string; scanner: string; zip: string }>({
    code: 'PK308',
    name: 'ZipSecret',
    title: 'Secret found in a zip',
    severity: 'error',
    message: ({ kind, scanner, zip }) =>
      `The secret scan (${scanner}) found what looks like a ${kind} in a file bound for ${zip}. The zip is not written; the secret is not shown here.`,
    hint: () => 'Remove the secret (and rotate it if it was ever real); read keys from the environment at run time.',
  }),
  ZipNameTaken: entry<{ path: string; generated: string }>({
    code: 'PK309',
    name: 'ZipNameTaken',
    title: 'Starter file shadows a generated file',
    severity: 'error',
    message: ({ path, generated }) =>
      `"${path}" would land on ${generated} at the root of the candidate zip, which the kit writes itself from the packet (the prompt, the rubric card or the README).`,
    hint: ({ generated }) => `Rename the starter file, or move what it says into the part that ${generated} is made from.`,
  }),
  CanaryLeak: entry<{ where: string; source: string }>({
    code: 'PK310',
    name: 'CanaryLeak',
    title: 'Secret line found in the public site',
    severity: 'error',
    message: ({ where, source }) =>
      `${where} contains a line of ${source}, which is secret (sample, hidden tests, mutants, scripted replies, the failure catalog or the reviewer notes of a rubric). The build stops and the previous site is kept; the line is not shown here.`,
    hint: () =>
      "Find what put it there: a page reading a secret part, a starter file copied from the sample, a line moved out of a rubric's `## Reviewer notes`, or a zip built from the wrong tree. The public site may only read the prompt, the rubric but its reviewer notes, and the starter.",
  }),
  VersionNotBumped: entry<{ version: string; built: string; now: string }>({
    code: 'PK311',
    name: 'VersionNotBumped',
    title: 'Content changed, version did not',
    severity: 'warning',
    message: ({ version, built, now }) =>
      `The packet's content changed since the last build (digest ${built.slice(0, 12)} then, ${now.slice(0, 12)} now) but its version is still ${version}. Two different packets would carry one version, and a scored sheet could not say which one it scored.`,
    hint: ({ version }) => `Bump "version" above ${version} and add a changelog entry that says what changed.`,
  }),
  ManifestUnreadable: entry<{ reason: string }>({
    code: 'PK312',
    name: 'ManifestUnreadable',
    title: 'Last build manifest unreadable',
    severity: 'warning',
    message: ({ reason }) => `The last build's manifest could not be read (${reason}), so version changes were not checked against it.`,
    hint: () => 'Run `npx packet build` to write a fresh one.',
  }),
  BuildCheckFailed: entry<{ errors: number; packets: string }>({
    code: 'PK313',
    name: 'BuildCheckFailed',
    title: 'Build stopped by check errors',
    severity: 'error',
    message: ({ errors, packets }) =>
      `The build stopped at step "check": ${errors} error${errors === 1 ? '' : 's'} in ${packets}. Nothing was written and the previous site is kept.`,
    hint: () =>
      'Fix the errors listed above (`npx packet check` shows them with code frames), then build again; or build only the good packets with `npx packet build <id>...` (the site published then lists only those).',
  }),
  BuildRehearsalFailed: entry<{ packets: string; status: string }>({
    code: 'PK314',
    name: 'BuildRehearsalFailed',
    title: 'Build stopped by the rehearsal',
    severity: 'error',
    message: ({ packets, status }) =>
      `The build stopped at step "rehearse": ${packets} ${status}. A packet that is not proven to fail closed is not published.`,
    hint: () =>
      'Read the defects above (`npx packet rehearse` prints every check), fix the packet, and build again; `--skip-rehearse` builds a preview marked "not rehearsed".',
  }),
  SiteBuildFailed: entry<{ reason: string }>({
    code: 'PK315',
    name: 'SiteBuildFailed',
    title: 'Site build failed',
    severity: 'error',
    message: ({ reason }) => `The build stopped at step "site": the Astro build failed (${reason}). The previous site is kept.`,
    hint: () => 'Read the Astro output above; `npx astro build` with PACKET_KIT_MANIFEST and PACKET_KIT_PACKETS set reproduces it alone.',
  }),
  BuildInterrupted: entry<{ signal: string }>({
    code: 'PK316',
    name: 'BuildInterrupted',
    title: 'Build interrupted',
    severity: 'error',
    message: ({ signal }) => `The build was interrupted (${signal}). The staging folders were removed and the previous site and reviewer bundles are kept.`,
    hint: () => 'Run the build again.',
  }),
  SearchIndexFailed: entry<{ reason: string }>({
    code: 'PK317',
    name: 'SearchIndexFailed',
    title: 'Search index failed',
    severity: 'error',
    message: ({ reason }) => `The build stopped at step "search": the site's search index could not be made (${reason}). The previous site is kept.`,
    hint: () => 'Check that the pagefind package installed its binary for this platform (`npx pagefind --version`); `npm ci` installs it.',
  }),
  BuildOutputUnwritable: entry<{ folder: string; reason: string; fix: string }>({
    code: 'PK318',
    name: 'BuildOutputUnwritable',
    title: 'An output folder of the build cannot be written',
    severity: 'error',
    message: ({ folder, reason }) =>
      `The build could not write ${folder}: ${reason}. Nothing was published: the previous site and reviewer bundles are kept, and the build's staging folders were removed.`,
    hint: ({ fix }) => `${fix[0]!.toUpperCase()}${fix.slice(1)} (--out-dir DIR and --reviewer-dir DIR choose the folders), then build again.`,
  }),
  PublishBusy: entry<{ folder: string; pid: number }>({
    code: 'PK319',
    name: 'PublishBusy',
    title: 'Another build is publishing into the same folder',
    severity: 'error',
    message: ({ folder, pid }) =>
      `Another build (process ${pid}) is publishing into ${folder} right now, so this one did not: two publishes at once could leave the site of one build beside the reviewer bundles of the other. The folders hold one whole build.`,
    hint: ({ pid }) => `Wait for process ${pid} to finish (or stop it), then build again; a lock whose process is gone is taken over by the next build.`,
  }),
  CandidateZipTooLarge: entry<{ zip: string; size: string; limit: string; override: boolean }>({
    code: 'PK325',
    name: 'CandidateZipTooLarge',
    title: 'Candidate zip above the size limit',
    severity: 'error',
    message: ({ zip, size, limit, override }) =>
      `The candidate zip ${zip} is ${size}, over the limit of ${limit} for ${override ? 'this packet (its `limits.zipMb`)' : 'a packet'}. Every candidate downloads it and every rehearsal unpacks it, so the build stops and the previous site is kept.`,
    hint: ({ override }) =>
      override
        ? 'Shrink the starter, or raise `limits.zipMb` in prompt.mdx (at most 1024) and say why in `limits.reason`.'
        : 'Shrink the starter (generate large data in the tests); a packet that truly needs a large zip raises the limit in prompt.mdx with `limits: { zipMb: N, reason: "..." }`.',
  }),
} as const satisfies Record<string, ReturnType<typeof entry<any>>>;

import { tmpdir } from 'node:os';
import path from 'node:path';
import pc from 'picocolors';
import { diagnose, Errors } from '../../errors/catalog.ts';
import { sortDiagnostics } from '../../errors/diagnostic.ts';
import { GradeErrors } from '../../errors/grade-catalog.ts';
import { gradeSubmissions, type GradeObserver } from '../../grade/grade.ts';
import { testsInWords } from '../../grade/scorecard.ts';
import { loadPacketFiles } from '../../judge/workspace.ts';
import { KIT_ROOT } from '../../kit/fingerprint.ts';
import { kitVersion } from '../../kit/identity.ts';
import { loadPackets } from '../../packets/load.ts';
import { prepareRunEnvironment } from '../../rehearse/environment.ts';
import { createScratchRoot } from '../../sandbox/scratch.ts';
import { formatDiagnosticsText } from '../format-diagnostics.ts';
import { gradeSpec } from '../command-specs.ts';
import { helpText, parseCommand } from '../flags.ts';
import type { CliIo } from '../io.ts';
import { parsePoolOptions } from '../pool-options.ts';



function observer(io: CliIo, format: string): GradeObserver {
  const c = io.isTTY ? pc : pc.createColors(false);
  if (format === 'json') return {};
  return {
    onStart: (n) => io.out(`grading ${n} submission${n === 1 ? '' : 's'}\n`),
    onCheap: (name, findings) => {
      const errors = findings.filter((f) => f.severity === 'error');
      if (errors.length) io.out(`  ${name}: before the sandbox, ${errors.map((f) => f.code).join(' ')}\n`);
    },
    onCard: (card, done, total) => {
      const v = card.verdict;
      const colour = v === 'PASS' ? c.green : v === 'REFUSED' || v === 'INCONCLUSIVE' ? c.yellow : c.red;
      const tests = `tests ${testsInWords(card)}`;
      const codes = [...new Set(card.findings.map((f) => f.code))];
      io.out(`[${done}/${total}] ${card.submission.name}: ${colour(v)}, ${tests}${codes.length ? `, ${codes.join(' ')}` : ''}; auto ${card.decision.autoPoints}, ${card.decision.state}\n`);
    },
  };
}

/** `packet grade`. */
export async function gradeCommand(args: string[], io: CliIo): Promise<number> {
  const { values, positionals } = parseCommand(gradeSpec, args);
  if (values.help) {
    io.out(helpText(gradeSpec));
    return 0;
  }
  const [id, ...submissions] = positionals;
  if (!id || !submissions.length) {
    io.err(`packet grade: name a packet and at least one submission.\n\n${helpText(gradeSpec)}`);
    return 2;
  }
  if (values.format !== 'text' && values.format !== 'json') {
    io.err(`packet grade: --format must be text or json, not "${values.format}".\n`);
    return 2;
  }
  const pool = parsePoolOptions('grade', values, io);
  if (!pool) return 2;
  const loaded = await loadPackets({ packetsDir: values.packets, cwd: io.cwd });
  const packet = loaded.packets.find((p) => p.id === id);
  const source = loaded.sources.find((s) => s.id === id);
  if (packet && packet.kind !== 'takehome') {
    const d = diagnose(GradeErrors.PacketNotTakehome, { file: `${values.packets}/${id}` }, { id, kind: packet.kind });
    io.err(`${d.code} ${d.message}\n  hint: ${d.hint}\n`);
    return 2;
  }
  if (!packet || !source) {
    const errors = sortDiagnostics(loaded.diagnostics.filter((d) => d.severity === 'error' && d.file.includes(`/${id}/`)));
    if (errors.length) {
      io.err(formatDiagnosticsText(errors, { cwd: io.cwd, frames: false, color: false }));
      const d = diagnose(GradeErrors.PacketNotClean, { file: `${values.packets}/${id}` }, { id, count: errors.length });
      io.err(`${d.code} ${d.message}\n  hint: ${d.hint}\n`);
    } else {
      const d = diagnose(GradeErrors.PacketUnknown, { file: values.packets }, { id, known: loaded.packets.map((p) => p.id).join(', ') || 'none' });
      io.err(`${d.code} ${d.message}\n  hint: ${d.hint}\n`);
    }
    return 2;
  }
  const bwrapPath = io.env.PACKET_KIT_BWRAP;
  // Workspaces, the interpreter shim and the self-test live in one scratch root, removed at the
  // end, on Ctrl-C or SIGTERM, or by a later run if this one is killed.
  const scratchRoot = await createScratchRoot({ parent: tmpdir() });
  const prepared = await prepareRunEnvironment({ env: io.env, tmpDir: scratchRoot.dir, allowUnconfined: values.unconfined, ...(bwrapPath ? { bwrapPath } : {}) });
  if (!prepared.ok) {
    const d = diagnose(Errors.SandboxUnavailable, { file: values.packets }, { reason: prepared.message });
    io.err(`${d.code} ${d.message}\n  hint: ${d.hint}\n`);
    await scratchRoot.dispose();
    return 2;
  }
  const { environment } = prepared;
  if (environment.notice) io.err(`note: ${environment.notice} Submissions are untrusted code.\n`);
  const scratch = scratchRoot.dir;
  const outDir = path.resolve(io.cwd, values.out, id);
  try {
    const files = await loadPacketFiles(packet, path.resolve(io.cwd, values.packets, source.folder));
    const { cards, summary } = await gradeSubmissions({
      files,
      submissions: submissions.map((s) => path.resolve(io.cwd, s)),
      outDir,
      runner: { sandbox: environment.sandbox, mounts: environment.interpreter.mounts, timeoutMs: pool.timeout * 1000, ...(packet.prompt.data.sandbox ? { caps: packet.prompt.data.sandbox } : {}) },
      sandboxKind: environment.sandbox.kind,
      scratchDir: scratch,
      jobs: pool.jobs,
      kitVersion: kitVersion(KIT_ROOT),
      date: io.now,
      now: () => performance.now(),
      random: Math.random,
      observer: observer(io, values.format),
    });
    if (values.format === 'json') io.out(`${JSON.stringify(summary, null, 2)}\n`);
    else io.out(`summary: ${path.relative(io.cwd, path.join(outDir, 'summary.csv'))}\n`);
    const ungraded = cards.filter((c) => !c.graded || c.verdict === 'INCONCLUSIVE');
    return ungraded.length ? 1 : 0;
  } finally {
    await environment.dispose();
    await scratchRoot.dispose();
  }
}

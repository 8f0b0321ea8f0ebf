import { describe, expect, it } from 'vitest';
import { readmeMarkdown } from '../../../src/bundle/candidate-zip.ts';
import { DONE_LABEL, HAND_IN_FALLBACK, handInTo, sheetFilePattern } from '../../../src/labs/hand-in.ts';
import { sheetFileName } from '../../../src/labs/sheet-read.ts';
import { edit, labWith } from '../labs/helpers.ts';
import { memPacket } from './helpers.ts';

/** The prompt with this handIn in place of the scaffold's own (none when `value` is undefined). */
const handIn = (text: string | undefined, value: string | undefined) => {
  const without = (text ?? '').replace(/\nhandIn: [^\n]*/, '');
  return value === undefined ? without : edit(without, '\nversion:', `\nhandIn: ${value}\nversion:`);
};

describe("the zip's hand-in text, per kind", () => {
  it("names the exported sheet's file as the lab page makes it", () => {
    const pattern = sheetFilePattern('lab-free-time', '1.0.1');
    expect(pattern).toBe('lab-free-time-1.0.1-answers-<your-name>.json');
    expect(sheetFileName({ id: 'lab-free-time', version: '1.0.1', digest: '', candidate: 'Your Name' })).toBe(pattern.replace('<your-name>', 'your-name'));
    expect(handInTo(undefined)).toBe(HAND_IN_FALLBACK);
    expect(handInTo({ to: '  ' })).toBe(HAND_IN_FALLBACK);
  });

  it("a lab's PACKET.md says to send the answer sheet by its file name, to the person who sent the packet, and never the folder", () => {
    const { packet } = labWith((f) => ({ 'prompt.mdx': handIn(f['prompt.mdx'], undefined) }));
    expect(packet!.prompt.data.handIn).toBeUndefined();
    const md = readmeMarkdown(packet!);
    const version = packet!.prompt.data.version;
    const hand = md.slice(md.indexOf('## Hand in'));
    expect(hand).toContain(`\`mem-${version}-answers-<your-name>.json\``);
    expect(hand).toContain(`Send that one file, and nothing else, to **${HAND_IN_FALLBACK}**.`);
    expect(hand).toContain(`"${DONE_LABEL}"`);
    expect(hand).toContain('`packet grade`');
    expect(md).not.toContain('Send back this whole folder');
    expect(md).not.toContain('README.md included');
    expect(md).not.toMatch(/`answer sheet`/);
    // The lab's own page, by its path; none of a take-home folder's rules (a sheet is graded, not the folder).
    expect(hand).toContain('`/labs/mem/`');
    expect(md).not.toContain('noted against the submission');
    expect(md).not.toContain('put back before grading');
  });

  it("a lab's PACKET.md names the packet's handIn address and note as text", () => {
    const { packet, diagnostics } = labWith((f) => ({ 'prompt.mdx': handIn(f['prompt.mdx'], '{ to: "lead@example.com", note: "Put the lab id in the subject." }') }));
    expect(diagnostics.filter((d) => d.severity === 'error')).toEqual([]);
    const md = readmeMarkdown(packet!);
    expect(md).toContain('Send that one file, and nothing else, to **lead@example.com**.');
    expect(md).toContain('Put the lab id in the subject.');
    expect(md).not.toContain(HAND_IN_FALLBACK);
  });

  it("a take-home's README.md keeps the folder hand-in and says where it goes", () => {
    const plain = readmeMarkdown(memPacket().packet);
    expect(plain).toContain('Send back this whole folder, README.md included');
    expect(plain).toContain(`Send it to **${HAND_IN_FALLBACK}**.`);
    expect(plain).not.toContain('answers-<your-name>.json');
    expect(plain).toContain('Only these paths may change; a change anywhere else is noted against the submission');
    const { packet } = memPacket((f) => ({ 'prompt.mdx': handIn(f['prompt.mdx'], '{ to: "https://jobs.example.com/upload" }') }));
    expect(readmeMarkdown(packet)).toContain('Send it to **https://jobs.example.com/upload**.');
  });
});

import { describe, expect, it } from 'vitest';
import type { BuildStatus } from '../../../src/packets/build-status.ts';
import { drillCard, packetCard } from '../../../src/site/catalog-card.ts';

const prompt = { title: 'Retry Budget', summary: 'Cap the retries.', level: 'mid', language: 'python', tags: ['http', 'retries'], minutes: 45, version: '1.2.0' };
const status: BuildStatus = { download: { zip: 'retry-1.2.0.zip', size: 2048, sha256: 'a'.repeat(64) }, rehearsal: 'fails-closed', indexed: true };
const facts = (card: { facts: { label: string; value: string; fact?: string }[] }) => card.facts.map((f) => `${f.label}=${f.value}${f.fact ? ` [${f.fact}]` : ''}`);

describe('a catalog card', () => {
  it('of a take-home links its page, has no kind word, and shows its zip and rehearsal', () => {
    const card = packetCard({ id: 'retry', prompt, visibleTests: 6 }, status);
    expect(card).toMatchObject({ id: 'retry', href: '/packets/retry/', title: 'Retry Budget', level: 'mid', language: 'python', tags: ['http', 'retries'], status });
    expect(card.kind).toBeUndefined();
    expect(facts(card)).toEqual(['Language=Python', 'Time=45 min', 'Tests=6 [tests]', 'Version=1.2.0 [version]']);
    expect(card.search).toBe('Retry Budget Cap the retries. retry python http retries');
  });

  it('of a lab opens the lab page and counts its suggestions', () => {
    const card = packetCard({ id: 'lab-x', prompt, lab: { suggestions: [1, 2, 3] } }, status);
    expect(card).toMatchObject({ href: '/labs/lab-x/', kind: 'Lab', status });
    expect(facts(card)).toEqual(['Language=Python', 'Suggestions=3 [suggestions]', 'Tests=n/a [tests]', 'Time=45 min', 'Version=1.2.0 [version]']);
  });

  it('of a drill counts its diffs, has no zip, and is found by the word "drill"', () => {
    const card = drillCard({ id: 'drill-x', prompt, diffs: [1, 2] });
    expect(card).toMatchObject({ href: '/drills/drill-x/', kind: 'Drill' });
    expect(card.status).toBeUndefined();
    expect(facts(card)).toEqual(['Language=Python', 'Diffs=2 [diffs]', 'Time=45 min', 'Version=1.2.0 [version]']);
    expect(card.search).toBe('Retry Budget Cap the retries. drill-x python drill http retries');
  });
});

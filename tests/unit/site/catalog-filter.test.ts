import { describe, expect, it } from 'vitest';
import { countSentence, matchesQuery, queryFromSearch, queryToSearch, type CardFacts } from '../../../src/site/catalog-filter.ts';

const card: CardFacts = { id: 'fetch-retry-ticket', level: 'mid', language: 'python', tags: ['retries', 'http'], text: 'The retry ticket: Add bounded, selective retries. fetch-retry-ticket retries http' };
const any = { q: '', level: '', language: '', tag: '' };

describe('catalog filters', () => {
  it('match by level, language, tag and every search word', () => {
    expect(matchesQuery(card, any)).toBe(true);
    expect(matchesQuery(card, { ...any, level: 'mid' })).toBe(true);
    expect(matchesQuery(card, { ...any, level: 'senior' })).toBe(false);
    expect(matchesQuery(card, { ...any, language: 'go' })).toBe(false);
    expect(matchesQuery(card, { ...any, tag: 'http' })).toBe(true);
    expect(matchesQuery(card, { ...any, tag: 'htt' })).toBe(false);
    expect(matchesQuery(card, { ...any, q: '  RETRY   Ticket ' })).toBe(true);
    expect(matchesQuery(card, { ...any, q: 'retry budget' })).toBe(false);
    expect(matchesQuery({ ...card, text: 'Café résumé' }, { ...any, q: 'cafe' })).toBe(true);
  });

  it('match a word only the prompt holds when the search index found the packet, and still apply the other filters', () => {
    const found = new Set(['fetch-retry-ticket']);
    expect(matchesQuery(card, { ...any, q: 'jitter' })).toBe(false);
    expect(matchesQuery(card, { ...any, q: 'jitter' }, found)).toBe(true);
    expect(matchesQuery(card, { ...any, q: 'jitter', level: 'senior' }, found)).toBe(false);
    expect(matchesQuery(card, { ...any, q: 'jitter' }, new Set(['other']))).toBe(false);
  });

  it('round-trip through the URL, leaving out what is empty', () => {
    expect(queryToSearch(any)).toBe('');
    const query = { q: 'retry budget', level: 'mid', language: '', tag: 'http' };
    expect(queryToSearch(query)).toBe('?q=retry+budget&level=mid&tag=http');
    expect(queryFromSearch(queryToSearch(query))).toEqual(query);
  });

  it('say how many packets are shown', () => {
    expect(countSentence(7, 7)).toBe('Showing all 7 packets.');
    expect(countSentence(2, 7)).toBe('Showing 2 of 7 packets.');
    expect(countSentence(0, 1)).toBe('No packet matches these filters (1 packet in all).');
  });
});

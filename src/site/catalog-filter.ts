/**
 * The catalog's filters and search, as pure functions the page's client script applies to the
 * server-rendered cards. The full list is in the HTML; filtering only hides cards.
 */

/** What the reader asked for; an empty string means "any". */
export interface CatalogQuery {
  /** Free text: every word must appear in the card's title, summary, id or tags. */
  q: string;
  level: string;
  language: string;
  tag: string;
}

/** What a card offers to the filters (read from its data attributes). */
export interface CardFacts {
  /** The packet id. */
  id: string;
  level: string;
  language: string;
  tags: readonly string[];
  /** The searchable text: title, summary, id and tags. */
  text: string;
}

/** The query's fields, in the order of the form and the URL. */
export const QUERY_FIELDS = ['q', 'level', 'language', 'tag'] as const;

/** Lowercase, accents dropped, runs of white space as one: what search compares. */
export function normalizeText(text: string): string {
  return text.normalize('NFKD').replace(/[\u0300-\u036f]/g, '').toLowerCase().replace(/\s+/g, ' ').trim();
}

/**
 * Does a card match the query? The free text matches when every word is in the card's own text,
 * or when the site's search index found the packet for it (`found`: ids, for the query's `q`).
 */
export function matchesQuery(card: CardFacts, query: CatalogQuery, found?: ReadonlySet<string>): boolean {
  if (query.level && card.level !== query.level) return false;
  if (query.language && card.language !== query.language) return false;
  if (query.tag && !card.tags.includes(query.tag)) return false;
  const words = normalizeText(query.q).split(' ').filter(Boolean);
  const text = normalizeText(card.text);
  return words.every((w) => text.includes(w)) || (found?.has(card.id) ?? false);
}

/** Read a query from a URL's search string (`?level=mid&q=retry`). */
export function queryFromSearch(search: string): CatalogQuery {
  const params = new URLSearchParams(search);
  return { q: params.get('q') ?? '', level: params.get('level') ?? '', language: params.get('language') ?? '', tag: params.get('tag') ?? '' };
}

/** Write a query as a URL search string, leaving out empty fields (`''` when nothing is asked). */
export function queryToSearch(query: CatalogQuery): string {
  const params = new URLSearchParams();
  for (const field of QUERY_FIELDS) if (query[field]) params.set(field, query[field]);
  const text = params.toString();
  return text ? `?${text}` : '';
}

/** The sentence under the filters: `Showing 3 of 7 packets.` */
export function countSentence(shown: number, total: number): string {
  const noun = total === 1 ? 'packet' : 'packets';
  if (shown === total) return `Showing all ${total} ${noun}.`;
  if (shown === 0) return `No packet matches these filters (${total} ${noun} in all).`;
  return `Showing ${shown} of ${total} ${noun}.`;
}

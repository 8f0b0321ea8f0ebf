/** Milliseconds for people: `0.4 s`, `12.1 s`, `3 min 5 s`. */
export function seconds(ms: number): string {
  if (ms < 60_000) return `${(ms / 1000).toFixed(1)} s`;
  const s = Math.round(ms / 1000);
  return `${Math.floor(s / 60)} min ${s % 60} s`;
}

/** A token count for people: `1,234`, or what is known when some usage was not reported. */
export function tokens(total: number | null, known: number, unknownCalls: number): string {
  if (total !== null) return `${total.toLocaleString('en-US')} tokens`;
  return `${known.toLocaleString('en-US')}+ tokens (${unknownCalls} call${unknownCalls === 1 ? '' : 's'} without usage)`;
}

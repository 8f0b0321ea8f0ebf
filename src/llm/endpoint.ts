/**
 * Where the model is: a flag, or LLM_ENDPOINT, or OPENAI_BASE_URL. The URL is normalised for
 * the SDK (credentials dropped, the query moved to default query parameters, `/v1` added to a
 * bare host), and only its host ever reaches a report.
 */

/** An endpoint ready for the client. */
export interface Endpoint {
  /** Base URL for the SDK: scheme, host, path; no credentials, no query. */
  baseURL: string;
  /** Query parameters the URL carried (some gateways need them on every request). */
  defaultQuery: Record<string, string>;
  /** Host and port only: what reports and ledgers record. */
  host: string;
  /** Where the URL came from. */
  source: 'flag' | 'LLM_ENDPOINT' | 'OPENAI_BASE_URL';
}

/** The endpoint URL from the flag, then LLM_ENDPOINT, then OPENAI_BASE_URL; undefined when none is set. */
export function endpointFrom(flag: string | undefined, env: Readonly<Record<string, string | undefined>>): { url: string; source: Endpoint['source'] } | undefined {
  if (flag?.trim()) return { url: flag.trim(), source: 'flag' };
  if (env.LLM_ENDPOINT?.trim()) return { url: env.LLM_ENDPOINT.trim(), source: 'LLM_ENDPOINT' };
  if (env.OPENAI_BASE_URL?.trim()) return { url: env.OPENAI_BASE_URL.trim(), source: 'OPENAI_BASE_URL' };
  return undefined;
}

/** Normalise an endpoint URL, or say why it is not one. */
export function parseEndpoint(url: string, source: Endpoint['source'] = 'flag'): { ok: true; endpoint: Endpoint } | { ok: false; reason: string } {
  if (!/^[a-z][a-z0-9+.-]*:\/\//i.test(url) && !/^[a-z]+:/i.test(url)) return { ok: false, reason: 'it has no scheme (write http:// or https:// first)' };
  let u: URL;
  try {
    u = new URL(url);
  } catch {
    return { ok: false, reason: 'it is not a URL' };
  }
  if (u.protocol !== 'http:' && u.protocol !== 'https:') return { ok: false, reason: `its scheme is ${u.protocol.replace(/:$/, '')}, not http or https` };
  if (!u.hostname) return { ok: false, reason: 'it names no host' };
  const defaultQuery: Record<string, string> = {};
  for (const [k, v] of u.searchParams) defaultQuery[k] = v;
  const pathname = u.pathname.replace(/\/+$/, '');
  const baseURL = `${u.protocol}//${u.host}${pathname || '/v1'}`;
  return { ok: true, endpoint: { baseURL, defaultQuery, host: u.host, source } };
}

/** Host and port of a URL, for reports: never credentials, path or query. */
export function endpointHost(url: string): string {
  try {
    return new URL(url).host;
  } catch {
    return 'invalid-url';
  }
}

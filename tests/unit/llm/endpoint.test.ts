import { describe, expect, it } from 'vitest';
import { endpointFrom, endpointHost, parseEndpoint } from '../../../src/llm/endpoint.ts';

describe('the endpoint', () => {
  it('comes from the flag, then LLM_ENDPOINT, then OPENAI_BASE_URL', () => {
    const env = { LLM_ENDPOINT: 'http://127.0.0.1:2/v1', OPENAI_BASE_URL: 'http://127.0.0.1:3/v1' };
    expect(endpointFrom('http://127.0.0.1:1/v1', env)).toEqual({ url: 'http://127.0.0.1:1/v1', source: 'flag' });
    expect(endpointFrom(undefined, env)).toEqual({ url: 'http://127.0.0.1:2/v1', source: 'LLM_ENDPOINT' });
    expect(endpointFrom(undefined, { OPENAI_BASE_URL: 'http://127.0.0.1:3/v1' })).toEqual({ url: 'http://127.0.0.1:3/v1', source: 'OPENAI_BASE_URL' });
    expect(endpointFrom('  ', { LLM_ENDPOINT: '' })).toBeUndefined();
  });

  it('drops credentials, moves the query aside, adds /v1 to a bare host, and reports the host only', () => {
    const r = parseEndpoint('https://user:sk-secret@models.example.test:8443/openai/v1/?api-version=2&key=sk-q');
    expect(r).toEqual({
      ok: true,
      endpoint: { baseURL: 'https://models.example.test:8443/openai/v1', defaultQuery: { 'api-version': '2', key: 'sk-q' }, host: 'models.example.test:8443', source: 'flag' },
    });
    expect(parseEndpoint('http://127.0.0.1:9000')).toMatchObject({ ok: true, endpoint: { baseURL: 'http://127.0.0.1:9000/v1', host: '127.0.0.1:9000' } });
    expect(endpointHost('http://u:p@127.0.0.1:5/v1?k=1')).toBe('127.0.0.1:5');
  });

  it('refuses what is not an http(s) URL', () => {
    expect(parseEndpoint('127.0.0.1:9000/v1')).toEqual({ ok: false, reason: 'it has no scheme (write http:// or https:// first)' });
    expect(parseEndpoint('localhost:9000')).toEqual({ ok: false, reason: 'its scheme is localhost, not http or https' });
    expect(parseEndpoint('http://')).toEqual({ ok: false, reason: 'it is not a URL' });
    expect(parseEndpoint('file:///etc/passwd')).toEqual({ ok: false, reason: 'its scheme is file, not http or https' });
  });
});

import { redact } from '../llm/stable-json.ts';

/**
 * The secrets of a run (the API key), known once the run context has resolved them, and the
 * redaction every line of the run's output goes through: the terminal's streams are wrapped
 * in it before the key is read, so nothing printed later can carry it.
 */
export interface RunSecrets {
  /** Keep `secret` out of every later line; an empty value is ignored. */
  add(secret: string | null | undefined): void;
  /** The secrets so far, in the order added. */
  list(): readonly string[];
  /** `text` with every secret so far replaced. */
  redact(text: string): string;
}

/** An empty secret list. */
export function createSecrets(): RunSecrets {
  const secrets: string[] = [];
  return {
    add(secret) {
      if (secret && !secrets.includes(secret)) secrets.push(secret);
    },
    list: () => secrets,
    redact: (text) => (secrets.length ? redact(text, secrets) : text),
  };
}

/**
 * Which model a run calls and where: `--model` (and, for a rehearsal, $LLM_MODEL), `--endpoint`
 * or $LLM_ENDPOINT / $OPENAI_BASE_URL, and the key in the variable `--api-key-env` names. No
 * endpoint means the embedded scripted endpoint. An endpoint in the environment without a model
 * is noted and not used; an endpoint that is not a URL, or a flag endpoint without a model, stops
 * the run before anything starts.
 */
import { diagnose } from '../errors/catalog.ts';
import { ModelErrors } from '../errors/model-catalog.ts';
import { endpointFrom, parseEndpoint } from '../llm/endpoint.ts';
import type { RunMessages } from './reporter.ts';

/** An endpoint other than the embedded one, ready for the client. */
export interface LiveEndpoint {
  baseURL: string;
  host: string;
  defaultQuery: Record<string, string>;
}

/** The model flags of a run. */
export interface ModelFlags {
  endpoint?: string | undefined;
  model?: string | undefined;
  /** The variable that holds the key (`--api-key-env`). */
  apiKeyEnv: string;
  /** A rehearsal: `--model a,b` names several models, and $LLM_MODEL counts as `--model` when an endpoint is set. */
  modelList?: boolean;
  /** What the run does instead of calling an endpoint the environment names without a model ("rehearsing the scripted replies only"). */
  scriptedOnly: string;
  /** Read the key even when the embedded endpoint answers (a rehearsal redacts it all the same). */
  keyAlways?: boolean;
}

/** The model side of a run, resolved. */
export interface ModelChoice {
  /** The endpoint named; absent: the embedded scripted endpoint. */
  live?: LiveEndpoint;
  /** The models named; absent: none (a rehearsal runs its scripted replies only). */
  models?: string[];
  /** The key, or null when the variable is unset or not read. */
  apiKey: string | null;
}

/** `a, b,a` -> [a, b]: the models of `--model` or $LLM_MODEL, in order, each once; null when none is named. */
export function parseModelList(text: string): string[] | null {
  const models = [...new Set(text.split(',').map((m) => m.trim()).filter(Boolean))];
  return models.length ? models : null;
}

/** The models named, or null after saying why none is. */
function modelsOf(command: string, flags: ModelFlags, env: Readonly<Record<string, string | undefined>>, messages: RunMessages): { models?: string[] } | null {
  if (!flags.modelList) return flags.model ? { models: [flags.model] } : {};
  const fromEnv = env.LLM_MODEL?.trim() || undefined;
  const endpoint = endpointFrom(flags.endpoint, env);
  if (flags.model === undefined && fromEnv && !endpoint) {
    messages.onMessage?.(`note: $LLM_MODEL is set but no endpoint is (--endpoint, $LLM_ENDPOINT or $OPENAI_BASE_URL); ${flags.scriptedOnly}.\n`);
  }
  const text = flags.model ?? (endpoint ? fromEnv : undefined);
  if (text === undefined) return {};
  const models = parseModelList(text);
  if (!models) {
    messages.onMessage?.(`packet ${command}: ${flags.model !== undefined ? '--model' : '$LLM_MODEL'} names no model ("${text}"); give one or more ids, comma-separated.\n`);
    return null;
  }
  return { models };
}

/** Resolve the model, the endpoint and the key; null after telling `messages` why the run cannot start. */
export function resolveModelEndpoint(command: string, flags: ModelFlags, env: Readonly<Record<string, string | undefined>>, messages: RunMessages): ModelChoice | null {
  const chosen = modelsOf(command, flags, env, messages);
  if (!chosen) return null;
  const { models } = chosen;
  let from = endpointFrom(flags.endpoint, env);
  if (from && from.source !== 'flag' && !models) {
    // An endpoint in the environment is for live runs; without a model there is none to make.
    messages.onMessage?.(`note: $${from.source} is set but no --model${flags.modelList ? ' (or $LLM_MODEL)' : ''} is given; ${flags.scriptedOnly}.\n`);
    from = undefined;
  }
  let live: LiveEndpoint | undefined;
  if (from) {
    const parsed = parseEndpoint(from.url, from.source);
    const source = from.source === 'flag' ? '--endpoint' : `$${from.source}`;
    if (!parsed.ok) {
      messages.onDiagnostic?.(diagnose(ModelErrors.EndpointInvalid, { file: source }, { source, reason: parsed.reason }));
      return null;
    }
    if (!models) {
      messages.onDiagnostic?.(diagnose(ModelErrors.ModelMissing, { file: source }, { source }));
      return null;
    }
    live = parsed.endpoint;
  }
  const apiKey = live || flags.keyAlways ? env[flags.apiKeyEnv] || null : null;
  if (live && !apiKey) messages.onDiagnostic?.(diagnose(ModelErrors.ApiKeyMissing, { file: flags.apiKeyEnv }, { variable: flags.apiKeyEnv }));
  return { ...(live ? { live } : {}), ...(models ? { models } : {}), apiKey };
}

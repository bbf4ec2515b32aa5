/**
 * The fake's soev server: the threads API of a soev system under test (soev's `soev_thread` arm;
 * docs/soev.md), as Assay drives it through its custom HTTP mapping: each turn is one
 * `POST {base}/api/v1/threads/runs` carrying the agent, the knowledge keys and the whole
 * conversation, with a bearer token and the `X-Soev-Subject` header (both required, as soev
 * requires them). The answer is the reply text and the elements it cites, each with the canonical
 * source id in `metadata.unit_id` (what the project's citation mapping reads).
 *
 * The reply comes from the fake's rules like every dialect's. A rule's reply cites with
 * `[cite:law/1/2]` markers: each becomes a cited element and is taken out of the text, so a
 * test scripts the citations of a case beside its text. Without a rule the reply is
 * deterministic: it echoes the question and cites nothing.
 */
import type { FakeAnswer } from './llm-server-dialects';
import type { FakeMessage, FakeRequest } from './llm-server-rules';

export const SOEV_RUNS_PATH = '/soev/api/v1/threads/runs';

type Json = Record<string, unknown>;
const isRecord = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);

export class SoevBadRequest extends Error {}

export function parseSoevRequest(body: Json, headers: Record<string, string | string[] | undefined>, attempt: string | undefined): FakeRequest {
  if (!headers['x-soev-subject']) throw new SoevBadRequest('X-Soev-Subject: header required (the subject the thread runs for)');
  if (typeof body.agent !== 'string' || body.agent === '') throw new SoevBadRequest("'agent' is required");
  if (body.knowledge !== undefined && !(Array.isArray(body.knowledge) && body.knowledge.every((k) => typeof k === 'string'))) throw new SoevBadRequest("'knowledge' must be a list of keys");
  if (!Array.isArray(body.messages) || body.messages.length === 0) throw new SoevBadRequest("'messages' must be a non-empty array");
  const messages: FakeMessage[] = [];
  let system = '';
  for (const m of body.messages) {
    if (!isRecord(m) || typeof m.content !== 'string') throw new SoevBadRequest('each message needs a role and a string content');
    if (m.role === 'system') system = [system, m.content].filter(Boolean).join('\n\n');
    else if (m.role === 'user' || m.role === 'assistant') messages.push({ role: m.role, content: m.content });
    else throw new SoevBadRequest(`unknown role ${JSON.stringify(m.role)}`);
  }
  return { dialect: 'soev', model: typeof body.model === 'string' ? body.model : `soev:${body.agent}`, system, messages, tools: [], ...(attempt !== undefined ? { attempt } : {}) };
}

const CITE = /\s*\[cite:([^\]\s]+)\]/g;

/** The reply text without its `[cite:id]` markers, and one cited element per marker (in order, once each). */
export function soevCitations(text: string): { text: string; citations: { title: string; url: string; metadata: { unit_id: string } }[] } {
  const ids = [...new Set([...text.matchAll(CITE)].map((m) => m[1]!))];
  return {
    text: text.replace(CITE, ''),
    citations: ids.map((id) => ({ title: `Bron ${id}`, url: `https://wetten.example/${id}`, metadata: { unit_id: id } })),
  };
}

export function renderSoevAnswer(req: FakeRequest, answer: FakeAnswer, seq: number): Json {
  const { text, citations } = soevCitations(answer.content);
  return {
    thread_id: `thread-fake-${seq}`,
    reply: { text, model: answer.served.model, citations },
    usage: { prompt_tokens: answer.usage.promptTokens, completion_tokens: answer.usage.completionTokens },
    agent: req.model,
  };
}

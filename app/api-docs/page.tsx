/**
 * The public API's reference, read from the same OpenAPI document `/api/v1/openapi.json` serves,
 * rendered on the server: no script, nothing fetched from elsewhere.
 */
import type { Metadata } from 'next';
import { openApiDocument } from '@/lib/server/api-v1/openapi';
import { API_V1_LIMIT } from '@/lib/server/api-v1/v1-route';
import { docsView } from '@/lib/views/api-v1/docs-view';
import { link, muted } from '@/components/ui';
import { EndpointDocs } from './endpoint-docs';

export const metadata: Metadata = { title: 'API' };

export default function ApiDocsPage() {
  const view = docsView(openApiDocument());
  return (
    <div className="space-y-10">
      <section className="space-y-3">
        <h1 className="text-2xl font-semibold tracking-tight">
          {view.title}, version {view.version}
        </h1>
        <p className={`max-w-3xl ${muted}`}>{view.description}</p>
        <p className="text-sm">
          The machine-readable document:{' '}
          <a className={link} href="/api/v1/openapi.json">
            /api/v1/openapi.json
          </a>{' '}
          (OpenAPI 3.1). Lists come a page at a time: pass the answer’s <code>next_cursor</code> as <code>cursor</code> until it is null. Every answer has an ETag; a client may make {API_V1_LIMIT.limit} requests every {API_V1_LIMIT.windowSeconds} seconds.
        </p>
        <nav aria-label="endpoints">
          <ul className="list-inside list-disc text-sm">
            {view.endpoints.map((e) => (
              <li key={e.id}>
                <a className={link} href={`#${e.id}`}>
                  {e.path}
                </a>{' '}
                — {e.summary}
              </li>
            ))}
          </ul>
        </nav>
      </section>
      {view.endpoints.map((e) => (
        <EndpointDocs key={e.id} endpoint={e} />
      ))}
    </div>
  );
}

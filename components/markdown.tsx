/**
 * Replies and blueprint text are untrusted: a model (or an author) can write anything. They
 * render as Markdown that cannot run script or load remote content in a reader's browser:
 *   - raw HTML is never interpreted; it shows as the literal text the model wrote (it is
 *     evidence: a reader should see that a model answered with a <script> tag);
 *   - images are never loaded; they show as inert text with their description;
 *   - links keep only http, https and mailto targets, with rel="noopener noreferrer nofollow";
 *     anything else (javascript:, data:, relative) renders as plain text;
 *   - rehype-sanitize (GitHub's allow-list) runs last, as a second wall, and prefixes ids.
 * The CSP in next.config.mjs is the third wall: no inline handlers' effects, no remote images.
 */
import ReactMarkdown, { type Components } from 'react-markdown';
import rehypeSanitize, { defaultSchema } from 'rehype-sanitize';
import remarkGfm from 'remark-gfm';

interface MdNode {
  type: string;
  value?: string;
  lang?: string;
  alt?: string | null;
  children?: MdNode[];
}

const BLOCK_PARENTS = new Set(['root', 'blockquote', 'listItem', 'footnoteDefinition']);

/**
 * remark plugin: raw HTML becomes literal text (a code block at block level, plain text
 * inline) and images become "[image not loaded: alt]" text, before anything becomes HTML.
 */
function inertHtmlAndImages() {
  const walk = (node: MdNode) => {
    for (const child of node.children ?? []) {
      if (child.type === 'html') {
        Object.assign(child, BLOCK_PARENTS.has(node.type) ? { type: 'code', lang: 'html' } : { type: 'text' });
      } else if (child.type === 'image' || child.type === 'imageReference') {
        Object.assign(child, { type: 'inlineCode', value: `[image not loaded${child.alt ? `: ${child.alt}` : ''}]` });
      }
      walk(child);
    }
  };
  return (tree: MdNode) => walk(tree);
}

const SAFE_LINK = /^(https?:\/\/|mailto:)/i;

/** The only link targets a reply may carry; everything else becomes '' (rendered as text). */
export function safeUrl(url: string): string {
  const trimmed = url.trim();
  return SAFE_LINK.test(trimmed) ? trimmed : '';
}

const schema = {
  ...defaultSchema,
  tagNames: (defaultSchema.tagNames ?? []).filter((t) => t !== 'img' && t !== 'picture' && t !== 'source'),
  protocols: { ...defaultSchema.protocols, href: ['http', 'https', 'mailto'], src: [] },
};

const components: Components = {
  a: ({ href, children }) =>
    href ? (
      <a href={href} rel="noopener noreferrer nofollow" className="text-blue-700 underline dark:text-blue-300">
        {children}
      </a>
    ) : (
      <span data-unsafe-link="">{children}</span>
    ),
  table: ({ children }) => (
    <div className="relative overflow-x-auto">
      <table>{children}</table>
    </div>
  ),
};

/**
 * Longer texts render their first SHOWN_CHARS as Markdown; the whole text waits behind "Show
 * all", as plain text broken anywhere (word-break: break-all lays out a long unbroken run in
 * a fraction of the time overflow-wrap: anywhere needs), and a closed <details> is not laid
 * out at all. A multi-megabyte reply with no spaces froze a reader's tab for 25–54 s.
 */
export const SHOWN_CHARS = 20_000;

/** Cuts at `max` UTF-16 units without splitting a surrogate pair. */
function cut(text: string, max: number): string {
  const end = /[\uD800-\uDBFF]/.test(text[max - 1] ?? '') ? max - 1 : max;
  return text.slice(0, end);
}

export function Markdown({ text, className }: { text: string; className?: string }) {
  const long = text.length > SHOWN_CHARS;
  return (
    <div className={`markdown ${className ?? ''}`}>
      <ReactMarkdown remarkPlugins={[remarkGfm, inertHtmlAndImages]} rehypePlugins={[[rehypeSanitize, schema]]} urlTransform={safeUrl} components={components}>
        {long ? `${cut(text, SHOWN_CHARS)}…` : text}
      </ReactMarkdown>
      {long && (
        <details data-testid="show-all">
          <summary className="cursor-pointer text-blue-700 underline dark:text-blue-300">Show all {text.length.toLocaleString('en')} characters</summary>
          <pre className="whitespace-pre-wrap break-all">{text}</pre>
        </details>
      )}
    </div>
  );
}

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

export function Markdown({ text, className }: { text: string; className?: string }) {
  return (
    <div className={`markdown ${className ?? ''}`}>
      <ReactMarkdown remarkPlugins={[remarkGfm, inertHtmlAndImages]} rehypePlugins={[[rehypeSanitize, schema]]} urlTransform={safeUrl} components={components}>
        {text}
      </ReactMarkdown>
    </div>
  );
}

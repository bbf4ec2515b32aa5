/**
 * The limits that can be checked on the text as written, before any document is built:
 * the size of the file, the number of documents and the nesting depth. The YAML parser's
 * token tree is flat enough to walk with an explicit stack, so depth is measured without
 * recursion; building documents from a 10,000-deep text is what overflowed the stack (or,
 * for `- - - …`, ran the process out of memory, which nothing can catch).
 */
import { CST } from 'yaml';
import { limitHint, type BlueprintLimits } from './limits';
import { utf8ByteLength } from './text';

export interface WrittenLimitProblem {
  /** Character offset in the text (0 for "the file as a whole"). */
  offset: number;
  message: string;
  hint: string;
}

export function fileSizeProblem(text: string, limits: BlueprintLimits): WrittenLimitProblem | null {
  // chars ≤ UTF-8 bytes ≤ 3 × chars (UTF-16 units): only a text between the two bounds is counted
  if (text.length * 3 <= limits.maxFileBytes) return null;
  const bytes = text.length > limits.maxFileBytes ? text.length : utf8ByteLength(text);
  if (bytes <= limits.maxFileBytes) return null;
  return {
    offset: 0,
    message: `the file is ${text.length > limits.maxFileBytes ? 'at least ' : ''}${bytes.toLocaleString('en-US')} bytes, over the limit of ${limits.maxFileBytes.toLocaleString('en-US')} bytes`,
    hint: limitHint('bytes', limits.maxFileBytes, 'Split the blueprint into several files.'),
  };
}

/** JSON is checked by a linear scan first: the position finder for JSON syntax errors is recursive. */
export function jsonDepthProblem(text: string, limits: BlueprintLimits): WrittenLimitProblem | null {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const ch = text.charCodeAt(i);
    if (inString) {
      if (ch === 0x5c) i++; // backslash: skip the escaped character
      else if (ch === 0x22) inString = false;
    } else if (ch === 0x22) inString = true;
    else if (ch === 0x5b || ch === 0x7b) {
      if (++depth > limits.maxDepth) return depthProblem(i, limits);
    } else if (ch === 0x5d || ch === 0x7d) depth--;
  }
  return null;
}

/**
 * Reads the parser's tokens one document at a time, checking the document count, the nesting
 * depth and the number of values as written (no recursion); stops at the first problem, so
 * 200,000 documents cost one thousand documents' parsing.
 */
export function readTokens(tokens: Iterable<CST.Token>, limits: BlueprintLimits): { tokens: CST.Token[]; problem: WrittenLimitProblem | null } {
  const read: CST.Token[] = [];
  let documents = 0;
  let values = 0;
  const stack: { token: CST.Token; depth: number }[] = [];
  const fail = (problem: WrittenLimitProblem) => ({ tokens: read, problem });
  for (const token of tokens) {
    read.push(token);
    if (token.type !== 'document') continue;
    if (++documents > limits.maxDocuments) {
      return fail({
        offset: token.offset,
        message: `the file has more than ${limits.maxDocuments.toLocaleString('en-US')} YAML documents (\`---\` sections); this is document ${documents.toLocaleString('en-US')}`,
        hint: limitHint('documents', limits.maxDocuments, 'Put the prompts in one list under a single `---`, or split the file.'),
      });
    }
    if (token.value) stack.push({ token: token.value, depth: 0 });
    while (stack.length > 0) {
      const { token: t, depth } = stack.pop()!;
      if (++values > limits.maxNodes) return fail(nodesProblem(t.offset, limits));
      if (!CST.isCollection(t)) continue;
      if (depth + 1 > limits.maxDepth) return fail(depthProblem(t.offset, limits));
      // pushed last to first, so values are visited (and a problem reported) in text order
      for (let i = t.items.length - 1; i >= 0; i--) {
        const item = t.items[i]!;
        if (item.value) stack.push({ token: item.value, depth: depth + 1 });
        if (item.key) stack.push({ token: item.key, depth: depth + 1 });
      }
    }
  }
  return { tokens: read, problem: null };
}

function nodesProblem(offset: number, limits: BlueprintLimits): WrittenLimitProblem {
  return {
    offset,
    message: `the file has more than ${limits.maxNodes.toLocaleString('en-US')} values (lists, mappings and scalars)`,
    hint: limitHint('values', limits.maxNodes, 'Split the blueprint into several files.'),
  };
}

export function depthProblem(offset: number, limits: BlueprintLimits): WrittenLimitProblem {
  return {
    offset,
    message: `lists and mappings are nested more than ${limits.maxDepth} deep here`,
    hint: limitHint('levels of nesting', limits.maxDepth, 'Flatten the structure.'),
  };
}

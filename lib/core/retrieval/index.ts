/** The retrieval module's public names (re-exported by lib/core/index.ts). */
export * from './block';
export * from './files';
export * from './metrics';
export * from './ladder';
export * from './limits';

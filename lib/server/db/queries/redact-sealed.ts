/**
 * A blueprint's source for showing publicly, with sealed prompts taken out: the function lives
 * with the untrusted-work pool that runs it (lib/server/untrusted/sealed-source.ts).
 */
export { redactSealedSource, sealedNote } from '../../untrusted/sealed-source';

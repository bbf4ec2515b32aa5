export { CitationsConfigSchema, CitationMappingSchema, CitationMatchSchema, type CitationsConfig, type CitationMapping, type CitationMatch } from './config';
export { extractCitations, checkCitationPattern, valuesAt } from './extract';
export { idsMatch, matchesAny } from './match';

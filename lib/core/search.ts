/**
 * What a search snippet says between the query that makes it and the view that shows it: the
 * marks around matched words (characters a reply is very unlikely to contain) and the cap on
 * counted hits ("1,000+ results" is as useful as an exact figure and much cheaper).
 */
export const MATCH_START = '\u27e6';
export const MATCH_END = '\u27e7';
export const COUNT_CAP = 1000;

export * from './types.js';
export { extract, scoreCandidates, type ScoredCandidate } from './extract.js';
export { ExtractionRulesSchema, matchesRules, type ExtractionRules } from './rules.js';
export { redact, toRedactedCandidate, toRedactedExtraction, MASK, type RedactedCandidate, type RedactedExtraction } from './redact.js';
export { htmlToView, type HtmlView } from './html.js';
export { decodeEntities } from './entities.js';
export { CALIBRATION, confidences } from './calibration.js';
export { describeParseFailure, type MessageParser, type ParseFailure, type ParseOutcome } from './message-parser.js';

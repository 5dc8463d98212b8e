export { createPostalMimeMailParser, type MailParseOptions, type PostalMimeMailParser } from './postal-mime-mail-parser.js';
export { DEFAULT_LIMITS, precheck, type MailParseLimits } from './limits.js';
export { toParsedMessage, type CarriedBodies } from './to-parsed-message.js';
export { installBodyDecoders, joinChunks, removeBodyDecoders, type BodyDecoders } from './body-decoders.js';
export { createWorkerMailParser, type WorkerMailParser, type WorkerMailParserOptions } from './worker-mail-parser.js';
